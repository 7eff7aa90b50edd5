"""Playing one Newmarket deal from the running state before it, and the leftovers at the end of a game.

The running state (JSON, stored after every closed deal):
``{"chips": {player: n}, "piles": {boodle card: n}, "kitty": n, "pool": n, "face_up": [boodle cards
still face up (parlett: Kings)], "dealer": seat index of the last deal's dealer (-1 before the first),
"leftovers": None | {"total", "each", "odd", "odd_to": [players], "carried": bool}}``
(``leftovers`` is set once the game has ended: shared, the chips went to the players and the piles are
empty; carried, the piles stay where they are for the next Newmarket game of the session).

A deal's ``result`` (JSON): ``{"number", "dealer", "antes" (chips anted), "dummy", "exchange", "bury",
"boodles": [{"card", "by", "chips", "king"?}], "out", "blocked", "paid": {player: n}, "kitty_taken",
"pool_taken", "ends_game", "delta": {player: n}}``. The movements with their reasons (the state's
``log``) are worked out again from the deal only when asked for (``play(..., log=[])``): a write never
builds sentences it does not show.
"""
from __future__ import annotations

from companion.kinds.newmarket.options import RANKS, SUITS, pretty

_PRETTY = {r + s: pretty(r + s) for r in RANKS for s in SUITS}
from companion.kinds.newmarket.shape import Ctx


def start_state(ctx: Ctx, seed: dict | None) -> dict:
    piles = {c: 0 for c in ctx.boodles}
    kitty = pool = 0
    if seed:
        for c, k in seed["piles"].items():
            piles[c] += k
        kitty, pool = seed["kitty"], seed["pool"]
    return {"chips": {p: ctx.start_chips for p in ctx.seats}, "piles": piles, "kitty": kitty, "pool": pool,
            "face_up": list(ctx.boodles), "dealer": -1, "leftovers": None}


def dealer_index(ctx: Ctx, st: dict, body: dict) -> int:
    name = body.get("dealer")
    return ctx.seats.index(name) if name else (st["dealer"] + 1) % ctx.n


def is_bury(ctx: Ctx, st: dict) -> bool:
    """Parlett, one King face up before the deal: no dead-hand exchange, 'bury the Jack' instead."""
    return ctx.parlett and len(st["face_up"]) == 1


def _mv(log: list, number, frm: str, to: str, k: int, code: str, **params) -> None:
    params["code"] = "newmarket.why." + code
    log.append({"deal": number, "from": frm, "to": to, "chips": k, "why": params})


