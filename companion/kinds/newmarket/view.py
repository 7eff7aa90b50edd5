"""What a Newmarket page shows: the board (boodle cards and their piles), the chips, the controls of the
step now and the last few deals, from the running state and the deal in progress (never every deal)."""
from __future__ import annotations

from companion.domain.messages import msg
from companion.kinds.base import GameRec, Item
from companion.kinds.newmarket.deal import is_bury, play
from companion.kinds.newmarket.kind import KIND
from companion.kinds.newmarket.options import QUEENS, SUIT_SYMBOL, pretty
from companion.kinds.newmarket.shape import Ctx

RECENT = 3
# what a write was (the ``done`` of the game page's address after it): the toast says it in one line
DONE = ("start", "dummy", "exchange", "boodle", "end", "cancel", "end_game", "fixed")


def card_info(code: str, face_down: bool = False) -> dict:
    suit = code[-1]
    return {"code": code, "rank": code[:-1], "suit": SUIT_SYMBOL.get(suit, suit), "red": suit in "HD",
            "label": pretty(code), "face_down": face_down}


def deal_lines(s: dict, parlett: bool) -> list[dict]:
    """A deal (its result) in a few messages."""
    lines = []
    d = s.get("dummy")
    if d:
        lines.append(msg("newmarket.line.swap", name=s["dealer"]) if d.get("swap")
                     else msg("newmarket.line.sold", name=d["sold_to"], price=d["price"]))
    if s.get("exchange"):
        lines.append(msg("newmarket.line.bury" if s.get("bury") else "newmarket.line.exchange", name=s["exchange"]))
    for b in s["boodles"]:
        if "king" in b:
            lines.append(msg("newmarket.line.queen", name=b["by"], card=pretty(b["card"]), n=b["chips"],
                             king=pretty(b["king"])))
        else:
            lines.append(msg("newmarket.line.boodle", name=b["by"], card=pretty(b["card"]), n=b["chips"]))
    if s.get("ends_game"):
        lines.append(msg("newmarket.line.last_king", name=s["boodles"][-1]["by"], n=s["pool_taken"]))
    elif s.get("out"):
        if parlett:
            line = msg("newmarket.line.out_pool", name=s["out"], n=s["pool_taken"])
        elif s["paid"] and any(k != 1 for k in s["paid"].values()):
            line = msg("newmarket.line.out_paid_by", name=s["out"], n=sum(s["paid"].values()),
                       items=[f"{p} {k}" for p, k in s["paid"].items()])
        else:
            line = msg("newmarket.line.out_paid", name=s["out"], n=sum(s["paid"].values()))
        if s["kitty_taken"]:
            line = msg("newmarket.line.and_kitty", base=line, n=s["kitty_taken"])
        lines.append(line)
    elif s.get("blocked"):
        lines.append(msg("newmarket.line.blocked_pool" if parlett else "newmarket.line.blocked"))
    return lines


def free_ante_defaults(n: int, cards: list[str]) -> dict:
    """Spread a free ante evenly over the face-up cards (first cards get the odd chips)."""
    if not cards:
        return {}
    each, odd = divmod(n, len(cards))
    return {c: each + (1 if i < odd else 0) for i, c in enumerate(cards)}


def page(rec: GameRec, recent: list[Item], first_index: int) -> dict:
    """The game page's model. ``recent``: the last few deals (items), the first at ``first_index``."""
    head = rec.head
    rules, seats = head["rules"], head["seats"]
    ctx = Ctx(head)
    classic = rules["variant"] == "classic"
    current_state, info = KIND.current(rec)
    nxt = KIND.next_deal(rec)
    ended = head["ended"]
    if info is not None:
        dealer, deal_number = info["dealer"], len(rec.items)
    elif nxt is not None:
        dealer, deal_number = nxt["dealer"], nxt["number"]
    else:
        dealer, deal_number = None, len(rec.items)
    piles = current_state["piles"]
    face_up = current_state["face_up"]
    face_down = [c for c in rules["boodles"] if c not in face_up]
    board = [dict(card_info(c, face_down=c in face_down), pile=piles[c]) for c in rules["boodles"]]
    grid = []
    if info is not None:
        taken = set(info["taken"])
        if classic:
            grid = [dict(card_info(c), pile=piles[c]) for c in rules["boodles"] if c not in taken]
        else:
            for king in face_up:
                grid.append(dict(card_info("Q" + king[-1]), pile=piles[king], king=pretty(king)))
    net = {p: current_state["chips"][p] - head["start_chips"] for p in seats}
    n = len(seats)
    on_table = KIND.on_table(current_state)
    each, odd = divmod(on_table, n)
    start = seats.index(dealer) if dealer in seats else 0
    preview = {"total": on_table, "each": each, "odd": odd, "odd_to": [seats[(start + j) % n] for j in range(odd)]}
    history = []
    for k, item in enumerate(recent):
        i = first_index + k
        result = item.result
        if result is None:
            _st, result = play(ctx, item.before, item.body, i + 1)
        history.append({"index": i, "number": i + 1, "dealer": result["dealer"], "open": item.result is None,
                        "lines": deal_lines(result, not classic), "delta": result["delta"]})
    last = history[-1] if history and info is None else None
    free_cols = [c for c in rules["boodles"] if c in face_up]
    final = None
    if ended:
        final = sorted(({"player": p, "chips": current_state["chips"][p], "net": net[p]} for p in seats),
                       key=lambda r: (-r["chips"], seats.index(r["player"])))
    carry_out = KIND.seed_out(rec)
    st = {"at": KIND.position(rec), "ended": ended, "deal_number": deal_number, "dealer": dealer,
          "kitty": current_state["kitty"], "pool": current_state["pool"], "on_table": on_table,
          "face_down": face_down, "cards": {c: pretty(c) for c in rules["boodles"]},
          "leftovers": current_state.get("leftovers"), "final": final, "brought_in": KIND.brought_in(rec),
          "carry_in": _pile_names(rec.seed), "carry_out": _pile_names(carry_out),
          "bury": (info or {}).get("bury") or (nxt or {}).get("bury") or False,
          "legal": KIND.legal(rec)}
    current = None
    if info is not None:
        current = {"dummy": info.get("dummy"), "exchange": info.get("exchange"), "bury": info.get("bury")}
    players = [{"name": p, "seat": i, "chips": current_state["chips"][p], "net": net[p], "dealer": p == dealer}
               for i, p in enumerate(seats)]
    pots = []
    if rules["kitty_ante"] or current_state["kitty"]:
        pots.append({"key": "kitty", "n": current_state["kitty"]})
    if not classic:
        pots.append({"key": "pool", "n": current_state["pool"]})
    bar = scorebar([{"name": p["name"], "score": p["chips"], "sub": p["net"], "dealer": p["dealer"] and not ended}
                    for p in players], pots)
    return {"st": st, "rules": rules, "seats": seats, "classic": classic, "current": current, "bar": bar,
            "taken_any": bool(info and info["taken"]),
            "current_lines": deal_lines(info, not classic) if info else [], "board": board, "grid": grid,
            "players": players, "preview": preview, "free_cols": [card_info(c) for c in free_cols],
            "free_defaults": free_ante_defaults(rules["free_ante"], free_cols), "history": list(reversed(history)),
            "last": last, "cards_payout": classic and rules.get("payout") == "cards"}


