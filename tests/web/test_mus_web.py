"""Mus through the Flask client: add a match, record hands lance by lance, the count, undo, correct a past
hand, the view link, stale and double submits, and the state JSON against the engine."""
import html as htmllib
import json
import re

from click.testing import CliRunner

from companion.ops.cli import main as cli_main
from companion.record import session as S
from companion.kinds.mus import view as mus_view
from helpers import unchanged, csrf, new_session
from helpers import form_fields as raw_form_fields


def form_fields(html, action=None):
    """The hidden fields as a browser sends them (entities decoded: the correction's draft is JSON)."""
    return {k: htmllib.unescape(v) for k, v in raw_form_fields(html, action).items()}

SEATS = {"seat0": "Ane", "seat1": "Bea", "seat2": "Carlos", "seat3": "Dani"}


def add_match(client, edit, **opts):
    page = client.get(f"{edit}/mus/new").get_data(as_text=True)
    data = form_fields(page, f"{edit}/mus/new")
    data.update(SEATS)
    data.update({k: str(v) for k, v in opts.items()})
    resp = client.post(f"{edit}/mus/new", data=data)
    assert resp.status_code == 303, resp.get_data(as_text=True)
    return resp.headers["Location"]


def act(client, game, move, expect=303, **fields):
    """Tap one button (``move``) of the scoring page as it is now, with any other fields of its form."""
    page = client.get(game).get_data(as_text=True)
    data = form_fields(page, f"{game}/act")
    data["move"] = move
    data.update({k: str(v) for k, v in fields.items()})
    resp = client.post(f"{game}/act", data=data)
    assert resp.status_code == expect, (move, resp.status_code, errors_in(resp.get_data(as_text=True)))
    return resp


def errors_in(html):
    return re.findall(r'class="(?:error|warning)"[^>]*>([^<]*)<', html)


def doc_of(client, edit):
    return json.loads(client.get(f"{edit}/session.json").get_data(as_text=True))


def mus_state(client, edit, gi=0):
    """The served state, with what the scoring screen knows besides (its status, the hands' summaries,
    the hands that ended each game), worked out from the exported file by the kind itself."""
    st = json.loads(client.get(f"{edit}/state.json").get_data(as_text=True))["games"][gi]
    rec = S.load(doc_of(client, edit)).games[gi]
    model = mus_view.page(rec, list(rec.items))
    return {**st, "status": model["st"]["status"], "game_ends": rec.state["game_ends"],
            "hands": [item.result for item in rec.items if item.result]}


def moves_on(html):
    return set(re.findall(r'name="move" value="([^"]+)"', html))


def setup(client, **opts):
    links = new_session(client)
    game = add_match(client, links["edit"], **opts)
    return links, game


# --------------------------------------------------------------------------------------------------- add


def test_new_match_form_shows_the_table_and_stores_the_game(client):
    links = new_session(client)
    page = client.get(f"{links['edit']}/mus/new").get_data(as_text=True)
    assert page.count('class="sq-seat') == 4 and "mus-a" in page and "mus-b" in page
    for name in ("seat0", "seat1", "seat2", "seat3", "preset", "kings", "target", "games_to_win", "paso_point",
                 "juego_31", "juego_other", "punto_bonus", "stake_game", "stake_match", "fives_A_pos", "name_A"):
        assert f'name="{name}"' in page
    game = add_match(client, links["edit"], preset="spanish", target=30, kings=4, games_to_win=1,
                     stake_game="2.50", stake_match="10", fives_A_pos=1, fives_B_pos=0)
    assert game.endswith("/mus/0")
    g = doc_of(client, links["edit"])["games"][0]
    assert g["seats"] == ["Ane", "Bea", "Carlos", "Dani"]
    assert g["rules"] == {"preset": "spanish", "target": 30, "kings": 4, "games_to_win": 1}
    assert g["stake"] == {"per_game": 250, "per_match": 1000}   # both may be given together
    assert g["stones"] == {"A": {"fives": "Carlos", "ones": "Ane"}, "B": {"fives": "Bea", "ones": "Dani"}}
    page = client.get(game).get_data(as_text=True)
    assert "€2.50</strong> per game" in page and "€10.00</strong> per match" in page
    assert "Carlos <small>5s</small>" in page
    session_page = client.get(links["edit"]).get_data(as_text=True)
    assert "A 0 – 0 B" in session_page


