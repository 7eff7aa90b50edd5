"""A club night's pages: the organizer's rounds page (format, pairs, arrivals, a proposed round with
swaps, start and end a round), the sala (every table live on one screen), the printable table cards, the
standings CSV, and a table link's own page. The rules are pure (``companion.club``); this turns forms
into events and states into pages."""
from __future__ import annotations

import csv
import io
import json
from collections import OrderedDict
from datetime import datetime, timezone

from flask import Blueprint, Response, abort, request, url_for

from .. import events, kinds, service, store
from ..club.night import current_round, round_in_play
from ..club.results import round_matches
from ..club.proposals import propose
from ..club.results import match_result
from ..club.shape import clean_club, clean_label
from ..club.standings import FORMATS, PAIR_FORMATS, rank_label, standings
from ..db import get_db
from ..errors import RuleError
from ..kinds.mus.actions import EndByTime
from ..messages import N_, define
from ..share import qr_svg
from . import club_links
from .common import SessionView, check, is_poll, links, open_session, perform, refusal, render, request_key, \
    require_edit, see_other, unchanged_poll
from .i18n import t

bp = Blueprint("club", __name__)
SALA_PAGE = 12          # tables on one sala screen; more turn pages every 15 s

define("clubweb", {
    "pair_line": N_("Line %(n)s: a pair is two players of this session, like \"Ane, Bea\""),
    "plan": N_("This plan no longer fits the players: propose the round again."),
    "seat_twice": N_("%(name)s is seated twice"),
    "missing": N_("%(name)s has no seat and is not sitting out"),
    "not_pairs": N_("Table %(table)s: its teams must be two of the night's pairs"),
    "no_round": N_("No round is being played."),
    "open_hands": N_("Table %(tables)s has a hand being recorded: finish or undo it, then end the round."),
    "no_club": N_("Choose a format first."),
    "swap_same": N_("Choose two different places to swap."),
    "not_present": N_("%(name)s is not playing tonight"),
})


class _HeaderOnly:
    """A night as a header event sees it (adding a player reads nothing else)."""

    def __init__(self, header: dict):
        self.header = header


# -- reading the night -----------------------------------------------------------------------------

def _club(view: SessionView) -> dict | None:
    return view.header.get("club")


_states: OrderedDict = OrderedDict()
STATE_CACHE = 512


def table_state(view: SessionView, gi: int, rec) -> dict:
    """A game's companion-state entry, computed once per position of that game and shared by every
    sala and phone: a tap at one table recomputes that table only, not the night."""
    kind = kinds.KINDS[rec.kind]
    key = (getattr(get_db(), "path", ""), view.id, gi, rec.kind, kind.position(rec),
           json.dumps(rec.seed, sort_keys=True) if rec.seed else None)
    hit = _states.get(key)
    if hit is None:
        hit = kind.state(rec)
        _states[key] = hit
        while len(_states) > STATE_CACHE:
            _states.popitem(last=False)
    else:
        _states.move_to_end(key)
    return hit


def night(view: SessionView) -> dict:
    """What every club page shows: the round, its matches, the standings. Reads the games' heads and
    running states only, and each table's state from the cache above."""
    club = _club(view) or {"format": "free"}
    games = view.games
    states = [table_state(view, gi, g) if ("table" in g.head or "round" in g.head) else None
              for gi, g in enumerate(games)]
    matches = round_matches([g.head if st is not None else {} for g, st in zip(games, states)],
                            [st for st in states])
    rnd = current_round(matches, club)
    shared = standings(club, view.players, matches) if club["format"] != "free" else []
    rows = [dict(row, label=rank_label(shared, row)) for row in shared]
    in_round = [m for m in matches if m["round"] == rnd]
    over = bool(in_round) and all(match_result(m)[0] for m in in_round)
    planned = club.get("rounds")
    return {"club": club, "states": states, "games": games, "matches": matches, "round": rnd,
            "standings": rows, "clock": _clock(club, rnd, over), "round_over": over,
            "night_over": bool(over and planned and rnd >= planned)}


def _clock(club: dict, rnd: int, stopped: bool = False) -> dict | None:
    """The round clock: counting down from its start, or stopped once every match of the round has a
    result (End the round, or the last match decided)."""
    started = (club.get("clock") or {}).get(str(rnd))
    if not started or not club.get("minutes"):
        return None
    if stopped:
        return {"stopped": True, "last_hand": False, "over": False, "minutes": 0, "left": 0}
    start = datetime.fromisoformat(started)
    end = start.timestamp() + club["minutes"] * 60
    now = datetime.now(timezone.utc).timestamp()
    left = max(0, int(end - now))
    return {"ends": int(end * 1000), "now": int(now * 1000), "left": left, "minutes": (left + 59) // 60,
            "last_hand": 0 < left <= 300, "over": left == 0}


