"""A knockout stage (``rules/tournament.md``, "Knockout"): the bracket, its byes, a group's pairs kept
apart in round 1, the ties and their results, the tables, the classification. Pure.

Pairs are tuples of names; a tie's game is a round match (``results.round_matches``) of the stage.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from companion.domain.errors import RuleError
from companion.domain.match import match_result
from companion.club.standings import pair_key


def bracket_size(n: int) -> int:
    """The smallest power of two >= n."""
    size = 1
    while size < n:
        size *= 2
    return size


def bracket_order(size: int) -> list[int]:
    """order(2) = [1, 2]; order(2m) = for each s in order(m): s, 2m + 1 - s (order(8) = 1 8 4 5 2 7 3 6):
    seeds 1 and 2 can meet only in the final."""
    order = [1]
    while len(order) < size:
        m2 = 2 * len(order)
        order = [x for s in order for x in (s, m2 + 1 - s)]
    return order


def first_round(n: int) -> list[tuple[int, int]]:
    """Round 1's ties as seed numbers, in table order; a seed above n is a bye."""
    order = bracket_order(bracket_size(max(n, 2)))
    return [(order[i], order[i + 1]) for i in range(0, len(order), 2)]


def keep_groups_apart(seeds: list, origin: dict) -> list:
    """The seed order after round 1's swaps (a knockout drawing from groups). ``origin``: pair -> (place,
    group). Round 1's played ties in the order of their upper seeds: in a tie of one group's two pairs the
    lower seed changes seed numbers with the nearest entrant of the same place (at equal distance the
    lower-seeded) whose tie, or bye, holds no pair of that group; failing that the upper seed does so;
    failing that the tie stays."""
    seeds = list(seeds)
    n = len(seeds)
    ties = first_round(n)
    tie_of = {s: t for t, pair in enumerate(ties) for s in pair}

    def groups_in(t: int) -> set:
        return {origin[seeds[s - 1]][1] for s in ties[t] if s <= n}

    def partner(mover: int, group) -> int | None:
        place = origin[seeds[mover - 1]][0]
        options = [s for s in range(1, n + 1) if s != mover and origin[seeds[s - 1]][0] == place
                   and group not in groups_in(tie_of[s])]
        return min(options, key=lambda s: (abs(s - mover), -s), default=None)

    for upper, lower in sorted((min(t), max(t)) for t in ties if max(t) <= n):
        group = origin[seeds[upper - 1]][1]
        if origin[seeds[lower - 1]][1] != group:
            continue
        for mover in (lower, upper):
            other = partner(mover, group)
            if other is not None:
                seeds[mover - 1], seeds[other - 1] = seeds[other - 1], seeds[mover - 1]
                break
    return seeds


@dataclass
class Tie:
    round: int                     # 1-based
    index: int                     # 0-based within its round (the third-place match: 1 in the final round)
    a: tuple | None = None
    b: tuple | None = None
    bye: bool = False
    winner: tuple | None = None
    loser: tuple | None = None
    games: list = field(default_factory=lambda: [0, 0])
    table: str | None = None       # its game's label
    game: int | None = None        # its game's index in the session
    at: int | None = None          # the table it is proposed at, counted within the stage (1, 2, ...)
    to_win: int = 2

    def as_state(self) -> dict:
        return {"a": _names(self.a), "b": _names(self.b), "bye": self.bye, "winner": _names(self.winner),
                "games": list(self.games), "table": self.table}


def _names(pair):
    return list(pair) if pair is not None else None


@dataclass
class Bracket:
    seeds: list                                    # the stage's seed order (after the swaps)
    rounds: list = field(default_factory=list)     # [[Tie]]
    problems: list = field(default_factory=list)   # [(game index, RuleError)]
    third_place: bool = False

    @property
    def size(self) -> int:
        return bracket_size(len(self.seeds))

    @property
    def final(self) -> Tie:
        return self.rounds[-1][0]

    @property
    def done(self) -> bool:
        return all(t.winner is not None for t in self.rounds[-1])

    def starting_tables(self) -> int:
        """Tables the bracket takes when it starts: round 1's played ties, then round 2's ties of two byes."""
        return sum(1 for rnd in self.rounds[:2] for t in rnd if t.at is not None and _opens(self, t))

    def classification(self) -> list[tuple[tuple, int]]:
        """[(pair, rank)] once done: 1 and 2 the final's; 3 and 4 the third-place match's, or the semifinal
        losers share 3; the losers of a round of k ties share k + 1. A shared rank in seed order."""
        seed = {p: i for i, p in enumerate(self.seeds)}
        rank: dict = {self.final.winner: 1, self.final.loser: 2}
        for ties in self.rounds[:-1]:
            for t in ties:
                if t.loser is not None:
                    rank[t.loser] = len(ties) + 1
        if len(self.rounds[-1]) > 1:
            third = self.rounds[-1][1]
            rank[third.winner], rank[third.loser] = 3, 4
        return sorted(rank.items(), key=lambda x: (x[1], seed[x[0]]))