def test_new_match_field_errors_beside_the_field_and_nothing_stored(client):
    links = new_session(client)
    url = f"{links['edit']}/mus/new"
    base = form_fields(client.get(url).get_data(as_text=True), url)
    cases = [
        ({**SEATS, "seat2": "Ane"}, "seat2", "seated twice"),
        ({**SEATS, "seat1": ""}, "seat1", "choose a player"),
        ({**SEATS, "target": "5"}, "target", "between 10 and 100"),
        ({**SEATS, "games_to_win": "two"}, "games_to_win", "whole number"),
        ({**SEATS, "stake_match": "abc"}, "stake_match", "Not an amount"),
        ({**SEATS, "stake_game": "-3"}, "stake_game", "negative"),
        ({**SEATS, "name_A": "x" * 41}, "name_A", "at most 40"),
    ]
    for fields, field, message in cases:
        resp = client.post(url, data={**base, **fields})
        assert resp.status_code == 422, field
        html = resp.get_data(as_text=True)
        err = re.search(rf'<p class="error" id="err-{field}" role="alert">([^<]*)</p>', html)
        assert err and message in err.group(1), (field, errors_in(html))
    assert doc_of(client, links["edit"])["games"] == []


# --------------------------------------------------------------------------------------------------- steps


def test_only_legal_buttons_are_offered(client):
    links, game = setup(client)
    opening = moves_on(client.get(game).get_data(as_text=True))
    assert {"pass", "bet:A:2", "bet:B:2", "bet:A:5", "bet:B:10", "ordago:A", "ordago:B", "cards:start"} <= opening
    assert not opening & {"call", "fold", "more:2"}
    act(client, game, "bet:A:2")
    page = client.get(game).get_data(as_text=True)
    answer = moves_on(page)
    assert {"call", "fold", "more:2", "more:5", "more:10", "ordago", "to"} <= answer
    assert not {m for m in answer if m.startswith(("bet", "pass"))}
    assert "Team B answers" in page and "answer-b" in page and "No quiero</span> <small>A +1</small>" in page
    act(client, game, "more:5")
    page = client.get(game).get_data(as_text=True)
    assert "Team A answers" in page and '<strong class="mus-total">7</strong>' in page
    act(client, game, "ordago")
    page = client.get(game).get_data(as_text=True)
    assert moves_on(page) == {"call", "fold"} and "ÓRDAGO" in page
    # a move that is not legal now is refused with a message, nothing stored
    before = doc_of(client, links["edit"])
    resp = act(client, game, "more:2", expect=422)
    assert "órdago can only be called or folded" in resp.get_data(as_text=True)
    assert doc_of(client, links["edit"]) == before


def test_fold_points_are_scored_at_once(client):
    links, game = setup(client)
    act(client, game, "bet:A:2")
    act(client, game, "more:5")          # B: 7
    act(client, game, "fold")            # A folds: B scores the 2 before
    st = mus_state(client, links["edit"])
    assert st["score"] == {"A": 0, "B": 2}
    assert st["log"] == [{"hand": 1, "game": 1, "lance": "grande", "team": "B", "points": 2,
                          "why": "Grande: A folded to B's raise to 7: +2"}]
    page = client.get(game).get_data(as_text=True)
    assert 'aria-label="Team B: 2 points">2<' in page
    assert "<h2 class=\"mus-lance\">Chica</h2>" in page


def test_custom_amounts_and_their_errors(client):
    links, game = setup(client)
    resp = act(client, game, "bet:B", expect=422)
    assert 'id="err-amount_B"' in resp.get_data(as_text=True)
    act(client, game, "bet:B", amount_B="4")
    resp = act(client, game, "to", expect=422, to="5")
    html = resp.get_data(as_text=True)
    assert 'id="err-to"' in html and "at least 2" in html
    act(client, game, "to", to="9")
    act(client, game, "call")
    hand = doc_of(client, links["edit"])["games"][0]["hands"][0]
    assert hand["grande"] == [{"team": "B", "bet": 4}, {"team": "A", "raise": 9}, {"team": "B", "call": True}]


