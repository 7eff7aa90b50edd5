"""Newmarket's cards, rule options and the new-game options (shared/rules/newmarket.md).

Canonical rules (every key written): classic ``variant ante dealer_ante free_ante kitty_ante payout
boodles leftover``; parlett ``variant ante dealer_ante free_ante kitty_ante pool_ante boodles leftover``
(the boodles are the four Kings; ``payout`` is refused in parlett, ``pool_ante`` in classic).
``free_ante: 0`` is off.
"""
from __future__ import annotations

from dataclasses import dataclass

from companion.domain.errors import RuleError, join_path
from companion.kinds.validate import MAX_COUNT, MAX_MONEY, check_keys, need_choice, need_dict, need_int, need_list

RANKS = ("A", "K", "Q", "J", "2", "3", "4", "5", "6", "7", "8", "9", "10")
SUITS = ("S", "H", "D", "C")
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
CLASSIC_BOODLES = ["AH", "KC", "QD", "JS"]
KINGS = ["KS", "KH", "KD", "KC"]
QUEENS = ["QS", "QH", "QD", "QC"]
VARIANTS = ("classic", "parlett")
PAYOUTS = ("cards", "flat")
LEFTOVERS = ("share", "carry")
MIN_PLAYERS, MAX_PLAYERS = 3, 8
RULE_KEYS = ("variant", "ante", "dealer_ante", "free_ante", "kitty_ante", "payout", "boodles", "leftover",
             "pool_ante")

MAX_ANTE = 10_000          # chips a player puts on one card, the kitty or the pool; a dummy's price
MAX_CARDS_LEFT = 60        # cards a player can still hold when another goes out
MAX_START = MAX_COUNT      # chips each player brings
MAX_CHIP_VALUE = MAX_MONEY  # minor units of one chip

_CARDS = {r + s for r in RANKS for s in SUITS}


def pretty(card: str) -> str:
    """``"KC"`` -> ``"K♣"``."""
    return card[:-1] + SUIT_SYMBOL.get(card[-1], card[-1])


def norm_card(value, path: str) -> str:
    """A card written rank + suit letter (``ah``, `` 10C``): upper-cased, checked."""
    if value.__class__ is str and value in _CARDS:
        return value
    if not isinstance(value, str):
        raise RuleError("newmarket.card_text", path, value=_short(value))
    text = value.strip().upper()
    if text not in _CARDS:
        raise RuleError("v.card", path, value=_short(value))
    return text


def _short(value) -> str:
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= 20 else text[:19] + "…"


def norm_rules(raw, path: str = "rules") -> dict:
    r = need_dict({} if raw is None else raw, path)
    check_keys(r, RULE_KEYS, path)
    variant = need_choice(r.get("variant", "classic"), VARIANTS, join_path(path, "variant"))
    ante = need_int(r.get("ante", 1), join_path(path, "ante"), 0, MAX_ANTE)
    out = {"variant": variant, "ante": ante,
           "dealer_ante": need_int(r.get("dealer_ante", ante), join_path(path, "dealer_ante"), 0, MAX_ANTE),
           "free_ante": need_int(r.get("free_ante", 0), join_path(path, "free_ante"), 0, MAX_ANTE),
           "kitty_ante": need_int(r.get("kitty_ante", 0), join_path(path, "kitty_ante"), 0, MAX_ANTE)}
    bp = join_path(path, "boodles")
    if variant == "classic":
        if "pool_ante" in r:
            raise RuleError("newmarket.pool_ante_classic", join_path(path, "pool_ante"))
        out["payout"] = need_choice(r.get("payout", "cards"), PAYOUTS, join_path(path, "payout"))
        boodles = need_list(r.get("boodles", CLASSIC_BOODLES), bp)
        if len(boodles) != 4:
            raise RuleError("newmarket.four_boodles", bp, count=len(boodles))
        cards: list[str] = []
        for i, c in enumerate(boodles):
            card = norm_card(c, join_path(bp, i))
            if card in cards:
                raise RuleError("v.listed_twice", join_path(bp, i), name=card)
            cards.append(card)
        out["boodles"] = cards
    else:
        if "payout" in r:
            raise RuleError("newmarket.payout_parlett", join_path(path, "payout"))
        out["pool_ante"] = need_int(r.get("pool_ante", 1), join_path(path, "pool_ante"), 0, MAX_ANTE)
        if "boodles" in r:
            boodles = need_list(r["boodles"], bp)
            given = sorted(norm_card(c, join_path(bp, i)) for i, c in enumerate(boodles))
            if given != sorted(KINGS):
                raise RuleError("newmarket.parlett_kings", bp)
        out["boodles"] = list(KINGS)
    out["leftover"] = need_choice(r.get("leftover", "share"), LEFTOVERS, join_path(path, "leftover"))
    return out


@dataclass(frozen=True)
class NewmarketSpec:
    """The options of a new game, typed (the web parses its form into this). ``None``: the default.
    Options of the other variant (``payout``/``boodles`` in parlett, ``pool_ante`` in classic) are
    ignored, as a form shows them all."""
    seats: tuple | list
    variant: str = "classic"
    ante: int = 1
    dealer_ante: int | None = None          # default: ante
    free_ante: int = 0                      # 0: off
    kitty_ante: int = 0
    payout: str | None = None               # classic: cards (default) or flat
    boodles: tuple | list | None = None     # classic: 4 cards (default AH KC QD JS)
    leftover: str = "share"
    pool_ante: int | None = None            # parlett: default 1
    start_chips: int = 20
    chip_value: int = 1                     # minor units of one chip
