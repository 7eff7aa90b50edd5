"""Newmarket pages: add a game, start deals (antes go in by themselves), record boodle wins, the dummy or
the exchange, the end of each deal, the end of the game; correct a past deal. Forms become typed actions
here; every rule decision is the kind's. Routes (all under ``/s/<token>/newmarket``):

  GET/POST  /new            add a game          POST /<gi>/start     start_deal
  GET       /<gi>           the table (live)    POST /<gi>/boodle    a boodle card (a Queen) played
  POST      /<gi>/dummy     swap or sold        POST /<gi>/exchange  the dead hand (parlett)
  POST      /<gi>/end       out + cards left    POST /<gi>/cancel    cancel the deal in progress
  POST      /<gi>/end-game  leftovers shared    GET/POST /<gi>/deal/<di>  correct a past deal
"""
from __future__ import annotations

import re
from dataclasses import replace

from flask import Blueprint, abort, request, url_for

from companion.domain.errors import RuleError
from companion.domain.messages import msg
# the app, as far as a kind may see it (companion/kinds/face.py)
from companion.kinds.face import (FormError, open_session, render, require_edit, fmt_money, money_input,
                                  only_one, read_int, read_money, signed, template_helpers, at_of, correction,
                                  done_toast, new_game, priced, record, show, t)
from companion.kinds.newmarket import actions as A
from companion.kinds.newmarket.kind import KIND
from companion.kinds.newmarket.options import MAX_ANTE, MAX_CARDS_LEFT, MAX_PLAYERS, NewmarketSpec, QUEENS
from companion.kinds.newmarket.view import DONE, RECENT, card_info, candidates, deal_lines, page, toast


# its templates are in this package (a kind is one folder)
bp = Blueprint("newmarket", __name__, template_folder="templates")
SUIT_LETTERS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}


@bp.context_processor
def _helpers():
    return template_helpers()


def _game_url(view, gi: int) -> str:
    return url_for("newmarket.game", token=view.token, gi=gi)


def _shown(key: str, model: dict, can_edit: bool) -> bool:
    """Whether the page as it is now has a place for an error on ``key`` (else it goes on top)."""
    st, current = model["st"], model["current"]
    if key in ("form", "at"):
        return True
    if st["ended"] or not can_edit:
        return False
    if current:
        if key in ("dummy", "sold_to", "price"):
            return model["classic"] and not current["dummy"]
        if key == "exchange":
            return not model["classic"] and not current["exchange"] and not current["bury"]
        return key in ("boodle", "end", "out") or key.startswith("left_")
    return key in ("start", "dealer", "antes", "end_game") or key.startswith("ante_")


def _placed(errors: dict | None, model: dict, can_edit: bool) -> dict:
    """Errors beside their fields; one whose field is not on the page now goes on top, with the others."""
    shown: dict = {}
    for key, message in (errors or {}).items():
        if _shown(key, model, can_edit):
            shown[key] = message
        else:
            shown["form"] = (shown["form"] + " " if "form" in shown else "") + message
    return shown


def _page(view, gi: int, errors: dict | None = None, status: int = 200, form=None, mode: str | None = None):
    rec = view.game(gi, "newmarket")
    recent = view.recent(gi, RECENT)
    model = page(rec, recent, len(rec.items) - len(recent))
    errors = _placed(errors, model, view.can_edit)
    code = view.currency
    value = rec.head["chip_value"]
    priced(model, value, code, lambda di: url_for("newmarket.correct", token=view.token, gi=gi, di=di))
    final_money = {r["player"]: fmt_money(r["net"] * value, code, plus=True) for r in (model["st"]["final"] or [])}
    here = _game_url(view, gi)
    args = request.args if view.can_edit else {}
    # the end of the deal is a screen of its own (who went out, the cards left): ?end=1, or a refused end form
    if mode is None and args.get("end") and model["current"]:
        mode = "end"
    if mode == "end" and not model["current"]:
        mode = None
    # done=1: the toast (static/app.js takes it out of the address)
    shown = done_toast(view, status, lambda step, n: toast(rec, step, n), DONE)
    return render("newmarket/game.html", view, status=status, gi=gi, game=rec.head, errors=errors,
                  form=form if form is not None else {}, currency=code, chip_value_text=fmt_money(value, code),
                  final_money=final_money, undo=view.undo_label(gi), here=here, mode=mode, toast=shown,
                  all_url=url_for("history.session", token=view.token) + f"#game-{gi}", **model)


