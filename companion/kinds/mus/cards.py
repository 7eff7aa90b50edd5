"""Mus cards and hand evaluation: grande, chica, pares, juego, punto; comparison with the mano tie rule.

Pure functions over 4-letter hand strings (canonical letters ``R C S 7 6 5 4 3 2 A``). A hand is
evaluated once per rule of kings (``evaluate`` is cached): a match of 200 hands compares the same few
hundred hands again and again.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

CANON = {"K": "R", "Q": "C", "J": "S", "1": "A"}
LETTERS = "RCS765432A"
# rank for comparison, high to low R C S 7 6 5 4 3 2 A
_RANK = {"R": 12, "C": 11, "S": 10, "7": 7, "6": 6, "5": 5, "4": 4, "3": 3, "2": 2, "A": 1}

PARES_KINDS = ("pareja", "medias", "duples")   # weakest first
PARES_BONUS = {"pareja": 1, "medias": 2, "duples": 3}
JUEGO_ORDER = (31, 32, 40, 37, 36, 35, 34, 33)  # best first
JUEGO_VALUES = frozenset(JUEGO_ORDER)
_JUEGO_RANK = {v: len(JUEGO_ORDER) - i for i, v in enumerate(JUEGO_ORDER)}


_TYPED = str.maketrans({**CANON, " ": None, "-": None, ",": None})   # K Q J 1 as R C S A; separators dropped


def canon_hand(text) -> str | None:
    """The canonical upper-case form of a 4-card hand, or None when it is not 4 card letters."""
    if not isinstance(text, str) or len(text) > 16:
        return None
    if len(text) == 4 and not text.strip(LETTERS):
        return text     # already canonical: the common case when a stored match is read again
    out = text.strip().upper().translate(_TYPED)
    return out if len(out) == 4 and not out.strip(LETTERS) else None


def deck_problem(hands, kings: int = 8) -> dict | None:
    """What makes these hands impossible from one 40-card deck, or None. With 8 kings a 3 is a rey and a
    2 an as, so a table may write a 3 as R: 8 reyes (R and 3, at most four 3s) and 8 ases (A and 2)."""
    joined = "".join(hands)
    if max(map(joined.count, LETTERS)) <= 4:
        return None     # (the common case, without counting every letter: no card more than 4 times)
    counts = Counter(joined)
    if max(counts.values()) <= 4:
        return None
    for ch in LETTERS:
        if counts[ch] > (8 if kings == 8 and ch in "RA" else 4):
            return {"card": ch, "count": counts[ch], "limit": 8 if kings == 8 and ch in "RA" else 4}
    if kings == 8:
        for high, low in (("R", "3"), ("A", "2")):
            if counts[high] + counts[low] > 8:
                return {"card": high + low, "count": counts[high] + counts[low], "limit": 8}
    return None


def ranks(hand: str, kings: int = 8) -> list[int]:
    """Comparison ranks of a canonical hand; with 8 kings a 3 is a rey and a 2 an as."""
    out = []
    for ch in hand:
        r = _RANK[ch]
        if kings == 8 and r == 3:
            r = 12
        elif kings == 8 and r == 2:
            r = 1
        out.append(r)
    return out


def _value(rank: int) -> int:
    return 10 if rank >= 10 else rank


class Eval:
    """One hand under one rule of kings: every key the four lances compare (bigger is better)."""

    __slots__ = ("grande", "chica", "pares", "pares_kind", "total", "juego", "keys")

    def __init__(self, hand: str, kings: int):
        rs = ranks(hand, kings)
        self.grande = tuple(sorted(rs, reverse=True))
        self.chica = tuple(-r for r in sorted(rs))
        self.total = sum(_value(r) for r in rs)
        self.juego = _JUEGO_RANK[self.total] if self.total >= 31 else None
        counts: dict[int, int] = {}
        for r in rs:
            counts[r] = counts.get(r, 0) + 1
        pairs = sorted((r for r, c in counts.items() if c >= 2), reverse=True)
        kind, key = None, None
        for r, c in counts.items():
            if c == 4:
                kind, key = "duples", (r, r)
            elif c == 3:
                kind, key = "medias", (r,)
        if kind is None and len(pairs) == 2:
            kind, key = "duples", (pairs[0], pairs[1])
        elif kind is None and len(pairs) == 1:
            kind, key = "pareja", (pairs[0],)
        self.pares_kind = kind
        self.pares = (PARES_KINDS.index(kind), key) if kind else None
        self.keys = (self.grande, self.chica, self.pares, self.juego, self.total)


@lru_cache(maxsize=8192)
def evaluate(hand: str, kings: int = 8) -> Eval:
    return Eval(hand, kings)


def total(hand: str, kings: int = 8) -> int:
    """Juego / punto total (R C S = 10, A = 1, others their number)."""
    return evaluate(hand, kings).total


def pares_kind(hand: str, kings: int = 8) -> str | None:
    return evaluate(hand, kings).pares_kind


def juego_rank(value: int) -> int:
    """Bigger is better among juego totals (31 best, then 32, 40, 37 ... 33)."""
    return _JUEGO_RANK[value]


def best(order: list[str], keys: dict) -> str | None:
    """The player with the best key (bigger is better; None = not in the lance); ties go to the player
    earlier in ``order`` (speaking order from the mano)."""
    winner, wkey = None, None
    for name in order:
        k = keys.get(name)
        if k is None:
            continue
        if winner is None or k > wkey:
            winner, wkey = name, k
    return winner


def lance_winner(lance: str, order: list[str], hands: dict[str, str], kings: int = 8) -> str | None:
    """The player who wins ``lance`` with these cards (None: nobody holds pares / juego)."""
    attr = "total" if lance == "punto" else lance
    return best(order, {n: getattr(evaluate(hands[n], kings), attr) for n in order})


def winners(order: list[str], hands: dict[str, str], kings: int = 8) -> tuple[dict, dict]:
    """The player who wins each lance with these cards, all at once (grande, chica, pares, juego, punto;
    None where nobody holds pares / juego), and each player's evaluated hand: one pass over the four."""
    evals = {}
    keys = []
    for n in order:
        e = evals[n] = evaluate(hands[n], kings)
        keys.append((n, e.keys))
    out = {}
    for i, attr in enumerate(("grande", "chica", "pares", "juego", "punto")):
        winner, wkey = None, None
        for n, ks in keys:
            k = ks[i]
            if k is not None and (winner is None or k > wkey):
                winner, wkey = n, k
        out[attr] = winner
    return out, evals
