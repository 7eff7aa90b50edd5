"""A club night in stages (``rules/tournament.md``): who plays each stage, its games checked and read, when
it is done, and what the state says of it. Pure: the club object and the round matches in, plain data out.

``evaluate(club, matches)`` reads every stage in order: a stage's pairs are known once its source is done.
The problems it meets (a game that does not fit its stage) are collected with the game's index and path;
the session file is refused with the first (``shape.check_round_games``), the state never sees one.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from companion.domain.errors import RuleError
from companion.club import groups as G
from companion.club import knockout as K
from companion.domain.match import match_result
from companion.club.standings import pair_key, standings

STAGE_FORMATS = ("pairs_round_robin", "pairs_swiss", "groups", "knockout")


# -- the plan alone ----------------------------------------------------------------------------------

def source(plan: dict) -> int | None:
    return (plan.get("from") or {}).get("stage")


def plan_count(stages: list[dict], k: int, first: int) -> int:
    """How many pairs stage k gets, from the plan alone (a group of 3 has no 4th place)."""
    if k == 0:
        return first
    j = source(stages[k])
    nj = plan_count(stages, j, first)
    ranks = stages[k]["from"]["ranks"]
    if stages[j]["format"] == "groups":
        sizes = G.group_sizes(nj, stages[j]["groups"])
        return sum(1 for p in ranks for s in sizes if s >= p)
    return sum(1 for p in ranks if p <= nj)


def tables_taken(plan: dict, n: int) -> int:
    """The tables a stage of n pairs starts with (a knockout: its round-1 ties and round-2 ties of two
    byes; groups: the sum of group size // 2; a round robin or Swiss: n // 2)."""
    if plan["format"] == "knockout":
        return K.build([(f"seed {i}",) for i in range(n)], {"games_to_win": 1}, []).starting_tables()
    if plan["format"] == "groups":
        return G.tables_of(G.group_sizes(n, plan["groups"]))
    return n // 2


def table_offset(stages: list[dict], k: int, first: int) -> int:
    """Stages side by side number their tables on from the stages listed before them that draw from the
    same stage (bracket B's first table follows bracket A's)."""
    j = source(stages[k])
    return sum(tables_taken(stages[i], plan_count(stages, i, first)) for i in range(k)
               if i and j is not None and source(stages[i]) == j)


# -- a stage read from its games ---------------------------------------------------------------------

@dataclass
class StageView:
    index: int
    plan: dict
    pairs: list | None = None                         # seed order; None while not known
    matches: list = field(default_factory=list)       # its round matches that fit it
    round: int = 0                                    # its highest round with a game
    done: bool = False
    groups: list = field(default_factory=list)        # groups, or the one group of a round robin / Swiss
    standings: list = field(default_factory=list)     # per group
    bracket: K.Bracket | None = None
    places: list = field(default_factory=list)        # once done: [(pair, place, share, (mp, gd, pd), group)]

    @property
    def format(self) -> str:
        return self.plan["format"]


@dataclass
class Tournament:
    stages: list = field(default_factory=list)
    problems: list = field(default_factory=list)      # [(game index or -1, RuleError)]

    @property
    def done(self) -> bool:
        return all(v.done for v in self.stages)

    def first_problem(self) -> RuleError | None:
        if not self.problems:
            return None
        return min(self.problems, key=lambda p: p[0])[1]


def evaluate(club: dict, matches: list[dict]) -> Tournament:
    """Every stage of a staged club, in order, from the session's round matches."""
    plans = club["stages"]
    pairs = [tuple(p) for p in club["pairs"]]
    canon = {pair_key(p): p for p in pairs}
    out = Tournament()
    for k, plan in enumerate(plans):
        view = StageView(k, plan)
        own = [m for m in matches if m.get("stage") == k]
        view.round = max((m["round"] for m in own), default=0)
        if k == 0:
            view.pairs = list(pairs)
        else:
            src = out.stages[source(plan)]
            if src.done:
                view.pairs = entrants(src, plan["from"]["ranks"])
                if plan["format"] == "knockout" and src.format == "groups":
                    origin = {p: (place, group) for p, place, _s, _k, group in src.places}
                    view.pairs = K.keep_groups_apart(view.pairs, origin)
        if view.pairs is None:
            out.problems += [(m["game"], RuleError("club.not_known", f"games[{m['game']}]")) for m in own]
            if plan.get("byes"):
                out.problems.append((-1, RuleError("club.not_known", f"club.stages[{k}].byes")))
            out.stages.append(view)
            continue
        if plan["format"] == "knockout":
            _knockout(view, own, canon, out.problems)
        else:
            _rounds(view, own, canon, out.problems)
        out.stages.append(view)
    return out


def _teams(m: dict, canon: dict) -> tuple:
    return canon.get(pair_key(m["teams"]["A"])), canon.get(pair_key(m["teams"]["B"]))


def _knockout(view: StageView, own: list, canon: dict, problems: list) -> None:
    keys = {pair_key(p) for p in view.pairs}
    fit = []
    for m in own:
        if not all(pair_key(m["teams"][t]) in keys for t in "AB"):
            problems.append((m["game"], RuleError("club.not_of_stage", f"games[{m['game']}].seats")))
        else:
            fit.append(m)
    view.bracket = K.build(view.pairs, view.plan, fit)
    problems += view.bracket.problems
    bad = {gi for gi, _e in view.bracket.problems}
    view.matches = [m for m in fit if m["game"] not in bad]
    view.done = view.bracket.done
    if view.done:
        view.places = [(p, i + 1, (view.index, rank), None, None)
                       for i, (p, rank) in enumerate(view.bracket.classification())]


def _rounds(view: StageView, own: list, canon: dict, problems: list) -> None:
    """Groups, round robin and Swiss: each game checked, then the standings of each group."""
    plan, k = view.plan, view.index
    view.groups = G.serpentine(view.pairs, plan["groups"]) if view.format == "groups" else [list(view.pairs)]
    group_of = {pair_key(p): gi for gi, grp in enumerate(view.groups) for p in grp}
    playing: dict = {}                                       # round -> pairs already seated
    to_win = plan.get("games_to_win")
    for m in own:
        path = f"games[{m['game']}]"
        a, b = _teams(m, canon)
        if a is None or b is None or pair_key(a) not in group_of or pair_key(b) not in group_of:
            problems.append((m["game"], RuleError("club.not_of_stage", f"{path}.seats")))
            continue
        if group_of[pair_key(a)] != group_of[pair_key(b)]:
            problems.append((m["game"], RuleError("club.two_groups", f"{path}.seats")))
            continue
        seated = playing.setdefault(m["round"], set())
        if a in seated or b in seated:
            problems.append((m["game"], RuleError("club.playing_round", f"{path}.seats", round=m["round"])))
            continue
        if view.format == "pairs_swiss" and m["round"] > plan["rounds"]:
            problems.append((m["game"], RuleError("club.past_rounds", f"{path}.round", rounds=plan["rounds"])))
            continue
        if to_win is not None and m.get("games_to_win") is not None and m["games_to_win"] != to_win:
            problems.append((m["game"], RuleError("club.games_to_win", f"{path}.rules", count=to_win)))
            continue
        seated.update((a, b))
        view.matches.append(m)
    byes = plan.get("byes") or {}
    for rnd, who in byes.items():
        for i, p in enumerate(who):
            bpath = f"club.stages[{k}].byes.{rnd}[{i}]"
            if pair_key(p) not in group_of:
                problems.append((-1, RuleError("club.not_a_pair", bpath)))
            elif canon[pair_key(p)] in playing.get(int(rnd), set()):
                problems.append((-1, RuleError("club.bye_plays", bpath, round=int(rnd))))
    view.standings = [G.group_standings(grp, view.matches, byes) for grp in view.groups]
    results = all(match_result(m)[0] is not None for m in view.matches)
    if view.format == "pairs_swiss":
        had = {(int(r), pair_key(p)) for r, who in byes.items() for p in who}
        had |= {(m["round"], pair_key(m["teams"][t])) for m in view.matches for t in "AB"}
        view.done = results and all((r, pair_key(p)) in had for r in range(1, plan["rounds"] + 1)
                                    for p in view.pairs)
    else:
        view.done = results and all(G.all_met(grp, view.matches) for grp in view.groups)
    if view.done:
        view.places = _places(view)


def _places(view: StageView) -> list:
    """(pair, place, share, (mp, gd, pd), group) of every pair: a group's places (a shared rank broken by
    seed order), a round robin's or Swiss's standings order."""
    out = []
    for gi, rows in enumerate(view.standings):
        for place, row in enumerate(rows, 1):
            pair = tuple(row["pair"])
            share = (view.index, place) if view.format == "groups" else (view.index, row["rank"])
            out.append((pair, place, share, (row["match_points"], row["games_diff"], row["points_diff"]), gi + 1))
    return out


def ordered(view: StageView, places) -> list:
    """Pairs of a done stage at the given places, in the order a later stage seeds them: from groups, by
    place, then match points, games difference, points difference (higher first), then group number."""
    wanted = set(places)
    rows = [r for r in view.places if r[1] in wanted]
    if view.format == "groups":
        rows.sort(key=lambda r: (r[1], -r[3][0], -r[3][1], -r[3][2], r[4]))
    else:
        rows.sort(key=lambda r: r[1])
    return rows


def entrants(view: StageView, ranks: list[int]) -> list:
    """A later stage's pairs in its seed order."""
    return [r[0] for r in ordered(view, ranks)]


def swiss_standings(view: StageView) -> list[dict]:
    """A Swiss stage's standings (for its proposals): ``club.md``'s over the stage's pairs and byes."""
    club = {"format": "pairs_swiss", "pairs": [list(p) for p in view.pairs], "byes": view.plan.get("byes") or {}}
    return standings(club, [], view.matches)
