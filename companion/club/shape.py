"""The session file's ``club`` object and a game's ``table`` and ``round`` (session-v1.md, "Tables,
rounds and a club night"): checked with the JSON path of the first problem."""
from __future__ import annotations

import re

from companion.domain.errors import RuleError, join_path
from companion.kinds.validate import check_keys, need_int
from companion.domain.messages import N_, define, msg
from companion.domain.text import check_segment, clean
from companion.club.standings import FORMATS, PAIR_FORMATS

# and the key named as the kind that plays the club's matches: their settings (``_club_keys``)
CLUB_KEYS = ("format", "kind", "pairs", "rounds", "minutes", "left", "byes", "clock", "stages")
MAX_LABEL = 20
MAX_ROUNDS = 99
MAX_MINUTES = 600
MAX_STAGES = 20
MAX_STAGE_NAME = 40
MAX_GAMES_TO_WIN = 9
STAGED = "stages"
STAGE_KEYS = ("name", "format", "from", "minutes", "games_to_win", "byes", "clock")
STAGE_OWN_KEYS = {"groups": ("groups",), "pairs_swiss": ("rounds",), "pairs_round_robin": (),
                  "knockout": ("final_games_to_win", "third_place")}

define("club", {
    "object": N_("club must be an object"),
    "format": N_("format must be one of %(known)s"),
    "kind": N_("a club night plays %(kind)s in this version"),
    "pairs_list": N_("pairs must be a list of pairs of players"),
    "pair": N_("a pair is two different players of this session"),
    "pairs_needed": N_("a pair format needs at least two pairs"),
    "in_two_pairs": N_("%(name)s is in two pairs"),
    "names": N_("a list of players of this session"),
    "byes_object": N_("byes must be an object keyed by round number"),
    "round_key": N_("a round is a number from 1"),
    "not_a_pair": N_("not one of the club's pairs"),
    "label": N_("a table label is 1 to %(max)s characters"),
    "seats_pairs": N_("the teams of a round game must be two of the club's pairs"),
    "round_kind": N_("a round game of this format is a %(kind)s match"),
    "clock": N_("clock holds when each round started: {\"1\": \"2026-11-20T21:05:00+00:00\"}"),
    "stages_format": N_("a club with stages has the format stages, and a club of format stages has stages"),
    "stages_list": N_("stages must be a list of 1 to %(max)s stages"),
    "staged_key": N_("a club in stages keeps its rounds and byes in its stages"),
    "stage_name": N_("a stage's name is 1 to %(max)s characters"),
    "stage_format": N_("a stage's format must be one of %(known)s"),
    "from_first": N_("the first stage plays every pair: it has no from"),
    "from_needed": N_("a later stage says where its pairs come from: {\"stage\": 0, \"ranks\": [1, 2]}"),
    "from_stage": N_("from.stage must be an earlier stage (0 to %(max)s)"),
    "from_ranks": N_("ranks must be a list of different places from 1"),
    "place_taken": N_("place %(place)s of stage %(stage)s already goes to another stage"),
    "stage_pairs": N_("this stage would have %(count)s pairs: a stage needs at least 2 (2 in each group)"),
    "knockout_games": N_("a knockout says how many games win a tie (games_to_win)"),
    "knockout_byes": N_("a knockout has no byes written: its byes are the bracket's"),
    "swiss_rounds": N_("a Swiss stage says how many rounds it plays (rounds)"),
    "groups_count": N_("groups is the number of groups, from 1"),
    "third_place": N_("third_place is true or false"),
    "stage_needed": N_("a round game of a club in stages says its stage"),
    "stage_range": N_("stage must be the index of one of the club's stages (0 to %(max)s)"),
    "stage_unstaged": N_("only a round game of a club in stages has a stage"),
    "not_known": N_("the pairs of this stage are not known yet: the stage it draws from is not done"),
    "not_of_stage": N_("the teams must be two pairs of this stage"),
    "two_groups": N_("the two pairs are in different groups"),
    "playing_round": N_("one of these pairs already plays round %(round)s of this stage"),
    "past_rounds": N_("this Swiss stage has %(rounds)s rounds"),
    "not_a_tie": N_("these two pairs are not a tie of round %(round)s of the bracket (or not yet)"),
    "tie_played": N_("this tie already has its game"),
    "tie_level": N_("a knockout tie has no draw: level on games and score, the table plays one more hand"),
    "games_to_win": N_("a game of this stage is won with %(count)s games (games_to_win)"),
    "bye_plays": N_("this pair plays round %(round)s: it cannot have a bye in it"),
})

