"""Mus cards and hand evaluation: grande, chica, pares, juego, punto; comparison with the mano tie rule.

Pure functions over 4-letter hand strings (canonical letters ``R C S 7 6 5 4 3 2 A``).
"""

from __future__ import annotations

CANON = {"K": "R", "Q": "C", "J": "S", "1": "A"}
LETTERS = "RCS765432A"
# rank for comparison, high to low R C S 7 6 5 4 3 2 A
_RANK = {"R": 12, "C": 11, "S": 10, "7": 7, "6": 6, "5": 5, "4": 4, "3": 3, "2": 2, "A": 1}
_RANK_NAME = {12: "R", 11: "C", 10: "S", 7: "7", 6: "6", 5: "5", 4: "4", 3: "3", 2: "2", 1: "A"}

PARES_KINDS = ("pareja", "medias", "duples")   # weakest first
PARES_BONUS = {"pareja": 1, "medias": 2, "duples": 3}
JUEGO_ORDER = (31, 32, 40, 37, 36, 35, 34, 33)  # best first
JUEGO_VALUES = frozenset(JUEGO_ORDER)


def canon_hand(text: str) -> str | None:
    """The canonical upper-case form of a 4-card hand, or None when it is not 4 card letters."""
    if not isinstance(text, str):
        return None
    out = []
    for ch in text.strip().upper():
        if ch in (" ", "-", ","):
            continue
        ch = CANON.get(ch, ch)
        if ch not in _RANK:
            return None
        out.append(ch)
    return "".join(out) if len(out) == 4 else None


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


def card_value(rank: int) -> int:
    return 10 if rank >= 10 else rank


def total(hand: str, kings: int = 8) -> int:
    """Juego / punto total (R C S = 10, A = 1, others their number)."""
    return sum(card_value(r) for r in ranks(hand, kings))


def grande_key(hand: str, kings: int = 8) -> tuple:
    """Bigger is better."""
    return tuple(sorted(ranks(hand, kings), reverse=True))


def chica_key(hand: str, kings: int = 8) -> tuple:
    """Bigger is better (the negated low-to-high ranks: the lower hand wins chica)."""
    return tuple(-r for r in sorted(ranks(hand, kings)))


def pares_of(hand: str, kings: int = 8) -> tuple[str, tuple] | None:
    """(kind, ranks) of the hand's pares, or None: pareja (r,), medias (r,), duples (high, low)."""
    counts: dict[int, int] = {}
    for r in ranks(hand, kings):
        counts[r] = counts.get(r, 0) + 1
    pairs = sorted((r for r, c in counts.items() if c >= 2), reverse=True)
    for r, c in counts.items():
        if c == 4:
            return ("duples", (r, r))
        if c == 3:
            return ("medias", (r,))
    if len(pairs) == 2:
        return ("duples", (pairs[0], pairs[1]))
    if len(pairs) == 1:
        return ("pareja", (pairs[0],))
    return None


def pares_kind(hand: str, kings: int = 8) -> str | None:
    p = pares_of(hand, kings)
    return p[0] if p else None


def pares_key(hand: str, kings: int = 8) -> tuple | None:
    p = pares_of(hand, kings)
    if p is None:
        return None
    return (PARES_KINDS.index(p[0]), p[1])


def juego_rank(value: int) -> int:
    """Bigger is better among juego totals (31 best, then 32, 40, 37 ... 33)."""
    return len(JUEGO_ORDER) - JUEGO_ORDER.index(value)


def juego_key(hand: str, kings: int = 8) -> int | None:
    t = total(hand, kings)
    return juego_rank(t) if t >= 31 else None


def punto_key(hand: str, kings: int = 8) -> int:
    return total(hand, kings)


def describe_pares(hand: str, kings: int = 8) -> str:
    p = pares_of(hand, kings)
    if not p:
        return "no pares"
    return p[0] + " of " + "+".join(_RANK_NAME[r] for r in p[1])


KEYS = {"grande": grande_key, "chica": chica_key, "pares": pares_key, "juego": juego_key, "punto": punto_key}


def best(order: list[str], keys: dict[str, object]) -> str | None:
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
    fn = KEYS[lance]
    return best(order, {n: fn(hands[n], kings) for n in order})
