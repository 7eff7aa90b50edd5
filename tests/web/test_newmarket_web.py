"""Newmarket through the Flask client: adding a game, deals, boodles, the dummy, payouts, parlett Queens,
free ante, the end of the game, carry-over, undo, corrections, the view link and bad input."""
import re

import pytest
from werkzeug.datastructures import MultiDict

from companion.record import session as S
from companion.kinds.newmarket import KIND as NM
from companion.kinds.newmarket import view as nm_view
from companion.kinds.newmarket.shape import table_of
from helpers import csrf, form_fields, new_session, unchanged

PLAYERS = ("Ane", "Bea", "Carlos", "Dani")
BASE = {"seat0": "Ane", "seat1": "Bea", "seat2": "Carlos", "seat3": "Dani", "variant": "classic", "ante": "1",
        "dealer_ante": "", "free_ante": "0", "kitty_ante": "0", "payout": "cards", "boodles": "AH KC QD JS",
        "leftover": "share", "pool_ante": "1", "start_chips": "20", "chip_value": "0.10"}


def add_game(client, links, status=303, **fields):
    url = links["edit"] + "/newmarket/new"
    page = client.get(url).get_data(as_text=True)
    data = {**form_fields(page, url), **BASE, **fields}
    data = {k: v for k, v in data.items() if v is not None}
    resp = client.post(url, data=data)
    assert resp.status_code == status, resp.get_data(as_text=True)
    return resp.headers.get("Location") if status == 303 else resp.get_data(as_text=True)


def act(client, game_url, route, status=303, **fields):
    """Post one of the game page's forms as a phone would (its hidden fields + ``fields``). The end of a deal
    is a screen of its own (``?end=1``); before the first Queen, the dead hand is a choice of the bar's picker
    (its form posts to /boodle), so its hidden fields are that form's."""
    page = client.get(game_url + ("?end=1" if route == "/end" else "")).get_data(as_text=True)
    if route == "/exchange" and f'action="{game_url}/exchange"' not in page:
        hidden = form_fields(page, game_url + "/boodle")
        assert 'name="card" value="dead"' in page
    else:
        hidden = form_fields(page, game_url + route)
    data = {**hidden, **fields}
    resp = client.post(game_url + route, data=data)
    assert resp.status_code == status, resp.get_data(as_text=True)[-3000:]
    return resp


def served(client, links, gi=0):
    """The game's entry in the served state JSON (companion-state/1)."""
    return client.get(links["edit"] + "/state.json").get_json()["games"][gi]


def state(client, links, gi=0):
    """The served state, with what the table's page knows besides (the next dealer, the face-up cards, each
    deal's result, the leftovers, what a carry game hands on), worked out from the exported file by the
    kind itself."""
    st = served(client, links, gi)
    rec = S.load(doc(client, links)).games[gi]
    current, info = NM.current(rec)
    model = nm_view.page(rec, list(rec.items), 0)
    return {**st, "dealer": model["st"]["dealer"], "face_up": list(current["face_up"]),
            "face_down": model["st"]["face_down"], "deals": [item.result or info for item in rec.items],
            "leftovers": model["st"]["leftovers"], "carry_out": table_of(NM.seed_out(rec)),
            "brought_in": NM.brought_in(rec), "on_table": NM.on_table(current)}


def computed(game_doc, players=PLAYERS, seed=None):
    """What the kind computes from an exported game object (the state JSON's entry)."""
    return NM.state(NM.build(game_doc, list(players), seed))


def doc(client, links):
    return client.get(links["edit"] + "/session.json").get_json()


def history(client, links):
    """The hand-by-hand page, where every chip movement is listed with its reason."""
    return client.get(links["edit"] + "/history").get_data(as_text=True)


@pytest.fixture
def links(client):
    return new_session(client, players=PLAYERS)


def test_add_a_classic_game_and_see_the_boodle_cards(client, links):
    game = add_game(client, links)
    assert game.endswith("/newmarket/0")
    g = doc(client, links)["games"][0]
    assert g["rules"]["boodles"] == ["AH", "KC", "QD", "JS"] and g["chip_value"] == 10
    assert g["seats"] == list(PLAYERS)
    page = client.get(game).get_data(as_text=True)
    for label in ("A♥", "K♣", "Q♦", "J♠"):
        assert f'aria-label="{label}"' in page
    assert 'class="pcard red"' in page and 'class="pcard black"' in page
    assert "Start deal 1" in page and "Ane</strong> deals" in page
    session_page = client.get(links["edit"]).get_data(as_text=True)
    assert "Classic · deal 1 next" in session_page


def test_new_game_form_offers_the_session_players_in_seat_order(client, links):
    page = client.get(links["edit"] + "/newmarket/new").get_data(as_text=True)
    for i, p in enumerate(PLAYERS):
        assert re.search(rf'name="seat{i}">.*?<option value="{p}" selected>', page, re.S)
    assert 'value="0.10"' in page