def tables_now(view: SessionView, info: dict) -> list[dict]:
    """The tables of the current round (a free night: each table's latest game), for the sala and the
    cards: label, game index, kind, and what its state says."""
    latest: dict[str, int] = {}
    for gi, g in enumerate(info["games"]):
        label = g.head.get("table")
        if label is None:
            continue
        # a round's tables, and games at a table outside the rounds (a chips game at table 11)
        if info["club"]["format"] != "free" and g.head.get("round") not in (None, info["round"]):
            continue
        latest[label] = gi
    out = []
    for label in sorted(latest, key=club_links.label_order):
        gi = latest[label]
        g = info["games"][gi]
        st = info["states"][gi]
        row = {"label": label, "gi": gi, "kind": g.kind, "st": st, "url": url_for(f"{g.kind}.game", token=view.token, gi=gi)}
        if g.kind == "mus":
            row["result"], row["ended_by"] = match_result({**st, "ended": g.head.get("ended")})
            row["target"] = 40
        out.append(row)
    return out


# -- the organizer's page --------------------------------------------------------------------------

def _units(club: dict, players: list[str]) -> list:
    """Who the proposal seats: pairs (pair formats) or players, without those who left."""
    left = set(club.get("left") or [])
    if club["format"] in PAIR_FORMATS:
        return [p for p in club.get("pairs") or [] if not left & set(p)]
    return [p for p in players if p not in left]


def _plan_of(proposal) -> dict:
    return {"tables": [proposal.seats(tb) for tb in proposal.tables], "free": proposal.free}


def _page(view: SessionView, status: int = 200, errors: dict | None = None, plan: dict | None = None,
          form=None):
    info = night(view)
    club = _club(view)
    ctx = {"info": info, "errors": errors or {}, "formats": FORMATS, "club": club, "form": form}
    # the round matches' rules as the setup form shows them (the club file keeps them under its "mus" key)
    matches = (club or {}).get("mus") or {}
    ctx["match"] = {"games_to_win": (matches.get("rules") or {}).get("games_to_win") or 2,
                    "scoring": matches.get("scoring") or "bids"}
    if club and club["format"] != "free":
        rnd = info["round"] + 1
        if plan is None:
            plan = _plan_of(propose(club, view.players, info["matches"], rnd))
        ctx.update(next_round=rnd, plan=plan, plan_json=json.dumps(plan, ensure_ascii=False),
                   units=_unit_choices(club, plan))
    ctx["table_links"] = _table_links(view)
    ctx["log"] = _log_rows(view, info)
    ctx["running"] = [tb for tb in tables_now(view, info) if tb["kind"] == "mus" and not tb.get("result")]
    return render("club/club.html", view, status=status, **ctx)


def _log_rows(view: SessionView, info: dict) -> list[dict]:
    """The organizer's log, newest first, each entry with the table and round of its game (when that
    game is still there) and whether it says that standings changed after a later round was paired."""
    out = []
    for entry in reversed(view.header.get("log") or []):
        gi = entry["game"]
        head = info["games"][gi].head if gi < len(info["games"]) else {}
        out.append({**entry, "table": head.get("table"), "round": head.get("round"),
                    "when": entry["at"][11:16]})
    return out


def _unit_choices(club: dict, plan: dict) -> list[dict]:
    """Every place in the plan a swap can name: players (rotating) or pairs (pair formats)."""
    pairs = club["format"] in PAIR_FORMATS
    out = []
    for ti, seats in enumerate(plan["tables"]):
        if pairs:
            out += [{"id": f"{ti}:A", "name": " & ".join(seats[0::2])}, {"id": f"{ti}:B", "name": " & ".join(seats[1::2])}]
        else:
            out += [{"id": f"{ti}:{si}", "name": name} for si, name in enumerate(seats)]
    for fi, who in enumerate(plan["free"]):
        out.append({"id": f"f:{fi}", "name": " & ".join(who) if pairs else who})
    return out


def _table_links(view: SessionView) -> list[dict]:
    root = links(view)["watch"].rsplit("/s/", 1)[0]
    return [{"label": label, "url": f"{root}/s/{token}"} for label, token in
            club_links.tables(get_db(), view.id).items()]


