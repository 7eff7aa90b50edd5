"""The organizer's club-night actions as typed commands, and what each one writes (pure: no Flask, no
SQL). A route parses its form into one of these dataclasses; ``handle(command, night)`` checks it against
the night and returns the events to write in one go (``Plan``), or raises RuleError naming the form field
(``RuleError.field``); ``companion.service.run`` writes them; ``permit`` is asked with the command's
``command`` name before any of it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from companion import kinds
from companion.domain.errors import RuleError
from companion.kinds.base import GameRec
from companion.domain.messages import N_, define
from companion.domain.numbers import parse_int
from companion.club.night import round_in_play
from companion.club.shape import clean_club, clean_label
from companion.club.standings import PAIR_FORMATS

define("clubweb", {
    "pair_line": N_("Line %(n)s: a pair is two players of this session, like \"Ane, Bea\""),
    "plan": N_("This plan no longer fits the players: propose the round again."),
    "seat_twice": N_("%(name)s is seated twice"),
    "missing": N_("%(name)s has no seat and is not sitting out"),
    "not_pairs": N_("Table %(table)s: its teams must be two of the night's pairs"),
    "no_round": N_("No round is being played."),
    "open_hands": N_("Table %(tables)s has a hand being recorded: finish or undo it, then end the round."),
    "no_club": N_("Choose a format first."),
    "swap_same": N_("Choose two different places to swap."),
    "not_present": N_("%(name)s is not playing tonight"),
    "stage_nothing": N_("This stage has nothing to start now."),
    "stage_plan": N_("This plan is not the stage's proposal: propose it again."),
    "stage_labels": N_("Every table of the round needs its own label."),
    "table_kind": N_("Choose one of the games offered."),
})

SETUP_FIELDS = ("format", "pairs", "minutes", "rounds", "games_to_win")


@dataclass(frozen=True)
class Night:
    """What the commands read of a session: its header and its games (heads and running states)."""
    header: dict
    games: list[GameRec]

    @property
    def club(self) -> dict | None:
        return self.header.get("club")

    @property
    def players(self) -> list[str]:
        return self.header["players"]

    @property
    def round(self) -> int:
        return round_in_play([g.head for g in self.games], self.club or {})


@dataclass
class Plan:
    """The events a command writes, in order, all or none; and the table labels that need a link."""
    steps: list[tuple[str, dict]]
    labels: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Setup:
    command: ClassVar[str] = "club_setup"
    format: str
    pairs: tuple[tuple[str, ...], ...] | None = None     # pair formats: the lines as typed, split in names
    minutes: int | str | None = None
    rounds: int | str | None = None
    games_to_win: int | str = 2
    preset: str = "spanish"
    tally: bool = False


@dataclass(frozen=True)
class StartRound:
    command: ClassVar[str] = "start_round"
    plan: dict          # {"tables": [[4 seats]...], "free": [byes or sit-outs]}
    now: str            # when the round's clock starts (ISO, UTC)


@dataclass(frozen=True)
class EndRound:
    command: ClassVar[str] = "end_round"


@dataclass(frozen=True)
class Arrive:
    command: ClassVar[str] = "arrive"
    name: str
    partner: str | None = None      # pair formats: the pair arrives together


@dataclass(frozen=True)
class Leave:
    command: ClassVar[str] = "leave"
    name: str


@dataclass(frozen=True)
class AddTable:
    command: ClassVar[str] = "add_table"
    label: str
    seats: tuple[str, ...]
    kind: str = ""          # "": the club's match; else a kind offering a table game (Kind.table_game)


@dataclass(frozen=True)
class Swap:
    command: ClassVar[str] = "swap"
    plan: dict
    x: str
    y: str


@dataclass(frozen=True)
class StartStage:
    """A round of a tournament's stage (a knockout: its ready ties), as proposed, perhaps swapped."""
    command: ClassVar[str] = "start_round"
    stage: int
    plan: dict          # {"tables": [{"table", "a", "b", ...}], "free": [byes]}
    now: str


# -- the handlers ----------------------------------------------------------------------------------