def scorebar(cells: list[dict], pots: list[dict]) -> dict:
    """The score on top of a chip game's page: a cell per player (``name``, ``score`` big, ``sub`` small,
    ``dealer``) and per pot (``key``: kitty, pool, pot; ``n``; ``sub``). Up to four players in one row,
    five to eight in two (``cols`` columns); the pots beside them, stacked when there are two rows."""
    n = len(cells)
    cols = n if n <= 4 else -(-n // 2)
    return {"players": cells, "pots": pots, "cols": cols, "rows": 1 if n <= 4 else 2}


def toast(rec: GameRec, what: str | None, fixed: int | None = None) -> dict | None:
    """What the tap just recorded, in one line (``what``: which form it came from; the log keeps the
    detail)."""
    if what == "fixed" and fixed:
        return msg("newmarket.toast.fixed", n=fixed)
    n = len(rec.items)
    if what == "cancel":
        return msg("newmarket.toast.cancel", n=n + 1)
    if not n:
        return msg("newmarket.toast.over") if rec.head["ended"] else None
    _state, info = KIND.current(rec)
    classic = rec.head["rules"]["variant"] == "classic"
    if info is not None:
        if what == "start":
            return msg("newmarket.toast.start", n=n, antes=info["antes"])
        if what == "dummy" and info["dummy"]:
            d = info["dummy"]
            return msg("newmarket.toast.swap", name=info["dealer"]) if d.get("swap") else \
                msg("newmarket.toast.sold", name=d["sold_to"], price=d["price"])
        if what == "exchange" and info["exchange"]:
            return msg("newmarket.toast.bury" if info["bury"] else "newmarket.toast.exchange", name=info["exchange"])
        if what == "boodle" and info["boodles"]:
            b = info["boodles"][-1]
            return msg("newmarket.toast.boodle", name=b["by"], card=pretty(b["card"]), k=b["chips"])
        return None
    r = rec.items[-1].result
    if rec.head["ended"] and not r["ends_game"]:
        lo = rec.state.get("leftovers") or {}
        if not lo.get("total"):
            return msg("newmarket.toast.over")
        return msg("newmarket.toast.over_carried" if lo.get("carried") else "newmarket.toast.over_shared",
                   n=lo["total"])
    if r["ends_game"]:
        return msg("newmarket.toast.last_king", name=r["boodles"][-1]["by"])
    if r["out"]:
        got = sum(r["paid"].values()) + r["pool_taken"] + r["kitty_taken"]
        return msg("newmarket.toast.out", n=n, name=r["out"], k=got)
    if r["blocked"]:
        return msg("newmarket.toast.blocked_pool" if not classic else "newmarket.toast.blocked", n=n)
    return None


def _pile_names(seed: dict | None) -> list[dict]:
    """What a carry hands on, for the page: ``name`` (a card, or the kitty's and the pool's message: the
    page renders it with t()) and ``chips``, pile by pile."""
    if not seed:
        return []
    out = [{"name": pretty(c), "chips": k} for c, k in seed["piles"].items() if k]
    for key in ("kitty", "pool"):
        if seed.get(key):
            out.append({"name": msg(f"newmarket.pile.{key}"), "chips": seed[key]})
    return out


def candidates(head: dict) -> list[str]:
    return list(head["rules"]["boodles"]) if head["rules"]["variant"] == "classic" else list(QUEENS)


__all__ = ["page", "card_info", "deal_lines", "candidates", "is_bury", "toast", "scorebar", "DONE", "RECENT"]
