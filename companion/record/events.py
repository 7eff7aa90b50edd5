"""What each event does to a night, pure (no Flask, no SQLite): one dispatch table of event types, used
by the write pipeline on the stored rows (``companion.service``) and by ``replay`` on documents.

An event is worked out against a ``Night`` (the header, the games read when asked for, the payments plan,
the undo an event recorded) into an ``Outcome``: the new header, the games changed in place (the new
record and the ``Change`` that made it: the rows written are the change's items), the games written
whole (a new game, or the next game of a kind rebuilt because what it is handed changed), the game
removed, and the inverse stored with the event. Undo applies that inverse with ``apply_change``, the one
way a change is applied.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Protocol

from companion import kinds
from companion.domain.errors import RuleError, Stale
from companion.kinds.base import Action, Change, GameRec, Item, action_from_json, apply_change
from companion.record.session import (max_players, Session, build_game, clean_name, clean_session_name, game_doc, load,
                      same_player, settle_of)



class Conflict(Stale):
    """The write no longer makes sense: somebody else changed the session first."""

    def __init__(self, code: str, path: str = "", **params):
        super().__init__(code, path, **params)


class Night(Protocol):
    """A session as an event sees it (rows read when asked for, or a document in memory)."""

    header: dict

    def count(self) -> int:
        """How many games the session has."""

    def game(self, gi: int) -> GameRec:
        ...

    def payments(self) -> list[dict]:
        """The settle plan's payments now."""

    def undoable(self, gi: int | None, target: int | None) -> tuple[int, int, dict] | None:
        """(seq, game, inverse) of the event undo takes back: ``target`` if given, else the last one of
        game ``gi`` not yet undone."""


@dataclass
class Outcome:
    payload: dict                                   # as stored in the event
    game: int | None = None
    header: dict | None = None
    changed: dict[int, tuple[GameRec, Change]] = field(default_factory=dict)
    rebuilt: dict[int, GameRec] = field(default_factory=dict)      # written whole (a new game: gi == count)
    removed: int | None = None
    undo: dict | None = None                        # the inverse, stored in the event
    undone: int | None = None                       # the event this one takes back


# ---------------------------------------------------------------------------------------------------
# the header's events

def renamed(night: Night, payload: dict, stale: bool) -> Outcome:
    return Outcome(payload, header={**night.header, "name": clean_session_name(payload.get("name"))})


def player_added(night: Night, payload: dict, stale: bool) -> Outcome:
    header = night.header
    name = clean_name(payload.get("name"), "name")
    players = header["players"]
    same = same_player(name, players)
    if same is not None:
        raise RuleError("session.already_playing", "name", name=same)
    if len(players) >= max_players(header):
        raise RuleError("session.too_many", "name", max=max_players(header))
    return Outcome(payload, header={**header, "players": [*players, name]})


def banker_set(night: Night, payload: dict, stale: bool) -> Outcome:
    header = night.header
    settle = dict(header.get("settle") or {})
    banker = payload.get("banker")
    if banker:
        if banker not in header["players"]:
            raise RuleError("v.not_player", "banker", name=str(banker)[:40])
        settle["banker"] = banker
    else:
        settle.pop("banker", None)
    return Outcome(payload, header=_with_settle(header, settle))


def paid_marked(night: Night, payload: dict, stale: bool) -> Outcome:
    """Mark a payment paid (it must be in the current plan) or unmark it."""
    header = night.header
    payment = payload.get("payment")
    settle = dict(header.get("settle") or {})
    marks = list(settle.get("paid") or [])
    if payload.get("paid"):
        if payment not in night.payments():
            raise RuleError("session.not_in_plan", "paid")
        if payment not in marks:
            marks.append(payment)
    else:
        if payment not in marks:
            raise RuleError("session.not_marked", "paid")
        marks.remove(payment)
    settle["paid"] = marks
    return Outcome(payload, header=_with_settle(header, settle))


def _with_settle(header: dict, settle: dict) -> dict:
    settle = {k: v for k, v in settle.items() if v}
    out = {k: v for k, v in header.items() if k != "settle"}
    if settle:
        out["settle"] = settle
    return out


def club_set(night: Night, payload: dict, stale: bool) -> Outcome:
    """The organizer's club night settings (format, pairs, byes, who left, the round clock)."""
    from companion.club.shape import clean_club

    header = night.header
    out = {k: v for k, v in header.items() if k != "club"}
    if payload.get("club") is not None:
        out["club"] = clean_club(payload["club"], header["players"])
    return Outcome(payload, header=out)


def logged(night: Night, payload: dict, stale: bool) -> Outcome:
    """The organizer's log gets one entry at its end (a closed result changed: rules/club.md, Tables).
    It changes no score, and undo does not take it back."""
    from companion.club.log import clean_entry

    entry = clean_entry(payload.get("entry"), "entry", night.count() + 1)
    header = night.header
    return Outcome({"entry": entry}, header={**header, "log": [*(header.get("log") or []), entry]})


# ---------------------------------------------------------------------------------------------------
# the games' events

def game_added(night: Night, payload: dict, stale: bool) -> Outcome:
    gi = night.count()
    game = payload["game"]
    rec = build_game(game, night.header["players"], seed_before(night, gi, game.get("kind")))
    return Outcome(payload, game=gi, rebuilt={gi: rec}, undo={"remove_game": gi})


