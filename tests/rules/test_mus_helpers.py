"""Shared builders for the Mus tests."""
from companion.rules import mus

SEATS = ["Ane", "Bea", "Carlos", "Dani"]
PLAYERS = SEATS + ["Eneko"]


def game(hands=(), preset="spanish", **opts):
    g = {"kind": "mus", "rules": {"preset": preset, **opts}, "seats": list(SEATS), "hands": list(hands)}
    return mus.normalize(g, PLAYERS)


def hand(grande=(), chica=(), pares=(), juego=(), **extra):
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


def state(hands, preset="spanish", **opts):
    return mus.compute(game(hands, preset, **opts))
