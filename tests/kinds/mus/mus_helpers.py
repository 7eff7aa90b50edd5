"""Shared builders for the Mus kind's tests (companion.kinds.mus)."""
from __future__ import annotations

import copy

from companion.domain.errors import RuleError  # noqa: F401  (re-exported for the tests)
from companion.kinds.base import GameRec, apply_change
from companion.kinds.mus import KIND
from companion.kinds.mus import actions as A
from companion.kinds.mus import view

SEATS = ["Ane", "Bea", "Carlos", "Dani"]
PLAYERS = SEATS + ["Eneko"]
NOBODY = {"pares_held": {}, "juego_held": {}}


def raw_game(hands=(), preset="spanish", **opts) -> dict:
    """A session-file Mus game object."""
    return {"kind": "mus", "rules": {"preset": preset, **opts}, "seats": list(SEATS),
            "hands": copy.deepcopy(list(hands))}


def game(hands=(), preset="spanish", **opts) -> GameRec:
    return KIND.build(raw_game(hands, preset, **opts), PLAYERS)


def doc(rec: GameRec) -> dict:
    return KIND.to_doc(rec)


def hand(grande=(), chica=(), pares=(), juego=(), **extra) -> dict:
    return {"grande": list(grande), "chica": list(chica), "pares": list(pares), "juego": list(juego), **extra}


def bet(t, n):
    return {"team": t, "bet": n}


def rz(t, n):
    return {"team": t, "raise": n}


def call(t):
    return {"team": t, "call": True}


def fold(t):
    return {"team": t, "fold": True}


def ordago(t):
    return {"team": t, "ordago": True}


def state(hands, preset="spanish", **opts) -> dict:
    return KIND.state(game(hands, preset, **opts))


def results(rec: GameRec) -> list[dict]:
    """What every closed hand gave (hand, game, mano, points, awards, lances, alerts, ended_game)."""
    return [item.result for item in rec.items if item.result is not None]


def alerts(rec: GameRec) -> list[dict]:
    return [a for r in results(rec) for a in r["alerts"]]


def page(rec: GameRec) -> dict:
    """The scoring screen's model: st, ui, hands (newest first)."""
    return view.page(rec, list(rec.items))


def action(kind: str, **fields):
    return A.ACTIONS[kind](**fields)


def tap(rec: GameRec, act) -> tuple[GameRec, object]:
    """One tap: (the game after it, the inverse change). ``act`` is an Action or a dict {"type", ...}."""
    if isinstance(act, dict):
        act = action(act["type"], **{k: v for k, v in act.items() if k != "type"})
    change = KIND.apply(rec, act)
    return apply_change(rec, change)


def run(rec: GameRec, *acts) -> GameRec:
    for a in acts:
        rec, _inverse = tap(rec, a)
    return rec


def entries(st: dict, h=None) -> list[tuple]:
    return [(e["lance"], e["team"], e["points"]) for e in st["log"] if h is None or e["hand"] == h]
