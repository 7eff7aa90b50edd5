"""What the Desmoche kind's tests share: build a series, tap, read the state in English."""
import pytest

from companion.domain.errors import RuleError
from companion.kinds.base import apply_change
from companion.kinds.desmoche import KIND, Spec  # noqa: F401  (re-exported for the tests)
from companion.kinds.desmoche import actions as A

P3 = ["Ane", "Bea", "Carlos"]
PLAYERS = P3 + ["Dani", "Eneko"]


def doc(rules=None, seats=P3, hands=(), ended=False, **extra) -> dict:
    r = {"stake": 10, "bonuses": True}
    r.update(rules or {})
    return {"kind": "desmoche", "rules": r, "seats": list(seats), "hands": list(hands), "ended": ended, **extra}


def game(rules=None, seats=P3, hands=(), ended=False, **extra):
    return KIND.build(doc(rules, seats, hands, ended, **extra), PLAYERS)


def act(rec, action):
    """The record after one tap (as the store or the session would apply it)."""
    new, _inverse = apply_change(rec, KIND.apply(rec, action))
    return new


def hand(rec, **h):
    return act(rec, A.Hand(hand=h))


def state(rec) -> dict:
    return KIND.state(rec)


def view(rec) -> dict:
    return KIND.overview(rec)


def on_table(rec) -> int:
    return rec.state["pot"] + sum(rec.state["side_pots"].values())


def zero_sum(rec) -> int:
    """Units are never created or destroyed: balances and every pot sum to what was brought in (0)."""
    return sum(rec.state["balances"].values()) + on_table(rec)


def whys(rec) -> list[str]:
    return [e["why"] for e in state(rec)["log"]]


def err(fn, *args) -> str:
    """The refusal as the session file shows it: 'path: English message'."""
    with pytest.raises(RuleError) as e:
        fn(*args)
    return str(e.value)


def same_rec(a, b) -> bool:
    return a.kind == b.kind and a.head == b.head and a.state == b.state and list(a.items) == list(b.items)