@pytest.mark.parametrize("fields, field, message", [
    ({"ante": "abc"}, "ante", "is not a whole number"),
    ({"start_chips": "-3"}, "start_chips", "Cannot be negative"),
    ({"chip_value": "ten cents"}, "chip_value", "Not an amount"),
    ({"boodles": "ZZ KC QD JS"}, "boodles", "is not a card"),
    ({"boodles": "AH KC QD"}, "boodles", "needs 4 boodle cards"),
    ({"seat2": "", "seat3": ""}, "seats", "needs 3 to 8 players"),
    ({"seat3": "Ane"}, "seats", "seated twice"),
    ({"variant": "poker"}, "variant", "must be one of"),
])
def test_new_game_refuses_bad_fields_beside_the_field(client, links, fields, field, message):
    page = add_game(client, links, status=422, **fields)
    assert re.search(rf'id="err-{field}"[^>]*>[^<]*{message}', page), page
    assert doc(client, links)["games"] == []


def test_boodle_symbols_are_understood(client, links):
    add_game(client, links, boodles="A♥ K♠ q♦ 10♣")
    assert doc(client, links)["games"][0]["rules"]["boodles"] == ["AH", "KS", "QD", "10C"]


def test_worked_example_deal_and_shared_leftovers(client, links):
    game = add_game(client, links)
    act(client, game, "/start")
    page = client.get(game).get_data(as_text=True)
    # the bar's picker: the card played (K♣ among them), then who played it
    assert "Deal 1 in play" in page and 'name="card" value="KC"' in page and 'name="by" value="Carlos"' in page
    assert all(v == 4 for v in state(client, links)["pots"].values())
    act(client, game, "/boodle", card="KC", by="Carlos")
    act(client, game, "/end", out="Bea", left_0="3", left_2="5", left_3="1")
    st = state(client, links)
    assert st["chips"] == {"Ane": 13, "Bea": 25, "Carlos": 15, "Dani": 15}
    assert st["pots"] == {"AH": 4, "KC": 0, "QD": 4, "JS": 4}
    assert st["dealer"] == "Bea"                                  # the dealer moves on by itself
    page = client.get(game).get_data(as_text=True)
    assert "Bea went out: collected 9 (Ane 3, Carlos 5, Dani 1)" in page
    assert 'href="' + links["edit"] + '/history#game-0"' in page      # every chip, on the hand-by-hand page
    assert "Bea went out: Ane paid 3 (3 cards)" in history(client, links)   # the log says why
    assert "12 chips on the table are shared: 3 each" in page
    act(client, game, "/end-game")
    st = state(client, links)
    assert st["chips"] == {"Ane": 16, "Bea": 28, "Carlos": 18, "Dani": 18} and st["ended"]
    page = client.get(game).get_data(as_text=True)
    assert "Game over" in page and "12 chips left on the table, shared: 3 each" in page
    assert "+€0.80" in page and "-€0.40" in page                    # net in money (0.10 a chip)
    assert 'action="' + game + '/start"' not in page


def test_odd_chips_are_named(client, links):
    game = add_game(client, links, dealer_ante="2")
    act(client, game, "/start")                                     # 5 on each card
    act(client, game, "/boodle", card="KC", by="Carlos")
    act(client, game, "/end", out="Bea", left_0="0", left_2="0", left_3="0")
    page = client.get(game).get_data(as_text=True)
    assert "15 chips on the table are shared: 3 each, and the odd chips to Bea, Carlos, Dani" in page
    act(client, game, "/end-game")
    st = state(client, links)
    assert st["leftovers"]["odd_to"] == ["Bea", "Carlos", "Dani"]
    assert "odd chips to Bea, Carlos, Dani" in client.get(game).get_data(as_text=True)
    assert sum(st["net"].values()) == 0


def test_dummy_sold_and_swapped(client, links):
    game = add_game(client, links)
    act(client, game, "/start")
    resp = act(client, game, "/dummy", status=422, dummy="sold", sold_to="Bea", price="-2")
    assert re.search(r'id="err-price"[^>]*>(Cannot be negative|Must be between 0 and)', resp.get_data(as_text=True))
    resp = act(client, game, "/dummy", status=422, dummy="sold", sold_to="Bea", price="two")
    assert re.search(r'id="err-price"[^>]*>[^<]*is not a price in chips', resp.get_data(as_text=True))
    resp = act(client, game, "/dummy", status=422, dummy="sold", sold_to="Zed", price="2")
    assert "is not seated at this game" in resp.get_data(as_text=True)
    assert "dummy" not in doc(client, links)["games"][0]["deals"][0]
    act(client, game, "/dummy", dummy="sold", sold_to="Bea", price="2")
    st = state(client, links)
    assert st["chips"]["Bea"] == 14 and st["chips"]["Ane"] == 18
    page = client.get(game).get_data(as_text=True)
    assert "Bea bought the dummy for 2" in page and 'action="' + game + '/dummy"' not in page
    act(client, game, "/end", out="Ane", left_1="1", left_2="1", left_3="1")
    act(client, game, "/start")
    act(client, game, "/dummy", dummy="swap")
    assert doc(client, links)["games"][0]["deals"][1]["dummy"] == {"swap": True}


