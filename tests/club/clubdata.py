"""Round matches written as the state would say them (for the pure club tests)."""
from __future__ import annotations


def match(rnd, a, b, games, current=(0, 0), ended=None, to_win=2, table=None):
    """A round's Mus match: ``games`` finished games as (A, B) scores (winner: the higher)."""
    done = [{"winner": "A" if x > y else "B", "score": {"A": x, "B": y}, "by": "points"} for x, y in games]
    won = {t: sum(1 for g in done if g["winner"] == t) for t in "AB"}
    winner = next((t for t in "AB" if won[t] >= to_win), None)
    return {"round": rnd, "table": table, "ended": ended, "teams": {"A": list(a), "B": list(b)},
            "games": done, "games_won": won, "match_winner": winner,
            "score": {"A": 0, "B": 0} if winner else {"A": current[0], "B": current[1]}}


P1, P2, P3, P4 = ["Ane", "Bea"], ["Carlos", "Dani"], ["Eneko", "Fermín"], ["Gorka", "Hodei"]
PLAYERS = P1 + P2 + P3 + P4
CLUB = {"format": "pairs_swiss", "kind": "mus", "pairs": [P1, P2, P3, P4], "rounds": 3, "minutes": 50}

ROUND1 = [match(1, P1, P3, [(40, 22), (40, 31)]), match(1, P2, P4, [(40, 35), (12, 40), (40, 38)])]
ROUND2 = [match(2, P1, P2, [(40, 20), (33, 40), (40, 39)]),
          match(2, P4, P3, [(30, 40)], current=(25, 18), ended="time")]
ROUND3 = [match(3, P1, P4, [(40, 28), (36, 40)], current=(20, 20), ended="time"),
          match(3, P2, P3, [(30, 40), (10, 40)])]


def tally_hands(games, current=None):
    """Tally hands giving each finished game's (A, B) score (the loser's points first), then the game in
    progress."""
    hands = []
    for a, b in games:
        win, lose = ("A", "B") if a > b else ("B", "A")
        pts = {"A": a, "B": b}
        if pts[lose]:
            hands.append({"tally": [{"team": lose, "points": pts[lose]}]})
        hands.append({"tally": [{"team": win, "points": pts[win]}]})
    for t, p in zip("AB", current or (0, 0)):
        if p:
            hands.append({"tally": [{"team": t, "points": p}]})
    return hands


def round_game(rnd, table, a, b, games, current=None, ended=None):
    g = {"kind": "mus", "rules": {"preset": "spanish", "games_to_win": 2}, "seats": [a[0], b[0], a[1], b[1]],
         "scoring": "tally", "hands": tally_hands(games, current), "table": table, "round": rnd}
    if ended:
        g["ended"] = ended
    return g


def example_doc(rounds=3):
    games = [round_game(1, "1", P1, P3, [(40, 22), (40, 31)]),
             round_game(1, "2", P2, P4, [(40, 35), (12, 40), (40, 38)]),
             round_game(2, "1", P1, P2, [(40, 20), (33, 40), (40, 39)]),
             round_game(2, "2", P4, P3, [(30, 40)], (25, 18), "time"),
             round_game(3, "1", P1, P4, [(40, 28), (36, 40)], (20, 20), "time"),
             round_game(3, "2", P2, P3, [(30, 40), (10, 40)])]
    return {"format": "companion-session/1", "name": "Swiss night", "players": PLAYERS,
            "club": dict(CLUB), "games": [g for g in games if g["round"] <= rounds]}
