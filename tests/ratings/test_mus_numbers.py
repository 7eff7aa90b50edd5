"""Mus by the numbers on a match whose bids are known: every figure worked out by hand below."""
from companion.record import session as S
from companion.kinds.mus.ratings import numbers as mus_numbers
from companion.ratings.tally import pair_subjects as mus_subjects

SEATS = ["Ane", "Bea", "Carlos", "Dani"]     # team A: Ane & Carlos; team B: Bea & Dani

MATCH = {
    "kind": "mus", "seats": SEATS,
    "rules": {"preset": "pagat", "juego_31": 3, "juego_other": 2, "games_to_win": 2, "target": 40},
    "hands": [
        # 1. grande: A envida 2, B sees it (A has the better grande: A +2). chica: A 2, B raises to 5,
        #    A folds (B +2). pares (Ane pareja, Bea medias): B 2, A folds (B +1, then B's medias +2).
        #    juego (Ane 31, Dani 33) passed: Ane's 31 is better (A +3).  A 5, B 5.
        {"grande": [{"team": "A", "bet": 2}, {"team": "B", "call": True}],
         "chica": [{"team": "A", "bet": 2}, {"team": "B", "raise": 5}, {"team": "A", "fold": True}],
         "pares": [{"team": "B", "bet": 2}, {"team": "A", "fold": True}],
         "juego": [],
         "showdown": {"grande": "A", "pares_held": {"Ane": "pareja", "Bea": "medias"},
                      "juego_held": {"Ane": 31, "Dani": 33}}},
        # 2. a tally hand: A +30 (A 35: dentro). Results only.
        {"tally": [{"team": "A", "points": 30}]},
        # 3. B calls órdago at grande, A accepts it, B has the better grande: B wins game 1 (A was dentro).
        {"grande": [{"team": "B", "ordago": True}, {"team": "A", "call": True}], "showdown": {"grande": "B"}},
        # 4. game 2: grande A 2, B folds (A +1); nothing else.
        {"grande": [{"team": "A", "bet": 2}, {"team": "B", "fold": True}],
         "showdown": {"pares_held": {}, "juego_held": {}}},
        # 5. pares (Carlos duples, Dani pareja): A órdago, B accepts, A wins game 2 (B had 0).
        {"pares": [{"team": "A", "ordago": True}, {"team": "B", "call": True}],
         "showdown": {"pares": "A", "pares_held": {"Carlos": "duples", "Dani": "pareja"}}},
        # 6. game 3: juego (Ane 31, Bea 32): B 2, A raises to 4, B sees it: A +4 +3 (Ane's 31) = 7.
        {"juego": [{"team": "B", "bet": 2}, {"team": "A", "raise": 4}, {"team": "B", "call": True}],
         "showdown": {"pares_held": {}, "juego_held": {"Ane": 31, "Bea": 32}}},
        # 7. an adjustment: A +33 reaches 40: game 3 and the match (2-1) to A.
        {"adjust": {"team": "A", "points": 33}},
    ],
}

EXPECTED = {
    "A": {"hands": 5,                      # 1, 3, 4, 5, 6 (not the tally, not the adjustment)
          "envites": 4,                    # h1 grande 2 and chica 2, h4 grande 2, h6 raise to 4
          "envites_seen": 2,               # h1 grande (called), h6 raise (called)
          "faced": 3, "accepted": 0,       # h1 chica raise, h1 pares bet, h6 bet (answered by a raise)
          "folds": 2,                      # h1 chica, h1 pares
          "ordagos": 1, "ordagos_accepted": 1, "ordagos_seen": 2, "ordagos_won": 1,
          "pts_grande": 3, "pts_chica": 0, "pts_pares": 0, "pts_juego": 10,   # grande 2+1; juego 3+7
          "games": 2, "games_from_dentro": 0,
          "full_games": 2, "full_game_hands": 3},   # game 2 (h4, h5) and game 3 (h6); game 1 had a tally
    "B": {"hands": 5,
          "envites": 3,                    # h1 chica raise, h1 pares bet, h6 bet
          "envites_seen": 0,
          "faced": 4, "accepted": 2,       # h1 grande (called), h1 chica, h4 grande, h6 raise (called)
          "folds": 1,                      # h4 grande
          "ordagos": 1, "ordagos_accepted": 1, "ordagos_seen": 2, "ordagos_won": 1,
          "pts_grande": 0, "pts_chica": 2, "pts_pares": 3, "pts_juego": 0,    # chica fold 2; pares 1+2
          "games": 1, "games_from_dentro": 1,   # game 1, won by órdago with A on 35
          "full_games": 2, "full_game_hands": 3},
}


def match():
    sess = S.load({"format": "companion-session/1", "name": "Numbers", "players": SEATS, "games": [MATCH]})
    return sess.games[0]


def test_the_match_plays_as_the_comments_say():
    rec = match()
    assert rec.state["match_winner"] == "A"
    assert [(g["winner"], g["by"]) for g in rec.state["games"]] == [("B", "ordago"), ("A", "ordago"), ("A", "points")]
    assert rec.items[0].result["points"] == {"A": 5, "B": 5}
    assert rec.items[5].result["points"] == {"A": 7, "B": 0}


def test_every_figure_by_hand():
    assert mus_numbers(match()) == EXPECTED


def test_players_and_pairs_take_their_teams_figures():
    subjects = mus_subjects([["ane", "carlos"], ["bea", "dani"]], mus_numbers(match()))
    assert subjects["ane"] == subjects["carlos"] == subjects["ane|carlos"] == EXPECTED["A"]
    assert subjects["bea|dani"] == EXPECTED["B"]


def test_open_hands_and_tally_matches_give_no_figures():
    tally_only = dict(MATCH, hands=[{"tally": [{"team": "A", "points": 40}]}])
    sess = S.load({"format": "companion-session/1", "name": "T", "players": SEATS, "games": [tally_only]})
    figures = mus_numbers(sess.games[0])
    assert figures["A"]["hands"] == 0 and figures["A"]["envites"] == 0
    assert figures["A"]["games"] == 1 and figures["A"]["full_games"] == 0
