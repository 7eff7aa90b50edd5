"""The Newmarket game object as the session file writes it: its head (rules, seats, chips) and each
element of ``deals``, checked against the running state before it (the dealer rotation, which Kings are
still face up). What the deal does to the chips is ``deal.py``'s business.

A deal as written: ``dealer`` (optional), ``antes`` (free ante only), ``dummy`` (classic), ``exchange``
(parlett), ``boodles_won``, then its end: ``out`` + ``cards_left`` (classic cards payout), ``out``
alone, or ``blocked: true``; ``"open": true`` on the last deal while it is being played; a parlett deal
in which the last face-up King is taken has no end (it ends the game).
"""
from __future__ import annotations

from companion.domain.errors import RuleError, join_path
from companion.kinds.validate import (MAX_COUNT, check_keys, need_bool, need_dict, need_int, need_list, need_seated,
                        need_seats)
from companion.kinds.newmarket.options import (MAX_ANTE, MAX_CARDS_LEFT, MAX_CHIP_VALUE, MAX_PLAYERS, MAX_START, MIN_PLAYERS,
                      norm_card, norm_rules, pretty)

HEAD_KEYS = ("kind", "rules", "seats", "start_chips", "chip_value", "ended")
GAME_KEYS = ("kind", "rules", "seats", "start_chips", "chip_value", "deals", "ended", "carry_in")
DEAL_KEYS = ("dealer", "antes", "dummy", "exchange", "boodles_won", "out", "cards_left", "blocked", "open")
DEAL_KEYSET = frozenset(DEAL_KEYS)
END_KEYS = ("out", "blocked", "cards_left")


class Ctx:
    """What every deal of one game needs: the rules and the seats."""

    def __init__(self, head: dict):
        r = head["rules"]
        self.rules = r
        self.seats = head["seats"]
        self.n = len(self.seats)
        self.variant = r["variant"]
        self.classic = r["variant"] == "classic"
        self.parlett = not self.classic
        self.boodles = r["boodles"]
        self.ante = r["ante"]
        self.dealer_ante = r["dealer_ante"]
        self.free_ante = r["free_ante"]
        self.kitty_ante = r["kitty_ante"]
        self.pool_ante = r.get("pool_ante", 0)
        self.cards_payout = self.classic and r["payout"] == "cards"
        self.carry = r["leftover"] == "carry"
        self.start_chips = head["start_chips"]
        self.seatset = frozenset(self.seats)
        # the cards a well-formed boodle names (anything else takes the slow path and its error)
        self.won_cards = frozenset(self.boodles if self.classic else ("QS", "QH", "QD", "QC"))


# ----------------------------------------------------------------------------------------------------
# the head, and what the previous game carries into it

def table_of(seed: dict | None) -> dict:
    """What a seed puts on the table, in the order of the old ``carry_in`` key: {card: n, "kitty": n,
    "pool": n}, zeros left out."""
    if not seed:
        return {}
    out = {c: k for c, k in seed["piles"].items() if k}
    if seed.get("kitty"):
        out["kitty"] = seed["kitty"]
    if seed.get("pool"):
        out["pool"] = seed["pool"]
    return out


def table_words(table: dict) -> str:
    """``{"KC": 4, "kitty": 1}`` -> ``"K♣ 4, kitty 1"``; ``"nothing"`` for an empty table (English: a
    parameter of the carry_in message, which only the session file speaks)."""
    if not table:
        return "nothing"
    return ", ".join(f"{k if k in ('kitty', 'pool') else pretty(k)} {v}" for k, v in table.items())


def norm_seed(seed) -> dict | None:
    """The seed handed over by the session layer (``seed_out`` of the previous game), checked."""
    if seed is None:
        return None
    need_dict(seed, "seed")
    piles = need_dict(seed.get("piles", {}), "seed.piles")
    out = {"piles": {}, "kitty": need_int(seed.get("kitty", 0), "seed.kitty", 0, 10 ** 15),
           "pool": need_int(seed.get("pool", 0), "seed.pool", 0, 10 ** 15),
           "chip_value": need_int(seed.get("chip_value", 1), "seed.chip_value", 0, MAX_CHIP_VALUE)}
    for card, k in piles.items():
        out["piles"][norm_card(card, f"seed.piles.{card}")] = need_int(k, f"seed.piles.{card}", 0, 10 ** 15)
    out["chips"] = sum(out["piles"].values()) + out["kitty"] + out["pool"]
    return out if out["chips"] else None