@pytest.mark.parametrize("route, fields, field, message", [
    ("/boodle", {"card": "2H", "by": "Ane"}, "boodle", "2H is not a boodle card"),
    ("/boodle", {"card": "KC", "by": "Zed"}, "boodle", "is not seated"),
    ("/end", {"out": "Bea", "left_0": "3", "left_1": "2", "left_2": "1", "left_3": "1"}, "left_1",
     "Bea went out: he has no cards left"),
    ("/end", {"out": "Bea", "left_0": "three", "left_2": "1", "left_3": "1"}, "left_0", "is not a number of cards"),
    ("/end", {"out": "Bea", "left_0": "-1", "left_2": "1", "left_3": "1"}, "left_0",
     "(Cannot be negative|Must be between 0 and)"),
    ("/end", {"out": "Bea", "left_0": "1", "left_3": "1"}, "left_2", "How many cards does Carlos still hold"),
    ("/end", {"left_0": "1"}, "out", "Tap who went out"),
    ("/end", {"out": "Zed"}, "out", "is not seated"),
])
def test_bad_input_during_a_deal_is_refused_beside_the_field(client, links, route, fields, field, message):
    game = add_game(client, links)
    act(client, game, "/start")
    before = doc(client, links)
    resp = act(client, game, route, status=422, **fields)
    page = resp.get_data(as_text=True)
    assert re.search(rf'id="err-{field}"[^>]*>[^<]*{message}', page), page[-4000:]
    assert doc(client, links) == before


def test_a_refusal_with_no_field_on_screen_shows_on_top(client, links):
    game = add_game(client, links)
    act(client, game, "/start")
    page = client.get(game).get_data(as_text=True)
    resp = client.post(game + "/start", data=form_fields(page, game + "/boodle"))   # a deal is in play
    assert resp.status_code == 422
    assert re.search(r'id="err-form"[^>]*>Deal 1 is still in progress', resp.get_data(as_text=True))
    assert len(doc(client, links)["games"][0]["deals"]) == 1


def test_two_outs_in_one_deal_are_refused(client, links):
    game = add_game(client, links, payout="flat")
    act(client, game, "/start")
    page = client.get(game + "?end=1").get_data(as_text=True)
    hidden = form_fields(page, game + "/end")
    resp = client.post(game + "/end", data=MultiDict([*hidden.items(), ("out", "Bea"), ("out", "Ane")]))
    assert resp.status_code == 422 and "Only one player goes out in a deal." in resp.get_data(as_text=True)
    act(client, game, "/end", out="Bea")
    # a second "out" for the same deal (a phone that did not see the first one, no position token)
    hidden.pop("at")
    hidden["k"] = "another-tap"
    resp = client.post(game + "/end", data={**hidden, "out": "Carlos"})
    assert resp.status_code == 422 and "Bea already went out in deal 1" in resp.get_data(as_text=True)
    assert state(client, links)["chips"]["Bea"] == 19 and state(client, links)["chips"]["Carlos"] == 15


def test_parlett_queen_turns_the_king_and_the_last_king_ends_the_game(client, links):
    game = add_game(client, links, variant="parlett", pool_ante="1")
    act(client, game, "/start")
    page = client.get(game).get_data(as_text=True)
    assert "Who played a Queen?" in page and "takes K♣: <strong>4 chips" in page
    act(client, game, "/exchange", by="Carlos")                     # non-dealer: 1 more to the pool
    assert 'name="card" value="dead"' not in client.get(game).get_data(as_text=True)   # taken: no more
    assert state(client, links)["pool"] == 5
    act(client, game, "/boodle", card="QC", by="Carlos")
    st = state(client, links)
    assert st["face_down"] == ["KC"] and st["chips"]["Carlos"] == 18
    page = client.get(game).get_data(as_text=True)
    assert 'class="pcard back" role="img" aria-label="K♣ face down"' in page
    # no Queen of a face-down King in the bar's picker (the other three still are)
    assert 'name="card" value="QC"' not in page and 'name="card" value="QH"' in page
    resp = act(client, game, "/boodle", status=422, card="KH", by="Ane")
    assert "is not a Queen" in resp.get_data(as_text=True)
    act(client, game, "/end", blocked="1")
    assert state(client, links)["pool"] == 5                        # blocked: the pool carries
    act(client, game, "/start")                                      # antes only on the 3 face-up Kings
    st = state(client, links)
    assert st["pots"]["KC"] == 0 and st["pots"]["KH"] == 8 and st["pool"] == 9
    for card, who in (("QH", "Ane"), ("QS", "Bea"), ("QD", "Dani")):
        act(client, game, "/boodle", card=card, by=who)
    st = state(client, links)
    assert st["ended"] and st["face_up"] == [] and st["pool"] == 0
    assert st["deals"][-1]["ends_game"] and st["deals"][-1]["pool_taken"] == 9
    page = client.get(game).get_data(as_text=True)
    assert "Game over" in page and "Last King taken: the game is over (Dani took the pool of 9)" in page
    assert page.count('class="pcard back"') == 4
    assert sum(st["chips"].values()) == 80


