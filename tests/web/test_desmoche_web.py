"""Desmoche through the Flask client: adding a series, rollovers in words, winners and bonuses, automatic
wins, side games, stake changes, the end of the series, undo, corrections, the view link and bad input."""
import re

import pytest
from werkzeug.datastructures import MultiDict

from companion.record import session as S
from companion.kinds.desmoche import KIND as DM
from companion.domain.messages import render
from helpers import csrf, form_fields, new_session, unchanged

PLAYERS = ("Ane", "Bea", "Carlos", "Dani")
BASE = {"seat0": "Ane", "seat1": "Bea", "seat2": "Carlos", "seat3": "", "variant": "desmoche", "stake": "10",
        "bonuses": "on", "side_unclaimed": "carry", "unit_value": "0.10"}


def add_series(client, links, status=303, **fields):
    url = links["edit"] + "/desmoche/new"
    page = client.get(url).get_data(as_text=True)
    data = {**form_fields(page, url), **BASE, **fields}
    data = {k: v for k, v in data.items() if v is not None}
    resp = client.post(url, data=data)
    assert resp.status_code == status, resp.get_data(as_text=True)[-3000:]
    return resp.headers.get("Location") if status == 303 else resp.get_data(as_text=True)


def post(client, game_url, route, items=(), status=303):
    """Post a form of the game page: its hidden fields + ``items`` (pairs: checkboxes repeat a name)."""
    page = client.get(game_url).get_data(as_text=True)
    hidden = form_fields(page, game_url + route)
    resp = client.post(game_url + route, data=MultiDict([*hidden.items(), *items]))
    assert resp.status_code == status, resp.get_data(as_text=True)[-3000:]
    return resp


def hand(client, game_url, winner="none", status=303, arriba=(), joined=None, **more):
    """A hand as the form sends it: nobody ticked arriba unless told (the form pre-ticks no bonus), oro
    joined by everyone unless told."""
    items = [("winner", winner), ("auto_win", more.pop("auto_win", "none"))]
    items += [("arriba", p) for p in arriba]
    if joined is not None:
        items += [("side_oro_joined", p) for p in joined]
    for k, v in more.items():
        items += [(k, x) for x in v] if isinstance(v, (list, tuple)) else [(k, v)]
    return post(client, game_url, "/hand", items, status)


def served(client, links, gi=0):
    """The game's entry in the served state JSON (companion-state/1)."""
    return client.get(links["edit"] + "/state.json").get_json()["games"][gi]


def state(client, links, gi=0):
    """The served state, with what the table's page knows besides (whether the series ended, what went
    back, the next multiple in words, each hand's result), worked out from the exported file by the kind."""
    st = served(client, links, gi)
    rec = S.load(doc(client, links)).games[gi]
    ov = DM.overview(rec)
    words = ov["next_multiple_words"]
    return {**st, "ended": ov["ended"], "returned": ov["returned"],
            "next_multiple_words": render(words) if words else None,
            "hands": [item.result for item in rec.items]}


def doc(client, links):
    return client.get(links["edit"] + "/session.json").get_json()


def history(client, links):
    """The hand-by-hand page, where every unit's movement is listed with its reason."""
    return client.get(links["edit"] + "/history").get_data(as_text=True)


def error_of(page, field):
    m = re.search(rf'id="err-{field}"[^>]*>([^<]*)<', page)
    return m.group(1) if m else None


@pytest.fixture
def links(client):
    return new_session(client, players=PLAYERS)


def test_add_a_series(client, links):
    game = add_series(client, links, side_on_oro="on", side_oro="5", side_par_rojo="7")
    assert game.endswith("/desmoche/0")
    g = doc(client, links)["games"][0]
    assert g["seats"] == ["Ane", "Bea", "Carlos"] and g["unit_value"] == 10
    assert g["rules"]["side_games"] == {"oro": 5}           # par_rojo has a stake but is not ticked
    assert g["rules"]["bonuses"] is True and g["rules"]["color_wins"] is False
    page = client.get(game).get_data(as_text=True)
    assert "Hand 1 · <strong>Ane</strong> deals" in page and "Record hand 1" in page
    # no bonus is ever pre-ticked: arriba del palo is ticked for whoever is, hand by hand
    assert all(f'name="arriba" value="{p}">' in page for p in ("Ane", "Bea", "Carlos"))
    assert 'name="arriba" value="Ane" checked' not in page and 'name="same_suit" value="1" checked' not in page
    assert "Desmoche · hand 1 · pot empty" in client.get(links["edit"]).get_data(as_text=True)