def _organizer(token: str, command: str) -> SessionView:
    """The organizer's link, asked by ``permit`` for ``command`` (a table's link: 403, nothing changes)."""
    view = require_edit(token)
    check(view, command)
    return view


@bp.get("/s/<token>/club")
def page(token):
    view = open_session(token)
    if not view.can_edit or view.table is not None:
        return see_other(url_for("club.sala", token=token))
    return unchanged_poll(view) or _page(view)


def _here(token):
    return url_for("club.page", token=token)


@bp.post("/s/<token>/club/setup")
def setup(token):
    """The format, the round clock, the pairs, the club's Mus rules."""
    view = _organizer(token, "club_setup")
    form = request.form
    raw: dict = dict(_club(view) or {})
    raw["format"] = form.get("format", "")
    raw["kind"] = "mus"
    for key in ("minutes", "rounds"):
        value = form.get(key, "").strip()
        if value:
            raw[key] = int(value) if value.isdigit() else value
        else:
            raw.pop(key, None)
    errors = {}
    if raw["format"] in PAIR_FORMATS:
        pairs = []
        for n, line in enumerate(form.get("pairs", "").splitlines(), 1):
            if not line.strip():
                continue
            names = [x.strip() for x in line.replace("&", ",").split(",") if x.strip()]
            if len(names) != 2 or not all(x in view.players for x in names):
                errors["pairs"] = t({"code": "clubweb.pair_line", "n": n})
                break
            pairs.append(names)
        raw["pairs"] = pairs
    else:
        raw.pop("pairs", None)
    to_win = (form.get("games_to_win") or "2").strip()
    raw["mus"] = {"rules": {"preset": form.get("preset", "spanish"),
                            "games_to_win": int(to_win) if to_win.isdigit() and len(to_win) < 4 else to_win},
                  **({"scoring": "tally"} if form.get("scoring") == "tally" else {})}
    if not errors:
        try:
            perform(view, "club", {"club": clean_club(raw, view.players)}, _here(token), command="club_setup")
        except RuleError as err:
            field = err.path.split(".")[1].split("[")[0] if "." in err.path else "format"
            if field == "mus":
                field = "games_to_win"
            errors[field if field in ("format", "pairs", "minutes", "rounds", "games_to_win") else "format"] = t(err.msg)
    if errors:
        return _page(view, 422, errors, form=form)
    return see_other(_here(token))


def _read_plan(form) -> dict:
    try:
        plan = json.loads(form.get("plan", ""))
        if (not isinstance(plan, dict) or not isinstance(plan.get("tables"), list)
                or not isinstance(plan.get("free"), list)):
            raise ValueError
        return plan
    except ValueError:
        abort(400)


@bp.post("/s/<token>/club/swap")
def swap(token):
    """Swap two players (rotating) or two pairs in the proposed plan: the page comes back with it (nothing
    is written until the round starts)."""
    view = _organizer(token, "swap")
    club = _club(view) or abort(400)
    plan = _read_plan(request.form)
    x, y = request.form.get("x", ""), request.form.get("y", "")
    try:
        if x == y:
            raise RuleError("clubweb.swap_same", "swap")
        _swap(plan, club["format"] in PAIR_FORMATS, x, y)
    except (RuleError, ValueError, IndexError, KeyError) as err:
        message = t(err.msg) if isinstance(err, RuleError) else t({"code": "clubweb.plan"})
        return _page(view, 422, {"swap": message}, plan)
    return _page(view, plan=plan)


def _place(plan: dict, pairs: bool, ref: str):
    where, what = ref.split(":")
    if where == "f":
        return ("f", int(what))
    ti = int(where)
    plan["tables"][ti]          # IndexError when the plan has no such table
    if pairs:
        return ("t", ti, (0, 2) if what == "A" else (1, 3))
    return ("t", ti, (int(what),))


def _get(plan, pairs, place):
    if place[0] == "f":
        return plan["free"][place[1]]
    seats = plan["tables"][place[1]]
    got = [seats[i] for i in place[2]]
    return got if pairs else got[0]


def _put(plan, pairs, place, who):
    if place[0] == "f":
        plan["free"][place[1]] = who
        return
    seats = plan["tables"][place[1]]
    for i, name in zip(place[2], who if pairs else [who]):
        seats[i] = name