def test_free_ante_is_placed_per_player(client, links):
    game = add_game(client, links, free_ante="4")
    page = client.get(game).get_data(as_text=True)
    assert 'name="ante_0_AH" aria-label="Ane on A♥"' in page and 'value="1"' in page
    fields = {f"ante_{i}_{c}": "1" for i in range(4) for c in ("AH", "KC", "QD", "JS")}
    resp = act(client, game, "/start", status=422, **{**fields, "ante_1_AH": "3"})
    assert re.search(r'id="err-ante_1"[^>]*>Bea must place exactly 4 chips \(placed 6\)', resp.get_data(as_text=True))
    resp = act(client, game, "/start", status=422, **{**fields, "ante_2_KC": "x"})
    assert 'id="err-ante_2_KC"' in resp.get_data(as_text=True)
    assert doc(client, links)["games"][0]["deals"] == []
    act(client, game, "/start", **{**fields, "ante_1_AH": "4", "ante_1_KC": "0", "ante_1_QD": "0", "ante_1_JS": "0"})
    d = doc(client, links)["games"][0]["deals"][0]
    assert d["antes"]["Bea"] == {"AH": 4} and d["antes"]["Ane"] == {"AH": 1, "KC": 1, "QD": 1, "JS": 1}
    assert state(client, links)["pots"] == {"AH": 7, "KC": 3, "QD": 3, "JS": 3}


def test_a_named_dealer_and_cancel_deal(client, links):
    game = add_game(client, links)
    act(client, game, "/start", dealer="Carlos")
    assert state(client, links)["dealer"] == "Carlos"
    act(client, game, "/cancel")
    st = state(client, links)
    assert st["deals"] == [] and st["chips"]["Ane"] == 20
    resp = act(client, game, "/start", status=422, dealer="Zed")
    assert 'id="err-dealer"' in resp.get_data(as_text=True)


def test_leftover_carry_seeds_the_next_game(client, links):
    game = add_game(client, links, leftover="carry", kitty_ante="1")
    form = client.get(links["edit"] + "/newmarket/new").get_data(as_text=True)
    assert "Game 1 keeps its leftovers on the table but has not ended: end it first" in form
    act(client, game, "/start")
    act(client, game, "/boodle", card="AH", by="Dani")
    act(client, game, "/end", blocked="1")
    act(client, game, "/end-game")
    first = state(client, links)
    assert first["carry_out"] == {"KC": 4, "QD": 4, "JS": 4, "kitty": 4}
    page = client.get(game).get_data(as_text=True)
    assert "16 chips stay on the table for the next Newmarket game" in page
    form = client.get(links["edit"] + "/newmarket/new").get_data(as_text=True)
    assert "Game 1 left chips on the table; this game starts with them: K♣ 4 · Q♦ 4 · J♠ 4 · kitty 4" in form
    second = add_game(client, links, kitty_ante="1", carry_in='{"AH": 99}')   # a posted carry_in is ignored
    assert second.endswith("/newmarket/1")
    d = doc(client, links)
    assert "carry_in" not in d["games"][1]                 # worked out from game 1, never written
    assert table_of(S.load(d).games[1].seed) == first["carry_out"]
    st2 = state(client, links, 1)
    assert st2["pots"] == {"AH": 0, "KC": 4, "QD": 4, "JS": 4} and st2["kitty"] == 4
    assert st2["brought_in"] == 80 + 16
    assert "with K♣ 4, Q♦ 4, J♠ 4, kitty 4 carried" in client.get(second).get_data(as_text=True)


def test_carried_chips_need_the_same_piles(client, links):
    game = add_game(client, links, leftover="carry")
    act(client, game, "/start")
    act(client, game, "/end", out="Bea", left_0="1", left_2="1", left_3="1")
    act(client, game, "/end-game")
    page = add_game(client, links, status=422, variant="parlett")
    assert re.search(r'id="err-carry"[^>]*>The chips carried from game 1 lie on piles this game does not have '
                     r'\(4 on A♥\)', page)
    page = add_game(client, links, status=422, chip_value="0.20")
    assert re.search(r'id="err-chip_value"[^>]*>The chips carried from game 1 are worth €0.10 each', page)
    assert len(doc(client, links)["games"]) == 1


