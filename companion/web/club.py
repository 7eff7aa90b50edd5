"""A club night's pages: the organizer's rounds page (format, pairs, arrivals, a proposed round with
swaps, start and end a round), the sala (every table live on one screen), the printable table cards, the
standings CSV, and a table link's own page. The rules are pure (``companion.club``); this turns forms
into events and states into pages."""
from __future__ import annotations

import json
from datetime import datetime, timezone

from flask import Blueprint, Response, abort, current_app, request, url_for
from markupsafe import Markup

from companion import kinds, registry, service
from companion.domain import numbers
from companion.record import csvexport
from companion.storage import store
from companion.club.night import current_round, round_in_play
from companion.club.results import round_matches
from companion.club.proposals import propose
from companion.domain.match import match_result
from companion.club.commands import AddTable, Arrive, EndRound, Leave, Night, Setup, StartRound, Swap, handle, table_kinds
from companion.club.standings import FORMATS, PAIR_FORMATS, rank_label, standings
from companion.storage.db import get_db
from companion.domain.errors import RuleError
from companion.domain.messages import N_, define
from companion.web.share import qr_svg
from companion.web import club_links
from companion.web.common import SessionView, check, is_poll, links, open_session, refusal, render, request_key, \
    require_edit, see_other, unchanged_poll
from companion.web.i18n import lang, t, vocabulary

bp = Blueprint("club", __name__)
SALA_PAGE = 12          # tables on one sala screen; more turn pages every 15 s



# -- reading the night -----------------------------------------------------------------------------

def _club(view: SessionView) -> dict | None:
    return view.header.get("club")


def _state_key(view: SessionView, gi: int, rec) -> tuple:
    """What a game's state entry depends on: its position (every recorded step moves it) and its seed."""
    return (getattr(get_db(), "path", ""), view.id, gi, rec.kind, kinds.KINDS[rec.kind].position(rec),
            json.dumps(rec.seed, sort_keys=True) if rec.seed else None)


def table_state(view: SessionView, gi: int, rec, key: tuple | None = None) -> dict:
    """A game's companion-state entry, computed once per position of that game and shared by every
    sala and phone (the app's registry): a tap at one table recomputes that table only, not the night."""
    cache = registry.of(current_app).table_states
    key = key or _state_key(view, gi, rec)
    hit = cache.get(key)
    if hit is None:
        hit = kinds.KINDS[rec.kind].state(rec)
        cache.put(key, hit)
    return hit


def by_version(view: SessionView, what, make):
    """``make()`` once per version of the session (the app's registry): the salas, the organizer's page
    and the session card of one version of the night share what grows with its tables (the states, the
    standings, the proposals), each still reading its own clock."""
    cache = registry.of(current_app).club_versions
    key = (getattr(get_db(), "path", ""), view.id, view.version, what)
    hit = cache.get(key)
    if hit is None:
        hit = make()
        cache.put(key, hit)
    return hit


def night(view: SessionView) -> dict:
    """What every club page shows: the round, its matches, the standings. Reads the games' heads and
    running states only, and each table's state from the cache above."""
    club = _club(view) or {"format": "free"}
    games = view.games
    part = by_version(view, "night", lambda: _night_of(view, club, games))
    return {"club": club, "games": games, **part, "clock": _clock(club, part["round"], part["round_over"])}


def _night_of(view: SessionView, club: dict, games: list) -> dict:
    keys = [_state_key(view, gi, g) if ("table" in g.head or "round" in g.head) else None
            for gi, g in enumerate(games)]
    states = [table_state(view, gi, g, key) if key else None for gi, (g, key) in enumerate(zip(games, keys))]
    matches = round_matches([g.head if st is not None else {} for g, st in zip(games, states)],
                            [st for st in states])
    rnd = current_round(matches, club)
    shared = standings(club, view.players, matches) if club["format"] != "free" else []
    rows = [dict(row, label=rank_label(shared, row)) for row in shared]
    in_round = [m for m in matches if m["round"] == rnd]
    over = bool(in_round) and all(match_result(m)[0] for m in in_round)
    planned = club.get("rounds")
    return {"states": states, "keys": keys, "matches": matches, "round": rnd, "standings": rows,
            "round_over": over, "night_over": bool(over and planned and rnd >= planned)}


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
        # (a tournament's stages run side by side, each its own rounds: each table's latest game)
        if info["club"]["format"] not in ("free", "stages") and g.head.get("round") not in (None, info["round"]):
            continue
        latest[label] = gi
    out = []
    for label in sorted(latest, key=club_links.label_order):
        gi = latest[label]
        g = info["games"][gi]
        st = info["states"][gi]
        row = {"label": label, "gi": gi, "kind": g.kind, "st": st, "key": info["keys"][gi],
               "url": url_for(f"{g.kind}.game", token=view.token, gi=gi)}
        if kinds.KINDS[g.kind].club_match is not None:
            row["result"], row["ended_by"] = match_result({**st, "ended": g.head.get("ended")})
        out.append(row)
    return out