def handle(cmd, night: Night) -> Plan:
    return HANDLERS[type(cmd)](cmd, night)


def _match_game(club: dict, seats, **place) -> dict:
    """A club match (``Kind.club_match``): the club's settings for its matches (kept under the kind's name),
    the seats, its table (and round)."""
    kind = kinds.club_kind()
    return {**kind.club_match.game(club.get(kind.name) or {}, list(seats)), **place}


def setup(cmd: Setup, night: Night) -> Plan:
    raw: dict = dict(night.club or {})
    raw["format"] = cmd.format
    match = kinds.club_kind()
    raw["kind"] = match.name
    for key in ("minutes", "rounds"):
        value = getattr(cmd, key)
        if value is None or value == "":
            raw.pop(key, None)
        else:
            raw[key] = value
    if cmd.format in PAIR_FORMATS:
        pairs = []
        for n, names in enumerate(cmd.pairs or (), 1):
            if not names:
                continue
            if len(names) != 2 or not all(x in night.players for x in names):
                raise RuleError("clubweb.pair_line", "pairs", field="pairs", n=n)
            pairs.append(list(names))
        raw["pairs"] = pairs
    else:
        raw.pop("pairs", None)
    raw[match.name] = {"rules": {"preset": cmd.preset, "games_to_win": cmd.games_to_win},
                  **({"scoring": "tally"} if cmd.tally else {})}
    try:
        club = clean_club(raw, night.players)
    except RuleError as err:
        key = err.path.split(".")[1].split("[")[0] if "." in err.path else "format"
        key = "games_to_win" if key == match.name else key
        err.field = key if key in SETUP_FIELDS else "format"
        raise
    return Plan([("club", {"club": club})])


def start_round(cmd: StartRound, night: Night) -> Plan:
    club = night.club
    if not club or club["format"] == "free":
        raise RuleError("clubweb.no_club", "plan", field="plan")
    plan = cmd.plan
    check_plan(night, club, plan)
    rnd = night.round + 1
    new_club = dict(club)
    if plan["free"]:
        new_club["byes"] = {**(club.get("byes") or {}), str(rnd): plan["free"]}
    new_club["clock"] = {**(club.get("clock") or {}), str(rnd): cmd.now}
    labels = [str(i + 1) for i in range(len(plan["tables"]))]
    steps = [("club", {"club": new_club})]
    steps += [("add_game", {"game": _match_game(club, seats, table=label, round=rnd)})
              for label, seats in zip(labels, plan["tables"])]
    return Plan(steps, labels)


def stage_matches(night: Night) -> list[dict]:
    """The night's round matches (``results.round_matches``) from the games' heads and running states."""
    from companion.club.results import round_matches

    heads = [g.head if g.head.get("round") is not None else {} for g in night.games]
    return round_matches(heads, [kinds.KINDS[g.kind].state(g) if h else None for g, h in zip(night.games, heads)])


def _pair_set(plan_tables) -> set:
    return {frozenset((frozenset(t["a"]), frozenset(t["b"]))) for t in plan_tables}


