"""The organizer's tournament setup (``rules/tournament.md``): register the pairs (tap two names, or paste
a list: every bad line named), check them in, pick a stage plan (groups then brackets A and B, a Swiss
then a knockout, one knockout). The rules are pure (``companion.club.setup``, ``shape``); this turns forms
into events. Once a stage game exists the pairs and the plan are fixed: the page only shows them.

Registered by the app as ``app.register_blueprint(tournament.bp)`` (``from .web import tournament``).
"""
from __future__ import annotations

from types import SimpleNamespace

import json

from flask import Blueprint, abort, request, url_for

from companion import kinds, service
from companion.record import events
from companion.club.results import round_matches
from companion.club.setup import SETTINGS, TEMPLATES, check_in, parse_pairs, stage_plan
from companion.club.shape import clean_club
from companion.club.stage_proposals import propose_stage
from companion.club.tournament import tournament_state
from companion.storage.db import get_db
from companion.domain.errors import RuleError
from companion.domain.messages import N_, define
from companion.club.commands import Night, Swap, StartStage, handle
from companion.domain import numbers
from companion.storage import store
from companion.web.common import SessionView, check, open_session, refusal, render, request_key, require_edit, see_other
from companion.web.i18n import t

bp = Blueprint("tournament", __name__)

define("tweb", {
    "started": N_("The first stage has begun: the pairs and the plan are fixed."),
    "pick_two": N_("Choose two different players who are not in a pair yet."),
    "number": N_("%(field)s must be a whole number"),
})

define("tplan", {
    "groups": N_("Groups"),
    "places": N_("Places of each group to bracket A (the next as many to B)"),
    "group_games_to_win": N_("Games to win a group match"),
    "rounds": N_("Swiss rounds"),
    "swiss_games_to_win": N_("Games to win a Swiss match"),
    "top": N_("Pairs to the knockout"),
    "games_to_win": N_("Games to win a knockout tie"),
    "final_games_to_win": N_("Games to win the final (0: as every tie)"),
    "third_place": N_("Third-place match"),
    "a_games_to_win": N_("Bracket A: games to win a tie"),
    "a_final_games_to_win": N_("Bracket A: games to win the final (0: as every tie)"),
    "a_third_place": N_("Bracket A: third-place match"),
    "b_games_to_win": N_("Bracket B: games to win a tie"),
    "b_final_games_to_win": N_("Bracket B: games to win the final (0: as every tie)"),
    "b_third_place": N_("Bracket B: third-place match"),
    "minutes": N_("Minutes a round (blank: no clock)"),
})

# each setting's label by template: in groups then brackets, the knockout's settings are bracket A's
PLAN_LABELS = {name: {key: "tplan." + ("a_" if name == "groups_brackets" and key in ("games_to_win", "final_games_to_win",
                                                                                   "third_place") else "") + key
                      for key in SETTINGS[name]} for name in TEMPLATES}

MINUTES = 50        # the round clock of the spec's plan (Ourense: 50 minutes a round); blank: no clock


def _organizer(token: str) -> SessionView:
    view = require_edit(token)
    if view.table is not None:
        abort(403)
    return view


def _here(token: str) -> str:
    return url_for("tournament.page", token=token)


def _club(view: SessionView) -> dict | None:
    club = view.header.get("club")
    return club if club and club.get("format") == "stages" else None


def _started(view: SessionView) -> bool:
    return any(g.head.get("stage") is not None for g in view.games)


