"""Newmarket (Michigan, Boodle, Stops): chip rules, `classic` and `parlett` (see shared/rules/newmarket.md).

Pure module implementing companion/rules/CONTRACT.md. The game object is the session-file shape
(shared/formats/session-v1.md, "Newmarket game") with these additions:

* ``carry_in`` (optional, game level): chips already lying on the table when the game starts, left by
  the previous Newmarket game of the session played with ``leftover: carry``. Keys: a boodle card
  (``"AH"``), ``"kitty"`` or (parlett) ``"pool"``; values: chips >= 0. Example ``{"AH": 3, "kitty": 1}``.
  The web layer copies ``compute(previous)["carry_out"]`` into it. Chips brought in =
  start_chips x players + sum(carry_in).
* ``"open": true`` on the LAST deal: the deal in progress (antes are in; boodles, dummy, exchange may be
  recorded; it has no ``out``/``blocked`` yet). Such a file re-imports as is.
* In ``parlett``, a deal in which the last face-up King is taken by a Queen has neither ``out`` nor
  ``blocked``: it ends the game at once (``ended`` becomes true) and that player also takes the pool.

Canonical rules keys: classic ``variant ante dealer_ante free_ante kitty_ante payout boodles leftover``;
parlett ``variant ante dealer_ante free_ante kitty_ante pool_ante boodles leftover`` (boodles = the four
Kings; ``payout`` is refused in parlett; ``pool_ante`` is refused in classic). ``free_ante: 0`` = off.

Form fields for ``new_game(players, form)`` (strings, as posted; blank = default):
  ``seats`` (comma-separated names, clockwise, seats[0] deals first) or ``seat0`` .. ``seat7``;
  ``variant`` (classic|parlett), ``ante`` (1), ``dealer_ante`` (= ante), ``free_ante`` (0 = off),
  ``kitty_ante`` (0), ``payout`` (cards|flat, classic), ``boodles`` (classic, 4 cards separated by
  commas/spaces, default "AH KC QD JS"), ``leftover`` (share|carry), ``pool_ante`` (parlett, 1),
  ``start_chips`` (20), ``chip_value`` (1, minor units per chip), ``carry_in`` (a JSON object or dict,
  optional). Errors name the form field.

Actions for ``apply(game, action)``; every action may carry ``"at"`` (compute(game)["at"]) and is refused
with path ``at`` when stale. Error paths are the action's field names (``cards_left.Ane``, ``card``...).

  {"type": "start_deal"}                                   next dealer by rotation, antes go in
  {"type": "start_deal", "dealer": "Bea"}                  name the dealer; rotation continues from him
  {"type": "start_deal", "antes": {"Ane": {"AH": 2, "JS": 2}, "Bea": {"KC": 4}, ...}}   (free_ante only:
                                                           every seated player, exactly free_ante each)
  {"type": "dummy", "swap": true}                          classic: the dealer swapped with the dummy
  {"type": "dummy", "sold_to": "Carlos", "price": 2}       classic: dummy auctioned, price to the dealer
  {"type": "exchange", "by": "Carlos"}                     parlett: took the dead hand (non-dealer pays
                                                           pool_ante into the pool)
  {"type": "boodle", "card": "KC", "by": "Carlos"}         classic: played a boodle card, takes its pile
  {"type": "boodle", "card": "QH", "by": "Carlos"}         parlett: a Queen takes the King of her suit
                                                           (if face up; turns it face down; the last
                                                           face-up King ends the game and takes the pool)
  {"type": "end_deal", "out": "Bea", "cards_left": {"Ane": 3, "Carlos": 5, "Dani": 1}}   classic cards
  {"type": "end_deal", "out": "Bea"}                       flat payout, or parlett (takes the pool)
  {"type": "end_deal", "blocked": true}                    nobody went out: kitty/pool carry over
  {"type": "cancel_deal"}                                  drop the deal in progress (antes back)
  {"type": "end_game"}                                     the table stops: leftovers shared (or carried)
  {"type": "replace_deal", "index": 0, "deal": {...}}      correct a past deal (session-file deal
                                                           object); later deals are re-checked and
                                                           everything is recomputed. Error path "deal".

compute(game) keys: required ``kind chips pots kitty pool ended net`` plus
  UI keys: ``at`` (position token), ``variant``, ``seats``, ``deal_number`` (the
  open deal's number, else the next one's), ``deal_open`` (bool), ``dealer`` (dealer of the open deal,
  else of the next deal; None once ended), ``face_up`` / ``face_down`` (boodle cards), ``brought_in``,
  ``on_table`` (chips in piles+kitty+pool), ``carry_in``, ``carry_out`` (piles left on the table by an
  ended ``leftover: carry`` game, e.g. {"AH": 3, "kitty": 1}; {} otherwise), ``log`` (every chip
  movement: {"deal": n|None, "from": x, "to": y, "chips": n, "why": text}; piles are written
  "@AH", "@kitty", "@pool", "@table" (the leftovers, shared); 0-chip entries explain a take of
  nothing), ``deals`` (per-deal summaries: number, dealer, open, antes, dummy, exchange, boodles
  [{card, by, chips}], out, blocked, paid {player: chips}, kitty_taken, pool_taken, ends_game,
  delta {player: chips}), ``leftovers`` (None, or {"total", "each", "odd", "odd_to": [names],
  "carried": bool}), ``final`` (when ended: [{"player", "chips", "net"}] best first), ``legal`` (action
  types accepted now), ``cards`` (pretty names, e.g. {"AH": "A♥"}).
"""
from __future__ import annotations