def _opens(bracket: Bracket, tie: Tie) -> bool:
    """A tie that takes a table of its own: a played tie of round 1, or a round-2 tie of two byes."""
    if tie.round == 1:
        return not tie.bye
    if tie.round == 2 and tie.index < len(bracket.rounds[0]) // 2:
        f1, f2 = bracket.rounds[0][2 * tie.index], bracket.rounds[0][2 * tie.index + 1]
        return f1.bye and f2.bye
    return False


def build(seeds: list, plan: dict, matches: list[dict]) -> Bracket:
    """The bracket of ``seeds`` (the stage's seed order) with the stage's round matches in it."""
    n = len(seeds)
    br = Bracket(list(seeds), third_place=bool(plan.get("third_place")) and n >= 4)
    size = br.size
    nrounds = size.bit_length() - 1
    to_win = plan["games_to_win"]
    final_to_win = plan.get("final_games_to_win") or to_win
    by_round: dict = {}
    for m in matches:
        by_round.setdefault(m["round"], []).append(m)
    table = 0
    for r in range(1, nrounds + 1):
        if r == 1:
            ties = [Tie(1, i, seeds[x - 1], seeds[y - 1] if y <= n else None, bye=y > n)
                    for i, (x, y) in enumerate(first_round(n))]
        else:
            before = br.rounds[-1]
            ties = [Tie(r, i, before[2 * i].winner, before[2 * i + 1].winner) for i in range(len(before) // 2)]
            if r == nrounds and br.third_place:
                semis = br.rounds[-1]
                ties.append(Tie(r, 1, semis[0].loser, semis[1].loser))
        br.rounds.append(ties)
        for t in ties:
            t.to_win = final_to_win if (r == nrounds and t.index == 0) else to_win
            if _opens(br, t):
                table += 1
                t.at = table
            elif r > 1:
                feeders = br.rounds[-2]
                if t.index == 1 and r == nrounds and br.third_place:
                    t.at = feeders[1].at                       # the third-place match: semifinal 2's table
                else:
                    f1, f2 = feeders[2 * t.index], feeders[2 * t.index + 1]
                    t.at = f1.at if not f1.bye else f2.at     # its upper played feeder's table
        _play(br, r, ties, by_round.get(r, []))
    return br


def _play(br: Bracket, r: int, ties: list[Tie], matches: list[dict]) -> None:
    """Each round match of round r to its tie; the ties' results."""
    for t in ties:
        if t.bye:
            t.winner = t.a
    index = {frozenset((pair_key(t.a), pair_key(t.b))): t for t in ties if t.a is not None and t.b is not None}
    for m in matches:
        key = frozenset((pair_key(m["teams"]["A"]), pair_key(m["teams"]["B"])))
        t = index.get(key)
        if t is None:
            br.problems.append((m["game"], RuleError("club.not_a_tie", f"games[{m['game']}]", round=r)))
            continue
        if t.game is not None:
            br.problems.append((m["game"], RuleError("club.tie_played", f"games[{m['game']}]")))
            continue
        if m.get("games_to_win") is not None and m["games_to_win"] != t.to_win:
            br.problems.append((m["game"], RuleError("club.games_to_win", f"games[{m['game']}].rules",
                                                     count=t.to_win)))
        t.game, t.table = m["game"], m.get("table")
        flip = pair_key(m["teams"]["A"]) != pair_key(t.a)          # the organizer may seat b as team A
        won = m["games_won"]
        t.games = [won["B"], won["A"]] if flip else [won["A"], won["B"]]
        result, _by = match_result(m)
        if result == "draw":                 # a knockout has no draw: the table plays one more hand
            br.problems.append((m["game"], RuleError("club.tie_level", f"games[{m['game']}].ended")))
            continue
        if result is not None:
            first = (result == "A") != flip
            t.winner, t.loser = (t.a, t.b) if first else (t.b, t.a)