# ---------------------------------------------------------------------------------------------------
# a new game

def _previous(view) -> dict | None:
    """The session's last Newmarket game: its number, what it leaves on the table (``carry``: its
    ``seed_out``, or None), and whether it will leave chips once it ends (``pending``)."""
    for i in range(len(view.games) - 1, -1, -1):
        rec = view.games[i]
        if rec.kind == "newmarket":
            return {"number": i + 1, "carry": KIND.seed_out(rec),
                    "pending": rec.head["rules"]["leftover"] == "carry" and not rec.head["ended"]}
    return None


def _previous_carry(view):
    """The chips the previous Newmarket game of the session carries into a new one (or None)."""
    previous = _previous(view)
    return previous["carry"] if previous else None


def _new_defaults(view) -> dict:
    form = {f"seat{i}": p for i, p in enumerate(view.players[:MAX_PLAYERS])}
    form.update({"variant": "classic", "ante": "1", "dealer_ante": "", "free_ante": "0", "kitty_ante": "0",
                 "payout": "cards", "boodles": "AH KC QD JS", "leftover": "share", "pool_ante": "1",
                 "start_chips": "20", "chip_value": money_input(10, view.currency)})
    carry = _previous_carry(view)
    if carry:
        form["chip_value"] = money_input(carry["chip_value"], view.currency)
    return form


NEW_FIELDS = ("form", "carry", "seats", "variant", "ante", "dealer_ante", "kitty_ante", "free_ante", "payout",
              "boodles", "pool_ante", "leftover", "start_chips", "chip_value")


def _new_page(view, form, errors=None, status=200):
    previous = _previous(view)
    carry = previous["carry"] if previous else None
    shown: dict = {}
    for key, message in (errors or {}).items():     # an error with no field on the form goes on top
        key = key if key in NEW_FIELDS else "form"
        shown[key] = (shown[key] + " " if key in shown else "") + message
    return render("newmarket/new.html", view, status=status, form=form, errors=shown, previous=previous,
                  carry=carry, carry_piles=card_piles(carry), players=view.players, max_seats=MAX_PLAYERS,
                  currency=view.currency)


def card_piles(carry) -> list[dict]:
    if not carry:
        return []
    out = [{"name": card_info(c)["label"], "chips": k} for c, k in carry["piles"].items() if k]
    for key in ("kitty", "pool"):
        if carry.get(key):
            out.append({"name": msg(f"newmarket.pile.{key}"), "chips": carry[key]})
    return out


def _read_new(form, code: str) -> tuple[NewmarketSpec | None, dict]:
    errors: dict = {}
    seats = [form.get(f"seat{i}", "").strip() for i in range(MAX_PLAYERS)]
    seats = [s for s in seats if s]
    nums = {name: read_int(form, name, errors, maximum=MAX_ANTE)
            for name in ("ante", "dealer_ante", "free_ante", "kitty_ante", "pool_ante")}
    start = read_int(form, "start_chips", errors)
    value = read_money(form, "chip_value", code, errors)
    boodles = None
    text = form.get("boodles", "")
    for sym, letter in SUIT_LETTERS.items():
        text = text.replace(sym, letter)
    if text.strip():
        boodles = re.split(r"[\s,]+", text.strip())
    if errors:
        return None, errors
    spec = NewmarketSpec(seats=seats, variant=form.get("variant") or "classic",
                         ante=1 if nums["ante"] is None else nums["ante"], dealer_ante=nums["dealer_ante"],
                         free_ante=nums["free_ante"] or 0, kitty_ante=nums["kitty_ante"] or 0,
                         payout=form.get("payout") or None, boodles=boodles,
                         leftover=form.get("leftover") or "share", pool_ante=nums["pool_ante"],
                         start_chips=20 if start is None else start, chip_value=10 if value is None else value)
    return spec, errors


