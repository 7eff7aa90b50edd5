"""Newmarket (Michigan) at the table: add a game, start deals (antes go in by themselves), record boodle
wins, the dummy or the exchange, the end of each deal, the end of the game; correct a past deal.

The rules are ``companion.rules.newmarket``; this module only reads forms, shows piles and writes
actions. Routes (all under ``/s/<token>/newmarket``):

  GET/POST  /new                      newmarket.new       add a game (seats, variant, options)
  GET       /<gi>                     newmarket.game      the table: piles, chips, controls (live)
  POST      /<gi>/start               newmarket.start     start_deal (free ante: per-player placements)
  POST      /<gi>/boodle              newmarket.boodle    card + by: "Carlos played K♣"
  POST      /<gi>/dummy               newmarket.dummy     swap, or sold_to + price (classic)
  POST      /<gi>/exchange            newmarket.exchange  by (parlett)
  POST      /<gi>/end                 newmarket.end_deal  out + left_<seat> | blocked
  POST      /<gi>/cancel              newmarket.cancel    cancel the deal in progress
  POST      /<gi>/end-game            newmarket.end_game  leftovers shared (or carried)
  GET/POST  /<gi>/deal/<di>           newmarket.correct   a past deal, pre-filled; replace_deal
"""
from __future__ import annotations

from flask import Blueprint, abort, request, url_for

from ..rules import newmarket as R
from ..rules.errors import RuleError
from . import chipsweb as W
from .common import open_session, render, require_edit, unchanged_poll

bp = Blueprint("newmarket", __name__)

KIND = "newmarket"
NUM_FIELDS = ("ante", "dealer_ante", "free_ante", "kitty_ante", "pool_ante", "start_chips")
SUIT_LETTERS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
QUEENS = ["QS", "QH", "QD", "QC"]


@bp.context_processor
def _helpers():
    return W.template_helpers()


# ----------------------------------------------------------------------------------------------------
# what the templates show
# ----------------------------------------------------------------------------------------------------

def card_info(code: str, face_down: bool = False) -> dict:
    suit = code[-1]
    return {"code": code, "rank": code[:-1], "suit": R.SUIT_SYMBOL.get(suit, suit), "red": suit in "HD",
            "label": R.pretty(code), "face_down": face_down}


def headline(game: dict, state: dict) -> str:
    """One line for the session page: where the game is, and the chips of the leaders."""
    by_chips = sorted(state["seats"], key=lambda p: (-state["chips"][p], state["seats"].index(p)))
    if state["ended"]:
        where = "ended"
        who = " · ".join(f"{p} {W.signed(state['net'][p])}" for p in by_chips[:4])
    else:
        where = f"deal {state['deal_number']}" + (" in play" if state["deal_open"] else " next")
        who = " · ".join(f"{p} {state['chips'][p]}" for p in by_chips[:4])
    return f"{state['variant'].capitalize()} · {where} · {who}"


def _player_in(path: str, prefix: str, seats: list[str]) -> int | None:
    """The seat whose name follows ``prefix`` in an engine path ('cards_left.Ane' -> index of Ane)."""
    best = None
    for i, p in enumerate(seats):
        head = prefix + p
        if path == head or path.startswith(head + ".") or path.startswith(head + "["):
            if best is None or len(p) > len(seats[best]):
                best = i
    return best


def _deal_lines(s: dict, cards: dict, rules: dict) -> list[str]:
    """A finished (or open) deal in a few words per line."""
    lines = []
    d = s.get("dummy")
    if d:
        lines.append(f"{s['dealer']} swapped with the dummy" if d.get("swap")
                     else f"{d['sold_to']} bought the dummy for {d['price']}")
    if s.get("exchange"):
        lines.append(f"{s['exchange']} took the dead hand")
    for b in s["boodles"]:
        if "king" in b:
            lines.append(f"{b['by']} played {R.pretty(b['card'])}: took {b['chips']} from {R.pretty(b['king'])}")
        else:
            lines.append(f"{b['by']} played {R.pretty(b['card'])}: took {b['chips']}")
    if s.get("ends_game"):
        lines.append(f"Last King taken: the game is over ({s['boodles'][-1]['by']} took the pool of "
                     f"{s['pool_taken']})")
    elif s.get("out"):
        if rules["variant"] == "parlett":
            took = f"took the pool of {s['pool_taken']}"
        else:
            took = f"collected {sum(s['paid'].values())}"
            if s["paid"] and rules.get("payout") == "cards":
                took += " (" + ", ".join(f"{p} {k}" for p, k in s["paid"].items()) + ")"
        if s["kitty_taken"]:
            took += f" and the kitty of {s['kitty_taken']}"
        lines.append(f"{s['out']} went out: {took}")
    elif s.get("blocked"):
        lines.append("Blocked: nobody went out" + (" (the pool carries)" if rules["variant"] == "parlett" else ""))
    return lines