def _settings(club: dict | None) -> dict:
    """The plan form: the chosen template, the club's minutes, and each template's settings (its
    defaults, ``setup.SETTINGS``; the stored plan's for the template it was made from)."""
    out = {"template": "groups_brackets", "minutes": MINUTES, **{name: dict(SETTINGS[name]) for name in TEMPLATES}}
    if not club:
        return out
    out["minutes"] = club.get("minutes") or ""
    stages = club["stages"]
    first = stages[0]

    def knock(plan: dict, prefix: str = "") -> dict:
        return {prefix + "games_to_win": plan["games_to_win"],
                prefix + "final_games_to_win": plan.get("final_games_to_win") or 0,
                prefix + "third_place": bool(plan.get("third_place"))}

    if first["format"] == "groups":
        mine = {"groups": first["groups"], "group_games_to_win": first.get("games_to_win") or 0}
        if len(stages) > 1:
            mine.update(places=len(stages[1]["from"]["ranks"]), **knock(stages[1]))
        if len(stages) > 2:
            mine.update(knock(stages[2], "b_"))
        out.update(template="groups_brackets")
    elif first["format"] == "pairs_swiss":
        mine = {"rounds": first["rounds"], "swiss_games_to_win": first.get("games_to_win") or 0}
        if len(stages) > 1:
            mine.update(top=len(stages[1]["from"]["ranks"]), **knock(stages[1]))
        out.update(template="swiss_knockout")
    elif first["format"] == "knockout":
        mine = knock(first)
        out.update(template="knockout")
    else:
        return out
    out[out["template"]].update(mine)
    return out


def _page(view: SessionView, status: int = 200, errors: dict | None = None, form=None, plans: dict | None = None):
    club = _club(view)
    pairs = club["pairs"] if club else []
    paired = {x for p in pairs for x in p}
    ctx = {"club": club, "pairs": pairs, "unpaired": [p for p in view.players if p not in paired],
           "started": _started(view), "errors": errors or {}, "form": form, "templates": TEMPLATES,
           "plan_labels": PLAN_LABELS,
           "settings": _settings(club), "stages": [], "night": None}
    if club:
        ctx["stages"], ctx["night"] = _stages(view, club, plans or {})
    return render("club/tournament.html", view, status=status, **ctx)


def _stages(view: SessionView, club: dict, plans: dict) -> tuple[list[dict], list | None]:
    """Each stage as the state says it, with its next proposal (or the swapped plan the organizer is
    preparing: ``plans[k]``) and the places a swap can name, and the night's classification once every
    stage is done."""
    games = view.games
    heads = [g.head if g.head.get("round") is not None else {} for g in games]
    states = [kinds.KINDS[g.kind].state(g) if h else None for g, h in zip(games, heads)]
    matches = round_matches(heads, states)
    state = tournament_state(club, matches)      # as _state, keeping the matches for the proposals
    out = []
    for k, st in enumerate(state["stages"]):
        p = propose_stage(club, matches, k)
        plan = plans.get(k) or ({"tables": p.tables, "free": p.free} if p.tables else None)
        out.append({**st, "index": k, "proposal": p if p.tables else None, "plan": plan,
                    "plan_json": json.dumps(plan, ensure_ascii=False) if plan else "",
                    "places": _places(plan, st["format"]) if plan else []})
    return out, state.get("classification")


@bp.get("/s/<token>/tournament")
def page(token):
    view = open_session(token)
    if not view.can_edit or view.table is not None:
        abort(403)
    return _page(view)


def _write(view: SessionView, steps: list) -> None:
    """One organizer's action of several events: all of them land or none."""
    from companion.web import security

    service.write_many(get_db(), view.row, steps, browser=security.browser_id(), key=request_key(),
                       seen_version=None, location=_here(view.token))


def _save(view: SessionView, pairs: list, new_players: list, stages: list | None = None,
          minutes: int | str | None = None) -> None:
    """The new players, then the club with these pairs (and plan, and minutes: "" for no clock): checked
    first, written as one."""
    header = view.header
    steps: list = []
    if header.get("club") is None:
        # a session with a club holds 400 players: the club comes first, so the players may follow
        steps.append(("club", {"club": {"format": "free"}}))
        header = {**header, "club": {"format": "free"}}
    for name in new_players:
        # the event's own rule, on the header alone (adding a player reads nothing else)
        header = events.player_added(SimpleNamespace(header=header), {"name": name}, False).header
    club = _club(view)
    if stages is None:
        settings = _settings(club)
        stages = club["stages"] if club else None
        if stages is None or _plan_fits(stages, pairs, header["players"]) is not None:
            stages = _plan_of(settings, len(pairs))
            if _plan_fits(stages, pairs, header["players"]) is not None:
                stages = _plan_of({**settings, "template": "knockout"}, len(pairs))   # too few for groups
    new = {**(club or {"minutes": MINUTES}), "format": "stages", "kind": kinds.club_kind().name, "pairs": pairs,
           "stages": stages}
    if minutes is not None:
        new["minutes"] = minutes
    new = {k: v for k, v in new.items() if v != ""}
    steps += [("add_player", {"name": name}) for name in new_players]
    steps.append(("club", {"club": clean_club(new, header["players"])}))
    _write(view, steps)


