"""The worked example of rules/tournament.md (10 pairs: groups, then brackets A and B), as round matches
(for the pure tests) and as a session file."""
from __future__ import annotations

import copy

from clubdata import tally_hands

NAMES = ["Ane", "Bea", "Carlos", "Dani", "Eneko", "Fermín", "Gorka", "Hodei", "Iker", "Jone", "Koldo", "Lur",
         "Mikel", "Nerea", "Oier", "Paula", "Unai", "Ainhoa", "Kepa", "Leire"]
P = {i + 1: [NAMES[2 * i], NAMES[2 * i + 1]] for i in range(10)}
P1, P2, P3, P4, P5, P6, P7, P8, P9, P10 = (P[i] for i in range(1, 11))

STAGES = [
    {"name": "Groups", "format": "groups", "groups": 2, "games_to_win": 1},
    {"name": "Bracket A", "format": "knockout", "from": {"stage": 0, "ranks": [1, 2]},
     "games_to_win": 2, "final_games_to_win": 3, "third_place": True},
    {"name": "Bracket B", "format": "knockout", "from": {"stage": 0, "ranks": [3, 4]}, "games_to_win": 2}]

# (stage, round, table, a, b, finished games, game in progress, ended, games to win)
GROUP_ROUNDS = {
    1: [(4, 9, (40, 25)), (5, 8, (33, 40)), (3, 10, (40, 30)), (6, 7, (25, 40))],
    2: [(1, 9, (40, 12)), (4, 5, None), (2, 10, (40, 35)), (3, 6, (40, 32))],
    3: [(1, 8, (40, 30)), (9, 5, (22, 40)), (2, 7, (40, 37)), (10, 6, (31, 40))],
    4: [(1, 5, (40, 35)), (8, 4, (40, 20)), (2, 6, (40, 34)), (7, 3, (40, 28))],
    5: [(1, 4, (10, 40)), (8, 9, (40, 15)), (2, 3, (36, 40)), (7, 10, (37, 40))],
}
BYES = {1: (1, 2), 2: (8, 7), 3: (4, 3), 4: (9, 10), 5: (5, 6)}


def plays():
    out = []
    for rnd, games in GROUP_ROUNDS.items():
        for t, (a, b, score) in enumerate(games, 1):
            if score is None:        # P4-P5 20-20, ended by the clock: drawn
                out.append((0, rnd, str(t), a, b, [], (20, 20), "time", 1))
            else:
                out.append((0, rnd, str(t), a, b, [score], None, None, 1))
    out += [(1, 1, "1", 8, 2, [(40, 31), (22, 40), (40, 35)], None, None, 2),
            (1, 1, "2", 3, 1, [(40, 33), (29, 40)], (18, 24), "time", 2),
            (2, 1, "3", 4, 6, [(40, 10), (40, 36)], None, None, 2),
            (2, 1, "4", 7, 5, [(40, 32), (30, 40), (39, 40)], None, None, 2),
            (1, 2, "1", 8, 1, [(40, 20), (35, 40), (38, 40), (40, 12), (27, 40)], None, None, 3),
            (1, 2, "2", 2, 3, [(25, 40), (30, 40)], None, None, 2),
            (2, 2, "3", 4, 5, [(40, 35), (21, 40), (40, 33)], None, None, 2)]
    return out


def match(gi, stage, rnd, table, a, b, games, current=None, ended=None, to_win=2):
    """A stage's round match as the state says it (``results.round_matches``)."""
    done = [{"winner": "A" if x > y else "B", "score": {"A": x, "B": y}, "by": "points"} for x, y in games]
    won = {t: sum(1 for g in done if g["winner"] == t) for t in "AB"}
    winner = next((t for t in "AB" if won[t] >= to_win), None)
    cur = current or (0, 0)
    return {"game": gi, "stage": stage, "round": rnd, "table": table, "ended": ended, "games_to_win": to_win,
            "teams": {"A": list(a), "B": list(b)}, "games": done, "games_won": won, "match_winner": winner,
            "score": {"A": 0, "B": 0} if winner else {"A": cur[0], "B": cur[1]}}


def club(byes_upto=5):
    stages = [dict(s) for s in STAGES]
    stages[0]["byes"] = {str(r): [P[x] for x in BYES[r]] for r in BYES if r <= byes_upto}
    return copy.deepcopy({"format": "stages", "kind": "mus", "minutes": 50, "pairs": [P[i] for i in range(1, 11)],
                          "stages": stages})


def matches(keep=lambda stage, rnd: True):
    out = []
    for stage, rnd, table, a, b, games, cur, ended, to_win in plays():
        if keep(stage, rnd):
            out.append(match(len(out), stage, rnd, table, P[a], P[b], games, cur, ended, to_win))
    return out


def game(stage, rnd, table, a, b, games, current=None, ended=None, to_win=2):
    g = {"kind": "mus", "rules": {"preset": "spanish", "games_to_win": to_win},
         "seats": [a[0], b[0], a[1], b[1]], "scoring": "tally", "hands": tally_hands(games, current),
         "table": table, "round": rnd, "stage": stage}
    if ended:
        g["ended"] = ended
    return g


def example_doc():
    games = [game(stage, rnd, table, P[a], P[b], gs, cur, ended, tw)
             for stage, rnd, table, a, b, gs, cur, ended, tw in plays()]
    return copy.deepcopy({"format": "companion-session/1", "name": "AEIT night", "players": list(NAMES),
                          "club": club(), "games": games})
