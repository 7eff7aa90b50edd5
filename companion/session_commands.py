"""The scorer's session-wide writes as typed commands (pure: no Flask, no SQL): rename the session, add a
player, undo a game's last step, choose the banker, mark a payment paid, replace the scoring link.

A route parses its form into one of these frozen dataclasses; ``permit`` is asked with the command's name
(``command``; an undo's depends on the game, see ``web.common.command_of``); ``handle(cmd)`` checks what
the command alone can say and returns its events (``Plan``, the club commands' shape) for
``service.apply``, where the events' own rules check the rest against the session as it is when written.
A game's own actions (a hand, a correction of a past hand) are the kind's typed actions (``Kind.apply``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.club.commands import Plan
from companion.domain.errors import RuleError
from companion.record.session import clean_name, clean_session_name


@dataclass(frozen=True)
class RenameSession:
    command: ClassVar[str] = "rename"
    name: str


@dataclass(frozen=True)
class AddPlayer:
    command: ClassVar[str] = "add_player"
    name: str


@dataclass(frozen=True)
class Undo:
    """Take back game ``game``'s last step; ``target``: the step the phone saw as last (None: whatever
    is last, refused when the session moved since the phone looked)."""
    command: ClassVar[str] = "undo"     # or "remove" / "undo_clock": decided by what the step is
    game: int
    target: int | None = None


@dataclass(frozen=True)
class SetBanker:
    command: ClassVar[str] = "settle"
    banker: str | None            # None: back to the fewest payments


@dataclass(frozen=True)
class MarkPaid:
    command: ClassVar[str] = "settle"
    payer: str
    payee: str
    amount: int | None            # None: not a number the form could read (refused)
    paid: bool = True             # False: take the mark back


@dataclass(frozen=True)
class ReplaceLink:
    """A new scoring link; the old one becomes a watch link (no event: the link is not in the file)."""
    command: ClassVar[str] = "replace_link"


MAX_AMOUNT = 10 ** 15


def handle(cmd) -> Plan:
    """The events ``cmd`` writes, in order; RuleError (naming the form field) when the command itself is
    bad. Whether it fits the session now (a name already playing, a payment not in the plan) is the
    events' rule, checked on the state the write commits on."""
    if isinstance(cmd, RenameSession):
        return Plan([("rename", {"name": clean_session_name(cmd.name)})])
    if isinstance(cmd, AddPlayer):
        return Plan([("add_player", {"name": clean_name(cmd.name, "name")})])
    if isinstance(cmd, Undo):
        return Plan([("undo", {"game": cmd.game, "target": cmd.target})])
    if isinstance(cmd, SetBanker):
        return Plan([("banker", {"banker": cmd.banker or None})])
    if isinstance(cmd, MarkPaid):
        if isinstance(cmd.amount, bool) or not isinstance(cmd.amount, int) or not 0 < cmd.amount < MAX_AMOUNT:
            raise RuleError("session.not_in_plan", "paid")
        payment = {"from": cmd.payer, "to": cmd.payee, "amount": cmd.amount}
        return Plan([("paid", {"payment": payment, "paid": bool(cmd.paid)})])
    if isinstance(cmd, ReplaceLink):
        return Plan([])
    raise TypeError(f"not a session command: {type(cmd).__name__}")