def _free_ante_defaults(n: int, cards: list[str]) -> dict:
    """Spread a free ante evenly over the face-up cards (first cards get the odd chips)."""
    if not cards:
        return {}
    each, odd = divmod(n, len(cards))
    return {c: each + (1 if i < odd else 0) for i, c in enumerate(cards)}


def _log_groups(log: list[dict]) -> list[dict]:
    groups: list[dict] = []
    for e in log:
        if not groups or groups[-1]["deal"] != e["deal"]:
            groups.append({"deal": e["deal"], "entries": []})
        groups[-1]["entries"].append(e)
    return list(reversed(groups))


def _context(view, gi: int) -> dict:
    game = view.game(gi, KIND)
    st = view.state["games"][gi]
    rules, seats = game["rules"], game["seats"]
    code = W.currency(view)
    value = game.get("chip_value", 1)
    classic = rules["variant"] == "classic"
    current = st["deals"][-1] if st["deal_open"] else None
    board = [dict(card_info(c, face_down=c in st["face_down"]), pile=st["pots"][c]) for c in rules["boodles"]]
    grid = []
    if current:
        taken = {b["card"] for b in current["boodles"]}
        if classic:
            grid = [dict(card_info(c), pile=st["pots"][c]) for c in rules["boodles"] if c not in taken]
        else:
            for king in st["face_up"]:
                q = "Q" + king[-1]
                grid.append(dict(card_info(q), pile=st["pots"][king], king=R.pretty(king)))
    players = [{"name": p, "seat": i, "chips": st["chips"][p], "net": st["net"][p],
                "money": W.fmt_money(st["net"][p] * value, code, plus=True),
                "dealer": p == st["dealer"]} for i, p in enumerate(seats)]
    on_table = st["on_table"]
    n = len(seats)
    each, odd = divmod(on_table, n)
    start = seats.index(st["dealer"]) if st["dealer"] in seats else 0
    preview = {"total": on_table, "each": each, "odd": odd,
               "odd_to": [seats[(start + j) % n] for j in range(odd)]}
    free_cols = [c for c in rules["boodles"] if c in st["face_up"]]
    history = []
    for i, s in enumerate(st["deals"]):
        history.append({"index": i, "number": s["number"], "dealer": s["dealer"], "open": s["open"],
                        "lines": _deal_lines(s, st["cards"], rules), "delta": s["delta"],
                        "url": url_for("newmarket.correct", token=view.token, gi=gi, di=i)})
    last = history[-1] if history and not st["deal_open"] else None
    return {"gi": gi, "game": game, "st": st, "rules": rules, "seats": seats, "classic": classic,
            "currency": code, "chip_value": value, "chip_value_text": W.fmt_money(value, code),
            "current": current, "current_lines": _deal_lines(current, st["cards"], rules) if current else [],
            "board": board, "grid": grid, "players": players, "preview": preview,
            "free_cols": [card_info(c) for c in free_cols],
            "free_defaults": _free_ante_defaults(rules["free_ante"], free_cols),
            "history": list(reversed(history)), "last": last, "log_groups": _log_groups(st["log"]),
            "dealer_idx": start, "cards_payout": classic and rules.get("payout") == "cards",
            "final_money": {r["player"]: W.fmt_money(r["net"] * value, code, plus=True)
                            for r in (st["final"] or [])}}


def _game_url(view, gi: int) -> str:
    return url_for("newmarket.game", token=view.token, gi=gi)