def _swap(plan: dict, pairs: bool, x: str, y: str) -> None:
    px, py = _place(plan, pairs, x), _place(plan, pairs, y)
    a, b = _get(plan, pairs, px), _get(plan, pairs, py)
    _put(plan, pairs, px, b)
    _put(plan, pairs, py, a)


def _check_plan(view: SessionView, club: dict, plan: dict) -> None:
    """Every present pair or player seated once or sitting out once; tables of four; pairs as pairs."""
    pairs = club["format"] in PAIR_FORMATS
    units = _units(club, view.players)
    seen: list[str] = []
    for ti, seats in enumerate(plan["tables"]):
        if not isinstance(seats, list) or len(seats) != 4 or not all(isinstance(s, str) for s in seats):
            raise RuleError("clubweb.plan", "plan")
        if pairs:
            keys = {frozenset(p) for p in units}
            if frozenset(seats[0::2]) not in keys or frozenset(seats[1::2]) not in keys:
                raise RuleError("clubweb.not_pairs", "plan", table=ti + 1)
        seen += seats
    for who in plan["free"]:
        if pairs and not (isinstance(who, list) and frozenset(who) in {frozenset(p) for p in units}):
            raise RuleError("clubweb.plan", "plan")
        seen += list(who) if pairs else [who]
    present = [n for u in units for n in (u if pairs else [u])]
    for name in seen:
        if not isinstance(name, str) or name not in present:
            raise RuleError("clubweb.not_present", "plan", name=str(name)[:40])
        if seen.count(name) > 1:
            raise RuleError("clubweb.seat_twice", "plan", name=name)
    for name in present:
        if name not in seen:
            raise RuleError("clubweb.missing", "plan", name=name)


@bp.post("/s/<token>/club/start")
def start(token):
    """One tap: the round's byes or sit-outs and its clock, and a Mus match at each table (the club's
    rules, seats from the plan), each table with its own scoring link."""
    view = _organizer(token, "start_round")
    club = _club(view)
    if not club or club["format"] == "free":
        return _page(view, 422, {"plan": t({"code": "clubweb.no_club"})})
    plan = _read_plan(request.form)
    info = night(view)
    rnd = info["round"] + 1
    try:
        _check_plan(view, club, plan)
    except RuleError as err:
        return _page(view, 422, {"plan": t(err.msg)}, plan)
    new_club = dict(club)
    if plan["free"]:
        new_club["byes"] = {**(club.get("byes") or {}), str(rnd): plan["free"]}
    new_club["clock"] = {**(club.get("clock") or {}), str(rnd): store.now()}
    mus = club.get("mus") or {}
    db = get_db()
    labels = [str(i + 1) for i in range(len(plan["tables"]))]
    steps = [("club", {"club": new_club})]
    for label, seats in zip(labels, plan["tables"]):
        game = {"kind": "mus", "rules": mus.get("rules") or {"preset": "spanish", "games_to_win": 2},
                "seats": seats, "table": label, "round": rnd}
        if mus.get("scoring"):
            game["scoring"] = mus["scoring"]
        steps.append(("add_game", {"game": game}))
    try:      # the clock, the byes, every table and its link: one write (all of it or nothing)
        _write_all(view, steps, request.form.get("v", type=int), also=lambda: club_links.add(db, view.id, labels))
    except RuleError as err:
        return _page(open_session(token), refusal(err), {"plan": t(err.msg)}, plan)
    return see_other(_here(token))


def _write_all(view: SessionView, steps: list, seen: int | None, also=None) -> store.Written:
    """One organizer's action of several events, under the form's one key: all of them land or none."""
    from .. import security

    return service.write_many(get_db(), view.row, steps, browser=security.browser_id(), key=request_key(),
                              seen_version=seen, location=_here(view.token), also=also)


@bp.post("/s/<token>/club/end")
def end(token):
    """End the round: every unfinished match of it ends by the clock (``"ended": "time"``)."""
    view = _organizer(token, "end_round")
    info = night(view)
    running = [tb for tb in tables_now(view, info) if tb["kind"] == "mus" and not tb.get("result")]
    if not running:
        if _landed(view):       # a double tap: the first one ended the round
            return see_other(_here(token))
        return _page(view, 422, {"end": t({"code": "clubweb.no_round"})})
    stuck = _stuck(view, running)
    if not stuck:
        try:        # every running table ends in one write, or none does
            _write_all(view, [("game", {"game": tb["gi"], "action": EndByTime()}) for tb in running], None)
        except RuleError as err:
            view = open_session(token)
            stuck = _stuck(view, [tb for tb in running if tb["gi"] < len(view.games)])
            if not stuck:
                return _page(view, refusal(err), {"end": t(err.msg)})
    if stuck:
        return _page(open_session(token), 409, {"end": t({"code": "clubweb.open_hands", "tables": ", ".join(stuck)})})
    return see_other(_here(token))