@pytest.mark.parametrize("fields, field, message", [
    ({"stake": "abc"}, "stake", "is not a stake"),
    ({"stake": "0"}, "stake", "Must be at least 1"),
    ({"stake": ""}, "stake", "Type a stake"),
    ({"side_on_oro": "on", "side_oro": ""}, "side_oro", "How much does each player put in for Oro"),
    ({"side_on_oro": "on", "side_oro": "five"}, "side_oro", "is not a stake"),
    ({"variant": "conquian"}, "bonuses", "Conquián has no bonuses"),
    ({"variant": "conquian", "bonuses": "", "side_on_flor": "on", "side_flor": "5"}, "side_flor",
     "Conquián plays only the oro side game"),
    ({"seat1": "", "seat2": ""}, "seats", "needs 2 to 4 players"),
    ({"unit_value": "1.2.3"}, "unit_value", "Not an amount"),
])
def test_new_series_refuses_bad_fields_beside_the_field(client, links, fields, field, message):
    page = add_series(client, links, status=422, **fields)
    assert message in (error_of(page, field) or ""), page[-3000:]
    assert doc(client, links)["games"] == []


def test_rollover_shows_doble_then_the_worked_example(client, links):
    game = add_series(client, links)
    hand(client, game, "none")
    page = client.get(game).get_data(as_text=True)
    assert '<strong class="mult">doble</strong>: 60' in page
    assert "Hand 1: No winner: the pot of 30 rolled over" in page
    assert 'href="' + links["edit"] + '/history#game-0"' in page          # every unit, on the hand-by-hand page
    assert "No winner: the pot of 30 rolls over (doble)" in history(client, links)   # the log says why
    st = state(client, links)
    assert st["pot"] == 30 and st["next_multiple_words"] == "doble"
    hand(client, game, "none")
    assert '<strong class="mult">triple</strong>: 90' in client.get(game).get_data(as_text=True)
    # undo the second rollover, then Bea wins with a mico; Ane laid a meld (not ticked), Carlos did not (ticked)
    page = client.get(game).get_data(as_text=True)
    undo = links["edit"] + "/undo/0"
    assert client.post(undo, data=form_fields(page, undo)).status_code == 303
    hand(client, game, "p:Bea", arriba=["Bea", "Carlos"], mico="1")
    st = state(client, links)
    assert st["net"] == {"Ane": -30, "Bea": 70, "Carlos": -40}
    page = client.get(game).get_data(as_text=True)
    assert "Bea won: pot of 60, doble" in page and "Bonuses: Ane paid 10, Carlos paid 20" in page
    past = history(client, links)                                            # the log says why
    assert "Carlos paid Bea 10 (arriba del palo)" in past and "Ane paid Bea 10 (mico)" in past
    assert "+€7.00" in page and "-€4.00" in page


def test_automatic_win_and_disqualified(client, links):
    game = add_series(client, links, color_wins="on")
    hand(client, game, "p:Ane", arriba=[], auto_win="peladilla", disqualified=["Carlos"])
    st = state(client, links)
    # every loser is arriba after an automatic win, except the disqualified one
    assert st["net"] == {"Ane": 30, "Bea": -20, "Carlos": -10}
    assert st["hands"][0]["auto_win"] == "peladilla"
    page = client.get(game).get_data(as_text=True)
    assert "Ane won (Peladilla)" in page and 'value="color"' in page
    resp = hand(client, game, "p:Bea", status=422, auto_win="cuatro_cuerpos", mico="1")
    assert "an automatic win (cuatro_cuerpos) has no melds: no mico" in error_of(resp.get_data(as_text=True), "mico")
    resp = hand(client, game, "p:Bea", status=422, disqualified=["Bea"])
    assert "Bea was disqualified" in error_of(resp.get_data(as_text=True), "winner")
    assert resp.headers["HX-Replace-Url"] == game                       # the address bar names the table
    assert len(doc(client, links)["games"][0]["hands"]) == 1


def test_colour_is_refused_when_it_does_not_win(client, links):
    game = add_series(client, links)
    assert 'value="color"' not in client.get(game).get_data(as_text=True)
    resp = hand(client, game, "p:Ane", status=422, auto_win="color")
    assert "color is not an automatic win at this table" in error_of(resp.get_data(as_text=True), "auto_win")