def game_tapped(night: Night, payload: dict, stale: bool) -> Outcome:
    gi = payload["game"]
    if not isinstance(gi, int) or not 0 <= gi < night.count():
        raise RuleError("v.no_game", "game")
    rec = night.game(gi)
    kind = kinds.KINDS[rec.kind]
    action = payload["action"]
    if not isinstance(action, Action):
        action = action_from_json(kind.actions, action)
    change = kind.apply(rec, action)
    new, inverse = apply_change(rec, change)
    out = Outcome({"game": gi, "action": action.to_json()}, game=gi, undo=change_json(inverse))
    out.changed[gi] = (new, change)
    _propagate(night, out, gi, rec, new)
    return out


def undone(night: Night, payload: dict, stale: bool) -> Outcome:
    target = payload.get("target")
    found = night.undoable(payload.get("game"), target)
    if found is None:
        raise Conflict("session.undo_nothing", "undo")
    seq, gi, inverse = found
    if (target is not None and target != seq) or (target is None and stale):
        raise Conflict("session.undo_moved", "undo")
    out = Outcome({"game": gi, "target": seq}, game=gi, undone=seq)
    if "remove_game" in inverse:
        if gi != night.count() - 1:
            raise Conflict("session.undo_last_game", "undo")
        out.removed = gi
        return out
    rec = night.game(gi)
    change = change_from_json(inverse)
    new, _ = apply_change(rec, change)
    out.changed[gi] = (new, change)
    _propagate(night, out, gi, rec, new)
    return out


def seed_before(night: Night, gi: int, kind: str | None) -> dict | None:
    """What the previous game of the same kind hands to game ``gi`` (chips carried over)."""
    if kind not in kinds.KINDS:
        return None
    for j in range(gi - 1, -1, -1):
        prev = night.game(j)
        if prev.kind == kind:
            return kinds.KINDS[kind].seed_out(prev)
    return None


def _propagate(night: Night, out: Outcome, gi: int, old: GameRec, new: GameRec) -> None:
    """When what game ``gi`` hands on changed, the next game of its kind is rebuilt from its own file
    with the new seed (and so on down the night); otherwise no later game is read."""
    kind = kinds.KINDS[new.kind]
    seed = kind.seed_out(new)
    if seed == kind.seed_out(old):
        return
    for j in range(gi + 1, night.count()):
        nxt = night.game(j)
        if nxt.kind != new.kind:
            continue
        if seed != nxt.seed:
            try:
                rebuilt = build_game(game_doc(nxt), night.header["players"], seed)   # keeps its table, round
            except RuleError as err:
                raise RuleError("session.carry_broken", "game", game=j + 1, why=err.msg) from None
            out.rebuilt[j] = rebuilt
            _propagate(night, out, j, nxt, rebuilt)
        return


def change_json(change: Change) -> dict:
    return {"head": change.head, "state": change.state,
            "items": {str(i): (None if it is None else [it.body, it.result, it.before])
                      for i, it in change.items.items()}}


def change_from_json(data: dict) -> Change:
    return Change(head=data.get("head"), state=data.get("state"),
                  items={int(i): (None if v is None else Item(*v)) for i, v in data["items"].items()})


HANDLERS: dict[str, Callable[[Night, dict, bool], Outcome]] = {
    "rename": renamed, "add_player": player_added, "banker": banker_set, "paid": paid_marked, "club": club_set,
    "log": logged, "add_game": game_added, "game": game_tapped, "undo": undone,
}


def step(night: Night, etype: str, payload: dict, stale: bool = False) -> Outcome:
    """What event ``etype`` does to the night now; RuleError when it is not legal. ``stale``: the phone
    saw an older version (an undo without a target is then refused rather than guessed)."""
    if etype not in HANDLERS:
        raise ValueError(f"unknown event type {etype!r}")
    return HANDLERS[etype](night, payload, stale)


# ---------------------------------------------------------------------------------------------------
# replay: the same events on a document

class DocNight:
    def __init__(self, session: Session):
        self.session = session
        self.undos: dict[int, tuple[int, dict]] = {}    # seq -> (game, inverse), not yet undone

    @property
    def header(self) -> dict:
        return self.session.header

    def count(self) -> int:
        return len(self.session.games)

    def game(self, gi: int) -> GameRec:
        return self.session.games[gi]

    def payments(self) -> list[dict]:
        return settle_of(self.session.header, self.session.games)["payments"]

    def undoable(self, gi, target):
        if target is None:
            target = max((s for s, (g, _inv) in self.undos.items() if g == gi), default=None)
        if target not in self.undos:
            return None
        return (target, *self.undos[target])

    def take(self, seq: int, out: Outcome) -> None:
        sess = self.session
        if out.header is not None:
            sess.header = out.header
        for gi, (rec, _change) in out.changed.items():
            sess.games[gi] = rec
        for gi, rec in sorted(out.rebuilt.items()):
            if gi == len(sess.games):
                sess.games.append(rec)
            else:
                sess.games[gi] = rec
        if out.removed is not None:
            sess.games.pop(out.removed)
        if out.undone is not None:
            self.undos.pop(out.undone, None)
        if out.undo is not None:
            self.undos[seq] = (out.game, out.undo)


def replay(events: list[tuple[int, str, dict]]) -> Session:
    """The session from its events in order (seq, type, payload), through the same handlers as a write."""
    night: DocNight | None = None
    for seq, etype, payload in events:
        if etype == "create":
            night = DocNight(load(payload["doc"]))
            continue
        night.take(seq, step(night, etype, payload))
    return night.session