def _shown(key: str, ctx: dict) -> bool:
    """Whether the page as it is now has a place for an error on ``key`` (else it goes on top)."""
    st, current = ctx["st"], ctx["current"]
    if key in ("form", "at"):
        return True
    if st["ended"]:
        return False
    if current:
        if key in ("dummy", "sold_to", "price"):
            return ctx["classic"] and not current["dummy"]
        if key == "exchange":
            return not ctx["classic"] and not current["exchange"]
        return key in ("boodle", "end", "out") or key.startswith("left_")
    return key in ("start", "dealer", "antes", "end_game") or key.startswith("ante_")


def _page(view, gi: int, errors: dict | None = None, status: int = 200, form=None):
    ctx = _context(view, gi)
    shown: dict[str, str] = {}
    for key, message in (errors or {}).items():
        if _shown(key, ctx):
            shown[key] = message
        else:
            shown["form"] = (shown["form"] + " " if "form" in shown else "") + message
    return render("newmarket.html", view, status=status, errors=shown, form=form or {}, **ctx)


# ----------------------------------------------------------------------------------------------------
# a new game
# ----------------------------------------------------------------------------------------------------

def _previous(view) -> dict | None:
    """The session's last Newmarket game: its number, what it leaves on the table, whether it will."""
    games = view.doc["games"]
    for i in range(len(games) - 1, -1, -1):
        if games[i]["kind"] == KIND:
            st = view.state["games"][i]
            carries = games[i]["rules"]["leftover"] == "carry"
            items = [{"label": "kitty" if k == "kitty" else "pool" if k == "pool" else R.pretty(k), "chips": v}
                     for k, v in st["carry_out"].items()]
            return {"number": i + 1, "carry_out": dict(st["carry_out"]), "piles": items,
                    "pending": carries and not st["ended"]}
    return None


def _new_defaults(view) -> dict:
    form = {f"seat{i}": p for i, p in enumerate(W.seat_defaults(view.doc["players"], R.MAX_PLAYERS))}
    form.update({"variant": "classic", "ante": "1", "dealer_ante": "", "free_ante": "0", "kitty_ante": "0",
                 "payout": "cards", "boodles": "AH KC QD JS", "leftover": "share", "pool_ante": "1",
                 "start_chips": "20", "chip_value": W.money_input(W.default_unit(W.currency(view)),
                                                                   W.currency(view))})
    return form


def _new_page(view, form, errors=None, status=200):
    return render("newmarket_new.html", view, status=status, form=form, errors=errors or {},
                  previous=_previous(view), players=view.doc["players"], max_seats=R.MAX_PLAYERS,
                  currency=W.currency(view))


def _boodle_text(raw: str) -> str:
    text = raw or ""
    for sym, letter in SUIT_LETTERS.items():
        text = text.replace(sym, letter)
    return text


@bp.route("/s/<token>/newmarket/new", methods=["GET", "POST"])
def new(token):
    view = require_edit(token)
    if request.method == "GET":
        return _new_page(view, _new_defaults(view))
    form = request.form
    errors: dict[str, str] = {}
    data = W.form_dict(form)
    data.pop("carry_in", None)          # only ever from the previous game, never typed
    data.pop("seats", None)             # the seat pickers say who sits where
    for name in NUM_FIELDS:
        value = W.read_int(form, name, errors)
        data[name] = "" if value is None else str(value)
    value = W.read_money(form, "chip_value", W.currency(view), errors)
    data["chip_value"] = "" if value is None else str(value)
    data["boodles"] = _boodle_text(form.get("boodles", ""))
    previous = _previous(view)
    if previous and previous["carry_out"]:
        data["carry_in"] = dict(previous["carry_out"])
    game = None
    if not errors:
        try:
            game = R.new_game(view.doc["players"], data)
        except RuleError as err:
            field = W.path_head(err.path) or "form"
            if field.startswith("seat"):
                field = "seats"
            if field == "carry_in":
                err = RuleError(f"The chips carried from game {previous['number'] if previous else '?'} lie on "
                                f"piles this game does not have ({err.message}): choose the same variant and "
                                "boodle cards.", "carry_in")
            errors[field] = err.message
    if errors:
        return _new_page(view, form, errors, 422)
    return W.add_game(view, KIND, game, _new_page, form)