def _norm_carry_in(raw, rules: dict, path: str = "carry_in") -> dict:
    """The old app's ``carry_in`` key (read, compared with what the session carries, never written)."""
    ci = need_dict(raw, path)
    piles = list(rules["boodles"]) + ["kitty"] + (["pool"] if rules["variant"] == "parlett" else [])
    out: dict = {}
    for key, value in ci.items():
        kp = join_path(path, str(key))
        k = key if key in ("kitty", "pool") else norm_card(key, kp)
        if k not in piles:
            raise RuleError("newmarket.carry_pile", kp, key=str(key)[:20], piles=", ".join(piles))
        n = need_int(value, kp, 0, MAX_COUNT)
        if n:
            out[k] = out.get(k, 0) + n
    return {k: out[k] for k in piles if k in out}


def check_seed(head: dict, seed: dict | None) -> None:
    """A seeded pile this game has no place for, or chips of another value: refused."""
    if seed is None:
        return
    rules = head["rules"]
    for card, k in seed["piles"].items():
        if k and card not in rules["boodles"]:
            raise RuleError("newmarket.seed_card", "rules.boodles", card=pretty(card), chips=k,
                            boodles=", ".join(pretty(c) for c in rules["boodles"]))
    if seed["pool"] and rules["variant"] != "parlett":
        raise RuleError("newmarket.seed_pool", "rules.variant", chips=seed["pool"])
    if seed["chip_value"] != head["chip_value"]:
        raise RuleError("newmarket.seed_value", "chip_value", chips=seed["chips"], value=seed["chip_value"],
                        given=head["chip_value"])


def norm_head(game, players, seed: dict | None) -> dict:
    g = need_dict(game, "")
    check_keys(g, GAME_KEYS, "")
    if g.get("kind") != "newmarket":
        raise RuleError("newmarket.not_newmarket", "kind")
    rules = norm_rules(g.get("rules"))
    if "seats" not in g:
        raise RuleError("v.missing", "seats")
    seats = need_seats(g["seats"], players, MIN_PLAYERS, MAX_PLAYERS)
    head = {"kind": "newmarket", "rules": rules, "seats": seats,
            "start_chips": need_int(g.get("start_chips", 0), "start_chips", 0, MAX_START),
            "chip_value": need_int(g.get("chip_value", 1), "chip_value", 0, MAX_CHIP_VALUE),
            "ended": need_bool(g.get("ended", False), "ended")}
    if "carry_in" in g and g["carry_in"] is not None:
        given = _norm_carry_in(g["carry_in"], rules)
        carried = table_of(seed)
        if given != carried:
            raise RuleError("newmarket.carry_in", "carry_in", carried=table_words(carried),
                            given=table_words(given))
    check_seed(head, seed)
    return head


# ----------------------------------------------------------------------------------------------------
# a deal

def _fast_antes(antes, ctx: Ctx, face_up: list) -> dict | None:
    """Well-formed placements in canonical form, or None (the slow path says what is wrong)."""
    if antes.__class__ is not dict or len(antes) != ctx.n:
        return None
    n = ctx.free_ante
    out = {}
    for name in ctx.seats:
        placed = antes.get(name)
        if placed.__class__ is not dict:
            return None
        total = 0
        for card, k in placed.items():
            if k.__class__ is not int or not 0 < k <= MAX_ANTE or card not in face_up:
                return None
            total += k
        if total != n:
            return None
        out[name] = dict(placed) if len(placed) == 1 else {c: placed[c] for c in ctx.boodles if c in placed}
    return out


def _norm_antes(raw, ctx: Ctx, face_up: list, path: str) -> dict:
    fast = _fast_antes(raw, ctx, face_up)
    if fast is not None:
        return fast
    n = ctx.free_ante
    antes = need_dict(raw, path)
    for name in antes:
        need_seated(name, ctx.seats, join_path(path, name))
    out = {}
    for name in ctx.seats:
        pp = join_path(path, name)
        if name not in antes:
            raise RuleError("newmarket.free_missing", pp, name=name, n=n)
        placed = need_dict(antes[name], pp)
        mine: dict = {}
        for card, count in placed.items():
            cp = join_path(pp, str(card))
            cc = norm_card(card, cp)
            if cc not in ctx.boodles:
                raise RuleError("newmarket.not_boodle", cp, card=str(card)[:20])
            if cc not in face_up:
                raise RuleError("newmarket.face_down_ante", cp, card=pretty(cc))
            k = need_int(count, cp, 0, MAX_ANTE)
            if k:
                mine[cc] = mine.get(cc, 0) + k
        total = sum(mine.values())
        if total != n:
            raise RuleError("newmarket.free_placed", pp, name=name, n=n, placed=total)
        out[name] = {c: mine[c] for c in ctx.boodles if c in mine}
    return out