@pytest.mark.parametrize("items, field, message", [
    ({"winner": None}, "winner", "Who won the hand?"),
    ({"winner": "p:Zed"}, "winner", "is not seated"),
    ({"winner": "p:Bea", "mico": "two"}, "mico", "is not a number of micos"),
    ({"winner": "p:Bea", "mico": "-1"}, "mico", ("Cannot be negative", "Must be between 0 and")),
    ({"winner": "none", "mico": "1"}, "mico", "no bonus without a winner"),
    ({"winner": "p:Bea", "disqualified": ["Zed"]}, "disqualified", "is not seated"),
])
def test_bad_hands_are_refused_beside_the_field(client, links, items, field, message):
    items = dict(items)               # the parameters are shared by both engines' runs
    game = add_series(client, links)
    winner = items.pop("winner")
    page = client.get(game).get_data(as_text=True)
    pairs = [("arriba", "Ane")] + ([("winner", winner)] if winner else [])
    for k, v in items.items():
        pairs += [(k, x) for x in v] if isinstance(v, list) else [(k, v)]
    resp = client.post(game + "/hand", data=MultiDict([*form_fields(page, game + "/hand").items(), *pairs]))
    assert resp.status_code == 422
    said = error_of(resp.get_data(as_text=True), field) or ""
    assert any(m in said for m in (message if isinstance(message, tuple) else (message,))), \
        resp.get_data(as_text=True)[-3000:]
    assert doc(client, links)["games"][0]["hands"] == []


def test_two_winners_are_refused(client, links):
    game = add_series(client, links)
    resp = post(client, game, "/hand", [("winner", "p:Ane"), ("winner", "p:Bea")], status=422)
    assert error_of(resp.get_data(as_text=True), "winner") == "Choose one winner."


def test_side_games_join_win_and_carry(client, links):
    game = add_series(client, links, side_on_oro="on", side_oro="5")
    page = client.get(game).get_data(as_text=True)
    assert all(f'name="side_oro_joined" value="{p}" checked' in page for p in ("Ane", "Bea", "Carlos"))
    hand(client, game, "none", joined=["Ane", "Bea"])                   # nobody qualified: carries
    st = state(client, links)
    assert st["side_pots"] == {"oro": 10}
    page = client.get(game).get_data(as_text=True)
    assert 'name="side_oro_joined" value="Carlos" checked' not in page   # joined as last hand
    assert "Oro: nobody qualified, 10 carries" in page
    resp = hand(client, game, "p:Bea", status=422, joined=["Ane", "Bea"], side_oro_winner="p:Carlos")
    assert "Carlos did not join oro" in error_of(resp.get_data(as_text=True), "side_oro")
    resp = hand(client, game, "p:Bea", status=422, joined=[], side_oro_winner="p:Ane")
    assert "nobody joined it" in error_of(resp.get_data(as_text=True), "side_oro")
    hand(client, game, "p:Bea", arriba=[], joined=["Ane", "Bea"], side_oro_winner="p:Ane")
    st = state(client, links)
    assert st["side_pots"] == {"oro": 0}
    assert st["net"]["Ane"] == -20 - 10 + 20 and st["hands"][1]["side"]["oro"]["result"] == "won"
    assert "Oro: Ane took 20" in client.get(game).get_data(as_text=True)
    assert "Ane won oro: took 20" in history(client, links)


def test_unclaimed_side_pot_goes_back(client, links):
    game = add_series(client, links, side_on_oro="on", side_oro="5", side_unclaimed="return")
    hand(client, game, "p:Ane", arriba=[], joined=["Ane", "Bea"])
    st = state(client, links)
    assert st["side_pots"] == {"oro": 0} and st["hands"][0]["side"]["oro"]["result"] == "returned"


def test_stake_change_is_one_action(client, links):
    game = add_series(client, links)
    hand(client, game, "p:Ane", arriba=[])
    resp = post(client, game, "/stake", [("new_stake", "0")], status=422)
    assert error_of(resp.get_data(as_text=True), "new_stake") == "Must be at least 1."
    resp = post(client, game, "/stake", [("new_stake", "lots")], status=422)
    page = resp.get_data(as_text=True)
    assert "is not a stake" in error_of(page, "new_stake") and 'name="new_stake" value="lots"' in page
    assert 'name="auto_win" value="none" checked' in page                  # the hand form keeps its defaults
    assert 'name="arriba" value="Bea" checked' not in page
    post(client, game, "/stake", [("new_stake", "20")])
    page = client.get(game).get_data(as_text=True)
    assert "From hand 2 the stake is 20 (was 10)" in page and "stake <strong>20</strong> each" in page
    hand(client, game, "none")
    st = state(client, links)
    assert st["pot"] == 60 and st["hands"][1]["stake"] == 20
    assert doc(client, links)["games"][0]["hands"][1]["stake"] == 20