def start_stage(cmd: StartStage, night: Night) -> Plan:
    """Stage ``cmd.stage``'s proposal started as one write: its byes and clock in the stage, then a club
    match at each table with ``stage``, ``round``, ``table``, the seats and the stage's ``games_to_win``.
    The plan must hold the proposal's pairs: groups and Swiss, the same tables of pairs (swapped between
    tables within what the stage allows, which the session checks); a knockout, the same ties (only the
    table labels and which pair is team A may change)."""
    from companion.club.stage_proposals import propose_stage

    club = night.club
    if not club or club.get("format") != "stages":
        raise RuleError("clubweb.no_club", "plan", field="plan")
    stages = club["stages"]
    k = cmd.stage
    if not isinstance(k, int) or not 0 <= k < len(stages):
        raise RuleError("clubweb.stage_plan", "plan", field="plan")
    proposal = propose_stage(club, stage_matches(night), k)
    if not proposal.tables:
        raise RuleError("clubweb.stage_nothing", "plan", field="plan")
    plan = cmd.plan
    tables = plan.get("tables")
    try:
        rows = [{"table": clean_label(str(t["table"]), "plan"), "a": [str(x) for x in t["a"]],
                 "b": [str(x) for x in t["b"]]} for t in tables]
    except (KeyError, TypeError):
        raise RuleError("clubweb.stage_plan", "plan", field="plan") from None
    except RuleError as err:
        err.field = "plan"
        raise
    if any(len(r["a"]) != 2 or len(r["b"]) != 2 for r in rows):
        raise RuleError("clubweb.stage_plan", "plan", field="plan")
    if len({r["table"] for r in rows}) != len(rows):
        raise RuleError("clubweb.stage_labels", "plan", field="plan")
    plan_of = stages[k]
    knockout = plan_of["format"] == "knockout"
    seated = sorted(tuple(sorted(x)) for r in rows for x in (r["a"], r["b"]))
    proposed = sorted(tuple(sorted(x)) for t in proposal.tables for x in (t["a"], t["b"]))
    if knockout:
        if _pair_set(rows) != _pair_set(proposal.tables):
            raise RuleError("clubweb.stage_plan", "plan", field="plan")
    elif seated != proposed or sorted(tuple(sorted(map(str, x))) for x in plan.get("free") or []) != sorted(
            tuple(sorted(x)) for x in proposal.free):
        raise RuleError("clubweb.stage_plan", "plan", field="plan")
    tie_of = {frozenset((frozenset(t["a"]), frozenset(t["b"]))): t for t in proposal.tables}
    new_stage = dict(plan_of)
    rounds = set()
    games = []
    for r in rows:
        tie = tie_of.get(frozenset((frozenset(r["a"]), frozenset(r["b"]))), {})
        rnd = tie.get("round", proposal.round) if knockout else proposal.round
        rounds.add(rnd)
        to_win = tie.get("games_to_win") if knockout else plan_of.get("games_to_win")
        game = _match_game(club, [r["a"][0], r["b"][0], r["a"][1], r["b"][1]], table=r["table"], round=rnd, stage=k)
        if to_win:
            game = kinds.club_kind().club_match.with_games_to_win(game, to_win)
        games.append(game)
    if not knockout and proposal.free:
        new_stage["byes"] = {**(plan_of.get("byes") or {}), str(proposal.round): [list(x) for x in proposal.free]}
    clock = dict(plan_of.get("clock") or {})
    for rnd in rounds:
        clock.setdefault(str(rnd), cmd.now)
    new_stage["clock"] = clock
    new_club = {**club, "stages": [new_stage if i == k else s for i, s in enumerate(stages)]}
    _check_stage_games(new_club, stage_matches(night), games, len(night.games))
    steps = [("club", {"club": new_club})] + [("add_game", {"game": g}) for g in games]
    return Plan(steps, [r["table"] for r in rows])


def _check_stage_games(club: dict, matches: list[dict], games: list[dict], first: int) -> None:
    """The new games read with the night's as ``rules/tournament.md`` reads them (two groups at one table,
    a pair playing twice in a round, a pair of another stage): the first problem refuses the plan."""
    from companion.club.results import games_to_win
    from companion.club.stages import evaluate

    new = [{"game": first + i, "round": g["round"], "table": g["table"], "ended": None, "stage": g["stage"],
            "games_to_win": games_to_win(g), "teams": {"A": g["seats"][0::2], "B": g["seats"][1::2]},
            "games": [], "games_won": {"A": 0, "B": 0}, "match_winner": None, "score": {"A": 0, "B": 0}}
           for i, g in enumerate(games)]
    problems = [(gi, err) for gi, err in evaluate(club, matches + new).problems if gi == -1 or gi >= first]
    if problems:
        err = min(problems, key=lambda p: p[0])[1]
        err.field = "plan"
        raise err


