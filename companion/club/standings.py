"""Standings (``rules/club.md``, "Standings"): match points, games difference, points difference, the
matches between the tied, seed order; equal on all but seed order: a shared rank.

Match points are counted in halves internally (a draw or a sit-out is ½) so that sorting is exact.
"""
from __future__ import annotations

from itertools import combinations

from companion.domain.match import game_scores, match_result, other

PAIR_FORMATS = ("pairs_round_robin", "pairs_swiss")
FORMATS = ("free",) + PAIR_FORMATS + ("rotating",)


def pair_key(names) -> frozenset:
    return frozenset(names)


def _points(halves: int) -> int | float:
    return halves // 2 if halves % 2 == 0 else halves / 2


def entries_of(club: dict, players: list[str]) -> list[tuple]:
    """Who is ranked, in seed order: the pairs (pair formats) or the players (rotating)."""
    if club["format"] in PAIR_FORMATS:
        return [tuple(p) for p in club.get("pairs") or []]
    return [(p,) for p in players]


def has_left(club: dict, entry) -> bool:
    """A pair leaves when one of its players has left (``club.left`` lists players)."""
    left = set(club.get("left") or [])
    return any(name in left for name in entry)


def _side_entries(club: dict, team: list[str], index: dict) -> list[tuple]:
    """The ranked entries that played as ``team``: its pair, or each of its two players."""
    if club["format"] in PAIR_FORMATS:
        e = index.get(pair_key(team))
        return [e] if e is not None else []
    return [index[pair_key([n])] for n in team if pair_key([n]) in index]


def standings(club: dict, players: list[str], matches: list[dict]) -> list[dict]:
    """The standings in order, one dict per pair or player (``rules/club.md``'s state shape)."""
    fmt = club["format"]
    if fmt not in PAIR_FORMATS and fmt != "rotating":
        return []
    pairs = fmt in PAIR_FORMATS
    entries = entries_of(club, players)
    index = {pair_key(e): e for e in entries}
    rec = {e: {"played": 0, "won": 0, "drawn": 0, "lost": 0, "free": 0, "halves": 0, "gd": 0, "pd": 0,
               "in_play": 0} for e in entries}
    # head to head: (x, y) -> halves x took from matches against y
    h2h: dict[tuple, int] = {}
    for m in matches:
        result, _by = match_result(m)
        sides = {t: _side_entries(club, m["teams"][t], index) for t in ("A", "B")}
        if result is None:
            for t in ("A", "B"):
                for e in sides[t]:
                    rec[e]["in_play"] += 1
            continue
        scores = game_scores(m)
        won = {"A": sum(1 for g in m["games"] if g["winner"] == "A"),
               "B": sum(1 for g in m["games"] if g["winner"] == "B")}
        diff = {"A": sum(a - b for a, b in scores)}
        diff["B"] = -diff["A"]
        for t in ("A", "B"):
            halves = 1 if result == "draw" else (2 if result == t else 0)
            for e in sides[t]:
                r = rec[e]
                r["played"] += 1
                r["won" if halves == 2 else "drawn" if halves == 1 else "lost"] += 1
                r["halves"] += halves
                r["gd"] += won[t] - won[other(t)]
                r["pd"] += diff[t]
                for o in sides[other(t)]:
                    h2h[(e, o)] = h2h.get((e, o), 0) + halves
    for rnd, free in (club.get("byes") or {}).items():
        for who in free:
            e = index.get(pair_key(who if pairs else [who]))
            if e is not None:
                rec[e]["free"] += 1
                rec[e]["halves"] += 2 if pairs else 1
    shown = [e for e in entries
             if not has_left(club, e) or rec[e]["played"] or rec[e]["free"] or rec[e]["in_play"]]
    ranked = _rank(shown, rec, h2h)
    out = []
    for e, rank in ranked:
        r = rec[e]
        row = {"pair": list(e)} if pairs else {"player": e[0]}
        row.update({"played": r["played"], "won": r["won"], "drawn": r["drawn"], "lost": r["lost"],
                    ("byes" if pairs else "sat_out"): r["free"], "match_points": _points(r["halves"]),
                    "games_diff": r["gd"], "points_diff": r["pd"], "rank": rank, "in_play": r["in_play"]})
        out.append(row)
    return out


def _rank(entries: list[tuple], rec: dict, h2h: dict) -> list[tuple[tuple, int]]:
    """[(entry, rank)] in standings order; seed order (the order of ``entries``) breaks the last tie."""
    seed = {e: i for i, e in enumerate(entries)}

    def main_key(e):
        r = rec[e]
        return (-r["halves"], -r["gd"], -r["pd"])

    order = sorted(entries, key=lambda e: (main_key(e), seed[e]))
    out: list[tuple[tuple, int]] = []
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and main_key(order[j]) == main_key(order[i]):
            j += 1
        group = order[i:j]
        if len(group) > 1 and all((x, y) in h2h for x, y in combinations(group, 2)):
            # all of the tied met: the match points between them decide, seed order after that
            mine = {x: sum(h2h.get((x, y), 0) for y in group if y != x) for x in group}
            group.sort(key=lambda x: (-mine[x], seed[x]))
            k = 0
            while k < len(group):
                first = k
                while k < len(group) and mine[group[k]] == mine[group[first]]:
                    out.append((group[k], i + first + 1))
                    k += 1
        else:
            out += [(x, i + 1) for x in group]
        i = j
    return out


def rank_label(rows: list[dict], row: dict) -> str:
    """"3" or "3=" when another row shares the rank."""
    shared = sum(1 for r in rows if r["rank"] == row["rank"]) > 1
    return f"{row['rank']}=" if shared else str(row["rank"])