def test_undo_is_exact(client, links):
    game = add_game(client, links)
    act(client, game, "/start")
    act(client, game, "/boodle", card="KC", by="Carlos")
    before = doc(client, links)
    before_state = state(client, links)
    act(client, game, "/end", out="Bea", left_0="3", left_2="5", left_3="1")
    page = client.get(game).get_data(as_text=True)
    undo_url = links["edit"] + "/undo/0"
    resp = client.post(undo_url, data=form_fields(page, undo_url))
    assert resp.status_code == 303 and resp.headers["Location"].endswith("/newmarket/0")
    assert doc(client, links) == before and state(client, links) == before_state


def test_correcting_a_past_deal_recomputes_everything_after(client, links):
    game = add_game(client, links)
    act(client, game, "/start")
    act(client, game, "/boodle", card="KC", by="Carlos")
    act(client, game, "/end", out="Bea", left_0="3", left_2="5", left_3="1")
    act(client, game, "/start")
    act(client, game, "/end", out="Ane", left_1="2", left_2="2", left_3="2")
    url = game + "/deal/0"
    form = client.get(url).get_data(as_text=True)
    assert 'name="left_0" value="3"' in form and 'name="left_2" value="5"' in form
    assert '<option value="p:Carlos" selected>' in form                         # K♣ taken by Carlos
    assert re.search(r'name="end" value="p:Bea" checked', form)
    data = {**form_fields(form, url), "dealer": "Ane", "dummy": "none", "won_KC": "p:Dani", "won_AH": "",
            "won_QD": "", "won_JS": "", "end": "p:Bea", "left_0": "6", "left_2": "5", "left_3": "1"}
    resp = client.post(url, data=data)
    assert resp.status_code == 303, resp.get_data(as_text=True)
    d = doc(client, links)
    assert d["games"][0]["deals"][0]["cards_left"]["Ane"] == 6
    assert d["games"][0]["deals"][0]["boodles_won"] == [{"card": "KC", "by": "Dani"}]
    assert "dealer" not in d["games"][0]["deals"][0]
    assert served(client, links) == S.state_of(S.load(d))["games"][0]
    # a correction that makes no sense is refused beside its field, nothing stored
    form = client.get(url).get_data(as_text=True)
    resp = client.post(url, data={**form_fields(form, url), "dealer": "Ane", "dummy": "sold", "sold_to": "Ane",
                                  "price": "1", "end": "p:Bea", "left_0": "6", "left_2": "5", "left_3": "1"})
    assert resp.status_code == 422
    assert re.search(r'id="err-sold_to"[^>]*>Ane is the dealer', resp.get_data(as_text=True))
    resp = client.post(url, data={**form_fields(form, url), "dealer": "Ane", "end": "p:Bea", "left_0": "x"})
    assert resp.status_code == 422 and 'id="err-left_0"' in resp.get_data(as_text=True)
    assert doc(client, links) == d
    assert client.get(game + "/deal/7").status_code == 404


def test_the_view_link_shows_piles_and_writes_nothing(client, links):
    game = add_game(client, links)
    act(client, game, "/start")
    view_game = links["view"] + "/newmarket/0"
    page = client.get(view_game).get_data(as_text=True)
    assert 'id="live"' in page and 'class="pile"' in page and "Deal 1 in play" in page
    assert '<form method="post"' not in page and "Correct</a>" not in page
    before = doc(client, links)
    token = csrf(client)
    for route in ("/start", "/boodle", "/dummy", "/exchange", "/end", "/cancel", "/end-game", "/deal/0"):
        assert client.post(view_game + route, data={"csrf": token, "card": "KC", "by": "Ane"}).status_code == 403
    assert client.post(links["view"] + "/newmarket/new", data={"csrf": token, **BASE}).status_code == 403
    assert client.get(view_game + "/deal/0").status_code == 403
    assert client.get(links["view"] + "/newmarket/new").status_code == 403
    assert doc(client, links) == before


def test_live_poll_answers_unchanged_or_the_live_block_when_changed(client, links):
    game = add_game(client, links)
    version = re.search(r'data-version="(\d+)"', client.get(game).get_data(as_text=True)).group(1)
    hx = {"HX-Request": "true"}
    assert unchanged(client.get(f"{links['view']}/newmarket/0?since={version}", headers=hx))
    act(client, game, "/start")
    resp = client.get(f"{links['view']}/newmarket/0?since={version}", headers=hx)
    body = resp.get_data(as_text=True)
    assert resp.status_code == 200 and body.lstrip().startswith('<section id="live"')
    assert "Deal 1 in play" in body and "<html" not in body