# ----------------------------------------------------------------------------------------------------
# the game
# ----------------------------------------------------------------------------------------------------

@bp.get("/s/<token>/newmarket/<int:gi>")
def game(token, gi):
    view = open_session(token)
    view.game(gi, KIND)
    return unchanged_poll(view) or _page(view, gi)


def _act(token: str, gi: int, build, field_of):
    """Read a form with ``build(game, form, errors) -> action``, then record it."""
    view = require_edit(token)
    game_obj = view.game(gi, KIND)
    errors: dict[str, str] = {}
    action = build(game_obj, request.form, errors)
    if errors:
        return _page(view, gi, errors, 422, form=request.form)

    def on_error(fresh, errs, status):
        return _page(fresh, gi, errs, status, form=request.form if status == 422 else None)

    return W.write_action(view, gi, action, _game_url(view, gi), on_error,
                          lambda path: field_of(path, game_obj))


def _antes_from(form, game_obj: dict, errors: dict) -> dict:
    """Free ante placements: fields ante_<seat>_<card>."""
    antes = {}
    for i, p in enumerate(game_obj["seats"]):
        placed = {}
        for card in game_obj["rules"]["boodles"]:
            name = f"ante_{i}_{card}"
            k = W.read_int(form, name, errors)
            if k:
                placed[card] = k
        antes[p] = placed
    return antes


def _ante_field(path: str, game_obj: dict, prefix: str = "antes.") -> str | None:
    seat = _player_in(path, prefix, game_obj["seats"])
    return None if seat is None else f"ante_{seat}"


def _start_action(game_obj, form, errors):
    action = {"type": "start_deal"}
    dealer = (form.get("dealer") or "").strip()
    if dealer:
        action["dealer"] = dealer
    if game_obj["rules"]["free_ante"]:
        action["antes"] = _antes_from(form, game_obj, errors)
    return action


def _start_field(path, game_obj):
    if path.startswith("antes"):
        return _ante_field(path, game_obj) or "antes"
    return "dealer" if path == "dealer" else "start"


@bp.post("/s/<token>/newmarket/<int:gi>/start")
def start(token, gi):
    return _act(token, gi, _start_action, _start_field)


def _boodle_action(game_obj, form, errors):
    return {"type": "boodle", "card": (form.get("card") or "").strip(), "by": form.get("by") or ""}


@bp.post("/s/<token>/newmarket/<int:gi>/boodle")
def boodle(token, gi):
    return _act(token, gi, _boodle_action, lambda path, g: "boodle")


def _dummy_action(game_obj, form, errors):
    if form.get("dummy") == "swap":
        return {"type": "dummy", "swap": True}
    price = W.read_int(form, "price", errors, required=True, what="a price in chips")
    if not (form.get("sold_to") or "").strip():
        errors["sold_to"] = "Who bought the dummy?"
    return {"type": "dummy", "sold_to": form.get("sold_to") or "", "price": price}


@bp.post("/s/<token>/newmarket/<int:gi>/dummy")
def dummy(token, gi):
    return _act(token, gi, _dummy_action,
                lambda path, g: path if path in ("sold_to", "price") else "dummy")


@bp.post("/s/<token>/newmarket/<int:gi>/exchange")
def exchange(token, gi):
    return _act(token, gi, lambda g, form, errors: {"type": "exchange", "by": form.get("by") or ""},
                lambda path, g: "exchange")


def _cards_left(form, game_obj: dict, out: str | None, errors: dict, required: bool) -> dict:
    left = {}
    for i, p in enumerate(game_obj["seats"]):
        name = f"left_{i}"
        k = W.read_int(form, name, errors, what="a number of cards")
        if name in errors:
            continue
        if p == out:
            if k:
                errors[name] = f"{p} went out: he has no cards left."
            continue
        if k is None:
            if required:
                errors[name] = f"How many cards does {p} still hold?"
            continue
        left[p] = k
    return left