@bp.route("/s/<token>/newmarket/new", methods=["GET", "POST"])
def new(token):
    return new_game(token, "newmarket", _new_page, _new_defaults, lambda view, form: _read_new(form, view.currency),
                    make=_make)


def _make(view, spec, errors):
    """The new game; the chips the previous game carries must land on this game's cards."""
    previous = _previous(view)
    try:
        game = KIND.new_game(view.players, spec)
        seed = previous["carry"] if previous else None
        if seed:
            KIND.build(game, view.players, seed)
        return game
    except RuleError as err:
        n = previous["number"] if previous else 0
        if err.code == "newmarket.seed_card":
            what = msg("newmarket.form.carry_card", n=err.params["chips"], card=err.params["card"])
            errors["carry"] = t(msg("newmarket.form.carry_piles", game=n, what=what))
        elif err.code == "newmarket.seed_pool":
            what = msg("newmarket.form.carry_pool", n=err.params["chips"])
            errors["carry"] = t(msg("newmarket.form.carry_piles", game=n, what=what))
        elif err.code == "newmarket.seed_value":
            errors["chip_value"] = t(msg("newmarket.form.carry_value", game=n,
                                         value=fmt_money(err.params["value"], view.currency)))
        else:
            errors[err.field or "form"] = t(err.msg)
        return None


# ---------------------------------------------------------------------------------------------------
# the game

@bp.get("/s/<token>/newmarket/<int:gi>")
def game(token, gi):
    return show(token, gi, "newmarket", _page)


def _act(token: str, gi: int, build, what: str):
    """Read a form with ``build(rec, form) -> action`` (FormError for a bad field), then record it and go
    back to the table, whose toast says what was recorded (``what``: which form it was). A refusal goes
    beside the form field the action names."""
    view = require_edit(token)
    rec = view.game(gi, "newmarket")
    form = request.form

    def on_error(errors, status):
        mode = "end" if what == "end" else None
        resp = _page(open_session(token), gi, errors, status, form=form if status == 422 else None, mode=mode)
        # the end-of-deal screen has its own address (record() would name the table's)
        resp.headers["HX-Replace-Url"] = url_for("newmarket.game", token=token, gi=gi, end=1 if mode else None)
        return resp

    return record(view, gi, lambda: replace(build(rec, form), at=at_of(form)), on_error,
                  location=url_for("newmarket.game", token=token, gi=gi, done=1, step=what))


def _antes_from(form, rec) -> dict:
    errors: dict = {}
    antes = {}
    for i, p in enumerate(rec.head["seats"]):
        placed = {}
        for card in rec.head["rules"]["boodles"]:
            k = read_int(form, f"ante_{i}_{card}", errors, maximum=MAX_ANTE)
            if k:
                placed[card] = k
        antes[p] = placed
    if errors:
        raise FormError(errors)
    return antes


def _start(rec, form):
    dealer = (form.get("dealer") or "").strip() or None
    antes = _antes_from(form, rec) if rec.head["rules"]["free_ante"] else None
    return A.StartDeal(dealer=dealer, antes=antes)


@bp.post("/s/<token>/newmarket/<int:gi>/start")
def start(token, gi):
    return _act(token, gi, _start, "start")


@bp.post("/s/<token>/newmarket/<int:gi>/boodle")
def boodle(token, gi):
    # the bar's picker offers the dead hand (parlett) beside the Queens: "dead" is the exchange
    if request.form.get("card") == "dead":
        return exchange(token, gi)
    return _act(token, gi, lambda rec, form: A.Boodle(card=(form.get("card") or "").strip()[:4], by=form.get("by") or ""),
                "boodle")