def test_end_series_gives_back_the_unwon_pot(client, links):
    game = add_series(client, links)
    hand(client, game, "none")
    post(client, game, "/end")
    st = state(client, links)
    assert st["ended"] and st["pot"] == 0 and st["net"] == {"Ane": 0, "Bea": 0, "Carlos": 0}
    assert st["returned"] == {"Ane": 10, "Bea": 10, "Carlos": 10}
    page = client.get(game).get_data(as_text=True)
    assert "Series over" in page and "Record hand" not in page
    assert "Series ended: Ane got back 10 from the unwon pot" in history(client, links)
    undo = links["edit"] + "/undo/0"
    hidden = form_fields(page, undo)                       # no hand form any more: borrow the undo form's
    resp = client.post(game + "/hand", data={**hidden, "winner": "p:Ane"})
    assert resp.status_code == 422 and "The series is over" in error_of(resp.get_data(as_text=True), "form")


def test_undo_is_exact(client, links):
    game = add_series(client, links, side_on_oro="on", side_oro="5")
    hand(client, game, "none", joined=["Ane", "Bea"])
    before, before_state = doc(client, links), state(client, links)
    hand(client, game, "p:Bea", mico="2", joined=["Ane", "Bea", "Carlos"], side_oro_winner="p:Carlos")
    page = client.get(game).get_data(as_text=True)
    undo = links["edit"] + "/undo/0"
    assert client.post(undo, data=form_fields(page, undo)).status_code == 303
    assert doc(client, links) == before and state(client, links) == before_state


def test_correcting_a_past_hand_recomputes_everything_after(client, links):
    game = add_series(client, links)
    hand(client, game, "none")
    hand(client, game, "p:Bea", arriba=["Carlos"], mico="1")
    url = game + "/hand/1"
    form = client.get(url).get_data(as_text=True)
    assert 'name="winner" value="p:Bea" checked' in form and 'name="mico" value="1"' in form
    assert 'name="arriba" value="Carlos" checked' in form and 'name="arriba" value="Ane" checked' not in form
    # hand 1 was in fact won by Ane: hand 2's pot is no longer doble
    url0 = game + "/hand/0"
    form0 = client.get(url0).get_data(as_text=True)
    assert 'name="winner" value="none" checked' in form0 and 'name="stake" value="10"' in form0
    resp = client.post(url0, data=MultiDict([*form_fields(form0, url0).items(), ("winner", "p:Ane"),
                                             ("stake", "10"), ("auto_win", "none")]))
    assert resp.status_code == 303, resp.get_data(as_text=True)[-2000:]
    d = doc(client, links)
    assert d["games"][0]["hands"][0] == {"winner": "Ane"}                 # no stake key: unchanged
    assert served(client, links) == S.state_of(S.load(d))["games"][0]
    st = state(client, links)
    assert st["hands"][1]["multiple"] == 1 and st["net"] == {"Ane": 0, "Bea": 40, "Carlos": -40}
    # a correction that makes no sense is refused beside its field, nothing stored
    resp = client.post(url0, data=MultiDict([*form_fields(form0, url0).items(), ("winner", "p:Ane"),
                                             ("stake", "x")]))
    assert resp.status_code in (409, 422)
    form0 = client.get(url0).get_data(as_text=True)
    resp = client.post(url0, data=MultiDict([*form_fields(form0, url0).items(), ("winner", "none"),
                                             ("mico", "1")]))
    assert resp.status_code == 422 and "no bonus without a winner" in error_of(resp.get_data(as_text=True), "mico")
    assert doc(client, links) == d
    assert client.get(game + "/hand/5").status_code == 404


def test_correcting_a_stake(client, links):
    game = add_series(client, links)
    hand(client, game, "none")
    hand(client, game, "p:Ane", arriba=[])
    url = game + "/hand/0"
    form = client.get(url).get_data(as_text=True)
    resp = client.post(url, data=MultiDict([*form_fields(form, url).items(), ("winner", "none"), ("stake", "20")]))
    assert resp.status_code == 303
    st = state(client, links)
    assert [h["stake"] for h in st["hands"]] == [20, 20] and st["net"]["Ane"] == 80