def test_declarations_in_one_form_and_uncontested_lances(client):
    links, game = setup(client)
    act(client, game, "pass")
    act(client, game, "bet:A:2")
    act(client, game, "call")
    page = client.get(game).get_data(as_text=True)
    assert "Who has pares and juego?" in page
    assert 'name="pares0"' in page and 'name="juego3"' in page and 'value="medias"' in page
    act(client, game, "declare", lances="pares,juego", pares0="medias", juego2="31")
    page = client.get(game).get_data(as_text=True)
    assert "The count" in page and "who had the better chica?" in page
    act(client, game, "showdown:chica:B")
    st = mus_state(client, links["edit"])
    assert st["score"] == {"A": 4, "B": 2}
    whys = [e["why"] for e in st["log"]]
    assert whys == ["Chica: envite of 2 called, B had the better chica: +2",
                    "Pares: only A had pares (Ane medias 2): +2",
                    "Juego: only A had juego (Carlos 31 2): +2"]
    page = client.get(game).get_data(as_text=True)
    for why in whys:
        assert why in page
    assert "Hand 1 counted" in page and ('Ane deals</span> · <span class="mus-mano"><span class="term" lang="es">mano</span> '
                                     '<small class="gloss">(speaks first)</small> <strong>Bea</strong>') in page


def test_showdown_without_cards_with_two_lances_to_name(client):
    links, game = setup(client, preset="spanish")
    act(client, game, "pass")
    act(client, game, "pass")
    act(client, game, "declare", pares1="pareja", pares2="pareja", juego0="other", juego1="other")
    act(client, game, "pass")
    act(client, game, "pass")
    # two lances per tap: a 2x2 grid of links names grande and chica, then a posted grid names pares and juego
    page = client.get(game).get_data(as_text=True)
    assert "who had the better grande and chica?" in page
    hrefs = [htmllib.unescape(h) for h in re.findall(r'href="([^"]*win_grande=[^"]*)"', page)]
    assert len(hrefs) == 4
    url = next(h for h in hrefs if "win_grande=A" in h and "win_chica=B" in h).split("#")[0]
    page = client.get(url).get_data(as_text=True)
    assert "who had the better pares and juego?" in page
    assert "Grande</strong> A had it" in page and "Chica</strong> B had it" in page
    grid = next(body for body in re.findall(r'<form[^>]*>(.*?)</form>', page, re.S) if "win_grande" in body)
    data = form_fields(f'<form method="post" action="x">{grid}</form>', "x")
    assert (data["win_grande"], data["win_chica"]) == ("A", "B")
    moves = re.findall(r'name="move" value="(showdown:[^"]*)"', page)
    assert sorted(moves) == ["showdown:pares:A:juego:A", "showdown:pares:A:juego:B",
                             "showdown:pares:B:juego:A", "showdown:pares:B:juego:B"]
    partial = {k: v for k, v in data.items() if k != "win_chica"}
    resp = client.post(f"{game}/act", data={**partial, "move": "showdown:pares:A:juego:B"})    # a lance missing
    assert resp.status_code == 422 and "better chica" in resp.get_data(as_text=True)
    resp = client.post(f"{game}/act", data={**data, "move": "showdown:pares:A:juego:B"})
    assert resp.status_code == 303
    st = mus_state(client, links["edit"])
    # spanish: paso 1 each for grande and chica; pares passed: Carlos' pareja 1; juego passed: Bea 'other' 2
    assert st["score"] == {"A": 2, "B": 3}
    hand = doc_of(client, links["edit"])["games"][0]["hands"][0]
    assert hand["showdown"]["pares_held"] == {"Bea": "pareja", "Carlos": "pareja"}