def running(night: Night) -> list[tuple[str, int]]:
    """(label, game index) of the tables whose club match of the round in play (a free night: each
    table's latest game) has no result yet."""
    club = night.club or {"format": "free"}
    rnd = night.round
    latest: dict[str, int] = {}
    for gi, g in enumerate(night.games):
        label = g.head.get("table")
        # a tournament's stages run side by side, each its own rounds: each table's latest game
        if label is None or (club["format"] not in ("free", "stages") and g.head.get("round") not in (None, rnd)):
            continue
        latest[label] = gi
    out = []
    for label, gi in latest.items():
        rec = night.games[gi]
        if kinds.KINDS[rec.kind].club_match is None:
            continue
        if rec.state.get("match_winner") or rec.head.get("ended"):
            continue
        out.append((label, gi))
    return out


def stuck(night: Night, tables: list[tuple[str, int]]) -> list[str]:
    """The tables whose match the clock cannot end now (a hand being recorded): the kind's own rule,
    asked without writing."""
    out = []
    for label, gi in tables:
        rec = night.games[gi]
        kind = kinds.KINDS[rec.kind]
        try:
            kind.apply(rec, kind.club_match.end_by_time())
        except RuleError:
            out.append(label)
    return out


def end_round(cmd: EndRound, night: Night) -> Plan:
    tables = running(night)
    if not tables:
        raise RuleError("clubweb.no_round", "end", field="end")
    blocked = stuck(night, tables)
    if blocked:
        raise RuleError("clubweb.open_hands", "end", field="end", tables=", ".join(blocked))
    return Plan([("game", {"game": gi, "action": kinds.KINDS[night.games[gi].kind].club_match.end_by_time()})
                 for _label, gi in tables])


def arrive(cmd: Arrive, night: Night) -> Plan:
    """Late arrivals: each name checked as adding a player checks it (the session's one rule), then the
    players and, in pair formats, their pair: one write."""
    from companion.domain.players import MAX_PLAYERS, clean_name, same_player

    club = night.club
    if not club:
        raise RuleError("clubweb.no_club", "arrive", field="arrive")
    names = [cmd.name] + ([cmd.partner or ""] if club["format"] in PAIR_FORMATS else [])
    players = list(night.players)
    added = []
    for name in names:
        name = clean_name(name, "name")
        same = same_player(name, players)
        if same is not None:
            raise RuleError("session.already_playing", "name", field="arrive", name=same)
        if len(players) >= MAX_PLAYERS:
            raise RuleError("session.too_many", "name", field="arrive", max=MAX_PLAYERS)
        players.append(name)
        added.append(name)
    steps = [("add_player", {"name": name}) for name in added]
    if club["format"] in PAIR_FORMATS:
        steps.append(("club", {"club": clean_club(dict(club, pairs=[*club.get("pairs", []), added]), players)}))
    return Plan(steps)


def leave(cmd: Leave, night: Night) -> Plan:
    club = night.club
    if not club:
        raise RuleError("clubweb.no_club", "leave", field="leave")
    left = list(club.get("left") or [])
    if cmd.name in left:
        left.remove(cmd.name)
    elif cmd.name in night.players:
        left.append(cmd.name)
    return Plan([("club", {"club": clean_club(dict(club, left=left), night.players)})])


def add_table(cmd: AddTable, night: Night) -> Plan:
    try:
        label = clean_label(cmd.label, "label")
    except RuleError as err:
        err.field = "label"
        raise
    if not cmd.kind:
        return Plan([("add_game", {"game": _match_game(night.club or {}, cmd.seats, table=label)})], [label])
    return Plan([("add_game", {"game": {**_chips_game(cmd.kind, night.players, cmd.seats), "table": label}})], [label])


def table_kinds() -> list[str]:
    """The kinds the organizer may put at a table besides the club's matches (``Kind.at_tables``)."""
    return [kind.name for kind in kinds.at_tables()]


def _chips_game(kind: str, players: list[str], seats) -> dict:
    """A game of the kind with its default rules (``Kind.table_game``), the seats in the order chosen."""
    game = None
    if kind in kinds.KINDS and kinds.KINDS[kind].at_tables:
        try:
            game = kinds.KINDS[kind].table_game(players, [s for s in seats if s])
        except RuleError as err:
            err.field = "seats"
            raise
    if game is None:
        raise RuleError("clubweb.table_kind", "kind", field="seats")
    return game