def test_the_view_link_shows_pots_and_writes_nothing(client, links):
    game = add_series(client, links)
    hand(client, game, "none")
    view_game = links["view"] + "/desmoche/0"
    page = client.get(view_game).get_data(as_text=True)
    assert 'id="live"' in page and '<span class="pot-amount">30</span>' in page and "doble" in page
    assert '<form method="post"' not in page and "Correct</a>" not in page
    before = doc(client, links)
    token = csrf(client)
    for route in ("/hand", "/stake", "/end", "/hand/0"):
        assert client.post(view_game + route, data={"csrf": token, "winner": "p:Ane"}).status_code == 403
    assert client.post(links["view"] + "/desmoche/new", data={"csrf": token, **BASE}).status_code == 403
    assert client.get(view_game + "/hand/0").status_code == 403
    assert client.get(links["view"] + "/desmoche/new").status_code == 403
    assert doc(client, links) == before


def test_live_poll(client, links):
    game = add_series(client, links)
    version = re.search(r'data-version="(\d+)"', client.get(game).get_data(as_text=True)).group(1)
    hx = {"HX-Request": "true"}
    assert unchanged(client.get(f"{links['view']}/desmoche/0?since={version}", headers=hx))
    hand(client, game, "none")
    body = client.get(f"{links['view']}/desmoche/0?since={version}", headers=hx).get_data(as_text=True)
    assert body.lstrip().startswith('<section id="live"') and "doble" in body


def test_a_stale_position_is_refused(client, links):
    game = add_series(client, links)
    old = client.get(game).get_data(as_text=True)
    hand(client, game, "none")
    resp = client.post(game + "/hand", data={**form_fields(old, game + "/hand"), "winner": "p:Ane"})
    assert resp.status_code == 409 and "That tap was already recorded" in resp.get_data(as_text=True)
    assert len(doc(client, links)["games"][0]["hands"]) == 1


def test_a_double_submit_lands_once(client, links):
    game = add_series(client, links)
    page = client.get(game).get_data(as_text=True)
    data = {**form_fields(page, game + "/hand"), "winner": "none"}
    assert client.post(game + "/hand", data=data).status_code == 303
    assert client.post(game + "/hand", data=data).status_code == 303
    assert len(doc(client, links)["games"][0]["hands"]) == 1


def test_state_json_is_the_engine_compute_of_the_exported_file(client, links):
    game = add_series(client, links, side_on_oro="on", side_oro="5", side_on_par_rojo="on", side_par_rojo="3")
    hand(client, game, "none", joined=["Ane", "Carlos"])
    hand(client, game, "p:Carlos", mico="1", same_suit="1", arriba=["Ane"], joined=["Ane", "Bea"],
         side_oro_winner="p:Bea", side_par_rojo_joined=["Bea", "Carlos"], side_par_rojo_winner="p:Bea")
    post(client, game, "/stake", [("new_stake", "15")])
    exported = doc(client, links)
    assert served(client, links) == S.state_of(S.load(exported))["games"][0]
    canonical = DM.to_doc(DM.build(exported["games"][0], exported["players"]))
    assert DM.state(DM.build(canonical, exported["players"])) == served(client, links)
    assert sum(state(client, links)["net"].values()) + state(client, links)["pot"] + \
        sum(state(client, links)["side_pots"].values()) == 0


def test_the_game_page_shows_the_last_three_hands_and_links_to_every_hand(client, links):
    game = add_series(client, links)
    for winner in ("p:Ane", "p:Bea", "p:Carlos", "p:Ane"):
        hand(client, game, winner)
    page = client.get(game).get_data(as_text=True)
    assert re.findall(r"<strong>Hand (\d+)</strong>", page) == ["4", "3", "2"]   # the newest first
    assert page.count("Correct</a>") == 3 and 'href="' + game + '/hand/0"' not in page
    assert 'href="' + links["edit"] + '/history#game-0"' in page
    assert "Ane won: took the pot of 30" in history(client, links)              # hand 1, with its reason
    assert client.get(game + "/hand/0").status_code == 200