def play(ctx: Ctx, st: dict, body: dict, number: int, log: list | None = None) -> tuple[dict, dict]:
    """The running state after the deal ``body`` (already checked), and what it gave. With ``log`` (a
    list), every movement is appended to it, in the order the old engine logged them."""
    seats = ctx.seats
    before = st["chips"]
    chips = dict(before)
    piles = dict(st["piles"])
    kitty, pool = st["kitty"], st["pool"]
    face_up = st["face_up"]
    di = dealer_index(ctx, st, body)
    dealer = seats[di]
    bury = ctx.parlett and len(face_up) == 1
    antes = 0
    # antes on the boodle cards
    if ctx.free_ante:
        placed = body["antes"]
        for p in seats:
            for card, k in placed[p].items():
                chips[p] -= k
                piles[card] += k
                antes += k
                if log is not None and k:
                    _mv(log, number, p, "@" + card, k, "ante", player=p, n=k, card=_PRETTY[card], deal=number)
    else:
        a, da = ctx.ante, ctx.dealer_ante
        nf = len(face_up)
        if nf and (a or da):
            each_card = a * (ctx.n - 1) + da
            for c in face_up:
                piles[c] += each_card
            antes += each_card * nf
            for p in seats:
                chips[p] -= (da if p == dealer else a) * nf
            if log is not None:
                for p in seats:
                    k = da if p == dealer else a
                    if k:
                        code = "ante_dealer" if p == dealer else "ante"
                        for c in face_up:
                            _mv(log, number, p, "@" + c, k, code, player=p, n=k, card=_PRETTY[c], deal=number)
    ka = ctx.kitty_ante
    pa = ctx.pool_ante if ctx.parlett else 0
    if ka or pa:
        for p in seats:
            chips[p] -= ka + pa
            if log is not None:
                if ka:
                    _mv(log, number, p, "@kitty", ka, "kitty_ante", player=p, n=ka)
                if pa:
                    _mv(log, number, p, "@pool", pa, "pool_ante", player=p, n=pa)
        kitty += ka * ctx.n
        pool += pa * ctx.n
        antes += (ka + pa) * ctx.n
    # the dummy (classic) or the dead hand (parlett)
    dummy = body.get("dummy")
    if dummy and "sold_to" in dummy:
        buyer, price = dummy["sold_to"], dummy["price"]
        chips[buyer] -= price
        chips[dealer] += price
        if log is not None:
            _mv(log, number, buyer, dealer, price, "dummy", player=buyer, dealer=dealer, n=price)
    by = body.get("exchange")
    if by:
        if bury:
            if log is not None:
                king = face_up[0]
                _mv(log, number, by, "@pool", 0, "bury", player=by, king=_PRETTY[king], jack=pretty("J" + king[-1]))
        elif by != dealer and ctx.pool_ante:
            chips[by] -= ctx.pool_ante
            pool += ctx.pool_ante
            if log is not None:
                _mv(log, number, by, "@pool", ctx.pool_ante, "exchange", player=by, n=ctx.pool_ante)
    # boodles won
    boodles = []
    ends_game = False
    pool_taken = 0
    if "boodles_won" in body:
        if ctx.parlett:
            face_up = list(face_up)
        for b in body["boodles_won"]:
            card, who = b["card"], b["by"]
            if ctx.classic:
                k = piles[card]
                piles[card] = 0
                chips[who] += k
                if log is not None:
                    _mv(log, number, "@" + card, who, k, "boodle", player=who, card=_PRETTY[card], n=k)
                boodles.append({"card": card, "by": who, "chips": k})
                continue
            king = "K" + card[-1]
            if king in face_up:
                k = piles[king]
                piles[king] = 0
                chips[who] += k
                face_up.remove(king)
                if log is not None:
                    _mv(log, number, "@" + king, who, k, "queen", player=who, card=_PRETTY[card], n=k,
                        king=_PRETTY[king])
                boodles.append({"card": card, "by": who, "chips": k, "king": king})
                if not face_up:
                    ends_game = True
                    pool_taken = pool
                    chips[who] += pool
                    if log is not None:
                        _mv(log, number, "@pool", who, pool, "last_king", player=who, n=pool)
                    pool = 0
            else:
                if log is not None:
                    _mv(log, number, "@" + king, who, 0, "queen_nothing", player=who, card=_PRETTY[card],
                        king=_PRETTY[king])
                boodles.append({"card": card, "by": who, "chips": 0, "king": king})
    # the end of the deal
    paid = {}
    kitty_taken = 0
    out = body.get("out")
    if out:
        if ctx.classic:
            cards = ctx.cards_payout
            left = body.get("cards_left")
            got = 0
            for p in seats:
                if p == out:
                    continue
                k = left[p] if cards else 1
                chips[p] -= k
                got += k
                paid[p] = k
                if log is not None:
                    if cards:
                        _mv(log, number, p, out, k, "paid_cards", out=out, player=p, n=k)
                    else:
                        _mv(log, number, p, out, 1, "paid_flat", out=out, player=p)
            chips[out] += got
        else:
            pool_taken = pool
            chips[out] += pool
            if log is not None:
                _mv(log, number, "@pool", out, pool, "out_pool", out=out, n=pool)
            pool = 0
        if kitty:
            kitty_taken = kitty
            chips[out] += kitty
            if log is not None:
                _mv(log, number, "@kitty", out, kitty, "out_kitty", out=out, n=kitty)
            kitty = 0
    state = {"chips": chips, "piles": piles, "kitty": kitty, "pool": pool, "face_up": face_up, "dealer": di,
             "leftovers": None}
    result = {"number": number, "dealer": dealer, "antes": antes, "dummy": dict(dummy) if dummy else None,
              "exchange": by, "bury": bury, "boodles": boodles, "out": out, "blocked": bool(body.get("blocked")),
              "paid": paid, "kitty_taken": kitty_taken, "pool_taken": pool_taken, "ends_game": ends_game,
              "delta": {p: chips[p] - before[p] for p in seats}}
    return state, result


def finish(ctx: Ctx, st: dict) -> dict:
    """The running state once the game has ended: the leftovers shared (odd chips one each from the left
    of the last dealer), or kept on the table for the next Newmarket game (``leftover: carry``)."""
    piles = st["piles"]
    total = sum(piles.values()) + st["kitty"] + st["pool"]
    if ctx.carry:
        return {**st, "leftovers": {"total": total, "each": 0, "odd": 0, "odd_to": [], "carried": True}}
    seats, n = ctx.seats, ctx.n
    each, odd = divmod(total, n)
    start = (st["dealer"] + 1) % n
    odd_to = [seats[(start + j) % n] for j in range(odd)]
    chips = dict(st["chips"])
    if total:
        for p in seats:
            chips[p] += each + (1 if p in odd_to else 0)
    return {**st, "chips": chips, "piles": {c: 0 for c in piles}, "kitty": 0, "pool": 0,
            "leftovers": {"total": total, "each": each, "odd": odd, "odd_to": odd_to, "carried": False}}


def leftover_moves(ctx: Ctx, leftovers: dict | None) -> list[dict]:
    """The sharing of the leftovers as movements (none when carried or nothing was left)."""
    if not leftovers or leftovers["carried"] or not leftovers["total"]:
        return []
    out = []
    total, each, odd_to = leftovers["total"], leftovers["each"], leftovers["odd_to"]
    for p in ctx.seats:
        odd = p in odd_to
        k = each + (1 if odd else 0)
        _mv(out, None, "@table", p, k, "shared_odd" if odd else "shared", total=total, player=p, n=k, each=each)
    return out
