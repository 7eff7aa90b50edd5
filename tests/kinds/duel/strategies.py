"""Duel's random taps for the tests that run over every kind (hypothesis draws)."""
from __future__ import annotations

from hypothesis import strategies as st

from companion.kinds.base import Action, GameRec

from .kind import KIND, Finish, Point


def new_game(players: list[str]) -> dict:
    return KIND.new_game(players, ((players[0], players[1]), 25))


def tap(draw, rec: GameRec) -> Action | None:
    if rec.state["over"]:
        return None
    at = KIND.position(rec)
    if len(rec.items) and draw(st.integers(0, 9)) == 0:
        return Finish(at=at)
    return Point(to=draw(st.sampled_from(rec.head["seats"])), at=at)