def test_the_undo_button_says_what_it_takes_back(client, links):
    game = add_series(client, links)
    assert "Remove this game" in client.get(game).get_data(as_text=True)    # nothing recorded yet
    hand(client, game, "none")
    page = client.get(game).get_data(as_text=True)
    assert "↶ Undo last" in page and "Remove this game" not in page
    assert "Undo" not in client.get(links["view"] + "/desmoche/0").get_data(as_text=True)


def toast_of(client, resp) -> str | None:
    """The one line under the score on the page a recorded tap goes back to."""
    page = client.get(resp.headers["Location"]).get_data(as_text=True)
    m = re.search(r'<span class="toast-text">✓ ([^<]*)</span>', page)
    return m.group(1) if m else None


def test_a_toast_says_what_each_tap_recorded(client, links):
    game = add_series(client, links)
    assert "toast" not in client.get(game).get_data(as_text=True)     # nothing recorded: no toast
    resp = hand(client, game, "none")
    assert "done=1" in resp.headers["Location"]
    assert toast_of(client, resp) == "Hand 1: no winner, 30 rolls over"
    assert toast_of(client, hand(client, game, "p:Bea", arriba=["Carlos"], mico="1")) == \
        "Hand 2: Bea won 60 +30 bonuses"
    resp = post(client, game, "/stake", [("new_stake", "20")])
    assert toast_of(client, resp) == "Stake 20 from hand 3"
    url = game + "/hand/0"
    form = client.get(url).get_data(as_text=True)
    resp = client.post(url, data=MultiDict([*form_fields(form, url).items(), ("winner", "p:Ane"), ("stake", "10")]))
    assert resp.status_code == 303 and toast_of(client, resp) == "Hand 1 corrected"
    assert toast_of(client, post(client, game, "/end")) == "Series over"
    # the toast is for the phone that tapped: a reload without done=1, or the watch link, shows none
    assert "toast-text" not in client.get(game + "?step=hand").get_data(as_text=True)
    assert "toast-text" not in client.get(links["view"] + "/desmoche/0?done=1&step=hand").get_data(as_text=True)


def test_the_thumb_bar_holds_who_won_and_record(client, links):
    game = add_series(client, links)
    page = client.get(game).get_data(as_text=True)
    thumb = page[page.index('id="thumb"'):]
    # who won and Record are in the bar, in the hand form; the rest of the hand above belongs to that form
    assert f'action="{game}/hand"' in thumb and 'id="hand-form"' in thumb and "Record hand 1" in thumb
    assert all(f'name="winner" value="p:{p}" required>' in thumb for p in ("Ane", "Bea", "Carlos"))
    assert 'name="winner" value="none" required>' in thumb and " checked" not in thumb   # nobody chosen
    body = page[:page.index('id="thumb"')]
    assert 'form="hand-form" name="arriba" value="Ane">' in body and 'form="hand-form" name="mico"' not in body
    assert 'name="mico" value="" inputmode="numeric" min="0" step="1" placeholder="0" form="hand-form"' in body
    assert "every loser pays it, ticked or not" in body                # an automatic win's arriba, said
    hand(client, game, "none")
    post(client, game, "/end")
    assert 'id="thumb"' not in client.get(game).get_data(as_text=True)
    assert 'id="thumb"' not in client.get(links["view"] + "/desmoche/0").get_data(as_text=True)


def test_correcting_an_automatic_win_ticks_no_arriba(client, links):
    # the automatic win charges every loser arriba by itself; the correction form ticks nobody, so taking the
    # automatic win away charges nobody arriba unless someone is ticked
    game = add_series(client, links)
    hand(client, game, "p:Ane", auto_win="peladilla")
    assert state(client, links)["net"] == {"Ane": 40, "Bea": -20, "Carlos": -20}
    url = game + "/hand/0"
    form = client.get(url).get_data(as_text=True)
    assert 'name="auto_win" value="peladilla" checked' in form and 'name="arriba" value="Bea" checked' not in form
    fields = re.findall(r'<input type="(?:radio|checkbox)" name="([^"]+)" value="([^"]*)" checked', form)
    fields = [(k, v) for k, v in fields if k != "auto_win"] + [("auto_win", "none"), ("stake", "10")]
    resp = client.post(url, data=MultiDict([*form_fields(form, url).items(), *fields]))
    assert resp.status_code == 303, resp.get_data(as_text=True)[-2000:]
    assert doc(client, links)["games"][0]["hands"][0] == {"winner": "Ane"}
    assert state(client, links)["net"] == {"Ane": 20, "Bea": -10, "Carlos": -10}