def _plan_fits(stages, pairs, players) -> RuleError | None:
    try:
        clean_club({"format": "stages", "kind": kinds.club_kind().name, "pairs": pairs, "stages": stages},
                   players)
    except RuleError as err:
        return err
    return None


def _plan_of(settings: dict, n: int) -> list:
    return stage_plan(settings["template"], n, **settings[settings["template"]])


def _refuse(token: str, err: RuleError, field: str):
    return _page(open_session(token), refusal(err), {field: t(err.msg)}, form=request.form)


def _setup_step(token: str, field: str, need_club: bool = True):
    """What every setup write checks first: the organizer's link, ``permit``, a tournament to change (when
    ``need_club``) and none of it begun. (view, club, None), or (view, club, the refusal to answer)."""
    view = _organizer(token)
    check(view, "club_setup")
    club = _club(view)
    if need_club and club is None:
        abort(400)
    if _started(view):
        return view, club, _page(view, 409, {field: t({"code": "tweb.started"})})
    return view, club, None


@bp.post("/s/<token>/tournament/paste")
def paste(token):
    """Pairs pasted one a line, added after the registered ones (seed order is the order listed)."""
    view, club, refused = _setup_step(token, "pairs", need_club=False)
    if refused:
        return refused
    before = club["pairs"] if club else []
    pairs, new, errors = parse_pairs(request.form.get("pairs", ""), view.players, before)
    if errors:
        return _page(view, 422, {"lines": [t(e) for e in errors]}, form=request.form)
    try:
        _save(view, before + pairs, new)
    except RuleError as err:
        return _refuse(token, err, "pairs")
    return see_other(_here(token))


@bp.post("/s/<token>/tournament/pair")
def pair(token):
    """A pair by tapping two names of the session."""
    view, club, refused = _setup_step(token, "pair", need_club=False)
    if refused:
        return refused
    before = club["pairs"] if club else []
    a, b = request.form.get("a", ""), request.form.get("b", "")
    paired = {x for p in before for x in p}
    if a == b or a not in view.players or b not in view.players or a in paired or b in paired:
        return _page(view, 422, {"pair": t({"code": "tweb.pick_two"})})
    try:
        _save(view, before + [[a, b]], [])
    except RuleError as err:
        return _refuse(token, err, "pair")
    return see_other(_here(token))


@bp.post("/s/<token>/tournament/checkin")
def checkin(token):
    """The pairs present: the others are taken out before the first stage starts."""
    view, club, refused = _setup_step(token, "checkin")
    if refused:
        return refused
    here = [club["pairs"][int(i)] for i in request.form.getlist("present")
            if numbers.is_ascii_int(i) and len(i) <= 3 and int(i) < len(club["pairs"])]
    try:
        _save(view, check_in(club["pairs"], here), [])
    except RuleError as err:
        return _refuse(token, err, "checkin")
    return see_other(_here(token))


@bp.post("/s/<token>/tournament/plan")
def plan(token):
    """The stage plan: a template and its settings (each named ``<template>-<setting>``), and the minutes
    a round."""
    view, club, refused = _setup_step(token, "plan")
    if refused:
        return refused
    form = request.form
    template = form.get("template", "")
    if template not in TEMPLATES:
        return _page(view, 422, {"plan": t({"code": "tsetup.template"})}, form=form)
    settings = {}
    for key, default in SETTINGS[template].items():
        raw = form.get(f"{template}-{key}")
        if isinstance(default, bool):
            settings[key] = raw == "on"
            continue
        raw = (raw or "").strip() or "0"
        if not numbers.is_ascii_int(raw) or len(raw) > 3:
            return _page(view, 422, {"plan": t({"code": "tweb.number", "field": t({"code": PLAN_LABELS[template][key]})})}, form=form)
        settings[key] = int(raw)
    raw = (form.get("minutes") or "").strip()
    if raw and (not numbers.is_ascii_int(raw) or len(raw) > 3):
        return _page(view, 422, {"plan": t({"code": "tweb.number", "field": t({"code": "tplan.minutes"})})}, form=form)
    try:
        stages = stage_plan(template, len(club["pairs"]), **settings)
        _save(view, club["pairs"], [], stages, minutes=int(raw) if raw else "")
    except RuleError as err:
        return _refuse(token, err, "plan")
    return see_other(_here(token))


