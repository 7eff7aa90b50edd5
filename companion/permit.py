"""Who may do what: one pure function, ``permit(capability, command, state) -> Decision``.

A write goes through here once, before the kind's rules see it (``web/common.perform`` and the club's
several-event writes). ``DECISIONS`` is the table of decisions: the README shows it (``markdown()``) and
the tests walk every cell. Pure: no Flask, no SQL.

- **capability**: ``"organizer"`` (a club night's session scoring link), ``"scorer"`` (the same link on a
  session without a club night), ``"table <label>"`` (a table's own scoring link), ``"watch"``.
- **command**: its name (``COMMANDS``), or a typed command whose class says it (``command_name``).
- **state**: ``GameState(phase, table)`` of the game the command touches (``phase_of`` reads it), or
  ``None`` for a command on the session (``"session"``).

A cell is ``"yes"``, ``"no:<message code>"`` (refused: nothing changes) or ``"ask:<what>"`` (allowed
once the organizer confirms it; logged in the session file's ``log`` with ``what``, rules/club.md, Tables).
"""
from __future__ import annotations

from dataclasses import dataclass

from companion.domain.messages import N_, define

CAPABILITIES = ("organizer", "table", "scorer", "watch")

# the phase of the game a command touches
PHASES = (
    "game",          # an ordinary game (no table, no round)
    "not_started",   # a table's game or round match with nothing recorded
    "playing",       # ... of the round in play, open
    "decided",       # ... decided (a match winner, a game that ended)
    "time",          # ... ended by the clock ("ended": "time")
    "earlier",       # a match of a round before the round in play
    "session",       # no game: a command on the session
)

# commands on one game (the phase is that game's), then commands on the session
GAME_COMMANDS = (
    "record",        # a tap, a hand, a tally: play recorded
    "undo",          # take back the last step of the game
    "correct",       # replace a past hand or deal
    "remove",        # undo of the game's creation: the game is taken out
    "end_by_time",   # the clock ends the match (End the round)
    "undo_clock",    # undo of the clock end
)
SESSION_COMMANDS = (
    "club_setup", "swap", "start_round", "end_round", "arrive", "leave", "add_table", "replace_table_link",
    "add_game", "add_player", "rename", "settle", "replace_link",
)
COMMANDS = GAME_COMMANDS + SESSION_COMMANDS
GAME_PHASES = PHASES[:-1]

LOG_WHATS = ("removed", "reopened", "corrected", "clock_undone", "result_changed")

define("permit", {
    "watch": N_("The Watch link sees everything and changes nothing."),
    "organizer_only": N_("Only the organizer's link can do this."),
    "not_your_table": N_("This table's link scores its own table's match only."),
    "decided": N_("This match is over: only the organizer can reopen it."),
    "ended": N_("The round's clock ended this match: no more hands are recorded."),
    "earlier": N_("This match belongs to an earlier round: only the organizer can change it."),
    "not_started": N_("Nothing is recorded in this match yet."),
    "not_ended": N_("The clock has not ended this match."),
    "played": N_("This game has hands recorded: undo them first."),
})

Y = "yes"
ORG = "no:permit.organizer_only"

# (command, phase): (organizer, table of that game, scorer, watch)
DECISIONS: dict[tuple[str, str], tuple[str, str, str, str]] = {
    ("record", "game"):             (Y, "no:permit.not_your_table", Y, "no:permit.watch"),
    ("record", "not_started"):      (Y, Y, Y, "no:permit.watch"),
    ("record", "playing"):          (Y, Y, Y, "no:permit.watch"),
    ("record", "decided"):          ("no:permit.decided", "no:permit.decided", "no:permit.decided", "no:permit.watch"),
    ("record", "time"):             ("no:permit.ended", "no:permit.ended", "no:permit.ended", "no:permit.watch"),
    ("record", "earlier"):          ("ask:corrected", "no:permit.earlier", "ask:corrected", "no:permit.watch"),
    ("undo", "game"):               (Y, "no:permit.not_your_table", Y, "no:permit.watch"),
    ("undo", "not_started"):        (Y, Y, Y, "no:permit.watch"),
    ("undo", "playing"):            (Y, Y, Y, "no:permit.watch"),
    ("undo", "decided"):            ("ask:reopened", "no:permit.decided", "ask:reopened", "no:permit.watch"),
    ("undo", "time"):               ("ask:clock_undone", "no:permit.ended", "ask:clock_undone", "no:permit.watch"),
    ("undo", "earlier"):            ("ask:corrected", "no:permit.earlier", "ask:corrected", "no:permit.watch"),
    ("correct", "game"):            (Y, "no:permit.not_your_table", Y, "no:permit.watch"),
    ("correct", "not_started"):     ("no:permit.not_started", "no:permit.not_started", "no:permit.not_started",
                                     "no:permit.watch"),
    ("correct", "playing"):         (Y, Y, Y, "no:permit.watch"),
    ("correct", "decided"):         ("ask:corrected", "no:permit.decided", "ask:corrected", "no:permit.watch"),
    ("correct", "time"):            ("ask:corrected", "no:permit.ended", "ask:corrected", "no:permit.watch"),
    ("correct", "earlier"):         ("ask:corrected", "no:permit.earlier", "ask:corrected", "no:permit.watch"),
    ("remove", "game"):             (Y, "no:permit.not_your_table", Y, "no:permit.watch"),
    ("remove", "not_started"):      ("ask:removed", ORG, "ask:removed", "no:permit.watch"),
    ("remove", "playing"):          ("no:permit.played", ORG, "no:permit.played", "no:permit.watch"),
    ("remove", "decided"):          ("no:permit.played", ORG, "no:permit.played", "no:permit.watch"),
    ("remove", "time"):             ("no:permit.played", ORG, "no:permit.played", "no:permit.watch"),
    ("remove", "earlier"):          ("ask:removed", ORG, "ask:removed", "no:permit.watch"),
    ("end_by_time", "game"):        (Y, "no:permit.not_your_table", Y, "no:permit.watch"),
    ("end_by_time", "not_started"): (Y, ORG, Y, "no:permit.watch"),
    ("end_by_time", "playing"):     (Y, ORG, Y, "no:permit.watch"),
    ("end_by_time", "decided"):     ("no:permit.decided", ORG, "no:permit.decided", "no:permit.watch"),
    ("end_by_time", "time"):        ("no:permit.ended", ORG, "no:permit.ended", "no:permit.watch"),
    ("end_by_time", "earlier"):     (Y, ORG, Y, "no:permit.watch"),
    ("undo_clock", "game"):         ("no:permit.not_ended", "no:permit.not_your_table", "no:permit.not_ended",
                                     "no:permit.watch"),
    ("undo_clock", "not_started"):  ("no:permit.not_ended", ORG, "no:permit.not_ended", "no:permit.watch"),
    ("undo_clock", "playing"):      ("no:permit.not_ended", ORG, "no:permit.not_ended", "no:permit.watch"),
    ("undo_clock", "decided"):      ("no:permit.not_ended", ORG, "no:permit.not_ended", "no:permit.watch"),
    ("undo_clock", "time"):         ("ask:clock_undone", ORG, "ask:clock_undone", "no:permit.watch"),
    ("undo_clock", "earlier"):      ("ask:clock_undone", ORG, "ask:clock_undone", "no:permit.watch"),
    **{(cmd, "session"): (Y, ORG, Y, "no:permit.watch") for cmd in SESSION_COMMANDS},
}