def _dummy(rec, form):
    if form.get("dummy") == "swap":
        return A.Dummy(swap=True)
    errors: dict = {}
    price = read_int(form, "price", errors, required=True, maximum=MAX_ANTE, what="form.what.price")
    if not (form.get("sold_to") or "").strip():
        errors["sold_to"] = t(msg("newmarket.form.who_bought"))
    if errors:
        raise FormError(errors)
    return A.Dummy(sold_to=form.get("sold_to"), price=price)


@bp.post("/s/<token>/newmarket/<int:gi>/dummy")
def dummy(token, gi):
    return _act(token, gi, _dummy, "dummy")


@bp.post("/s/<token>/newmarket/<int:gi>/exchange")
def exchange(token, gi):
    return _act(token, gi, lambda rec, form: A.Exchange(by=form.get("by") or ""), "exchange")


def _cards_left(form, rec, out: str | None, errors: dict, required: bool) -> dict:
    left = {}
    for i, p in enumerate(rec.head["seats"]):
        name = f"left_{i}"
        k = read_int(form, name, errors, maximum=MAX_CARDS_LEFT, what="form.what.cards")
        if name in errors:
            continue
        if p == out:
            if k:
                errors[name] = t(msg("newmarket.form.out_no_cards", name=p))
            continue
        if k is None:
            if required:
                errors[name] = t(msg("newmarket.form.how_many", name=p))
            continue
        left[p] = k
    return left


def _one(form, name: str, errors: dict, code: str) -> str | None:
    """``only_one``, with this form's own words when two values were posted."""
    value = only_one(form, name, errors)
    if name in errors:
        errors[name] = t(msg(code))
    return value


def _end(rec, form):
    errors: dict = {}
    if _one(form, "blocked", errors, "newmarket.form.blocked_once") in ("1", "on", "true", "yes"):
        return A.EndDeal(blocked=True)
    if "blocked" in errors:
        raise FormError({"end": errors["blocked"]})
    out = _one(form, "out", errors, "newmarket.form.one_out")
    seats = rec.head["seats"]
    if "out" not in errors and not out:
        errors["out"] = t(msg("newmarket.form.tap_out"))
    elif out and out not in seats:
        errors["out"] = t(msg("v.not_seated", name=out[:40]))
    cards_left = None
    rules = rec.head["rules"]
    if rules["variant"] == "classic" and rules.get("payout") == "cards":
        cards_left = _cards_left(form, rec, out, errors, required=bool(out) and out in seats)
    if errors:
        raise FormError(errors)
    return A.EndDeal(out=out, cards_left=cards_left)


@bp.post("/s/<token>/newmarket/<int:gi>/end")
def end_deal(token, gi):
    return _act(token, gi, _end, "end")


@bp.post("/s/<token>/newmarket/<int:gi>/cancel")
def cancel(token, gi):
    return _act(token, gi, lambda rec, form: A.CancelDeal(), "cancel")


@bp.post("/s/<token>/newmarket/<int:gi>/end-game")
def end_game(token, gi):
    return _act(token, gi, lambda rec, form: A.EndGame(), "end_game")


# ---------------------------------------------------------------------------------------------------
# correcting a past deal

def _won_order(rec, deal: dict) -> list[str]:
    first = [b["card"] for b in deal.get("boodles_won", [])]
    return first + [c for c in candidates(rec.head) if c not in first]


def _deal_form(rec, di: int) -> dict:
    """The correction form pre-filled with deal ``di`` as recorded."""
    item = rec.items[di]
    deal = item.body
    seats = rec.head["seats"]
    result = item.result or {}
    form = {"dealer": result.get("dealer") or deal.get("dealer") or seats[0]}
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
    form["end"] = f"p:{deal['out']}" if deal.get("out") else "blocked" if deal.get("blocked") else "king"
    for i, p in enumerate(seats):
        if p in deal.get("cards_left", {}):
            form[f"left_{i}"] = str(deal["cards_left"][p])
    return form