def test_a_stale_position_is_refused(client, links):
    game = add_game(client, links)
    act(client, game, "/start")
    old = client.get(game).get_data(as_text=True)
    act(client, game, "/boodle", card="KC", by="Carlos")
    stale = form_fields(old, game + "/boodle")
    resp = client.post(game + "/boodle", data={**stale, "card": "AH", "by": "Ane"})
    assert resp.status_code == 409
    assert "That tap was already recorded" in resp.get_data(as_text=True)
    assert [b["card"] for b in doc(client, links)["games"][0]["deals"][0]["boodles_won"]] == ["KC"]


def test_a_double_submit_lands_once(client, links):
    game = add_game(client, links)
    act(client, game, "/start")
    page = client.get(game).get_data(as_text=True)
    data = {**form_fields(page, game + "/boodle"), "card": "KC", "by": "Carlos"}
    first = client.post(game + "/boodle", data=data)
    second = client.post(game + "/boodle", data=data)
    assert first.status_code == second.status_code == 303
    assert second.headers["Location"] == first.headers["Location"]
    assert len(doc(client, links)["games"][0]["deals"][0]["boodles_won"]) == 1
    assert state(client, links)["chips"]["Carlos"] == 20


def test_state_json_is_the_engine_compute_of_the_exported_file(client, links):
    game = add_game(client, links, kitty_ante="1")
    act(client, game, "/start")
    act(client, game, "/dummy", dummy="sold", sold_to="Dani", price="3")
    act(client, game, "/boodle", card="JS", by="Ane")
    act(client, game, "/end", out="Dani", left_0="2", left_1="4", left_2="0")
    act(client, game, "/start")
    exported = doc(client, links)
    assert served(client, links) == S.state_of(S.load(exported))["games"][0]
    canonical = NM.to_doc(NM.build(exported["games"][0], exported["players"]))
    assert computed(canonical, exported["players"]) == served(client, links)


def test_headline_on_the_session_page(client, links):
    game = add_game(client, links)
    act(client, game, "/start")
    act(client, game, "/boodle", card="KC", by="Carlos")
    act(client, game, "/end", out="Bea", left_0="3", left_2="5", left_3="1")
    page = client.get(links["edit"]).get_data(as_text=True)
    assert "Classic · deal 2 next · Bea 25 · Carlos 15 · Dani 15 · Ane 13" in page


def test_correcting_away_the_last_king_reopens_the_game(client, links):
    game = add_game(client, links, variant="parlett", pool_ante="1")
    act(client, game, "/start")
    for card, who in (("QS", "Ane"), ("QH", "Bea"), ("QD", "Carlos")):
        act(client, game, "/boodle", card=card, by=who)
    act(client, game, "/end", blocked="1")
    act(client, game, "/start")
    act(client, game, "/boodle", card="QC", by="Dani")
    assert state(client, links)["ended"]
    url = game + "/deal/1"
    form = client.get(url).get_data(as_text=True)
    assert re.search(r'name="end" value="king" checked', form)
    # the Queen of clubs was never played: the deal was blocked, the game goes on
    fields = {**form_fields(form, url), "dealer": "Bea", "exchange": "none", "won_QC": "", "end": "blocked"}
    resp = client.post(url, data=fields)
    assert resp.status_code == 303, resp.get_data(as_text=True)[-3000:]
    st = state(client, links)
    assert not st["ended"] and st["face_up"] == ["KC"] and sum(st["chips"].values()) + st["on_table"] == 80
    assert "Start deal 3" in client.get(game).get_data(as_text=True)


def test_a_correction_without_an_ending_says_so_beside_the_ending(client, links):
    game = add_game(client, links, variant="parlett", pool_ante="1")
    act(client, game, "/start")
    act(client, game, "/end", blocked="1")
    url = game + "/deal/0"
    form = client.get(url).get_data(as_text=True)
    before = doc(client, links)
    resp = client.post(url, data={**form_fields(form, url), "dealer": "Ane", "exchange": "none", "end": "king"})
    assert resp.status_code == 422
    assert re.search(r'id="err-end"[^>]*>[^<]*who went out', resp.get_data(as_text=True))
    assert doc(client, links) == before


def test_the_game_page_shows_the_last_three_deals_and_links_to_every_deal(client, links):
    game = add_game(client, links, payout="flat")
    for out in ("Ane", "Bea", "Carlos", "Dani"):
        act(client, game, "/start")
        act(client, game, "/end", out=out)
    page = client.get(game).get_data(as_text=True)
    shown = re.findall(r"<strong>Deal (\d+)</strong>", page)
    assert shown == ["4", "3", "2"]                                   # the newest first, deal 1 is not there
    assert page.count("Correct</a>") == 3 and 'href="' + game + '/deal/0"' not in page
    assert 'href="' + links["edit"] + '/history#game-0"' in page
    past = history(client, links)
    assert "Deal 1" in past and "Ane went out: Bea paid 1 (flat)" in past
    assert client.get(game + "/deal/0").status_code == 200           # still correctable from its own URL