def norm_dummy(raw, ctx: Ctx, dealer: str, path: str) -> dict:
    d = need_dict(raw, path)
    check_keys(d, ("swap", "sold_to", "price"), path)
    if "swap" in d:
        if "sold_to" in d or "price" in d:
            raise RuleError("newmarket.dummy_both", path)
        if d["swap"] is not True:
            raise RuleError("newmarket.dummy_swap_true", join_path(path, "swap"))
        return {"swap": True}
    if "sold_to" not in d:
        raise RuleError("newmarket.dummy_what", path)
    buyer = need_seated(d["sold_to"], ctx.seats, join_path(path, "sold_to"))
    if buyer == dealer:
        raise RuleError("newmarket.dummy_dealer", join_path(path, "sold_to"), name=buyer)
    if "price" not in d:
        raise RuleError("v.missing", join_path(path, "price"))
    return {"sold_to": buyer, "price": need_int(d["price"], join_path(path, "price"), 0, MAX_ANTE)}


def norm_boodle(raw, ctx: Ctx, taken, path: str) -> dict:
    b = need_dict(raw, path)
    check_keys(b, ("card", "by"), path)
    cp = join_path(path, "card")
    if "card" not in b:
        raise RuleError("v.missing", cp)
    card = norm_card(b["card"], cp)
    if ctx.classic:
        if card not in ctx.boodles:
            raise RuleError("newmarket.not_boodle", cp, card=card)
    elif card[:-1] != "Q":
        raise RuleError("newmarket.not_queen", cp, card=card)
    if card in taken:
        raise RuleError("newmarket.played_twice", cp, card=card)
    if "by" not in b:
        raise RuleError("v.missing", join_path(path, "by"))
    return {"card": card, "by": need_seated(b["by"], ctx.seats, join_path(path, "by"))}


def norm_end(d: dict, ctx: Ctx, path: str) -> dict:
    """The end of a deal: {out, cards_left} | {out} | {blocked: True} | {} (nothing said)."""
    out: dict = {}
    blocked = d.get("blocked", False)
    if "blocked" in d:
        need_bool(blocked, join_path(path, "blocked"))
    winner = d.get("out")
    if winner is not None:
        if blocked:
            raise RuleError("newmarket.blocked_out", join_path(path, "blocked"))
        if isinstance(winner, list):
            raise RuleError("newmarket.one_out", join_path(path, "out"))
        if winner.__class__ is not str or winner not in ctx.seatset:
            need_seated(winner, ctx.seats, join_path(path, "out"))
        out["out"] = winner
        left = d.get("cards_left")
        if ctx.cards_payout and left.__class__ is dict and len(left) == ctx.n - 1 and winner not in left:
            counts = {}
            for name in ctx.seats:                      # the common, well-formed count
                if name != winner:
                    k = left.get(name)
                    if k.__class__ is not int or not 0 <= k <= MAX_CARDS_LEFT:
                        break
                    counts[name] = k
            else:
                out["cards_left"] = counts
                return out
        lp = join_path(path, "cards_left")
        if ctx.cards_payout:
            if "cards_left" not in d:
                raise RuleError("newmarket.cards_left_missing", lp)
            left = need_dict(d["cards_left"], lp)
            for name in left:
                need_seated(name, ctx.seats, join_path(lp, name))
                if name == winner:
                    raise RuleError("newmarket.out_has_none", join_path(lp, name), name=name)
            counts = {}
            for name in ctx.seats:
                if name == winner:
                    continue
                if name not in left:
                    raise RuleError("newmarket.cards_of_missing", join_path(lp, name), name=name)
                counts[name] = need_int(left[name], join_path(lp, name), 0, MAX_CARDS_LEFT)
            out["cards_left"] = counts
        elif "cards_left" in d:
            raise RuleError("newmarket.no_cards_parlett" if ctx.parlett else "newmarket.no_cards_flat", lp)
    else:
        if "cards_left" in d:
            raise RuleError("newmarket.cards_without_out", join_path(path, "cards_left"))
        if blocked:
            out["blocked"] = True
    return out