# -- the organizer's page --------------------------------------------------------------------------

def _plan_of(proposal) -> dict:
    return {"tables": [proposal.seats(tb) for tb in proposal.tables], "free": proposal.free}


def _page(view: SessionView, status: int = 200, errors: dict | None = None, plan: dict | None = None,
          form=None):
    info = night(view)
    club = _club(view)
    ctx = {"info": info, "errors": errors or {}, "formats": FORMATS, "club": club, "form": form}
    # the round matches' rules as the setup form shows them (the club file keeps them under the kind's name)
    matches = (club or {}).get(kinds.club_kind().name) or {}
    ctx["match"] = {"games_to_win": (matches.get("rules") or {}).get("games_to_win") or 2,
                    "scoring": matches.get("scoring") or "bids"}
    if club and club["format"] == "stages":
        ctx["tournament"] = True        # its rounds start on the tournament page, stage by stage
    elif club and club["format"] != "free":
        rnd = info["round"] + 1
        if plan is None:
            plan = _proposal(view, info, rnd)
        ctx.update(next_round=rnd, plan=plan, plan_json=json.dumps(plan, ensure_ascii=False),
                   units=_unit_choices(club, plan))
    ctx["table_links"] = _table_links(view)
    ctx["table_kinds"] = [(name, kinds.KINDS[name].title) for name in table_kinds()]
    ctx["log"] = _log_rows(view, info)
    ctx["running"] = [tb for tb in tables_now(view, info) if "result" in tb and not tb["result"]]
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