def test_showdown_with_the_cards(client):
    links, game = setup(client)
    act(client, game, "pass")
    act(client, game, "bet:B:3")
    act(client, game, "call")
    act(client, game, "declare", pares0="pareja", pares1="duples", juego2="31", juego3="other")
    act(client, game, "pass")
    act(client, game, "pass")
    page = client.get(game).get_data(as_text=True)
    assert "cards:showdown" in moves_on(page)
    resp = act(client, game, "cards:showdown", expect=422, cards0="RRX4", cards1="CC55", cards2="R S A",
               cards3="7777")
    html = resp.get_data(as_text=True)
    assert 'id="err-cards0"' in html
    act(client, game, "cards:showdown", cards0="RR47", cards1="CC55", cards2="RSSA", cards3="7654")
    hand = doc_of(client, links["edit"])["games"][0]["hands"][0]
    assert hand["cards"]["Carlos"] == "RSSA" and "showdown" not in hand
    st = mus_state(client, links["edit"])
    assert st["status"] == "ready" and st["hands"][0]["cards"]


def test_cards_entered_first_nothing_is_asked(client):
    links, game = setup(client)
    act(client, game, "cards:start", cards0="RR43", cards1="CCS7", cards2="A456", cards3="rs7a")
    for _ in range(4):
        page = client.get(game).get_data(as_text=True)
        assert "Who has" not in page
        act(client, game, "pass")
    st = mus_state(client, links["edit"])
    assert st["status"] == "ready"
    assert st["score"] == {"A": 2, "B": 1}
    assert [e["why"] for e in st["log"]] == [
        "Pares: all passed, A had the better pares (Ane RR43); bonuses Ane medias 2: +2",
        "Juego: all passed, B had the better juego (Bea CCS7); bonuses Bea 37 1: +1"]


# --------------------------------------------------------------------------------------------------- fixing


def test_undo_restores_the_exact_previous_document(client):
    links, game = setup(client)
    docs = [doc_of(client, links["edit"])["games"][0]]
    for move, fields in (("bet:A:2", {}), ("more:2", {}), ("call", {}), ("pass", {}),
                         ("declare", {"pares0": "pareja", "juego1": "31"})):
        act(client, game, move, **fields)
        docs.append(doc_of(client, links["edit"])["games"][0])
    for expected in reversed(docs[:-1]):
        page = client.get(game).get_data(as_text=True)
        undo = f"{links['edit']}/undo/0"
        resp = client.post(undo, data=form_fields(page, undo))
        assert resp.status_code == 303
        assert doc_of(client, links["edit"])["games"][0] == expected


def _fold_hand(client, game, bettor):
    """A hand where ``bettor`` bets Grande, the others fold (+1); nobody has pares or juego, all pass."""
    act(client, game, f"bet:{bettor}:2")
    act(client, game, "fold")
    act(client, game, "pass")
    act(client, game, "declare")
    act(client, game, "pass")         # punto


def test_correcting_a_past_hand_recomputes_and_says_the_game_end_moved(client):
    links, game = setup(client, target=10, games_to_win=2)
    for _ in range(3):
        _fold_hand(client, game, "A")                 # A +1 each
    st = mus_state(client, links["edit"])
    assert st["score"] == {"A": 3, "B": 0} and st["game_ends"] == []
    page = client.get(game).get_data(as_text=True)
    assert f"{links['edit']}/mus/0/hand/2" in page
    # hand 2 was really: A envida 10 in Grande, B quiero, A had the better grande -> A reaches 10 and wins
    url = f"{game}/hand/2"
    fix = client.get(url).get_data(as_text=True)
    assert "Fix hand 2" in fix and "As recorded" in fix and f"{url}?was=" in fix
    url_redo = htmllib.unescape(re.search(r'href="([^"]*redo=1[^"]*)"', fix).group(1))

    def tap(move, **fields):
        html = client.get(loc[0]).get_data(as_text=True)
        data = form_fields(html, url)
        data.update(move=move, **fields)
        resp = client.post(url, data=data)
        assert resp.status_code == 303, errors_in(resp.get_data(as_text=True))
        loc[0] = resp.headers["Location"]

    loc = [url_redo]
    tap("bet:A:10")
    tap("call")
    tap("pass")
    tap("declare")
    tap("pass")
    tap("showdown:grande:A")
    done = client.get(loc[0]).get_data(as_text=True)
    assert "After the fix" in done and "Game 1 won by team A" in done
    assert mus_state(client, links["edit"])["score"] == {"A": 3, "B": 0}    # nothing saved yet
    resp = client.post(url, data={**form_fields(done, url), "move": "save"})
    assert resp.status_code == 303 and "fixed=2" in resp.headers["Location"]
    st = mus_state(client, links["edit"])
    assert st["game_ends"] == [2] and st["games"][0]["score"] == {"A": 11, "B": 0}
    assert st["score"] == {"A": 1, "B": 0}                             # hand 3 now opens game 2
    page = client.get(resp.headers["Location"]).get_data(as_text=True)
    assert "Hand 2 corrected" in page and "Game 1 now ends at hand 2 (it had not ended)." in page
    # and back: a correction can make the game end later (here: not at all); the hand changed, so open it anew
    fix = client.get(url).get_data(as_text=True)
    loc[0] = htmllib.unescape(re.search(r'href="([^"]*redo=1[^"]*)"', fix).group(1))
    for move in ("bet:A:2", "fold", "pass", "declare", "pass"):
        tap(move)
    done = client.get(loc[0]).get_data(as_text=True)
    resp = client.post(url, data={**form_fields(done, url), "move": "save"})
    page = client.get(resp.headers["Location"]).get_data(as_text=True)
    assert "Game 1 no longer ends at hand 2: it goes on." in page
    assert mus_state(client, links["edit"])["score"] == {"A": 3, "B": 0}