# -- the proposed plan: checked, and two places swapped ----------------------------------------------

def units(club: dict, players: list[str]) -> list:
    """Who the proposal seats: pairs (pair formats) or players, without those who left."""
    left = set(club.get("left") or [])
    if club["format"] in PAIR_FORMATS:
        return [p for p in club.get("pairs") or [] if not left & set(p)]
    return [p for p in players if p not in left]


def check_plan(night: Night, club: dict, plan: dict) -> None:
    """Every present pair or player seated once or sitting out once; tables of four; pairs as pairs."""
    pairs = club["format"] in PAIR_FORMATS
    present_units = units(club, night.players)
    seen: list[str] = []
    for ti, seats in enumerate(plan["tables"]):
        if not isinstance(seats, list) or len(seats) != 4 or not all(isinstance(s, str) for s in seats):
            raise RuleError("clubweb.plan", "plan", field="plan")
        if pairs:
            keys = {frozenset(p) for p in present_units}
            if frozenset(seats[0::2]) not in keys or frozenset(seats[1::2]) not in keys:
                raise RuleError("clubweb.not_pairs", "plan", field="plan", table=ti + 1)
        seen += seats
    for who in plan["free"]:
        if pairs and not (isinstance(who, list) and frozenset(who) in {frozenset(p) for p in present_units}):
            raise RuleError("clubweb.plan", "plan", field="plan")
        seen += list(who) if pairs else [who]
    present = [n for u in present_units for n in (u if pairs else [u])]
    for name in seen:
        if not isinstance(name, str) or name not in present:
            raise RuleError("clubweb.not_present", "plan", field="plan", name=str(name)[:40])
        if seen.count(name) > 1:
            raise RuleError("clubweb.seat_twice", "plan", field="plan", name=name)
    for name in present:
        if name not in seen:
            raise RuleError("clubweb.missing", "plan", field="plan", name=name)


def swap(cmd: Swap, night: Night) -> Plan:
    """Two places of the proposed plan swapped (``cmd.plan`` changes; nothing is written)."""
    club = night.club
    if not club:
        raise RuleError("clubweb.no_club", "swap", field="swap")
    if cmd.x == cmd.y:
        raise RuleError("clubweb.swap_same", "swap", field="swap")
    pairs = club["format"] in PAIR_FORMATS
    try:
        px, py = _place(cmd.plan, pairs, cmd.x), _place(cmd.plan, pairs, cmd.y)
        a, b = _get(cmd.plan, pairs, px), _get(cmd.plan, pairs, py)
        _put(cmd.plan, pairs, px, b)
        _put(cmd.plan, pairs, py, a)
    except (ValueError, IndexError, KeyError, TypeError):
        raise RuleError("clubweb.plan", "swap", field="swap") from None
    return Plan([])


def _place(plan: dict, pairs: bool, ref: str):
    where, what = ref.split(":")
    if where == "f":
        return ("f", parse_int(what, 0))
    ti = parse_int(where, 0)
    plan["tables"][ti]          # IndexError when the plan has no such table
    if pairs:
        return ("t", ti, (0, 2) if what == "A" else (1, 3))
    return ("t", ti, (parse_int(what, 0),))


def _get(plan, pairs, place):
    if place[0] == "f":
        return plan["free"][place[1]]
    seats = plan["tables"][place[1]]
    got = [seats[i] for i in place[2]]
    return got if pairs else got[0]


def _put(plan, pairs, place, who):
    if place[0] == "f":
        plan["free"][place[1]] = who
        return
    seats = plan["tables"][place[1]]
    for i, name in zip(place[2], who if pairs else [who]):
        seats[i] = name


HANDLERS = {Setup: setup, StartRound: start_round, EndRound: end_round, Arrive: arrive, Leave: leave,
            AddTable: add_table, Swap: swap, StartStage: start_stage}