@dataclass(frozen=True)
class GameState:
    """What ``permit`` reads of the game a command touches: its phase and its table (None: none)."""
    phase: str
    table: str | None = None


SESSION = GameState("session")


@dataclass(frozen=True)
class Decision:
    allowed: bool
    code: str | None = None      # the refusal's message code
    ask: str | None = None       # allowed once confirmed, and logged as this ``what``

    @property
    def msg(self) -> dict:
        return {"code": self.code}


def _cell(text: str) -> Decision:
    if text == Y:
        return Decision(True)
    kind, _, rest = text.partition(":")
    return Decision(True, ask=rest) if kind == "ask" else Decision(False, code=rest)


def command_name(command) -> str:
    """A command's name: a string as it is; a typed command by its ``command`` attribute, or (a game
    kind's action) ``end_by_time`` / ``correct`` / ``record`` by its class."""
    if isinstance(command, str):
        return command
    name = getattr(command, "command", None)
    if isinstance(name, str):
        return name
    cls = type(command).__name__
    if cls == "EndByTime":
        return "end_by_time"
    if cls.startswith("Replace") or cls.startswith("Correct"):
        return "correct"
    return "record"


def permit(capability: str, command, state: GameState | None) -> Decision:
    """The one decision: may ``capability`` do ``command`` to what ``state`` says, now?"""
    name = command_name(command)
    state = state or SESSION
    if name not in COMMANDS or state.phase not in PHASES:
        raise ValueError(f"no decision for {name!r} in phase {state.phase!r}")
    if (name in SESSION_COMMANDS) != (state.phase == "session"):
        raise ValueError(f"{name!r} is not a command of phase {state.phase!r}")
    role, _, label = capability.partition(" ")
    if role not in CAPABILITIES or (role == "table") != bool(label):
        raise ValueError(f"unknown capability {capability!r}")
    if role == "table" and state.phase != "session" and state.table != label:
        return Decision(False, code="permit.not_your_table")
    return _cell(DECISIONS[(name, state.phase)][CAPABILITIES.index(role)])


def phase_of(head: dict, finished: bool, recorded: bool, round_in_play: int) -> str:
    """A game's phase from its head (``table``, ``round``, ``ended``), whether it is decided, whether
    anything is recorded in it, and the round in play (0: none)."""
    if head.get("table") is None and head.get("round") is None:
        return "game"
    rnd = head.get("round")
    if rnd is not None and rnd < round_in_play:
        return "earlier"
    if head.get("ended") == "time":
        return "time"
    if finished:
        return "decided"
    return "playing" if recorded else "not_started"


def markdown() -> str:
    """The table as the README shows it."""
    words = {"yes": "yes", "ask": "asked first, logged"}
    head = "| command | phase | organizer | table (its own) | scorer | watch |\n|---|---|---|---|---|---|\n"
    rows = []
    for (cmd, phase), cells in DECISIONS.items():
        shown = []
        for c in cells:
            kind, _, rest = c.partition(":")
            shown.append(words["yes"] if c == Y else f"{words['ask']} ({rest})" if kind == "ask" else f"no ({rest})")
        rows.append(f"| {cmd} | {phase} | " + " | ".join(shown) + " |")
    return head + "\n".join(rows) + "\n"