def test_one_king_face_up_means_bury_the_jack_not_an_exchange(client, links):
    game = add_game(client, links, variant="parlett", pool_ante="1")
    act(client, game, "/start")
    for card, who in (("QS", "Ane"), ("QH", "Bea"), ("QD", "Carlos")):
        act(client, game, "/boodle", card=card, by=who)
    act(client, game, "/end", blocked="1")
    act(client, game, "/start")                                       # only K♣ is face up
    page = client.get(game).get_data(as_text=True)
    assert "Bury the Jack" in page and "Dead hand taken by" not in page
    assert 'action="' + game + '/exchange"' not in page
    # a phone that still shows the exchange (or a crafted form): refused, said on top, nothing stored
    before = doc(client, links)
    resp = client.post(game + "/exchange", data={**form_fields(page, game + "/boodle"), "by": "Bea"})
    assert resp.status_code == 422
    assert re.search(r'id="err-form"[^>]*>Only K♣ is face up: this deal has no dead-hand exchange',
                     resp.get_data(as_text=True))
    assert doc(client, links) == before


def test_the_undo_button_says_what_it_takes_back(client, links):
    game = add_game(client, links)
    page = client.get(game).get_data(as_text=True)
    assert "Remove this game" in page                                 # nothing recorded yet
    act(client, game, "/start")
    page = client.get(game).get_data(as_text=True)
    assert "↶ Undo last" in page and "Remove this game" not in page
    assert "Undo" not in client.get(links["view"] + "/newmarket/0").get_data(as_text=True)


def test_correcting_a_bury_the_jack_deal_says_so(client, links):
    game = add_game(client, links, variant="parlett", pool_ante="1")
    act(client, game, "/start")
    for card, who in (("QS", "Ane"), ("QH", "Bea"), ("QD", "Carlos")):
        act(client, game, "/boodle", card=card, by=who)
    act(client, game, "/end", blocked="1")
    act(client, game, "/start")
    act(client, game, "/end", out="Dani")
    form = client.get(game + "/deal/1").get_data(as_text=True)
    assert "bury the Jack, no chips" in form and "Dead hand taken by" not in form
    assert "Dead hand taken by" in client.get(game + "/deal/0").get_data(as_text=True)


def toast_of(client, resp) -> str | None:
    """The one line under the score on the page a recorded tap goes back to."""
    page = client.get(resp.headers["Location"]).get_data(as_text=True)
    m = re.search(r'<span class="toast-text">✓ ([^<]*)</span>', page)
    return m.group(1) if m else None


def thumb_of(page: str) -> str:
    """The thumb bar: what is after id="thumb" (the bar is the live region's last element)."""
    return page[page.index('id="thumb"'):] if 'id="thumb"' in page else ""


def test_a_toast_says_what_each_tap_recorded(client, links):
    game = add_game(client, links, kitty_ante="1")
    assert "toast-text" not in client.get(game).get_data(as_text=True)          # nothing recorded: no toast
    resp = act(client, game, "/start")
    assert "done=1" in resp.headers["Location"]
    assert toast_of(client, resp) == "Deal 1 started: 20 chips anted"
    assert toast_of(client, act(client, game, "/dummy", dummy="swap")) == "Ane swapped with the dummy"
    assert toast_of(client, act(client, game, "/boodle", card="KC", by="Carlos")) == "Carlos played K♣: +4"
    resp = act(client, game, "/end", out="Bea", left_0="3", left_2="5", left_3="1")
    assert toast_of(client, resp) == "Deal 1 ended: Bea out, +13"              # 9 in cards and the kitty of 4
    act(client, game, "/start")
    assert toast_of(client, act(client, game, "/dummy", dummy="sold", sold_to="Carlos", price="2")) == \
        "Carlos bought the dummy for 2"
    assert toast_of(client, act(client, game, "/cancel")) == "Deal 2 cancelled: antes back"
    act(client, game, "/start")
    assert toast_of(client, act(client, game, "/end", blocked="1")) == "Deal 2 blocked: nobody went out"
    url = game + "/deal/0"
    form = client.get(url).get_data(as_text=True)
    resp = client.post(url, data={**form_fields(form, url), **nm_correct_fields(form)})
    assert resp.status_code == 303 and toast_of(client, resp) == "Deal 1 corrected"
    assert toast_of(client, act(client, game, "/end-game")).startswith("Game over: ")
    # the toast is for the phone that tapped: a reload without done=1, or the watch link, shows none
    assert "toast-text" not in client.get(game + "?step=end").get_data(as_text=True)
    assert "toast-text" not in client.get(links["view"] + "/newmarket/0?done=1&step=end").get_data(as_text=True)