def norm_deal(raw, ctx: Ctx, st: dict, path: str, is_last: bool) -> tuple[dict, bool]:
    """One element of ``deals`` checked against the running state ``st`` before it: (the canonical deal,
    whether it ends the game by taking the last face-up King)."""
    d = need_dict(raw, path)
    if not d.keys() <= DEAL_KEYSET:
        check_keys(d, DEAL_KEYS, path)
    seats = ctx.seats
    face_up = st["face_up"]
    if ctx.parlett and not face_up:
        raise RuleError("newmarket.no_more_deals", path)
    out: dict = {}
    if "dealer" in d:
        dealer = d["dealer"]
        if dealer.__class__ is not str or dealer not in ctx.seatset:
            need_seated(dealer, seats, join_path(path, "dealer"))
        out["dealer"] = dealer
    else:
        dealer = seats[(st["dealer"] + 1) % ctx.n]
    if ctx.free_ante:
        if "antes" not in d:
            raise RuleError("newmarket.free_where", join_path(path, "antes"), n=ctx.free_ante)
        out["antes"] = _norm_antes(d["antes"], ctx, face_up, join_path(path, "antes"))
    elif "antes" in d:
        raise RuleError("newmarket.antes_free_only", join_path(path, "antes"))
    if "dummy" in d:
        if not ctx.classic:
            raise RuleError("newmarket.dummy_parlett", join_path(path, "dummy"))
        dm = d["dummy"]
        if dm.__class__ is dict and len(dm) == 1 and dm.get("swap") is True:
            out["dummy"] = {"swap": True}
        elif dm.__class__ is dict and len(dm) == 2 and (buyer := dm.get("sold_to")).__class__ is str and \
                buyer in ctx.seatset and buyer != dealer and (price := dm.get("price")).__class__ is int and \
                0 <= price <= MAX_ANTE:
            out["dummy"] = {"sold_to": buyer, "price": price}
        else:
            out["dummy"] = norm_dummy(dm, ctx, dealer, join_path(path, "dummy"))
    by = d.get("exchange")
    if by is not None:
        if not ctx.parlett:
            raise RuleError("newmarket.exchange_classic", join_path(path, "exchange"))
        if by.__class__ is not str or by not in ctx.seatset:
            need_seated(by, seats, join_path(path, "exchange"))
        out["exchange"] = by
    won = d.get("boodles_won", ())
    if won.__class__ is not list and won != ():
        need_list(won, join_path(path, "boodles_won"))
    taken: list = []
    ends_game = False
    up = list(face_up) if ctx.parlett else face_up
    items = []
    for i, item in enumerate(won):
        if ends_game:
            raise RuleError("newmarket.ended_by_king", f"{path}.boodles_won[{i}]")
        if item.__class__ is dict and len(item) == 2 and (card := item.get("card")).__class__ is str and \
                card in ctx.won_cards and card not in taken and (by := item.get("by")).__class__ is str and \
                by in ctx.seatset:
            b = {"card": card, "by": by}
        else:
            b = norm_boodle(item, ctx, taken, f"{path}.boodles_won[{i}]")
        taken.append(b["card"])
        items.append(b)
        if ctx.parlett:
            king = "K" + b["card"][-1]
            if king in up:
                up.remove(king)
                if not up:
                    ends_game = True
    if items:
        out["boodles_won"] = items
    is_open = d.get("open", False)
    if "open" in d:
        need_bool(is_open, join_path(path, "open"))
    if ends_game:
        for key in END_KEYS:
            if key in d and d[key] not in (None, False):
                raise RuleError("newmarket.end_with_king", join_path(path, key))
        if not is_last:
            raise RuleError("newmarket.king_last_deal", path)
        return out, True
    if is_open:
        if not is_last:
            raise RuleError("newmarket.only_last_open", join_path(path, "open"))
        for key in END_KEYS:
            if key in d and d[key] not in (None, False):
                raise RuleError("newmarket.open_no_end", join_path(path, key))
        out["open"] = True
        return out, False
    end = norm_end(d, ctx, path)
    if not end:
        raise RuleError("newmarket.deal_no_end", path)
    out.update(end)
    return out, False
