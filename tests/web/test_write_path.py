"""Every write goes one way: each POST route of the app asks ``permit`` exactly once, before anything is
written (issue 27: form -> typed command -> permit -> service -> store). ``permit`` is replaced by a
counting one that refuses everything: a route that asks it is refused with nothing changed; one that wrote
around it would change the session file. The permission table's test covers every command a route asks."""
import json

import pytest
from helpers import csrf, form_fields
from test_club_permit import PLAYERS, doc, night
from test_desmoche_web import add_series
from test_newmarket_web import BASE as NEWMARKET
from test_newmarket_web import add_game

import companion.web.common as common
from companion.permit import COMMANDS, SESSION_COMMANDS, Decision, command_name

SEATS = {f"seat{i}": p for i, p in enumerate(PLAYERS[:4])}

# endpoint: (path after the link, form); "{gi}" is a game of the route's kind
ROUTES = {
    "sessions.rename": ("/rename", {"name": "Mine"}),
    "sessions.add_player": ("/players", {"name": "Zoe"}),
    "sessions.undo": ("/undo/{gi}", {}),
    "sessions.replace": ("/replace", {}),
    "settle.banker": ("/settle/banker", {"banker": "Ane"}),
    "settle.paid": ("/settle/paid", {"from": "Ane", "to": "Bea", "amount": "100"}),
    "club.setup": ("/club/setup", {"format": "free"}),
    "club.swap": ("/club/swap", {"x": "0:0", "y": "0:1"}),
    "club.start": ("/club/start", {}),
    "club.end": ("/club/end", {}),
    "club.leave": ("/club/leave", {"name": "Ane"}),
    "club.arrive": ("/club/arrive", {"name": "Zoe"}),
    "club.add_table": ("/club/table", {"label": "9", **SEATS}),
    "club.replace_table": ("/club/tables/1/replace", {}),
    "mus.new": ("/mus/new", {"preset": "pagat", **SEATS}),
    "mus.act": ("/mus/{gi}/act", {"move": "tally", "team": "A", "points": "5"}),
    "mus.hand": ("/mus/{gi}/hand/1", {"move": "save", "draft": json.dumps({"tally": [{"team": "B", "points": 7}]})}),
    "newmarket.new": ("/newmarket/new", SEATS),
    "desmoche.new": ("/desmoche/new", SEATS),
    # a game's own routes: the game page's form (when it shows one now) and what a phone fills in
    **{f"newmarket.{name}": (f"/{{gi}}/{path}", extra) for name, path, extra in (
        ("start", "start", {}), ("boodle", "boodle", {}), ("cancel", "cancel", {}),
        ("dummy", "dummy", {"dummy": "swap"}),
        ("end_deal", "end", {"blocked": "1"}), ("end_game", "end-game", {}), ("exchange", "exchange", {}))},
    **{f"desmoche.{name}": (f"/{{gi}}/{path}", extra) for name, path, extra in (
        ("hand", "hand", {"winner": "p:Ane", "auto_win": "none"}), ("stake", "stake", {"new_stake": "20"}),
        ("end", "end", {}))},
    "newmarket.correct": ("/{gi}/deal/0", {}),
    "desmoche.correct": ("/{gi}/hand/0", {"winner": "p:Bea", "auto_win": "none"}),
}
GAME_ROUTE = {"newmarket", "desmoche"}
# the command each route asks (by endpoint, else by its area): what tests/test_permit.py walks
ASKS = {
    "sessions.rename": "rename", "sessions.add_player": "add_player", "sessions.undo": "undo",
    "sessions.replace": "replace_link", "settle": "settle", "club.setup": "club_setup", "club.swap": "swap",
    "club.start": "start_round", "club.end": "end_round", "club.leave": "leave", "club.arrive": "arrive",
    "club.add_table": "add_table", "club.replace_table": "replace_table_link", "mus.new": "add_game",
    "newmarket.new": "add_game", "desmoche.new": "add_game", "mus.hand": "correct", "newmarket.correct": "correct",
    "desmoche.correct": "correct", "mus": "record", "newmarket": "record", "desmoche": "record",
}
# the tournament's setup (companion/web/tournament.py): each asks ``check`` before it writes
AROUND = {
    "tournament.paste": ("/tournament/paste", {"pairs": "Ane, Bea\nCarlos, Dani"}),
    "tournament.pair": ("/tournament/pair", {"a": "Ane", "b": "Bea"}),
    "tournament.checkin": ("/tournament/checkin", {"name": "Ane"}),
    "tournament.plan": ("/tournament/plan", {}),
    "tournament.swap": ("/tournament/swap", {"stage": "0", "x": "0", "y": "1"}),
    "tournament.start": ("/tournament/start", {"stage": "0"}),
}
# writes with no session link yet, or no session write: nothing for permit to decide
NO_LINK = {
    "sessions.create": "anyone may start a session: it is theirs",
    "sessions.import_file": "an imported file is a new session of the importer's",
    "history.import_archive": "an archive imports new sessions",
    "sessions.opened": "lists the session on this phone (a browser row), writes nothing of the session",
}