import copy
import json

from . import chips as C
from .errors import RuleError

KIND = "newmarket"
TITLE = "Newmarket"

RANKS = ["A", "K", "Q", "J", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
SUITS = ["S", "H", "D", "C"]
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
CLASSIC_BOODLES = ["AH", "KC", "QD", "JS"]
KINGS = ["KS", "KH", "KD", "KC"]
VARIANTS = ("classic", "parlett")
MIN_PLAYERS, MAX_PLAYERS = 3, 8

GAME_KEYS = ("kind", "rules", "seats", "start_chips", "chip_value", "deals", "ended", "carry_in")
RULE_KEYS = ("variant", "ante", "dealer_ante", "free_ante", "kitty_ante", "payout", "boodles",
             "leftover", "pool_ante")
DEAL_KEYS = ("dealer", "antes", "dummy", "exchange", "boodles_won", "out", "cards_left", "blocked",
             "open")


def pretty(card: str) -> str:
    return card[:-1] + SUIT_SYMBOL.get(card[-1], card[-1])


def _card(value, path: str) -> str:
    if not isinstance(value, str):
        raise RuleError(f"must be a card like AH or 10C, not {value!r}", path)
    text = value.strip().upper()
    if len(text) < 2 or text[:-1] not in RANKS or text[-1] not in SUITS:
        raise RuleError(f"{value!r} is not a card (rank A K Q J 2-10, then suit S H D C)", path)
    return text


# ----------------------------------------------------------------------------------------------------
# normalize
# ----------------------------------------------------------------------------------------------------

def _norm_rules(raw, path: str = "rules") -> dict:
    r = C.need_dict({} if raw is None else raw, path)
    C.check_keys(r, RULE_KEYS, path)
    variant = C.need_choice(r.get("variant", "classic"), VARIANTS, C.join(path, "variant"))
    ante = C.need_int(r.get("ante", 1), C.join(path, "ante"))
    out = {"variant": variant, "ante": ante,
           "dealer_ante": C.need_int(r.get("dealer_ante", ante), C.join(path, "dealer_ante")),
           "free_ante": C.need_int(r.get("free_ante", 0), C.join(path, "free_ante")),
           "kitty_ante": C.need_int(r.get("kitty_ante", 0), C.join(path, "kitty_ante"))}
    if variant == "classic":
        if "pool_ante" in r:
            raise RuleError("pool_ante is a parlett option", C.join(path, "pool_ante"))
        out["payout"] = C.need_choice(r.get("payout", "cards"), ("cards", "flat"), C.join(path, "payout"))
        bp = C.join(path, "boodles")
        boodles = C.need_list(r.get("boodles", list(CLASSIC_BOODLES)), bp)
        if len(boodles) != 4:
            raise RuleError(f"needs 4 boodle cards, not {len(boodles)}", bp)
        cards = []
        for i, c in enumerate(boodles):
            card = _card(c, C.join(bp, i))
            if card in cards:
                raise RuleError(f"{card} is listed twice", C.join(bp, i))
            cards.append(card)
        out["boodles"] = cards
    else:
        if "payout" in r:
            raise RuleError("parlett has no payout option: going out takes the pool",
                            C.join(path, "payout"))
        out["pool_ante"] = C.need_int(r.get("pool_ante", 1), C.join(path, "pool_ante"))
        bp = C.join(path, "boodles")
        if "boodles" in r:
            boodles = C.need_list(r["boodles"], bp)
            given = sorted(_card(c, C.join(bp, i)) for i, c in enumerate(boodles))
            if given != sorted(KINGS):
                raise RuleError("in parlett the boodles are the four Kings", bp)
        out["boodles"] = list(KINGS)
    out["leftover"] = C.need_choice(r.get("leftover", "share"), ("share", "carry"),
                                    C.join(path, "leftover"))
    return out


class _Ctx:
    """What deal validation needs to know about the deals before."""

    def __init__(self, rules: dict, seats: list[str]):
        self.rules = rules
        self.seats = seats
        self.dealer_idx = -1           # index of the last dealer
        self.face_up = list(rules["boodles"])
        self.over = False              # parlett: last King taken


def _norm_antes(raw, ctx: _Ctx, path: str) -> dict:
    n = ctx.rules["free_ante"]
    antes = C.need_dict(raw, path)
    out = {}
    for name in antes:
        C.need_seated(name, ctx.seats, C.join(path, name))
    for name in ctx.seats:
        pp = C.join(path, name)
        if name not in antes:
            raise RuleError(f"{name} must place exactly {n} chips (missing)", pp)
        placed = C.need_dict(antes[name], pp)
        mine = {}
        for card, count in placed.items():
            cp = C.join(pp, card)
            cc = _card(card, cp)
            if cc not in ctx.rules["boodles"]:
                raise RuleError(f"{card} is not a boodle card", cp)
            if cc not in ctx.face_up:
                raise RuleError(f"{pretty(cc)} is face down: no more antes go to it", cp)
            k = C.need_int(count, cp)
            if k:
                mine[cc] = mine.get(cc, 0) + k
        total = sum(mine.values())
        if total != n:
            raise RuleError(f"{name} must place exactly {n} chips (placed {total})", pp)
        out[name] = {c: mine[c] for c in ctx.rules["boodles"] if c in mine}
    return out


def _norm_dummy(raw, ctx: _Ctx, dealer: str, path: str) -> dict:
    d = C.need_dict(raw, path)
    C.check_keys(d, ("swap", "sold_to", "price"), path)
    if "swap" in d:
        if "sold_to" in d or "price" in d:
            raise RuleError("either the dealer swapped or the dummy was sold, not both", path)
        if d["swap"] is not True:
            raise RuleError("must be true (leave the dummy out when nothing happened)", C.join(path, "swap"))
        return {"swap": True}
    if "sold_to" not in d:
        raise RuleError("give swap: true, or sold_to and price", path)
    buyer = C.need_seated(d["sold_to"], ctx.seats, C.join(path, "sold_to"))
    if buyer == dealer:
        raise RuleError(f"{buyer} is the dealer: he swaps, he does not buy", C.join(path, "sold_to"))
    if "price" not in d:
        raise RuleError("missing", C.join(path, "price"))
    price = C.need_int(d["price"], C.join(path, "price"))
    return {"sold_to": buyer, "price": price}


def _norm_boodle(raw, ctx: _Ctx, taken: list, path: str) -> dict:
    b = C.need_dict(raw, path)
    C.check_keys(b, ("card", "by"), path)
    if "card" not in b:
        raise RuleError("missing", C.join(path, "card"))
    cp = C.join(path, "card")
    card = _card(b["card"], cp)
    if ctx.rules["variant"] == "classic":
        if card not in ctx.rules["boodles"]:
            raise RuleError(f"{card} is not a boodle card", cp)
    elif card[:-1] != "Q":
        raise RuleError(f"{card} is not a Queen (in parlett a Queen takes her King's chips)", cp)
    if card in taken:
        raise RuleError(f"{card} was already played in this deal", cp)
    if "by" not in b:
        raise RuleError("missing", C.join(path, "by"))
    by = C.need_seated(b["by"], ctx.seats, C.join(path, "by"))
    return {"card": card, "by": by}


def _norm_end(d: dict, ctx: _Ctx, path: str) -> dict:
    """The end of a deal: {out, cards_left} | {out} | {blocked: True} (validated against the rules)."""
    out: dict = {}
    blocked = d.get("blocked", False)
    if "blocked" in d:
        C.need_bool(blocked, C.join(path, "blocked"))
    if "out" in d and d["out"] is not None:
        if blocked:
            raise RuleError("a blocked deal has nobody out", C.join(path, "blocked"))
        if isinstance(d["out"], list):
            raise RuleError("only one player goes out in a deal", C.join(path, "out"))
        winner = C.need_seated(d["out"], ctx.seats, C.join(path, "out"))
        out["out"] = winner
        lp = C.join(path, "cards_left")
        if ctx.rules["variant"] == "classic" and ctx.rules["payout"] == "cards":
            if "cards_left" not in d:
                raise RuleError("missing: how many cards each other player still holds", lp)
            left = C.need_dict(d["cards_left"], lp)
            for name in left:
                C.need_seated(name, ctx.seats, C.join(lp, name))
                if name == winner:
                    raise RuleError(f"{name} went out: he has no cards left", C.join(lp, name))
            counts = {}
            for name in ctx.seats:
                if name == winner:
                    continue
                if name not in left:
                    raise RuleError(f"missing: how many cards {name} still holds", C.join(lp, name))
                counts[name] = C.need_int(left[name], C.join(lp, name))
            out["cards_left"] = counts
        elif "cards_left" in d:
            why = "parlett" if ctx.rules["variant"] == "parlett" else "flat payout"
            raise RuleError(f"{why}: cards left are not counted", lp)
    else:
        if "cards_left" in d:
            raise RuleError("cards left without anybody going out", C.join(path, "cards_left"))
        if blocked:
            out["blocked"] = True
    return out


def _norm_deal(raw, ctx: _Ctx, path: str, is_last: bool) -> dict:
    d = C.need_dict(raw, path)
    C.check_keys(d, DEAL_KEYS, path)
    rules, seats = ctx.rules, ctx.seats
    if ctx.over:
        raise RuleError("the game ended when the last King was taken: no more deals", path)
    out: dict = {}
    if "dealer" in d:
        dealer = C.need_seated(d["dealer"], seats, C.join(path, "dealer"))
        out["dealer"] = dealer
        ctx.dealer_idx = seats.index(dealer)
    else:
        ctx.dealer_idx = (ctx.dealer_idx + 1) % len(seats)
        dealer = seats[ctx.dealer_idx]
    if rules["free_ante"]:
        if "antes" not in d:
            raise RuleError(f"free ante: where each player put his {rules['free_ante']} chips",
                            C.join(path, "antes"))
        out["antes"] = _norm_antes(d["antes"], ctx, C.join(path, "antes"))
    elif "antes" in d:
        raise RuleError("antes are only recorded with free_ante", C.join(path, "antes"))
    if "dummy" in d:
        if rules["variant"] != "classic":
            raise RuleError("parlett has an exchange, not a dummy", C.join(path, "dummy"))
        out["dummy"] = _norm_dummy(d["dummy"], ctx, dealer, C.join(path, "dummy"))
    if "exchange" in d and d["exchange"] is not None:
        if rules["variant"] != "parlett":
            raise RuleError("exchange is a parlett rule (classic has the dummy)", C.join(path, "exchange"))
        out["exchange"] = C.need_seated(d["exchange"], seats, C.join(path, "exchange"))
    won = C.need_list(d.get("boodles_won", []), C.join(path, "boodles_won"))
    taken: list = []
    ends_game = False
    items = []
    for i, item in enumerate(won):
        ip = C.join(C.join(path, "boodles_won"), i)
        if ends_game:
            raise RuleError("the game ended when the last King was taken", ip)
        b = _norm_boodle(item, ctx, taken, ip)
        taken.append(b["card"])
        items.append(b)
        if rules["variant"] == "parlett":
            king = "K" + b["card"][-1]
            if king in ctx.face_up:
                ctx.face_up.remove(king)
                if not ctx.face_up:
                    ends_game = True
    if items:
        out["boodles_won"] = items
    is_open = d.get("open", False)
    if "open" in d:
        C.need_bool(is_open, C.join(path, "open"))
    if ends_game:
        for key in ("out", "blocked", "cards_left"):
            if key in d and d[key] not in (None, False):
                raise RuleError("the deal ended with the game when the last King was taken",
                                C.join(path, key))
        if not is_last:
            raise RuleError("the game ended in this deal (last King taken): no deals after it", path)
        ctx.over = True
        return out
    if is_open:
        if not is_last:
            raise RuleError("only the last deal can be in progress", C.join(path, "open"))
        for key in ("out", "blocked", "cards_left"):
            if key in d and d[key] not in (None, False):
                raise RuleError("a deal in progress has no end yet", C.join(path, key))
        out["open"] = True
        return out
    end = _norm_end(d, ctx, path)
    if not end:
        raise RuleError("a finished deal needs out (who went out) or blocked: true", path)
    out.update(end)
    return out


def _norm_carry_in(raw, rules: dict, path: str = "carry_in") -> dict:
    ci = C.need_dict(raw, path)
    piles = list(rules["boodles"]) + ["kitty"] + (["pool"] if rules["variant"] == "parlett" else [])
    out = {}
    for key, value in ci.items():
        kp = C.join(path, key)
        k = key if key in ("kitty", "pool") else _card(key, kp)
        if k not in piles:
            raise RuleError(f"{key} is not a pile of this game ({', '.join(piles)})", kp)
        n = C.need_int(value, kp)
        if n:
            out[k] = out.get(k, 0) + n
    return {k: out[k] for k in piles if k in out}


def normalize(game: dict, players: list[str]) -> dict:
    g = C.need_dict(game, "")
    C.check_keys(g, GAME_KEYS, "")
    if g.get("kind") != KIND:
        raise RuleError(f"must be {KIND!r}", "kind")
    rules = _norm_rules(g.get("rules"))
    if "seats" not in g:
        raise RuleError("missing", "seats")
    seats = C.need_seats(g["seats"], players, MIN_PLAYERS, MAX_PLAYERS)
    out = {"kind": KIND, "rules": rules, "seats": seats,
           "start_chips": C.need_int(g.get("start_chips", 0), "start_chips"),
           "chip_value": C.need_int(g.get("chip_value", 1), "chip_value")}
    if g.get("carry_in"):
        ci = _norm_carry_in(g["carry_in"], rules)
        if ci:
            out["carry_in"] = ci
    elif "carry_in" in g:
        C.need_dict(g["carry_in"], "carry_in")
    deals_raw = C.need_list(g.get("deals", []), "deals")
    ctx = _Ctx(rules, seats)
    deals = [_norm_deal(d, ctx, f"deals[{i}]", i == len(deals_raw) - 1) for i, d in enumerate(deals_raw)]
    out["deals"] = deals
    ended = C.need_bool(g.get("ended", False), "ended")
    if ctx.over:
        ended = True
    if ended and deals and deals[-1].get("open"):
        raise RuleError("a deal in progress in an ended game: finish it first", f"deals[{len(deals) - 1}].open")
    out["ended"] = ended
    return out


# ----------------------------------------------------------------------------------------------------
# compute
# ----------------------------------------------------------------------------------------------------

def _simulate(g: dict) -> dict:
    rules, seats = g["rules"], g["seats"]
    variant = rules["variant"]
    n = len(seats)
    chips = {p: g["start_chips"] for p in seats}
    carry_in = dict(g.get("carry_in", {}))
    piles = {c: carry_in.get(c, 0) for c in rules["boodles"]}
    table = {"kitty": carry_in.get("kitty", 0), "pool": carry_in.get("pool", 0)}
    face_up = list(rules["boodles"])
    log: list = []
    summaries: list = []
    deal_no = [None]

    def holder_add(token: str, k: int) -> None:
        if token.startswith("@"):
            key = token[1:]
            if key in piles:
                piles[key] += k
            else:
                table[key] += k
        else:
            chips[token] += k

    def move(frm: str, to: str, k: int, why: str, zero_ok: bool = False) -> None:
        if k == 0 and not zero_ok:
            return
        holder_add(frm, -k)
        holder_add(to, k)
        log.append({"deal": deal_no[0], "from": frm, "to": to, "chips": k, "why": why})

    dealer_idx = -1
    for i, d in enumerate(g["deals"]):
        deal_no[0] = i + 1
        before = dict(chips)
        dealer = d.get("dealer")
        dealer_idx = seats.index(dealer) if dealer else (dealer_idx + 1) % n
        dealer = seats[dealer_idx]
        s = {"number": i + 1, "dealer": dealer, "open": bool(d.get("open")), "antes": 0, "dummy": None,
             "exchange": None, "boodles": [], "out": None, "blocked": False, "paid": {},
             "kitty_taken": 0, "pool_taken": 0, "ends_game": False}
        # antes
        if rules["free_ante"]:
            for p in seats:
                for card, k in d["antes"][p].items():
                    move(p, "@" + card, k, f"{p} anted {k} on {pretty(card)} (deal {i + 1})")
                    s["antes"] += k
        else:
            for p in seats:
                a = rules["dealer_ante"] if p == dealer else rules["ante"]
                for card in face_up:
                    move(p, "@" + card, a, f"{p} anted {a} on {pretty(card)}"
                         + (" (dealer)" if p == dealer else "") + f" (deal {i + 1})")
                    s["antes"] += a
        for p in seats:
            if rules["kitty_ante"]:
                move(p, "@kitty", rules["kitty_ante"], f"{p} anted {rules['kitty_ante']} to the kitty")
                s["antes"] += rules["kitty_ante"]
            if variant == "parlett" and rules["pool_ante"]:
                move(p, "@pool", rules["pool_ante"], f"{p} anted {rules['pool_ante']} to the pool")
                s["antes"] += rules["pool_ante"]
        # dummy / exchange
        dummy = d.get("dummy")
        if dummy:
            s["dummy"] = dict(dummy)
            if "sold_to" in dummy:
                move(dummy["sold_to"], dealer, dummy["price"],
                     f"{dummy['sold_to']} bought the dummy: paid {dealer} {dummy['price']}", zero_ok=True)
        if d.get("exchange"):
            by = d["exchange"]
            s["exchange"] = by
            if by != dealer and rules["pool_ante"]:
                move(by, "@pool", rules["pool_ante"],
                     f"{by} took the dead hand: paid {rules['pool_ante']} into the pool")
        # boodles
        for b in d.get("boodles_won", []):
            card, by = b["card"], b["by"]
            if variant == "classic":
                k = piles[card]
                move("@" + card, by, k, f"{by} played {pretty(card)}: took {k}", zero_ok=True)
                s["boodles"].append({"card": card, "by": by, "chips": k})
            else:
                king = "K" + card[-1]
                if king in face_up:
                    k = piles[king]
                    face_up.remove(king)
                    move("@" + king, by, k, f"{by} played {pretty(card)}: took {k} from {pretty(king)}"
                         f" ({pretty(king)} is now face down)", zero_ok=True)
                    s["boodles"].append({"card": card, "by": by, "chips": k, "king": king})
                    if not face_up:
                        s["ends_game"] = True
                        pk = table["pool"]
                        move("@pool", by, pk, f"{by} took the last King: the game ends, took the pool "
                             f"of {pk}", zero_ok=True)
                        s["pool_taken"] = pk
                else:
                    move("@" + king, by, 0, f"{by} played {pretty(card)}: {pretty(king)} is face down,"
                         " took nothing", zero_ok=True)
                    s["boodles"].append({"card": card, "by": by, "chips": 0, "king": king})
        # end
        if d.get("out"):
            o = d["out"]
            s["out"] = o
            if variant == "classic":
                for p in seats:
                    if p == o:
                        continue
                    if rules["payout"] == "cards":
                        k = d["cards_left"][p]
                        why = f"{o} went out: {p} paid {k} ({C.plural(k, 'card')})"
                    else:
                        k = 1
                        why = f"{o} went out: {p} paid 1 (flat)"
                    move(p, o, k, why, zero_ok=True)
                    s["paid"][p] = k
            else:
                pk = table["pool"]
                move("@pool", o, pk, f"{o} went out: took the pool of {pk}", zero_ok=True)
                s["pool_taken"] = pk
            if table["kitty"]:
                kk = table["kitty"]
                move("@kitty", o, kk, f"{o} went out: took the kitty of {kk}")
                s["kitty_taken"] = kk
        elif d.get("blocked"):
            s["blocked"] = True
        s["delta"] = {p: chips[p] - before[p] for p in seats}
        summaries.append(s)
    deal_no[0] = None

    leftovers = None
    carry_out: dict = {}
    if g["ended"]:
        total = sum(piles.values()) + table["kitty"] + table["pool"]
        if rules["leftover"] == "carry":
            carry_out = {c: piles[c] for c in rules["boodles"] if piles[c]}
            if table["kitty"]:
                carry_out["kitty"] = table["kitty"]
            if table["pool"]:
                carry_out["pool"] = table["pool"]
            leftovers = {"total": total, "each": 0, "odd": 0, "odd_to": [], "carried": True}
        else:
            each, odd = divmod(total, n)
            start = (dealer_idx + 1) % n if g["deals"] else 0
            odd_to = [seats[(start + j) % n] for j in range(odd)]
            leftovers = {"total": total, "each": each, "odd": odd, "odd_to": odd_to, "carried": False}
            if total:
                for p in seats:
                    k = each + (1 if p in odd_to else 0)
                    extra = " + 1 odd chip" if p in odd_to else ""
                    log.append({"deal": None, "from": "@table", "to": p, "chips": k,
                                "why": f"Leftovers of {total} shared: {p} got {k} ({each} each{extra})"})
                    chips[p] += k
                for c in piles:
                    piles[c] = 0
                table["kitty"] = table["pool"] = 0
    return {"chips": chips, "piles": piles, "kitty": table["kitty"], "pool": table["pool"],
            "face_up": face_up, "log": log, "deals": summaries, "leftovers": leftovers,
            "carry_out": carry_out, "last_dealer_idx": dealer_idx}


def _legal(g: dict) -> list[str]:
    if g["ended"]:
        return ["replace_deal"] if g["deals"] else []
    deals = g["deals"]
    if deals and deals[-1].get("open"):
        d = deals[-1]
        acts = ["boodle", "end_deal", "cancel_deal"]
        if g["rules"]["variant"] == "classic" and "dummy" not in d:
            acts.insert(0, "dummy")
        if g["rules"]["variant"] == "parlett" and "exchange" not in d:
            acts.insert(0, "exchange")
        return acts + ["replace_deal"]
    return ["start_deal", "end_game"] + (["replace_deal"] if deals else [])


def compute(game: dict) -> dict:
    g = normalize(game, list(game.get("seats") or []) if isinstance(game, dict) else [])
    sim = _simulate(g)
    seats = g["seats"]
    n = len(seats)
    brought_in = g["start_chips"] * n + sum(g.get("carry_in", {}).values())
    net = {p: sim["chips"][p] - g["start_chips"] for p in seats}
    deals = g["deals"]
    deal_open = bool(deals and deals[-1].get("open"))
    if g["ended"]:
        dealer, deal_number = None, len(deals)
    elif deal_open:
        dealer, deal_number = sim["deals"][-1]["dealer"], len(deals)
    else:
        dealer, deal_number = seats[(sim["last_dealer_idx"] + 1) % n], len(deals) + 1
    on_table = sum(sim["piles"].values()) + sim["kitty"] + sim["pool"]
    final = None
    if g["ended"]:
        final = sorted(({"player": p, "chips": sim["chips"][p], "net": net[p]} for p in seats),
                       key=lambda r: (-r["chips"], seats.index(r["player"])))
    return {
        "kind": KIND,
        "chips": sim["chips"],
        "pots": sim["piles"],
        "kitty": sim["kitty"],
        "pool": sim["pool"],
        "ended": g["ended"],
        "net": net,
        "at": C.position_token(g),
        "variant": g["rules"]["variant"],
        "seats": list(seats),
        "deal_number": deal_number,
        "deal_open": deal_open,
        "dealer": dealer,
        "face_up": list(sim["face_up"]),
        "face_down": [c for c in g["rules"]["boodles"] if c not in sim["face_up"]],
        "cards": {c: pretty(c) for c in g["rules"]["boodles"]},
        "brought_in": brought_in,
        "on_table": on_table,
        "carry_in": dict(g.get("carry_in", {})),
        "carry_out": sim["carry_out"],
        "log": sim["log"],
        "deals": sim["deals"],
        "leftovers": sim["leftovers"],
        "final": final,
        "legal": _legal(g),
    }


# ----------------------------------------------------------------------------------------------------
# apply
# ----------------------------------------------------------------------------------------------------

def _renorm(g: dict, deal_index: int | None = None, field: str = "") -> dict:
    """normalize() the candidate; an error inside deals[deal_index] is re-rooted at ``field``."""
    try:
        return normalize(g, g["seats"])
    except RuleError as err:
        if deal_index is not None:
            old = f"deals[{deal_index}]"
            e2 = C.reprefix(err, old, field)
            if e2 is not err:
                raise e2 from None
            raise RuleError(f"that would make a later deal impossible ({err})", field or "deal") from None
        raise


def _dealer_index(g: dict) -> int:
    """Seat index of the dealer of the last deal (-1 before the first)."""
    idx = -1
    for d in g["deals"]:
        idx = g["seats"].index(d["dealer"]) if d.get("dealer") else (idx + 1) % len(g["seats"])
    return idx


def _open_deal(g: dict) -> dict:
    if g["ended"]:
        raise RuleError("The game is over", "type")
    if not g["deals"] or not g["deals"][-1].get("open"):
        raise RuleError("No deal in progress: start a deal first", "type")
    return g["deals"][-1]


def apply(game: dict, action: dict) -> dict:
    g = normalize(game, list(game.get("seats") or []) if isinstance(game, dict) else [])
    if not isinstance(action, dict):
        raise RuleError("an action must be an object", "")
    C.check_at(action, C.position_token(g))
    g = copy.deepcopy(g)
    t = action.get("type")
    rules, seats = g["rules"], g["seats"]
    deals = g["deals"]
    ctx = _Ctx(rules, seats)
    # replay for face-up state (needed by antes/boodles checks)
    for i, d in enumerate(deals):
        _norm_deal(d, ctx, f"deals[{i}]", i == len(deals) - 1)

    if t == "start_deal":
        if g["ended"]:
            raise RuleError("The game is over", "type")
        if deals and deals[-1].get("open"):
            raise RuleError(f"Deal {len(deals)} is still in progress", "type")
        deal: dict = {}
        if action.get("dealer") not in (None, ""):
            deal["dealer"] = C.need_seated(action["dealer"], seats, "dealer")
        if rules["free_ante"]:
            if not action.get("antes"):
                raise RuleError(f"free ante: where each player put his {rules['free_ante']} chips", "antes")
            antes = C.need_dict(action["antes"], "antes")
            conv = {}
            for name, placed in antes.items():
                if isinstance(placed, dict):
                    conv[name] = {c: C.to_int(k, f"antes.{name}.{c}") for c, k in placed.items()}
                else:
                    conv[name] = placed
            deal["antes"] = conv
        elif action.get("antes"):
            raise RuleError("antes are only recorded with free_ante", "antes")
        deal["open"] = True
        deals.append(deal)
        return _renorm(g, len(deals) - 1)

    if t == "dummy":
        d = _open_deal(g)
        if rules["variant"] != "classic":
            raise RuleError("parlett has an exchange, not a dummy", "type")
        if "dummy" in d:
            raise RuleError("The dummy was already recorded for this deal", "type")
        dealer = g["seats"][_dealer_index(g)]
        if action.get("swap") in (True, "true", "1", "on", "yes"):
            if action.get("sold_to"):
                raise RuleError("either the dealer swapped or the dummy was sold, not both", "sold_to")
            d["dummy"] = {"swap": True}
        else:
            if not action.get("sold_to"):
                raise RuleError("who bought the dummy?", "sold_to")
            if action.get("price") in (None, ""):
                raise RuleError("missing", "price")
            d["dummy"] = _norm_dummy({"sold_to": action["sold_to"], "price": C.to_int(action["price"], "price")},
                                     ctx, dealer, "")
        return _renorm(g, len(deals) - 1, "")

    if t == "exchange":
        d = _open_deal(g)
        if rules["variant"] != "parlett":
            raise RuleError("exchange is a parlett rule (classic has the dummy)", "type")
        if "exchange" in d:
            raise RuleError(f"{d['exchange']} already took the dead hand", "type")
        d["exchange"] = C.need_seated(action.get("by"), seats, "by")
        return _renorm(g, len(deals) - 1, "")

    if t == "boodle":
        d = _open_deal(g)
        taken = [b["card"] for b in d.get("boodles_won", [])]
        b = _norm_boodle({"card": action.get("card"), "by": action.get("by")}, ctx, taken, "")
        d.setdefault("boodles_won", []).append(b)
        if rules["variant"] == "parlett":
            king = "K" + b["card"][-1]
            if ctx.face_up == [king]:
                del d["open"]
                g["ended"] = True
        return _renorm(g, len(deals) - 1, "")

    if t == "end_deal":
        if g["ended"]:
            raise RuleError("The game is over", "type")
        if deals and not deals[-1].get("open"):
            last = deals[-1]
            if last.get("out"):
                raise RuleError(f"{last['out']} already went out in deal {len(deals)}", "out")
            raise RuleError("No deal in progress: start a deal first", "type")
        d = _open_deal(g)
        fields = {k: action[k] for k in ("out", "cards_left", "blocked") if k in action}
        if fields.get("out") in ("", None):
            fields.pop("out", None)
        if "blocked" in fields:
            fields["blocked"] = C.to_bool(fields["blocked"], "blocked")
        if isinstance(fields.get("cards_left"), dict):
            fields["cards_left"] = {p: C.to_int(k, f"cards_left.{p}") if isinstance(k, str) else k
                                    for p, k in fields["cards_left"].items()}
        end = _norm_end(fields, ctx, "")
        if not end:
            raise RuleError("who went out? (or blocked: nobody could)", "out")
        del d["open"]
        d.update(end)
        return _renorm(g, len(deals) - 1, "")

    if t == "cancel_deal":
        _open_deal(g)
        deals.pop()
        return _renorm(g)

    if t == "end_game":
        if g["ended"]:
            raise RuleError("The game is already over", "type")
        if deals and deals[-1].get("open"):
            raise RuleError(f"Deal {len(deals)} is still in progress: end it (or cancel it) first", "type")
        g["ended"] = True
        return _renorm(g)

    if t == "replace_deal":
        index = action.get("index")
        try:
            index = C.to_int(index, "index")
        except RuleError:
            raise RuleError("must be the number of a recorded deal (0 = first)", "index") from None
        if index >= len(deals):
            raise RuleError(f"there is no deal {index} (0 = first, {len(deals)} recorded)", "index")
        new = action.get("deal")
        C.need_dict(new, "deal")
        deals[index] = copy.deepcopy(new)
        if ctx.over or (index == len(deals) - 1 and new.get("open")):
            # ended only because the last King fell (normalize re-derives that), or the last deal is
            # in progress again; a game the table stopped (end_game) stays ended
            g["ended"] = False
        return _renorm(g, index, "deal")

    raise RuleError(f"unknown action type {t!r}", "type")


# ----------------------------------------------------------------------------------------------------
# new_game / settlement
# ----------------------------------------------------------------------------------------------------

def new_game(players: list[str], form: dict) -> dict:
    seats = C.need_seats(C.form_seats(players, form, MAX_PLAYERS), players, MIN_PLAYERS, MAX_PLAYERS)
    variant = C.form_value(form, "variant") or "classic"
    C.need_choice(variant, VARIANTS, "variant")
    ante = C.form_int(form, "ante", 1)
    rules = {"variant": variant, "ante": ante,
             "dealer_ante": C.form_int(form, "dealer_ante", ante),
             "free_ante": C.form_int(form, "free_ante", 0),
             "kitty_ante": C.form_int(form, "kitty_ante", 0),
             "leftover": C.need_choice(C.form_value(form, "leftover") or "share", ("share", "carry"),
                                       "leftover")}
    if variant == "classic":
        rules["payout"] = C.need_choice(C.form_value(form, "payout") or "cards", ("cards", "flat"), "payout")
        raw = C.form_value(form, "boodles")
        if raw is not None:
            cards = raw if isinstance(raw, list) else raw.replace(",", " ").split()
            if len(cards) != 4:
                raise RuleError(f"needs 4 boodle cards, not {len(cards)}", "boodles")
            rules["boodles"] = [_card(c, "boodles") for c in cards]
            if len(set(rules["boodles"])) != 4:
                raise RuleError("a card is listed twice", "boodles")
    else:
        rules["pool_ante"] = C.form_int(form, "pool_ante", 1)
    game = {"kind": KIND, "rules": rules, "seats": seats,
            "start_chips": C.form_int(form, "start_chips", 20),
            "chip_value": C.form_int(form, "chip_value", 1),
            "deals": [], "ended": False}
    ci = C.form_value(form, "carry_in")
    if ci is not None:
        if isinstance(ci, str):
            try:
                ci = json.loads(ci)
            except ValueError:
                raise RuleError('must be a JSON object like {"AH": 3, "kitty": 1}', "carry_in") from None
        try:
            game["carry_in"] = _norm_carry_in(ci, _norm_rules(rules))
        except RuleError as err:
            raise RuleError(err.message, "carry_in") from None
    try:
        return normalize(game, players)
    except RuleError as err:
        field = err.path.split(".")[-1].split("[")[0] if err.path else ""
        raise RuleError(err.message, field) from None


def settlement(game: dict, state: dict) -> dict:
    value = game.get("chip_value", 1)
    carry = sum((game.get("carry_in") or {}).values())
    on_table = sum(state["pots"].values()) + state["kitty"] + state["pool"] - carry
    return {"net": {p: state["net"][p] * value for p in game["seats"]}, "on_table": on_table * value}