_HIDDEN = re.compile("[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


def clean_label(raw, path: str = "table") -> str:
    """A table's label: 1-20 characters of text, trimmed ("3", "Terraza")."""
    if not isinstance(raw, str) or _HIDDEN.search(raw):
        raise RuleError("club.label", path, max=MAX_LABEL)
    label = clean(raw, path)            # the one text policy: nothing invisible or blank-looking
    if not 1 <= len(label) <= MAX_LABEL:
        raise RuleError("club.label", path, max=MAX_LABEL)
    check_segment(label, path)          # one path segment of a URL as it is (companion/domain/text.py)
    return label


def clean_round(raw, path: str = "round") -> int:
    return need_int(raw, path, 1, MAX_ROUNDS)


def _names(raw, players: list[str], path: str) -> list[str]:
    if not isinstance(raw, list):
        raise RuleError("club.names", path)
    out = []
    for i, name in enumerate(raw):
        if not isinstance(name, str) or name not in players or name in out:
            raise RuleError("v.not_player", f"{path}[{i}]", name=str(name)[:40])
        out.append(name)
    return out


def _pair(raw, players: list[str], path: str) -> list[str]:
    if (not isinstance(raw, list) or len(raw) != 2 or not all(isinstance(n, str) and n in players for n in raw)
            or raw[0] == raw[1]):
        raise RuleError("club.pair", path)
    return list(raw)


def clean_club(raw, players: list[str], path: str = "club") -> dict:
    """The ``club`` object, canonical (keys in the order of ``CLUB_KEYS``, empty lists left out)."""
    if not isinstance(raw, dict):
        raise RuleError("club.object", path)
    match = _match_kind()
    check_keys(raw, CLUB_KEYS + (match.name,), path)
    fmt = raw.get("format")
    if fmt not in FORMATS + (STAGED,):
        raise RuleError("club.format", join_path(path, "format"), known=", ".join(FORMATS + (STAGED,)))
    if (fmt == STAGED) != (raw.get("stages") is not None):
        raise RuleError("club.stages_format", join_path(path, "stages" if fmt == STAGED else "format"))
    if fmt == STAGED:
        for key in ("rounds", "byes", "left"):
            if raw.get(key) is not None:
                raise RuleError("club.staged_key", join_path(path, key))
    out: dict = {"format": fmt}
    if fmt != "free" or "kind" in raw:
        if raw.get("kind", match.name) != match.name:
            raise RuleError("club.kind", join_path(path, "kind"), kind=msg(match.title))
        out["kind"] = match.name
    pairs_fmt = fmt in PAIR_FORMATS or fmt == STAGED
    if pairs_fmt or raw.get("pairs"):
        pairs = raw.get("pairs")
        if not isinstance(pairs, list):
            raise RuleError("club.pairs_list", join_path(path, "pairs"))
        seen: set = set()
        out["pairs"] = []
        for i, p in enumerate(pairs):
            pair = _pair(p, players, f"{path}.pairs[{i}]")
            for j, name in enumerate(pair):
                if name in seen:
                    raise RuleError("club.in_two_pairs", f"{path}.pairs[{i}][{j}]", name=name)
                seen.add(name)
            out["pairs"].append(pair)
        if pairs_fmt and len(out["pairs"]) < 2:
            raise RuleError("club.pairs_needed", join_path(path, "pairs"))
    for key, top in (("rounds", MAX_ROUNDS), ("minutes", MAX_MINUTES)):
        if raw.get(key) is not None:
            out[key] = need_int(raw[key], join_path(path, key), 1, top)
    if raw.get("left"):
        out["left"] = _names(raw["left"], players, join_path(path, "left"))
    if raw.get("byes"):
        byes = _byes(raw["byes"], players, out.get("pairs", []) if pairs_fmt else None, join_path(path, "byes"))
        if byes:
            out["byes"] = byes
    if raw.get(match.name):
        # the app's own key, named as the kind: the rules, scoring and stake of the round's matches
        out[match.name] = match.club_match.settings(raw[match.name], join_path(path, match.name))
    if raw.get("clock"):
        # the app's own key: when each round's clock started (the sala counts down from it)
        out["clock"] = _clock(raw["clock"], join_path(path, "clock"))
    if fmt == STAGED:
        out["stages"] = clean_stages(raw["stages"], players, out["pairs"], join_path(path, "stages"))
    return out


def _byes(byes, players: list[str], pairs: list | None, bpath: str) -> dict:
    """``byes`` keyed by round: pairs of ``pairs`` (pair formats and stages) or players (rotating)."""
    if not isinstance(byes, dict):
        raise RuleError("club.byes_object", bpath)
    pair_keys = [frozenset(p) for p in pairs or []]
    clean: dict = {}
    for key in sorted(byes, key=lambda k: (len(str(k)), str(k))):
        kpath = f"{bpath}.{key}"
        if not re.fullmatch(r"[1-9][0-9]{0,1}", str(key)):
            raise RuleError("club.round_key", kpath)
        who = byes[key]
        if not isinstance(who, list):
            raise RuleError("club.names", kpath)
        if pairs is not None:
            got = []
            for i, p in enumerate(who):
                pair = _pair(p, players, f"{kpath}[{i}]")
                if frozenset(pair) not in pair_keys:
                    raise RuleError("club.not_a_pair", f"{kpath}[{i}]")
                got.append(pair)
        else:
            got = _names(who, players, kpath)
        if got:
            clean[str(key)] = got
    return clean


def _clock(clock, cpath: str) -> dict:
    if not isinstance(clock, dict):
        raise RuleError("club.clock", cpath)
    out = {}
    for key in sorted(clock, key=lambda k: (len(str(k)), str(k))):
        stamp = clock[key]
        if not re.fullmatch(r"[1-9][0-9]?", str(key)) or not _is_time(stamp):
            raise RuleError("club.clock", f"{cpath}.{key}")
        out[str(key)] = stamp
    return out


# -- a club in stages (rules/tournament.md) -----------------------------------------------------------

def clean_stages(raw, players: list[str], pairs: list, path: str = "club.stages") -> list[dict]:
    """``club.stages``: each stage checked, then the plan as a whole (places taken once, at least 2 pairs a
    stage and 2 a group, counted from the plan alone)."""
    from companion.club.groups import group_sizes
    from companion.club.stages import plan_count

    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_STAGES:
        raise RuleError("club.stages_list", path, max=MAX_STAGES)
    out: list[dict] = []
    for k, st in enumerate(raw):
        spath = f"{path}[{k}]"
        stage = _clean_stage(st, k, players, pairs, spath)
        src = stage.get("from")
        if src is not None:
            for i, place in enumerate(src["ranks"]):
                if any(o.get("from", {}).get("stage") == src["stage"] and place in o["from"]["ranks"] for o in out):
                    raise RuleError("club.place_taken", f"{spath}.from.ranks[{i}]", place=place, stage=src["stage"])
        out.append(stage)
        n = plan_count(out, k, len(pairs))
        if stage["format"] == "groups":
            if min(group_sizes(n, stage["groups"])) < 2:
                raise RuleError("club.stage_pairs", f"{spath}.groups", count=n)
        elif n < 2:
            raise RuleError("club.stage_pairs", f"{spath}.from" if k else spath, count=n)
    return out


def _clean_stage(raw, k: int, players: list[str], pairs: list, path: str) -> dict:
    from companion.club.stages import STAGE_FORMATS

    if not isinstance(raw, dict):
        raise RuleError("v.object", path)
    fmt = raw.get("format")
    if fmt not in STAGE_FORMATS:
        raise RuleError("club.stage_format", join_path(path, "format"), known=", ".join(STAGE_FORMATS))
    check_keys(raw, STAGE_KEYS + STAGE_OWN_KEYS[fmt], path)
    name = raw.get("name")
    if not isinstance(name, str) or _HIDDEN.search(name):
        raise RuleError("club.stage_name", join_path(path, "name"), max=MAX_STAGE_NAME)
    name = clean(name, join_path(path, "name"))
    if not 1 <= len(name) <= MAX_STAGE_NAME:
        raise RuleError("club.stage_name", join_path(path, "name"), max=MAX_STAGE_NAME)
    out: dict = {"name": name, "format": fmt}
    src = raw.get("from")
    if k == 0 and src is not None:
        raise RuleError("club.from_first", join_path(path, "from"))
    if k > 0:
        if not isinstance(src, dict):
            raise RuleError("club.from_needed", join_path(path, "from"))
        check_keys(src, ("stage", "ranks"), join_path(path, "from"))
        j = src.get("stage")
        if not (isinstance(j, int) and not isinstance(j, bool) and 0 <= j < k):
            raise RuleError("club.from_stage", join_path(path, "from.stage"), max=k - 1)
        ranks = src.get("ranks")
        if not isinstance(ranks, list) or not ranks:
            raise RuleError("club.from_ranks", join_path(path, "from.ranks"))
        for i, place in enumerate(ranks):
            if (not isinstance(place, int) or isinstance(place, bool) or not 1 <= place <= 400
                    or place in ranks[:i]):
                raise RuleError("club.from_ranks", join_path(path, f"from.ranks[{i}]"))
        out["from"] = {"stage": j, "ranks": list(ranks)}
    if raw.get("minutes") is not None:
        out["minutes"] = need_int(raw["minutes"], join_path(path, "minutes"), 1, MAX_MINUTES)
    if fmt == "knockout" and raw.get("games_to_win") is None:
        raise RuleError("club.knockout_games", join_path(path, "games_to_win"))
    for key in ("games_to_win", "final_games_to_win"):
        if raw.get(key) is not None:
            out[key] = need_int(raw[key], join_path(path, key), 1, MAX_GAMES_TO_WIN)
    if fmt == "knockout":
        if raw.get("third_place") is not None:
            if not isinstance(raw["third_place"], bool):
                raise RuleError("club.third_place", join_path(path, "third_place"))
            if raw["third_place"]:
                out["third_place"] = True
        if raw.get("byes"):
            raise RuleError("club.knockout_byes", join_path(path, "byes"))
    if fmt == "groups":
        g = raw.get("groups")
        if not isinstance(g, int) or isinstance(g, bool) or not 1 <= g <= 200:
            raise RuleError("club.groups_count", join_path(path, "groups"))
        out["groups"] = g
    if fmt == "pairs_swiss":
        if raw.get("rounds") is None:
            raise RuleError("club.swiss_rounds", join_path(path, "rounds"))
        out["rounds"] = need_int(raw["rounds"], join_path(path, "rounds"), 1, MAX_ROUNDS)
    if raw.get("byes") and fmt != "knockout":
        byes = _byes(raw["byes"], players, pairs, join_path(path, "byes"))
        if byes:
            out["byes"] = byes
    if raw.get("clock"):
        out["clock"] = _clock(raw["clock"], join_path(path, "clock"))
    return out


def check_round_games(club: dict | None, games: list[dict]) -> None:
    """Every round game fits the club: pair formats seat two of its pairs in a club match; a club in stages
    checks each game against its stage (``stages.evaluate``). ``games``: {kind, seats, round, stage} and,
    for a club in stages, ``head`` and ``state`` (a callable giving the match's state)."""
    staged = bool(club) and club["format"] == STAGED
    for i, g in enumerate(games):
        if g.get("stage") is not None and not staged:
            raise RuleError("club.stage_unstaged", f"games[{i}].stage")
    if not club or club["format"] == "free":
        return
    pairs = {frozenset(p) for p in club.get("pairs", [])}
    for i, g in enumerate(games):
        if g.get("round") is None:
            if g.get("stage") is not None:
                raise RuleError("club.stage_unstaged", f"games[{i}].stage")
            continue
        if g["kind"] != _match_kind().name:
            raise RuleError("club.round_kind", f"games[{i}].kind", kind=msg(_match_kind().title))
        if staged:
            if g.get("stage") is None:
                raise RuleError("club.stage_needed", f"games[{i}]")
            if g["stage"] >= len(club["stages"]):
                raise RuleError("club.stage_range", f"games[{i}].stage", max=len(club["stages"]) - 1)
        if club["format"] in PAIR_FORMATS or staged:
            seats = g["seats"]
            if frozenset(seats[0::2]) not in pairs or frozenset(seats[1::2]) not in pairs:
                raise RuleError("club.seats_pairs", f"games[{i}].seats")
    if staged:
        from companion.club.results import round_matches
        from companion.club.stages import evaluate

        heads = [g["head"] if g.get("round") is not None else {} for g in games]
        states = [g["state"]() if g.get("round") is not None else None for g in games]
        problem = evaluate(club, round_matches(heads, states)).first_problem()
        if problem is not None:
            raise problem


def _match_kind():
    """The kind that plays the club's matches (``Kind.club_match``): the club file's ``kind``, and the key
    its matches' settings are kept under."""
    from companion import kinds      # here: the kinds' rules load this package's modules

    return kinds.club_kind()


def _is_time(value) -> bool:
    from datetime import datetime

    if not isinstance(value, str) or len(value) > 40:
        return False
    try:
        return datetime.fromisoformat(value).tzinfo is not None
    except ValueError:
        return False


PLACE_KEYS = ("table", "round", "stage")


def split_place(game):
    """A game object without ``table``, ``round`` and ``stage``, and those checked ({} when absent)."""
    if not isinstance(game, dict) or not any(k in game for k in PLACE_KEYS):
        return game, {}
    place = {}
    if "table" in game:
        place["table"] = clean_label(game["table"], "table")
    if "round" in game:
        place["round"] = clean_round(game["round"], "round")
    if "stage" in game:
        place["stage"] = need_int(game["stage"], "stage", 0, MAX_STAGES - 1)
    return {k: v for k, v in game.items() if k not in PLACE_KEYS}, place