def test_a_correction_that_breaks_a_later_hand_is_refused(client):
    links, game = setup(client, target=10, games_to_win=1)
    _fold_hand(client, game, "A")
    _fold_hand(client, game, "B")
    url = f"{game}/hand/1"
    loc = url + "?redo=1"
    for move in ("ordago:A", "call", "showdown:grande:A"):
        html = client.get(loc).get_data(as_text=True)
        resp = client.post(url, data={**form_fields(html, url), "move": move})
        assert resp.status_code == 303
        loc = resp.headers["Location"]
    before = doc_of(client, links["edit"])
    html = client.get(loc).get_data(as_text=True)
    resp = client.post(url, data={**form_fields(html, url), "move": "save"})
    assert resp.status_code == 422
    assert "Hand 2 would no longer be possible" in resp.get_data(as_text=True)
    assert doc_of(client, links["edit"]) == before


def test_a_tampered_draft_is_refused_not_crashing(client):
    links, game = setup(client)
    _fold_hand(client, game, "A")
    resp = client.get(f"{game}/hand/1?draft=%7Bnot+json")
    assert resp.status_code == 422 and "could not be read" in resp.get_data(as_text=True)
    resp = client.get(f"{game}/hand/1?draft=" + json.dumps({"grande": [{"team": "A", "bet": 99}], "open": "pares"}))
    assert resp.status_code == 200 and "could not be used" in resp.get_data(as_text=True)
    assert client.get(f"{game}/hand/2").status_code == 404


# --------------------------------------------------------------------------------------------------- sharing


def test_view_link_shows_everything_and_writes_nothing(client):
    links, game = setup(client, target=10)
    for _ in range(5):
        _fold_hand(client, game, "B")
    view_game = game.replace(links["edit"], links["view"])
    page = client.get(view_game).get_data(as_text=True)
    assert "<form" not in page
    assert 'data-dentro="1-B"' in page and "DENTRO" in page
    assert "Correct hand" not in page and "Watching" in page
    assert "Grande: A folded to B&#39;s envite of 2: +1" in page
    token = csrf(client)
    for url in (f"{view_game}/act", f"{links['view']}/mus/new", f"{view_game}/hand/1"):
        resp = client.post(url, data={"csrf": token, "move": "pass", "seat0": "Ane"})
        assert resp.status_code == 403, url
    assert client.get(f"{links['view']}/mus/new").status_code == 403
    assert client.get(f"{view_game}/hand/1").status_code == 403
    assert client.get(f"{view_game}/reference").status_code == 200
    assert mus_state(client, links["edit"])["score"] == {"A": 0, "B": 5}