def _end_action(game_obj, form, errors):
    if W.only_one(form, "blocked", errors, "blocked once") in ("1", "on", "true", "yes"):
        return {"type": "end_deal", "blocked": True}
    out = W.only_one(form, "out", errors, "Only one player goes out in a deal.")
    seats = game_obj["seats"]
    if "out" not in errors and not out:
        errors["out"] = "Tap who went out."
    elif out and out not in seats:
        errors["out"] = f"{out!r} is not seated at this game."
    action = {"type": "end_deal", "out": out or ""}
    rules = game_obj["rules"]
    if rules["variant"] == "classic" and rules.get("payout") == "cards":
        action["cards_left"] = _cards_left(form, game_obj, out, errors, required=bool(out) and out in seats)
    return action


def _end_field(path, game_obj):
    if path.startswith("cards_left"):
        seat = _player_in(path, "cards_left.", game_obj["seats"])
        return "out" if seat is None else f"left_{seat}"
    return "out" if path in ("out", "blocked") else "end"


@bp.post("/s/<token>/newmarket/<int:gi>/end")
def end_deal(token, gi):
    return _act(token, gi, _end_action, _end_field)


@bp.post("/s/<token>/newmarket/<int:gi>/cancel")
def cancel(token, gi):
    return _act(token, gi, lambda g, form, errors: {"type": "cancel_deal"}, lambda path, g: "end")


@bp.post("/s/<token>/newmarket/<int:gi>/end-game")
def end_game(token, gi):
    return _act(token, gi, lambda g, form, errors: {"type": "end_game"}, lambda path, g: "end_game")


# ----------------------------------------------------------------------------------------------------
# correcting a past deal
# ----------------------------------------------------------------------------------------------------

def _rotation_dealer(st: dict, seats: list[str], di: int) -> str:
    if di == 0:
        return seats[0]
    return seats[(seats.index(st["deals"][di - 1]["dealer"]) + 1) % len(seats)]


def _candidates(game_obj: dict) -> list[str]:
    return list(game_obj["rules"]["boodles"]) if game_obj["rules"]["variant"] == "classic" else list(QUEENS)


def _won_order(game_obj: dict, deal: dict) -> list[str]:
    first = [b["card"] for b in deal.get("boodles_won", [])]
    return first + [c for c in _candidates(game_obj) if c not in first]


def _deal_form(game_obj: dict, st: dict, di: int) -> dict:
    """The correction form pre-filled with deal ``di`` as recorded."""
    deal = game_obj["deals"][di]
    s = st["deals"][di]
    seats = game_obj["seats"]
    form = {"dealer": s["dealer"]}
    for i, p in enumerate(seats):
        for card, k in deal.get("antes", {}).get(p, {}).items():
            form[f"ante_{i}_{card}"] = str(k)
    d = deal.get("dummy")
    form["dummy"] = "none" if not d else "swap" if d.get("swap") else "sold"
    if d and "sold_to" in d:
        form["sold_to"], form["price"] = d["sold_to"], str(d["price"])
    form["exchange"] = f"p:{deal['exchange']}" if deal.get("exchange") else "none"
    for b in deal.get("boodles_won", []):
        form[f"won_{b['card']}"] = f"p:{b['by']}"
    if deal.get("out"):
        form["end"] = f"p:{deal['out']}"
    elif deal.get("blocked"):
        form["end"] = "blocked"
    else:
        form["end"] = "king"
    for i, p in enumerate(seats):
        if p in deal.get("cards_left", {}):
            form[f"left_{i}"] = str(deal["cards_left"][p])
    return form