# -- starting a stage's round (rules/tournament.md, "Proposing") -------------------------------------

def _places(plan: dict, fmt: str) -> list[dict]:
    """What a swap can name: a table's label (knockout: swap two tables, or flip team A), or a pair."""
    out = []
    for ti, tb in enumerate(plan["tables"]):
        if fmt == "knockout":
            out.append({"id": f"t:{ti}", "name": t({"code": "tweb.table_place", "label": tb["table"]})})
        else:
            out += [{"id": f"{ti}:a", "name": " & ".join(tb["a"])}, {"id": f"{ti}:b", "name": " & ".join(tb["b"])}]
    return out


define("tweb", {
    "table_place": N_("Table %(label)s"),
    "bad_swap": N_("Choose two places of this plan to swap."),
})


def _read_stage_plan(form) -> tuple[int, dict]:
    try:
        k = int(form.get("stage", ""))
        plan = json.loads(form.get("plan", ""))
        if not isinstance(plan, dict) or not isinstance(plan.get("tables"), list) or not isinstance(
                plan.get("free", []), list):
            raise ValueError
        two = (lambda x: isinstance(x, list) and len(x) == 2 and all(isinstance(n, str) for n in x))
        for tb in plan["tables"]:
            if not (isinstance(tb, dict) and isinstance(tb.get("table"), str) and two(tb.get("a")) and two(tb.get("b"))):
                raise ValueError
        if not all(two(x) for x in plan.get("free", [])):
            raise ValueError
        return k, plan
    except (ValueError, TypeError):
        abort(400)


def swap_stage_plan(plan: dict, fmt: str, x: str, y: str) -> dict:
    """Two places of a stage's plan swapped (nothing is written). Groups and Swiss: two pairs change
    seats; a knockout: two ties change tables, or the same table twice: its pairs change sides."""
    tables = plan["tables"]
    try:
        if fmt == "knockout":
            i, j = (int(v.split(":")[1]) for v in (x, y))
            if not (x.startswith("t:") and y.startswith("t:")) or not (0 <= i < len(tables) and 0 <= j < len(tables)):
                raise ValueError
            if i == j:
                tables[i]["a"], tables[i]["b"] = tables[i]["b"], tables[i]["a"]
            else:
                tables[i]["table"], tables[j]["table"] = tables[j]["table"], tables[i]["table"]
                tables.sort(key=lambda tb: (len(tb["table"]), tb["table"]))
            return plan
        (ti, si), (tj, sj) = ((int(v.split(":")[0]), v.split(":")[1]) for v in (x, y))
        if x == y or si not in "ab" or sj not in "ab" or not (0 <= ti < len(tables) and 0 <= tj < len(tables)):
            raise ValueError
        tables[ti][si], tables[tj][sj] = tables[tj][sj], tables[ti][si]
        return plan
    except (ValueError, IndexError, KeyError, TypeError):
        raise RuleError("tweb.bad_swap", "swap", field="swap") from None


@bp.post("/s/<token>/tournament/swap")
def swap(token):
    """Swap two places of a stage's proposed round: the page comes back with it, nothing is written."""
    view = _organizer(token)
    check(view, "swap")
    club = _club(view) or abort(400)
    k, plan = _read_stage_plan(request.form)
    if not 0 <= k < len(club["stages"]):
        abort(400)
    try:
        swap_stage_plan(plan, club["stages"][k]["format"], request.form.get("x", ""), request.form.get("y", ""))
    except RuleError as err:
        return _page(view, 422, {f"swap{k}": t(err.msg)}, plans={k: plan})
    return _page(view, plans={k: plan})