def test_stale_position_is_refused_with_a_message(client):
    links, game = setup(client)
    old_page = client.get(game).get_data(as_text=True)
    act(client, game, "bet:A:2")                           # another phone records first
    before = doc_of(client, links["edit"])
    data = {**form_fields(old_page, f"{game}/act"), "move": "pass"}
    resp = client.post(f"{game}/act", data=data)
    assert resp.status_code == 409
    html = resp.get_data(as_text=True)
    assert "That tap was already recorded" in html and 'class="thumb-note"' in html
    assert doc_of(client, links["edit"]) == before
    assert "Team B answers" in html                        # the page shows where the hand really is
    # that page polls the game's own address, and says so to the address bar; a reload of /act still works
    poll = re.search(r'hx-get="([^"]+)"', html).group(1)
    assert poll.startswith(f"{game}?since=") and resp.headers["HX-Replace-Url"] == game
    assert unchanged(client.get(poll, headers={"HX-Request": "true"}))
    assert client.get(f"{game}/act").headers["Location"].endswith(game)


def test_double_submit_lands_once(client):
    links, game = setup(client)
    page = client.get(game).get_data(as_text=True)
    data = {**form_fields(page, f"{game}/act"), "move": "bet:A:2"}
    first = client.post(f"{game}/act", data=data)
    second = client.post(f"{game}/act", data=data)
    assert first.status_code == second.status_code == 303
    assert doc_of(client, links["edit"])["games"][0]["hands"][0]["grande"] == [{"team": "A", "bet": 2}]


def test_live_poll_answers_unchanged_then_the_live_block(client):
    links, game = setup(client)
    page = client.get(game).get_data(as_text=True)
    version = re.search(r'data-version="(\d+)"', page).group(1)
    hx = {"HX-Request": "true"}
    assert unchanged(client.get(f"{game}?since={version}", headers=hx))
    act(client, game, "pass")
    resp = client.get(f"{game}?since={version}", headers=hx)
    body = resp.get_data(as_text=True)
    assert resp.status_code == 200 and body.lstrip().startswith('<section id="live"') and "<html" not in body
    assert "Chica" in body


# --------------------------------------------------------------------------------------------------- match


def test_a_short_match_state_matches_the_engine_on_the_exported_file(client, tmp_path):
    links, game = setup(client, target=10, games_to_win=2, stake_match="5")
    # game 1: an órdago called at Grande, the cards decide
    act(client, game, "cards:start", cards0="RRR4", cards1="CCS7", cards2="A456", cards3="RS7A")
    act(client, game, "ordago:B")
    act(client, game, "call")
    st = mus_state(client, links["edit"])
    assert st["games"] == [{"winner": "A", "score": {"A": 0, "B": 0}, "by": "ordago"}]
    page = client.get(game).get_data(as_text=True)
    assert "Game 1 won by team A" in page and "by órdago" in page and "Game 2 starts now" in page
    # game 2: B scores, reaches dentro, then a fold ends the game and the match
    act(client, game, "bet:B:5")
    act(client, game, "call")
    act(client, game, "pass")
    act(client, game, "declare", pares1="duples", juego3="31")
    act(client, game, "showdown:grande:B")
    st = mus_state(client, links["edit"])
    assert st["games_won"] == {"A": 1, "B": 1} and st["games"][1]["score"] == {"A": 0, "B": 10}
    assert [e["points"] for e in st["log"][-3:]] == [5, 3, 2]
    # game 3: A scores 1 a hand; the ninth makes A dentro; a fold at 9 ends the game and the match
    for _ in range(9):
        _fold_hand(client, game, "A")
    page = client.get(game).get_data(as_text=True)
    assert 'data-dentro="3-A"' in page
    act(client, game, "bet:A:2")
    act(client, game, "fold")
    st = mus_state(client, links["edit"])
    assert st["match_winner"] == "A" and st["status"] == "match_over"
    page = client.get(game).get_data(as_text=True)
    assert "Match won by team A" in page
    assert moves_on(page) == set()                          # only Undo is left
    assert f"{links['edit']}/undo/0" in page
    session_page = client.get(links["edit"]).get_data(as_text=True)
    assert "Ane &amp; Carlos won 2–1" in session_page
    # the served state equals what the engine and the CLI compute from the exported file
    exported = client.get(f"{links['edit']}/session.json").get_data(as_text=True)
    served = json.loads(client.get(f"{links['edit']}/state.json").get_data(as_text=True))
    doc = json.loads(exported)
    assert served["games"][0] == S.state_of(S.load(doc))["games"][0]
    path = tmp_path / "night.json"
    path.write_text(exported)
    result = CliRunner().invoke(cli_main, ["state", str(path)])
    assert result.exit_code == 0, result.output
    cli_state = json.loads(result.output)
    for key in ("teams", "games", "games_won", "match_winner", "score", "dentro", "stones", "next_mano", "log"):
        assert cli_state["games"][0][key] == served["games"][0][key]
    assert served["settle"]["net"] == {"Ane": 500, "Bea": -500, "Carlos": 500, "Dani": -500}