def _deal_from(form, game_obj: dict, st: dict, di: int, errors: dict) -> tuple[dict, list[str]]:
    """The corrected deal (session-file shape) from the form, and the order of its boodles."""
    rules, seats = game_obj["rules"], game_obj["seats"]
    orig = game_obj["deals"][di]
    deal: dict = {}
    dealer = (form.get("dealer") or "").strip()
    if dealer and (dealer != _rotation_dealer(st, seats, di) or "dealer" in orig):
        deal["dealer"] = dealer
    if rules["free_ante"]:
        deal["antes"] = _antes_from(form, game_obj, errors)
    if rules["variant"] == "classic":
        how = form.get("dummy") or "none"
        if how == "swap":
            deal["dummy"] = {"swap": True}
        elif how == "sold":
            price = W.read_int(form, "price", errors, required=True, what="a price in chips")
            deal["dummy"] = {"sold_to": form.get("sold_to") or "", "price": price}
    else:
        ex = form.get("exchange") or "none"
        if ex.startswith("p:"):
            deal["exchange"] = ex[2:]
    order = []
    won = []
    for card in _won_order(game_obj, orig):
        who = form.get(f"won_{card}") or ""
        if who.startswith("p:"):
            won.append({"card": card, "by": who[2:]})
            order.append(card)
    if won:
        deal["boodles_won"] = won
    if orig.get("open"):
        deal["open"] = True
        return deal, order
    end = W.only_one(form, "end", errors, "Choose one ending.") or ""
    if end == "blocked":
        deal["blocked"] = True
    elif end.startswith("p:"):
        out = end[2:]
        deal["out"] = out
        if rules["variant"] == "classic" and rules.get("payout") == "cards":
            deal["cards_left"] = _cards_left(form, game_obj, out, errors, required=out in seats)
    return deal, order


def _correct_field(path: str, game_obj: dict, order: list[str], di: int) -> str:
    p = path[len("deal"):].lstrip(".") if path.startswith("deal") else path
    seats = game_obj["seats"]
    if p.startswith("antes"):
        return _ante_field(p, game_obj) or "antes"
    if p.startswith("cards_left"):
        seat = _player_in(p, "cards_left.", seats)
        return "end" if seat is None else f"left_{seat}"
    if p.startswith("boodles_won["):
        try:
            k = int(p[len("boodles_won["):].split("]", 1)[0])
            return f"won_{order[k]}"
        except (ValueError, IndexError):
            return "boodles"
    if p.startswith("dummy"):
        rest = p[len("dummy"):].lstrip(".")
        return rest if rest in ("sold_to", "price") else "dummy"
    head = W.path_head(p)
    if head in ("dealer", "exchange"):
        return head
    if head in ("out", "blocked", "open"):
        return "end"
    if not p and not game_obj["deals"][di].get("open"):
        # the deal as a whole (no ending, a King that ends it too early): its ending is the place
        return "end"
    return "form"


def _correct_page(view, gi: int, di: int, form=None, errors=None, status=200):
    game_obj = view.game(gi, KIND)
    st = view.state["games"][gi]
    if not 0 <= di < len(game_obj["deals"]):
        abort(404)
    rules = game_obj["rules"]
    s = st["deals"][di]
    deal = game_obj["deals"][di]
    return render("newmarket_deal.html", view, status=status, gi=gi, di=di, game=game_obj, st=st, rules=rules,
                  seats=game_obj["seats"], summary=s, deal=deal, form=form or _deal_form(game_obj, st, di),
                  errors=errors or {}, won_cards=[card_info(c) for c in _won_order(game_obj, deal)],
                  ante_cards=[card_info(c) for c in rules["boodles"]],
                  cards_payout=rules["variant"] == "classic" and rules.get("payout") == "cards",
                  lines=_deal_lines(s, st["cards"], rules), game_url=_game_url(view, gi))


@bp.route("/s/<token>/newmarket/<int:gi>/deal/<int:di>", methods=["GET", "POST"])
def correct(token, gi, di):
    view = require_edit(token)
    game_obj = view.game(gi, KIND)
    if not 0 <= di < len(game_obj["deals"]):
        abort(404)
    if request.method == "GET":
        return _correct_page(view, gi, di)
    st = view.state["games"][gi]
    errors: dict[str, str] = {}
    deal, order = _deal_from(request.form, game_obj, st, di, errors)
    if errors:
        return _correct_page(view, gi, di, request.form, errors, 422)

    def on_error(fresh, errs, status):
        if di >= len(fresh.game(gi, KIND)["deals"]):
            return _page(fresh, gi, errs, status)
        return _correct_page(fresh, gi, di, request.form if status == 422 else None, errs, status)

    return W.write_action(view, gi, {"type": "replace_deal", "index": di, "deal": deal}, _game_url(view, gi),
                          on_error, lambda path: _correct_field(path, game_obj, order, di))
