"""Setting up a tournament before its first stage starts (pure): the pairs registered from a pasted list
(one pair a line, every bad line named), the check-in, and the stage plans an organizer picks from
(groups then brackets A and B, a Swiss then a knockout, one knockout). The plan is then checked as any
session file's ``club`` is (``shape.clean_club``)."""
from __future__ import annotations

import re

from companion.domain.errors import RuleError
from companion.domain.messages import N_, define
from companion.club.groups import group_sizes

TEMPLATES = ("groups_brackets", "swiss_knockout", "knockout")
SEPARATORS = re.compile(r"\s*[,;/&+\t]\s*|\s+-\s+")

define("tsetup", {
    "two_names": N_("Line %(n)s: a pair is two names, like \"Ane, Bea\""),
    "same_name": N_("Line %(n)s: the two names are the same player"),
    "paired_twice": N_("Line %(n)s: %(name)s is already in the pair of line %(line)s"),
    "bad_name": N_("Line %(n)s: %(why)s"),
    "already_paired": N_("Line %(n)s: %(name)s is already registered in a pair"),
    "template": N_("choose one of the stage plans"),
})


def parse_pairs(text: str, players: list[str], registered: list | None = None
                ) -> tuple[list[list[str]], list[str], list[dict]]:
    """(pairs in seed order, the names to add to ``players``, errors): one pair a line, names separated by
    a comma, semicolon, slash, ampersand, plus or " - "; blank lines skipped. A name matching a listed
    player (case and accents aside) is that player; a player of a ``registered`` pair cannot be paired
    again. Each error is a message naming its line."""
    from companion.domain.players import clean_name, same_player

    pairs: list[list[str]] = []
    new: list[str] = []
    errors: list[dict] = []
    line_of: dict = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        parts = [x for x in SEPARATORS.split(line.strip()) if x.strip()]
        if len(parts) != 2:
            errors.append({"code": "tsetup.two_names", "n": n})
            continue
        names = []
        for raw in parts:
            try:
                name = clean_name(raw)
            except RuleError as err:
                errors.append({"code": "tsetup.bad_name", "n": n, "why": err.msg})
                break
            names.append(same_player(name, players + new + names) or name)
        if len(names) != 2:
            continue
        if names[0] == names[1]:
            errors.append({"code": "tsetup.same_name", "n": n})
            continue
        already = [x for x in names if any(x in p for p in registered or ())]
        if already:
            errors.append({"code": "tsetup.already_paired", "n": n, "name": already[0]})
            continue
        taken = [x for x in names if x in line_of]
        if taken:
            errors.append({"code": "tsetup.paired_twice", "n": n, "name": taken[0], "line": line_of[taken[0]]})
            continue
        for x in names:
            line_of[x] = n
            if x not in players and x not in new:
                new.append(x)
        pairs.append(names)
    return pairs, new, errors


def check_in(pairs: list[list[str]], present) -> list[list[str]]:
    """The pairs that checked in, in seed order (the others are not drawn: pairs are fixed once the first
    stage starts)."""
    here = {frozenset(p) for p in present}
    return [p for p in pairs if frozenset(p) in here]


# Each template's settings and their defaults: the plans rules/tournament.md describes. Groups then
# brackets is its worked example (AEIT): groups of one game to 40, bracket A of places 1-2 with
# semifinals best of three, a final best of five and a third-place match, bracket B of places 3-4 best of
# three with neither. A Swiss then a knockout is Ourense's 8 rounds (matches best of three, as club.md's
# Swiss), its top 8 into a knockout played as bracket A; one knockout is bracket A's too. Every setting
# stays editable (the organizer's form names them); 0 for a final's games means "as every tie".
SETTINGS = {
    "groups_brackets": {"groups": 2, "places": 2, "group_games_to_win": 1,
                        "games_to_win": 2, "final_games_to_win": 3, "third_place": True,
                        "b_games_to_win": 2, "b_final_games_to_win": 0, "b_third_place": False},
    "swiss_knockout": {"rounds": 8, "swiss_games_to_win": 2, "top": 8,
                       "games_to_win": 2, "final_games_to_win": 3, "third_place": True},
    "knockout": {"games_to_win": 2, "final_games_to_win": 3, "third_place": True},
}


def _knockout(name: str, ranks: list | None, games_to_win: int, final_games_to_win: int, third_place: bool) -> dict:
    out = {"name": name, "format": "knockout"}
    if ranks is not None:
        out["from"] = {"stage": 0, "ranks": ranks}
    out["games_to_win"] = games_to_win
    if final_games_to_win and final_games_to_win != games_to_win:
        out["final_games_to_win"] = final_games_to_win
    if third_place:
        out["third_place"] = True
    return out


def stage_plan(template: str, n: int, **settings) -> list[dict]:
    """The ``club.stages`` of a template for n pairs: its ``SETTINGS``, each overridden by ``settings``.

    - ``groups_brackets``: ``groups`` serpentine groups; bracket A takes places 1..``places`` of each group,
      bracket B the next ``places`` (when the groups have them: at least 2 pairs), with settings ``b_*``;
    - ``swiss_knockout``: a Swiss of ``rounds`` rounds, then a knockout of its ``top`` places;
    - ``knockout``: one knockout of every pair."""
    if template not in TEMPLATES:
        raise RuleError("tsetup.template", "template")
    unknown = set(settings) - set(SETTINGS[template])
    if unknown:
        raise TypeError(f"{template} has no setting {sorted(unknown)[0]}")
    s = {**SETTINGS[template], **settings}
    bracket_a = (s["games_to_win"], s["final_games_to_win"], s["third_place"])
    if template == "knockout":
        return [_knockout("Knockout", None, *bracket_a)]
    if template == "swiss_knockout":
        swiss = {"name": "Swiss", "format": "pairs_swiss", "rounds": s["rounds"]}
        if s["swiss_games_to_win"]:
            swiss["games_to_win"] = s["swiss_games_to_win"]
        return [swiss, _knockout("Knockout", list(range(1, min(s["top"], n) + 1)), *bracket_a)]
    places, groups = s["places"], s["groups"]
    first = {"name": "Groups", "format": "groups", "groups": groups}
    if s["group_games_to_win"]:
        first["games_to_win"] = s["group_games_to_win"]
    out = [first, _knockout("Bracket A", list(range(1, places + 1)), *bracket_a)]
    sizes = group_sizes(n, groups) if groups > 0 else []
    rest = [p for p in range(places + 1, 2 * places + 1) if p <= max(sizes, default=0)]
    if rest and sum(1 for p in rest for size in sizes if size >= p) >= 2:
        out.append(_knockout("Bracket B", rest, s["b_games_to_win"], s["b_final_games_to_win"], s["b_third_place"]))
    return out