class Asked(list):
    """Every command ``permit`` is asked about once ``refusing`` is set; it then refuses each one."""
    refusing = False


@pytest.fixture
def asked(monkeypatch):
    calls, real = Asked(), common.permit

    def counting(capability, command, state):
        if not calls.refusing:
            return real(capability, command, state)
        calls.append(command_name(command))
        return Decision(False, code="permit.organizer_only")
    monkeypatch.setattr(common, "permit", counting)
    return calls


def post_rules(app):
    return {r.endpoint: r.rule for r in app.url_map.iter_rules() if "POST" in (r.methods or ())}


def test_every_write_route_is_walked(app):
    missing = set(post_rules(app)) - set(ROUTES) - set(NO_LINK) - set(AROUND)
    assert not missing, f"a write route not walked here: {sorted(missing)} (add it to ROUTES)"


def test_every_write_route_asks_permit_exactly_once_and_a_refusal_changes_nothing(client, app, asked):
    s, _one, _two = night(client, "playing")
    edit = s["edit"]
    games = {"mus": 0, "newmarket": len(client.get(s["view"] + "/state.json").get_json()["games"])}
    add_game(client, s)                 # a game of every kind (game 0 is table 1's Mus match)
    games["desmoche"] = games["newmarket"] + 1
    add_series(client, s)
    for kind, route, extra in (("newmarket", "start", {}), ("newmarket", "end", {"blocked": "1"}),
                               ("desmoche", "hand", {"winner": "p:Ane", "auto_win": "none"})):
        game = f"{edit}/{kind}/{games[kind]}"       # one deal and one hand recorded: there is one to correct
        page = client.get(game + ("?end=1" if route == "end" else "")).get_data(as_text=True)
        resp = client.post(f"{game}/{route}", data={**form_fields(page, f"{game}/{route}"), **extra})
        assert resp.status_code == 303, (kind, route, resp.get_data(as_text=True)[-1500:])
    asked.refusing = True
    before = doc(client, s)
    rules = post_rules(app)
    names = {}
    for endpoint, (path, form) in ROUTES.items():
        if endpoint not in rules:
            continue
        asked.clear()
        kind = endpoint.split(".")[0]
        own = kind in GAME_ROUTE and not endpoint.endswith(".new")
        url = edit + (f"/{kind}" if own else "") + path.format(gi=games.get(kind, 0))
        if own:                 # the page's own form for this route (as a phone sends it), and the fill-in
            page = client.get(url if endpoint.endswith(".correct") else edit + f"/{kind}/{games[kind]}")
            page = page.get_data(as_text=True)
            form = {**(form_fields(page, url) if f'action="{url}"' in page else {}), **form}
        resp = client.post(url, data={"csrf": csrf(client), "k": "", **form})
        assert len(asked) == 1, (endpoint, "permit asked", len(asked), "times", resp.status_code)
        assert resp.status_code == 403, endpoint
        assert doc(client, s) == before, endpoint
        names[endpoint] = asked[0]
    # the permission table decides every command a route asks
    assert names == {e: ASKS.get(e) or ASKS[e.split(".")[0]] for e in names}
    # the permission table decides every command a route asks, and every session command has its route
    assert set(names.values()) <= set(COMMANDS), names
    assert set(SESSION_COMMANDS) <= set(names.values())


def test_the_tournament_routes_ask_permit_too(client, app, asked):
    s, _one, _two = night(client, "not_started")
    asked.refusing = True
    before = doc(client, s)
    for endpoint, (path, form) in AROUND.items():
        asked.clear()
        resp = client.post(s["edit"] + path, data={"csrf": csrf(client), "k": "", **form})
        assert len(asked) == 1 and resp.status_code == 403, (endpoint, asked, resp.status_code)
        assert doc(client, s) == before, endpoint


def test_an_allowed_write_asks_permit_once_too(client, monkeypatch):
    """Counting without refusing: a write that lands asked once (no second ask on the way to the store)."""
    s, _one, _two = night(client, "playing")
    edit = s["edit"]
    counted, real = [], common.permit

    def counting(capability, command, state):
        counted.append(command_name(command))
        return real(capability, command, state)
    monkeypatch.setattr(common, "permit", counting)
    for path, form in (("/rename", {"name": "Mine"}), ("/players", {"name": "Zoe"}), ("/undo/0", {}),
                       ("/settle/banker", {"banker": "Ane"}), ("/settle/banker", {"banker": ""})):
        counted.clear()
        before = doc(client, s)
        resp = client.post(edit + path, data={"csrf": csrf(client), "k": "", **form})
        assert resp.status_code == 303 and len(counted) == 1, (path, counted, resp.status_code)
        assert doc(client, s) != before, path
    page = client.get(edit + "/newmarket/new").get_data(as_text=True)
    counted.clear()
    resp = client.post(edit + "/newmarket/new", data={**form_fields(page, edit + "/newmarket/new"), **NEWMARKET})
    assert resp.status_code == 303 and counted == ["add_game"], counted
