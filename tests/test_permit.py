"""The permission table, cell by cell: every capability × command × phase has exactly one decision, and
``permit`` gives it; the table says what rules/club.md (Tables) says."""
import pytest

from companion.club.log import WHATS
from companion.domain.messages import CATALOG
from companion.permit import (CAPABILITIES, COMMANDS, DECISIONS, GAME_COMMANDS, GAME_PHASES, SESSION,
                              SESSION_COMMANDS, Decision, GameState, command_name, markdown, permit, phase_of)

ROLES = {"organizer": "organizer", "table": "table 3", "scorer": "scorer", "watch": "watch"}


def cells():
    for cmd in GAME_COMMANDS:
        for phase in GAME_PHASES:
            for cap in CAPABILITIES:
                yield cmd, phase, cap
    for cmd in SESSION_COMMANDS:
        for cap in CAPABILITIES:
            yield cmd, "session", cap


def test_the_table_has_one_row_for_every_command_and_phase_and_nothing_else():
    want = {(c, p) for c in GAME_COMMANDS for p in GAME_PHASES} | {(c, "session") for c in SESSION_COMMANDS}
    assert set(DECISIONS) == want
    assert all(len(row) == len(CAPABILITIES) for row in DECISIONS.values())


@pytest.mark.parametrize("cmd,phase,cap", list(cells()))
def test_every_cell(cmd, phase, cap):
    cell = DECISIONS[(cmd, phase)][CAPABILITIES.index(cap)]
    state = SESSION if phase == "session" else GameState(phase, "3")
    got = permit(ROLES[cap], cmd, state)
    assert isinstance(got, Decision)
    if cell == "yes":
        assert got == Decision(True)
    elif cell.startswith("ask:"):
        assert got.allowed and got.ask == cell[4:] and got.ask in WHATS and got.code is None
    else:
        assert cell.startswith("no:") and not got.allowed and got.code == cell[3:] and got.code in CATALOG
    # the rule, said once more in words (rules/club.md, Tables)
    if cap == "watch":
        assert not got.allowed
    if cap == "table":
        open_match = phase in ("not_started", "playing")
        assert got.allowed == (cmd in ("record", "undo", "correct") and open_match
                               and not (cmd == "correct" and phase == "not_started"))
        assert got.ask is None          # a table's link is never asked: allowed or refused
    if cap == "organizer" and phase in ("decided", "time", "earlier") and cmd in ("undo", "correct") \
            or cap == "organizer" and cmd == "undo_clock" and phase in ("time", "earlier"):
        assert got.ask is not None      # the organizer's closed-result changes are asked first and logged
    if cap == "organizer" and cmd == "remove" and phase in ("not_started", "earlier"):
        assert got.ask == "removed"


@pytest.mark.parametrize("cmd", GAME_COMMANDS)
@pytest.mark.parametrize("phase", GAME_PHASES)
def test_a_table_link_touches_only_its_own_table(cmd, phase):
    assert permit("table 2", cmd, GameState(phase, "3")) == Decision(False, code="permit.not_your_table")
    assert permit("table 2", cmd, GameState(phase, None)).code == "permit.not_your_table"


def test_unknown_names_are_a_programming_error_not_a_yes():
    for cap, cmd, state in [("table", "record", GameState("playing", "3")), ("organizer", "fly", SESSION),
                            ("organizer", "record", GameState("lost")), ("organizer", "record", SESSION),
                            ("organizer", "start_round", GameState("playing")), ("root", "rename", SESSION)]:
        with pytest.raises(ValueError):
            permit(cap, cmd, state)


def test_typed_commands_are_named_by_their_class():
    from companion.kinds.mus.actions import EndByTime, ReplaceHand, StartHand

    assert command_name(EndByTime()) == "end_by_time"
    assert command_name(ReplaceHand(index=0, hand={})) == "correct"
    assert command_name(StartHand()) == "record"
    assert permit("table 1", EndByTime(), GameState("playing", "1")).code == "permit.organizer_only"


@pytest.mark.parametrize("head,finished,recorded,rnd,phase", [
    ({}, False, False, 0, "game"),
    ({"table": "2"}, False, False, 0, "not_started"),
    ({"table": "2", "round": 2}, False, True, 2, "playing"),
    ({"table": "2", "round": 2}, True, True, 2, "decided"),
    ({"table": "2", "round": 2, "ended": "time"}, False, True, 2, "time"),
    ({"table": "2", "round": 1, "ended": "time"}, False, True, 3, "earlier"),
    ({"table": "2", "round": 1}, False, True, 2, "earlier"),
])
def test_phase_of(head, finished, recorded, rnd, phase):
    assert phase_of(head, finished, recorded, rnd) == phase


def test_markdown_shows_every_row():
    text = markdown()
    assert text.count("\n") == len(DECISIONS) + 2
    assert "| undo | decided | asked first, logged (reopened) | no (permit.decided) |" in text
    assert text.startswith("| command | phase | organizer | table (its own) | scorer | watch |")
