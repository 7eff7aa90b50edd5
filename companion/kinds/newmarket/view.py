"""What a Newmarket page shows: the board (boodle cards and their piles), the chips, the controls of the
step now and the last few deals, from the running state and the deal in progress (never every deal)."""
from __future__ import annotations

from ...messages import msg
from ..base import GameRec, Item
from .deal import is_bury, play
from .kind import KIND
from .options import QUEENS, SUIT_SYMBOL, pretty
from .shape import Ctx

RECENT = 3



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
    return {"st": st, "rules": rules, "seats": seats, "classic": classic, "current": current,
            "current_lines": deal_lines(info, not classic) if info else [], "board": board, "grid": grid,
            "players": players, "preview": preview, "free_cols": [card_info(c) for c in free_cols],
            "free_defaults": free_ante_defaults(rules["free_ante"], free_cols), "history": list(reversed(history)),
            "last": last, "cards_payout": classic and rules.get("payout") == "cards"}


def _pile_names(seed: dict | None) -> dict:
    """What a carry hands on, as {pile name: chips} for the page."""
    if not seed:
        return {}
    out = {pretty(c): k for c, k in seed["piles"].items() if k}
    if seed.get("kitty"):
        out["kitty"] = seed["kitty"]
    if seed.get("pool"):
        out["pool"] = seed["pool"]
    return out


def candidates(head: dict) -> list[str]:
    return list(head["rules"]["boodles"]) if head["rules"]["variant"] == "classic" else list(QUEENS)


__all__ = ["page", "card_info", "deal_lines", "candidates", "is_bury", "RECENT"]