@bp.post("/s/<token>/tournament/start")
def start(token):
    """Start a stage's round (a knockout: its ready ties) as proposed or swapped: the stage's byes and
    clock and a club match at each table, each with its table link: one write, all or none."""
    from companion import service
    from companion.web import security

    view = _organizer(token)
    check(view, "start_round")
    _club(view) or abort(400)
    k, plan = _read_stage_plan(request.form)
    if not _started(view) and request.form.get("confirm") != "1":
        # the first stage game fixes the pairs and the plan for good: asked first
        from companion.permit import Decision
        from companion.web.common import _ask

        return _ask(view, Decision(True, ask="start_stage"), None)
    try:
        cmd = StartStage(stage=k, plan=plan, now=store.now())
        steps = handle(cmd, Night(view.header, view.games))
        service.run(get_db(), view.row, steps, browser=security.browser_id(), key=request_key(),
                    seen_version=request.form.get("v", type=numbers.int_or_none), location=_here(token))
    except RuleError as err:
        return _page(open_session(token), refusal(err), {f"start{k}": t(err.msg)}, plans={k: plan})
    return see_other(_here(token))


# -- printing: the pairings sheet of the rounds in play, the brackets ----------------------------------

def _sheet(view: SessionView, club: dict, done: set) -> list[dict]:
    """Each stage's latest round in play (a stage done is left out): its tables (label, team A, team B) and
    byes."""
    out = []
    for k, plan in enumerate(club["stages"]):
        heads = [g.head for g in view.games if g.head.get("stage") == k]
        if not heads or k in done:
            continue
        rnd = max(h["round"] for h in heads)
        if plan["format"] == "knockout":        # every tie started and not yet followed by a later one
            rows = [h for h in heads if h["round"] == rnd or not any(o["round"] > h["round"] for o in heads)]
        else:
            rows = [h for h in heads if h["round"] == rnd]
        from companion.web.club_links import label_order

        rows = sorted(rows, key=lambda h: label_order(h["table"]))
        out.append({"name": plan["name"], "round": rnd, "knockout": plan["format"] == "knockout",
                    "tables": [{"table": h["table"], "round": h["round"], "a": h["seats"][0::2], "b": h["seats"][1::2],
                                "to_win": (h.get("rules") or {}).get("games_to_win")} for h in rows],
                    "byes": (plan.get("byes") or {}).get(str(rnd), [])})
    return out


@bp.get("/s/<token>/tournament/sheet")
def sheet(token):
    """The pairings of the rounds in play on one A4 page, to pin on the wall."""
    view = _organizer(token)
    check(view, "club_setup")
    club = _club(view) or abort(404)
    stages, _night = _stages(view, club, {})
    done = {k for k, st in enumerate(stages) if st["done"]}
    return render("club/sheet.html", view, stages=_sheet(view, club, done))


@bp.get("/s/<token>/tournament/bracket")
def bracket(token):
    """Each knockout drawn for print (A4 landscape, 8 round-1 ties a sheet and a sheet of its finals)."""
    from companion.web.club import _bracket_pages

    view = _organizer(token)
    check(view, "club_setup")
    club = _club(view) or abort(404)
    stages, _night = _stages(view, club, {})
    pages = [p for st in stages if st.get("bracket") for p in _bracket_pages(st)]
    return render("club/bracket_print.html", view, pages=pages)


# -- the night's classification beyond the sala: the session page's card and a CSV ------------------

@bp.app_template_global("tournament_classification")
def tournament_classification(view: SessionView) -> list | None:
    """The night's classification (rules/tournament.md), once every stage is done; else None (a session
    without stages too)."""
    club = _club(view)
    if club is None:
        return None
    return _state(view, club).get("classification")


def _state(view: SessionView, club: dict) -> dict:
    heads = [g.head if g.head.get("round") is not None else {} for g in view.games]
    states = [kinds.KINDS[g.kind].state(g) if h else None for g, h in zip(view.games, heads)]
    return tournament_state(club, round_matches(heads, states))


@bp.get("/s/<token>/tournament/classification.csv")
def classification_csv(token):
    """The night's classification as CSV (any link: it is what the sala shows); the header row alone
    until every stage is done."""
    from flask import Response

    from companion.record import csvexport

    view = open_session(token)
    _club(view) or abort(404)
    resp = Response("\ufeff" + csvexport.classification_csv(view.session), mimetype="text/csv")
    resp.headers["Content-Disposition"] = f'attachment; filename="classification-{view.id}.csv"'
    return resp