def _landed(view: SessionView) -> bool:
    """This form's key has already written (a retry or a second tap of the same form)."""
    from .. import formkeys, security

    key = request_key()
    return bool(key and store.stored(get_db(), security.browser_id(), str(view.id), key, formkeys.current()))


def _stuck(view: SessionView, running: list[dict]) -> list[str]:
    """The tables whose match the clock cannot end now (a hand being recorded): the kind's own rule,
    asked without writing."""
    out = []
    for tb in running:
        rec = view.games[tb["gi"]]
        try:
            kinds.KINDS[rec.kind].apply(rec, EndByTime())
        except RuleError:
            out.append(tb["label"])
    return out


@bp.post("/s/<token>/club/leave")
def leave(token):
    """A player (or, in pair formats, the pair) leaves between rounds; or comes back."""
    view = _organizer(token, "leave")
    club = _club(view) or abort(400)
    name = request.form.get("name", "")
    left = list(club.get("left") or [])
    if name in left:
        left.remove(name)
    elif name in view.players:
        left.append(name)
    new = dict(club, left=left)
    try:
        perform(view, "club", {"club": clean_club(new, view.players)}, _here(token), command="leave")
    except RuleError as err:
        return _page(view, refusal(err), {"leave": t(err.msg)})
    return see_other(_here(token))


@bp.post("/s/<token>/club/arrive")
def arrive(token):
    """Late arrivals between rounds: a player (rotating), or a pair (pair formats) joins the night."""
    view = _organizer(token, "arrive")
    club = _club(view) or abort(400)
    names = [request.form.get("name", "")] + ([request.form.get("partner", "")] if club["format"] in PAIR_FORMATS else [])
    header = view.header
    try:
        for name in names:
            # checked before anything is written (the event's own rule, on the header alone)
            header = events.player_added(_HeaderOnly(header), {"name": name}, False).header
        added = header["players"][len(view.players):]
        steps = [("add_player", {"name": name}) for name in added]
        if club["format"] in PAIR_FORMATS:
            new = dict(club, pairs=[*club.get("pairs", []), added])
            steps.append(("club", {"club": clean_club(new, header["players"])}))
        _write_all(view, steps, None)       # the players and their pair: one write
    except RuleError as err:
        return _page(open_session(token), refusal(err), {"arrive": t(err.msg)})
    return see_other(_here(token))


@bp.post("/s/<token>/club/table")
def add_table(token):
    """A Mus match at a table the organizer names (a free night, or an extra table): its own link."""
    view = _organizer(token, "add_table")
    club = _club(view) or {"format": "free"}
    form = request.form
    errors = {}
    try:
        label = clean_label(form.get("label", ""), "label")
    except RuleError as err:
        errors["label"] = t(err.msg)
        label = None
    seats = [form.get(f"seat{i}", "") for i in range(4)]
    mus = club.get("mus") or {}
    game = {"kind": "mus", "rules": mus.get("rules") or {"preset": "spanish", "games_to_win": 2},
            "seats": seats, "table": label}
    if mus.get("scoring"):
        game["scoring"] = mus["scoring"]
    if not errors:
        try:
            perform(view, "add_game", {"game": game}, _here(token) + "#tables", command="add_table")
        except RuleError as err:
            errors["seats"] = t(err.msg)
        else:
            club_links.ensure(get_db(), view.id, [label])     # a refused match leaves no link behind
    if errors:
        return _page(view, 422, errors, form=form)
    return see_other(_here(token) + "#tables")


@bp.post("/s/<token>/club/tables/<label>/replace")
def replace_table(token, label):
    """A new scoring link for one table: the phones holding the old one are locked out."""
    view = _organizer(token, "replace_table_link")
    if club_links.replace(get_db(), view.id, label) is None:
        abort(404)
    return see_other(_here(token) + "#tables")


# -- the table link's own page, the cards, the standings CSV ----------------------------------------