def nm_correct_fields(form: str) -> dict:
    """The correction form's fields as it shows them (selects, radios, numbers): saved unchanged."""
    fields = dict(re.findall(r'<input type="radio" name="([^"]+)" value="([^"]*)" checked', form))
    for name, body in re.findall(r'<select name="([^"]+)">(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected', body)
        fields[name] = chosen.group(1) if chosen else ""
    fields.update(re.findall(r'<input type="number"[^>]* name="(left_\d+)" value="([^"]*)"', form))
    return fields


def test_the_thumb_bar_holds_the_step_now(client, links):
    game = add_game(client, links, variant="parlett", pool_ante="1")
    thumb = thumb_of(client.get(game).get_data(as_text=True))
    assert f'action="{game}/start"' in thumb and "Start deal 1" in thumb and "/end" not in thumb
    act(client, game, "/start")
    page = client.get(game).get_data(as_text=True)
    thumb = thumb_of(page)
    # in a deal: the picker (the dead hand, then the Queens), who played it, and the way to the end of the deal
    assert f'action="{game}/boodle"' in thumb and f'href="{game}?end=1"' in thumb
    assert 'name="card" value="dead"' in thumb and 'name="card" value="QH"' in thumb
    assert thumb.count('name="by"') == 4 and f'action="{game}/end"' not in thumb and " checked" not in thumb
    assert f'action="{game}/start"' not in page
    # the dead hand through the picker is the exchange: free for the dealer, 1 to the pool for anyone else
    act(client, game, "/boodle", card="dead", by="Carlos")
    assert doc(client, links)["games"][0]["deals"][0]["exchange"] == "Carlos" and state(client, links)["pool"] == 5
    thumb = thumb_of(client.get(game).get_data(as_text=True))
    assert 'value="dead"' not in thumb and 'name="card" value="QH"' in thumb
    # the end of the deal: who went out (one tap each), Blocked, back to the deal; no picker
    thumb = thumb_of(client.get(game + "?end=1").get_data(as_text=True))
    assert f'action="{game}/end"' in thumb and 'aria-label="Bea went out"' in thumb and "Blocked" in thumb
    assert 'name="card"' not in thumb and f'href="{game}"' in thumb
    # a refused end comes back on the end screen, with the message in the bar
    page = client.get(game + "?end=1").get_data(as_text=True)
    resp = client.post(game + "/end", data={**form_fields(page, game + "/end"), "out": "Zed"})
    assert resp.status_code == 422
    assert resp.headers["HX-Replace-Url"] == game + "?end=1"           # the address bar names the end screen
    thumb = thumb_of(resp.get_data(as_text=True))
    assert f'action="{game}/end"' in thumb and "is not seated" in thumb
    act(client, game, "/end", out="Bea")
    act(client, game, "/end-game")
    assert 'id="thumb"' not in client.get(game).get_data(as_text=True)             # game over: no bar
    assert 'id="thumb"' not in client.get(links["view"] + "/newmarket/0").get_data(as_text=True)


def test_the_end_of_a_deal_paid_by_cards_is_in_the_bar_and_above_it(client, links):
    game = add_game(client, links)
    act(client, game, "/start")
    page = client.get(game + "?end=1").get_data(as_text=True)
    thumb, body = thumb_of(page), page[:page.index('id="thumb"')]
    # who went out in the bar (the end form), the cards left above it, in the same form
    assert 'id="end-form"' in thumb and 'name="out" value="Bea" id="out-1" required>' in thumb
    assert 'formnovalidate>Blocked' in thumb and "End deal 1 ✓" in thumb
    assert all(f'form="end-form" name="left_{i}"' in body for i in range(4))
    act(client, game, "/end", out="Bea", left_0="3", left_2="5", left_3="1")
    assert served(client, links)["chips"]["Bea"] == 25                   # 20 − 4 antes + 3 + 5 + 1


def test_a_refused_correction_shows_beside_the_boodle_card(client, links):
    """The engine's refusal of one part of a corrected deal goes beside that part's field (a boodle card's
    winner: ``won_<card>``), not on top; nothing is stored."""
    game = add_game(client, links)
    act(client, game, "/start")
    act(client, game, "/boodle", card="KC", by="Carlos")
    act(client, game, "/boodle", card="JS", by="Dani")
    act(client, game, "/end", out="Bea", left_0="3", left_2="5", left_3="1")
    before = doc(client, links)
    url = game + "/deal/0"
    form = client.get(url).get_data(as_text=True)
    sent = {**form_fields(form, url), **nm_correct_fields(form)}
    assert sent["won_KC"] == "p:Carlos" and sent["won_JS"] == "p:Dani"
    resp = client.post(url, data={**sent, "won_JS": "p:Zed"})
    page = resp.get_data(as_text=True)
    assert resp.status_code == 422
    assert re.search(r'id="err-won_JS"[^>]*>[^<]*Zed', page) and 'id="err-won_KC"' not in page
    assert doc(client, links) == before