def _deal_from(form, rec, di: int) -> dict:
    """The corrected deal (session-file shape) from the form."""
    rules, seats = rec.head["rules"], rec.head["seats"]
    item = rec.items[di]
    orig = item.body
    errors: dict = {}
    deal: dict = {}
    dealer = (form.get("dealer") or "").strip()
    rotation = seats[0] if di == 0 else seats[(seats.index(rec.items[di - 1].result["dealer"]) + 1) % len(seats)] \
        if rec.items[di - 1].result else None
    if dealer and (dealer != rotation or "dealer" in orig):
        deal["dealer"] = dealer
    if rules["free_ante"]:
        try:
            deal["antes"] = _antes_from(form, rec)
        except FormError as err:
            errors.update(err.errors)
    if rules["variant"] == "classic":
        how = form.get("dummy") or "none"
        if how == "swap":
            deal["dummy"] = {"swap": True}
        elif how == "sold":
            price = read_int(form, "price", errors, required=True, maximum=MAX_ANTE, what="form.what.price")
            deal["dummy"] = {"sold_to": form.get("sold_to") or "", "price": price}
    else:
        ex = form.get("exchange") or "none"
        if ex.startswith("p:"):
            deal["exchange"] = ex[2:]
    won = []
    for card in _won_order(rec, orig):
        who = form.get(f"won_{card}") or ""
        if who.startswith("p:"):
            won.append({"card": card, "by": who[2:]})
    if won:
        deal["boodles_won"] = won
    if orig.get("open"):
        deal["open"] = True
    else:
        end = _one(form, "end", errors, "newmarket.form.one_end") or ""
        if end == "blocked":
            deal["blocked"] = True
        elif end.startswith("p:"):
            out = end[2:]
            deal["out"] = out
            if rules["variant"] == "classic" and rules.get("payout") == "cards":
                deal["cards_left"] = _cards_left(form, rec, out, errors, required=out in seats)
    if errors:
        raise FormError(errors)
    return deal


def _correct_page(view, gi: int, di: int, form=None, errors=None, status=200):
    rec = view.game(gi, "newmarket")
    if not 0 <= di < len(rec.items):
        abort(404)
    item = rec.items[di]
    from companion.kinds.newmarket.deal import play
    from companion.kinds.newmarket.shape import Ctx

    result = item.result or play(Ctx(rec.head), item.before, item.body, di + 1)[1]
    rules = rec.head["rules"]
    classic = rules["variant"] == "classic"
    seats = rec.head["seats"]
    won = _won_order(rec, item.body)
    keys = {"form", "at", "dealer", "boodles", *(f"won_{c}" for c in won)}
    keys |= {"dummy", "sold_to", "price"} if classic else {"exchange"}
    if rules["free_ante"]:
        keys |= {"antes", *(f"ante_{i}" for i in range(len(seats))),
                 *(f"ante_{i}_{c}" for i in range(len(seats)) for c in rules["boodles"])}
    if not item.body.get("open"):
        keys.add("end")
        if classic and rules.get("payout") == "cards":
            keys |= {f"left_{i}" for i in range(len(seats))}
    shown: dict = {}
    for key, message in (errors or {}).items():     # an error with no field on the page goes on top
        key = key if key in keys else "form"
        shown[key] = (shown[key] + " " if key in shown else "") + message
    return render("newmarket/deal.html", view, status=status, gi=gi, di=di, game=rec.head, rules=rules,
                  seats=rec.head["seats"], summary=result, deal=item.body, at=KIND.position(rec),
                  form=form if form is not None else _deal_form(rec, di), errors=shown,
                  won_cards=[card_info(c) for c in won],
                  ante_cards=[card_info(c) for c in rules["boodles"]],
                  cards_payout=rules["variant"] == "classic" and rules.get("payout") == "cards",
                  lines=deal_lines(result, rules["variant"] == "parlett"), game_url=_game_url(view, gi))


@bp.route("/s/<token>/newmarket/<int:gi>/deal/<int:di>", methods=["GET", "POST"])
def correct(token, gi, di):
    return correction(token, "newmarket", gi, di,
                      lambda rec, form: A.ReplaceDeal(index=di, deal=_deal_from(form, rec, di), at=at_of(form)),
                      _page, _correct_page)


__all__ = ["bp", "QUEENS", "signed"]