@bp.get("/s/<token>/table")
def table_home(token):
    """A table's link opens its current game (or says that the round has not started)."""
    view = open_session(token)
    if view.table is None:
        return see_other(url_for("sessions.show", token=token))
    if (resp := unchanged_poll(view)) is not None:
        return resp
    mine = [gi for gi, g in enumerate(view.games) if g.head.get("table") == view.table]
    if mine:
        gi = mine[-1]
        where = url_for(f"{view.games[gi].kind}.game", token=token, gi=gi)
        if is_poll():       # the waiting page's poll: the whole page goes to the match
            resp = Response(b"", status=200)
            resp.headers["HX-Redirect"] = where
            return resp
        return see_other(where)
    return render("club/waiting.html", view, label=view.table)


@bp.get("/s/<token>/club/cards")
def cards(token):
    """Printable table cards (A4, two a page): the label, the QR of the table's scoring link, the seats
    of the current round."""
    view = _organizer(token, "club_setup")
    info = night(view)
    seats = {tb["label"]: tb["st"] for tb in tables_now(view, info)}
    out = []
    for row in _table_links(view):
        out.append({**row, "qr": qr_svg(row["url"], t({"code": "clubweb.card_qr", "table": row["label"]})),
                    "st": seats.get(row["label"])})
    return render("club/cards.html", view, cards=out, info=info)


@bp.get("/s/<token>/club/standings.csv")
def standings_csv(token):
    view = open_session(token)
    info = night(view)
    pairs = info["club"]["format"] in PAIR_FORMATS
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["rank", "pair" if pairs else "player", "played", "won", "drawn", "lost",
                "byes" if pairs else "sat_out", "match_points", "games_diff", "points_diff"])
    for r in info["standings"]:
        w.writerow([r["label"], " & ".join(r["pair"]) if pairs else r["player"], r["played"], r["won"], r["drawn"],
                    r["lost"], r["byes" if pairs else "sat_out"], r["match_points"], r["games_diff"], r["points_diff"]])
    resp = Response(buf.getvalue(), mimetype="text/csv")
    resp.headers["Content-Disposition"] = f'attachment; filename="standings-{view.id}.csv"'
    return resp


# -- the sala --------------------------------------------------------------------------------------

@bp.get("/s/<token>/sala")
def sala(token):
    """Every table live on one screen, the round clock and the standings (any link; no taps)."""
    view = open_session(token)
    if (resp := unchanged_poll(view)) is not None:
        return resp
    info = night(view)
    tables = tables_now(view, info)
    pages = [tables[i:i + SALA_PAGE] for i in range(0, len(tables), SALA_PAGE)] or [[]]
    return render("club/sala.html", view, info=info, pages=pages, per_page=min(len(tables), SALA_PAGE))


define("clubweb", {"card_qr": N_("QR code of the scoring link of table %(table)s")})


@bp.app_template_global("table_round")
def table_round(view: SessionView, gi: int | None = None) -> dict | None:
    """What a table's phone shows above its match: the round, its clock ("last hand", "time is up", the
    round over), and a newer match at this table (the next round started) to go to."""
    if view is None or view.table is None:
        return None
    club = view.header.get("club") or {}
    games = view.games
    heads = [g.head for g in games]
    rnd = round_in_play(heads, club)
    mine = [i for i, h in enumerate(heads) if h.get("table") == view.table]
    if gi is None:
        gi = (request.view_args or {}).get("gi")
    newer = None
    if mine and isinstance(gi, int) and gi < mine[-1]:
        newer = url_for(f"{games[mine[-1]].kind}.game", token=view.token, gi=mine[-1])
    in_round = [g for g in games if g.head.get("round") == rnd and rnd]
    over = bool(in_round) and all(g.head.get("ended") or (g.state or {}).get("match_winner") for g in in_round)
    planned = club.get("rounds")
    return {"gi": gi if isinstance(gi, int) else None, "round": rnd, "clock": _clock(club, rnd, over),
            "round_over": over, "night_over": bool(over and planned and rnd >= planned), "newer": newer,
            "newer_round": heads[mine[-1]].get("round") if newer else None}


@bp.get("/s/<token>/table/strip")
def table_strip(token):
    """The table phone's strip alone (its own poll every 20 s: the clock moves on between taps)."""
    view = open_session(token)
    if view.table is None:
        abort(404)
    return render("club/_table_strip.html", view, gi=request.args.get("gi", type=int), alone=True)


@bp.app_template_global("club_night")
def club_night(view: SessionView) -> dict:
    """The session page's club card: the standings from the per-table cache (not the whole state)."""
    return night(view)