def _proposal(view: SessionView, info: dict, rnd: int) -> dict:
    """Round ``rnd``'s proposed plan, once per version: the organizer's page and the sala show the same."""
    return by_version(view, ("plan", rnd), lambda: _plan_of(propose(info["club"], view.players, info["matches"], rnd)))


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
    return [{"label": label, "url": f"{root}/s/{token}", "segment": club_links.segment(label)} for label, token in
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
    """The format, the round clock, the pairs, the rules of the club's matches."""
    view = _organizer(token, "club_setup")
    form = request.form
    lines = tuple(tuple(x.strip() for x in line.replace("&", ",").split(",") if x.strip())
                  for line in form.get("pairs", "").splitlines())
    to_win = (form.get("games_to_win") or "2").strip()
    cmd = Setup(format=form.get("format", ""), pairs=lines, minutes=_number(form.get("minutes", "")),
                rounds=_number(form.get("rounds", "")), preset=form.get("preset", "spanish"),
                games_to_win=int(to_win) if numbers.is_ascii_int(to_win) and len(to_win) < 4 else to_win,
                tally=form.get("scoring") == "tally")
    return _run(view, cmd, _here(token), lambda err: _page(view, 422, {err.field or "format": t(err.msg)}, form=form))


def _number(value: str) -> int | str | None:
    value = value.strip()
    return (numbers.parse_int(value, 0) if numbers.is_ascii_int(value) and len(value) < 10 else value) if value else None


def _night(view: SessionView) -> Night:
    return Night(view.header, view.games)


def _run(view: SessionView, cmd, location: str, refused, seen: int | None = None):
    """A club command: handled by the domain, written through the service (all or none), 303 to
    ``location``; a refusal (the domain's or the write's) through ``refused(err)``."""
    from companion.web import security

    try:
        plan = handle(cmd, _night(view))
        service.run(get_db(), view.row, plan, browser=security.browser_id(), key=request_key(),
                    seen_version=seen, location=location)
    except RuleError as err:
        return refused(err)
    return see_other(location)


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
    _club(view) or abort(400)
    plan = _read_plan(request.form)
    try:
        handle(Swap(plan=plan, x=request.form.get("x", ""), y=request.form.get("y", "")), _night(view))
    except RuleError as err:
        return _page(view, 422, {"swap": t(err.msg)}, plan)
    return _page(view, plan=plan)


@bp.post("/s/<token>/club/start")
def start(token):
    """One tap: the round's byes or sit-outs and its clock, and a club match at each table (the club's
    rules, seats from the plan), each table with its own scoring link: one write, all of it or nothing."""
    view = _organizer(token, "start_round")
    plan = _read_plan(request.form) if _club(view) else {"tables": [], "free": []}
    cmd = StartRound(plan=plan, now=store.now())
    return _run(view, cmd, _here(token),
                lambda err: _page(open_session(token), refusal(err), {"plan": t(err.msg)}, plan if _club(view) else None),
                seen=request.form.get("v", type=numbers.int_or_none))


@bp.post("/s/<token>/club/end")
def end(token):
    """End the round: every unfinished match of it ends by the clock (``"ended": "time"``), in one
    write; none does while a hand is being recorded at one of them."""
    view = _organizer(token, "end_round")

    def refused(err):
        if err.code == "clubweb.no_round" and _landed(view):
            return see_other(_here(token))      # a double tap: the first one ended the round
        fresh = open_session(token)
        return _page(fresh, 409 if err.code == "clubweb.open_hands" else refusal(err), {"end": t(err.msg)})

    return _run(view, EndRound(), _here(token), refused)


def _landed(view: SessionView) -> bool:
    """This form's key has already written (a retry or a second tap of the same form)."""
    from companion import formkeys
    from companion.web import security

    key = request_key()
    return bool(key and store.stored(get_db(), security.browser_id(), str(view.id), key, formkeys.current()))


@bp.post("/s/<token>/club/leave")
def leave(token):
    """A player (or, in pair formats, the pair) leaves between rounds; or comes back."""
    view = _organizer(token, "leave")
    _club(view) or abort(400)
    return _run(view, Leave(name=request.form.get("name", "")), _here(token),
                lambda err: _page(view, refusal(err), {"leave": t(err.msg)}))


@bp.post("/s/<token>/club/arrive")
def arrive(token):
    """Late arrivals between rounds: a player (rotating), or a pair (pair formats) joins the night."""
    view = _organizer(token, "arrive")
    _club(view) or abort(400)
    cmd = Arrive(name=request.form.get("name", ""), partner=request.form.get("partner", ""))
    return _run(view, cmd, _here(token), lambda err: _page(open_session(token), refusal(err), {"arrive": t(err.msg)}))


@bp.post("/s/<token>/club/table")
def add_table(token):
    """A club match at a table the organizer names (a free night, or an extra table): its own link."""
    view = _organizer(token, "add_table")
    form = request.form
    kind = form.get("kind", "")      # "": the club's match; else a kind's table game (Kind.table_game)
    if not kind:
        seats = tuple(form.get(f"seat{i}", "") for i in range(4))
    else:       # another kind's game: the players ticked, in the order of the session
        seats = tuple(p for p in form.getlist("players") if p in view.players)
    cmd = AddTable(label=form.get("label", ""), seats=seats, kind=kind)
    return _run(view, cmd, _here(token) + "#tables",
                lambda err: _page(view, refusal(err), {"label" if err.field == "label" else "seats": t(err.msg)},
                                  form=form))


@bp.post("/s/<token>/club/tables/<label>/replace")
def replace_table(token, label):
    """A new scoring link for one table: the phones holding the old one are locked out."""
    view = _organizer(token, "replace_table_link")
    if club_links.replace(get_db(), view.id, club_links.label_of(label)) is None:
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
    rows = [["rank", "pair" if pairs else "player", "played", "won", "drawn", "lost",
             "byes" if pairs else "sat_out", "match_points", "games_diff", "points_diff"]]
    for r in info["standings"]:
        rows.append([r["label"], " & ".join(r["pair"]) if pairs else r["player"], r["played"], r["won"], r["drawn"],
                     r["lost"], r["byes" if pairs else "sat_out"], r["match_points"], r["games_diff"], r["points_diff"]])
    resp = Response(csvexport.write(rows), mimetype="text/csv")   # the one cell escaper
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
    tour = _sala_tournament(view, info) if info["club"].get("format") == "stages" else None
    if tour is not None:
        info = {**info, "clock": tour["clock"], "standings": []}
    for tb in tables:
        tb["html"] = sala_piece(tb)
    seating = _sala_seating(view, info)
    pages = [tables[i:i + SALA_PAGE] for i in range(0, len(tables), SALA_PAGE)] or ([] if tour or seating else [[]])
    return render("club/sala.html", view, info=info, pages=pages, per_page=min(len(tables), SALA_PAGE), tour=tour,
                  seating=seating)


def _sala_seating(view: SessionView, info: dict) -> dict | None:
    """A paired night's next round as the organizer's page proposes it (the same proposal), once it is
    the next one: before the first round and after every match of the round has a result, not while a
    round is in play (its live tables are the seating then) nor once the night is over."""
    club = info["club"]
    if club.get("format") in ("free", "stages") or info["night_over"]:
        return None
    rnd = info["round"]
    if rnd and not info["round_over"]:
        return None
    plan = _proposal(view, info, rnd + 1)
    if not plan["tables"]:
        return None
    rows = [{"table": str(i), "a": seats[0::2], "b": seats[1::2]} for i, seats in enumerate(plan["tables"], 1)]
    return {"round": rnd + 1, "pages": [rows[i:i + SEATING_PAGE] for i in range(0, len(rows), SEATING_PAGE)],
            "free": [who if isinstance(who, str) else " & ".join(who) for who in plan["free"]],
            "sitting_out": club["format"] not in PAIR_FORMATS}


def sala_piece(tb: dict, cache=True) -> Markup:
    """One table's piece of the sala, rendered once per that table's state and the reader's language
    (the app's registry): a tap at one table re-renders that table's piece, the others come from the
    cache. ``cache=False``: rendered afresh (the tests hold the two to the same bytes)."""
    key = (tb["key"], tb["label"], tb.get("result"), tb.get("ended_by"), lang(), vocabulary())
    pieces = registry.of(current_app).sala_pieces
    hit = pieces.get(key) if cache else None
    if hit is None:
        ctx = {"tb": tb, "st": tb["st"]}
        current_app.update_template_context(ctx)
        hit = Markup(current_app.jinja_env.get_template("club/_sala_piece.html").render(ctx))
        if cache:
            pieces.put(key, hit)
    return hit


SEATING_PAGE = 20       # seating rows on one sala page (two columns of ten)
STANDING_PAGE = 16      # rows of one group's standings on one sala page


def _sala_tournament(view: SessionView, info: dict) -> dict:
    """The sala as announcer for a tournament: the next seating of every stage (tables, byes), each
    group's standings, each knockout's bracket, the stage clock, and the night's classification once
    every stage is done (rules/tournament.md). Computed once per version; the clock each time."""
    tour = by_version(view, "sala_tournament", lambda: _tournament_pages(info))
    return {**tour, "clock": _stage_clock(info["club"], info)}


def _tournament_pages(info: dict) -> dict:
    from companion.club.stage_proposals import propose_stage
    from companion.club.tournament import tournament_state

    club = info["club"]
    matches = info["matches"]
    state = tournament_state(club, matches)
    rows, byes = [], []
    for k, st in enumerate(state["stages"]):
        if st["format"] == "pairs_swiss" and any(m["stage"] == k and not match_result(m)[0] for m in matches):
            continue        # a Swiss round's pairing waits for every result of the round in play
        p = propose_stage(club, matches, k)
        for tb in p.tables:
            rows.append({"table": tb["table"], "a": tb["a"], "b": tb["b"], "stage": st["name"],
                         "round": tb.get("round", p.round)})
        byes += [{"pair": x, "stage": st["name"]} for x in p.free]
    seating = [rows[i:i + SEATING_PAGE] for i in range(0, len(rows), SEATING_PAGE)]
    # each page's title names its stages' rounds (a narrow sala hides each row's stage and round)
    seat_rounds = [list(dict.fromkeys((r["stage"], r["round"]) for r in page)) for page in seating]
    standings_pages = []
    for st in state["stages"]:
        for gi, grp in enumerate(st.get("groups") or []):
            for i in range(0, len(grp["standings"]), STANDING_PAGE):
                standings_pages.append({"stage": st["name"], "group": gi + 1 if len(st["groups"]) > 1 else None,
                                        "rows": grp["standings"][i:i + STANDING_PAGE]})
        if st.get("standings"):
            for i in range(0, len(st["standings"]), STANDING_PAGE):
                standings_pages.append({"stage": st["name"], "group": None, "rows": st["standings"][i:i + STANDING_PAGE]})
    brackets = [page for st in state["stages"] if st.get("bracket") for page in _bracket_pages(st)]
    return {"state": state, "seating": seating, "seat_rounds": seat_rounds, "byes": byes, "standings": standings_pages,
            "brackets": brackets, "classification": state.get("classification")}


BRACKET_TIES = 8        # round-1 ties on one sala page: a bracket of 64 pairs turns in four pages and its finals


def _bracket_pages(st: dict) -> list[dict]:
    """A bracket in pages of at most 8 round-1 ties, each with the rounds that follow from them; the rounds
    with fewer ties than pages (the semifinals, the final) on a page of their own."""
    rounds = st["bracket"]
    parts = -(-len(rounds[0]) // BRACKET_TIES)
    if parts <= 1:
        return [{"name": st["name"], "rounds": rounds, "ties": max(1, len(rounds[0]))}]
    out = []
    for q in range(parts):
        cut = [rnd[q * len(rnd) // parts:(q + 1) * len(rnd) // parts] for rnd in rounds if len(rnd) >= parts]
        out.append({"name": st["name"], "part": f"{q + 1}/{parts + 1}", "rounds": cut, "ties": max(1, len(cut[0]))})
    finals = [rnd for rnd in rounds if len(rnd) < parts]
    if finals:
        out.append({"name": st["name"], "part": f"{parts + 1}/{parts + 1}", "rounds": finals,
                    "ties": max(1, len(finals[0]))})
    return out


def _stage_clock(club: dict, info: dict) -> dict | None:
    """The clock of the stage round started last (side-by-side stages share it), stopped once no match
    of the night is in play."""
    latest = None
    for k, plan in enumerate(club["stages"]):
        for rnd, stamp in (plan.get("clock") or {}).items():
            if latest is None or stamp > latest[0]:
                latest = (stamp, plan.get("minutes") or club.get("minutes"))
    if latest is None or not latest[1]:
        return None
    live = [m for m in info["matches"] if not match_result(m)[0]]
    return _clock({"clock": {"1": latest[0]}, "minutes": latest[1]}, 1, stopped=not live)


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
    mine = [i for i, h in enumerate(heads) if h.get("table") == view.table]
    if gi is None:
        gi = (request.view_args or {}).get("gi")
    if club.get("format") == "stages":
        # a tournament: the round and clock of the stage of this table's game (stages count their own rounds)
        at = gi if isinstance(gi, int) and 0 <= gi < len(heads) else (mine[-1] if mine else None)
        k = heads[at].get("stage") if at is not None else None
        heads_k = [h for h in heads if h.get("stage") == k and k is not None]
        plan = club["stages"][k] if k is not None and k < len(club["stages"]) else {}
        club = {"clock": plan.get("clock") or {}, "minutes": plan.get("minutes") or club.get("minutes")}
        rnd = round_in_play(heads_k, {})
        pool = [g for g in games if g.head.get("stage") == k and k is not None]
    else:
        rnd = round_in_play(heads, club)
        pool = games
    newer = None
    if mine and isinstance(gi, int) and gi < mine[-1]:
        newer = url_for(f"{games[mine[-1]].kind}.game", token=view.token, gi=mine[-1])
    in_round = [g for g in pool if g.head.get("round") == rnd and rnd]
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