def test_the_stake_shows_beside_the_score_and_who_pays_when_a_game_ends(client):
    links, game = setup(client, target=10, stake_game="2.50")
    page = client.get(game).get_data(as_text=True)
    assert "stake <strong>€2.50</strong> per game" in page
    act(client, game, "ordago:A")
    act(client, game, "call")
    act(client, game, "showdown:grande:B")
    page = client.get(game).get_data(as_text=True)
    assert "Ane &amp; Carlos pay €2.50 each to Bea &amp; Dani" in page

def test_reference_page_shows_the_chosen_options(client):
    links, game = setup(client, preset="spanish", kings=4)
    page = client.get(game).get_data(as_text=True)
    assert f"{game}/reference" in page
    ref = client.get(f"{game}/reference").get_data(as_text=True)
    assert "4 kings:" in ref and "<span>3</span><span>2</span>" in ref
    assert re.search(r"<span>31</span><span>32</span><span>40</span><span>37</span>.*<span>33</span>", ref)
    assert "31: 3 · other: 2" in ref and "pareja 1 · medias 2 · duples 3" in ref
    links2, game2 = setup(client)
    ref = client.get(f"{game2}/reference").get_data(as_text=True)
    assert "8 kings:" in ref and "31: 2 · other: 1" in ref


def test_another_mano_for_a_hand(client):
    links, game = setup(client)
    act(client, game, "start", mano="Dani")
    page = client.get(game).get_data(as_text=True)
    assert 'mano</span> <small class="gloss">(speaks first)</small> <strong>Dani</strong>' in page
    act(client, game, "pass")
    assert doc_of(client, links["edit"])["games"][0]["hands"][0]["mano"] == "Dani"


def test_eight_kings_keypad_and_a_refused_hand_keeps_every_card(client):
    links, game = setup(client)                                 # 8 kings: a 3 is a rey, a 2 an as
    page = client.get(game).get_data(as_text=True)
    assert 'data-card="3"' in page and "3<small>=R</small>" in page
    assert 'data-card="2"' in page and "2<small>=A</small>" in page
    # 9 reyes (R and 3 together): refused, every card typed kept, the message beside the last hand
    resp = act(client, game, "cards:start", expect=422, cards0="RRRR", cards1="RR33", cards2="3CCS", cards3="AA22")
    html = resp.get_data(as_text=True)
    for typed in ("RRRR", "RR33", "3CCS", "AA22"):
        assert f'value="{typed}"' in html
    err = re.search(r'<p class="error" id="err-cards2" role="alert">([^<]*)</p>', html)
    assert err and "only 8 reyes (R and 3) (9 are in these hands)" in err.group(1)
    assert doc_of(client, links["edit"])["games"][0]["hands"] == []
    # 8 reyes are fine: four kings and four 3s written either way
    act(client, game, "cards:start", cards0="RRRR", cards1="RR33", cards2="CCSS", cards3="AA22")
    assert doc_of(client, links["edit"])["games"][0]["hands"][0]["cards"]["Bea"] == "RR33"


def test_four_kings_keypad_treats_3_and_2_as_themselves(client):
    links, game = setup(client, kings=4)
    page = client.get(game).get_data(as_text=True)
    assert 'data-card="3"' in page and "=R</small>" not in page
    resp = act(client, game, "cards:start", expect=422, cards0="RRRR", cards1="R333", cards2="CCSS", cards3="AA22")
    err = re.search(r'<p class="error" id="err-cards1" role="alert">([^<]*)</p>', resp.get_data(as_text=True))
    assert err and "only 4 R" in err.group(1)
