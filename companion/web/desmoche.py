"""Desmoche (and Conquián) at the table: add a series, record each hand (stakes go in by themselves,
the pot and its multiple in words, bonuses, side games), change the stake, end the series; correct a
past hand.

The rules are ``companion.rules.desmoche``; this module only reads forms, shows pots and writes actions.
Routes (all under ``/s/<token>/desmoche``):

  GET/POST  /new                 desmoche.new      add a series (seats, variant, stake, options)
  GET       /<gi>                desmoche.game     the pot, balances, the hand form (live)
  POST      /<gi>/hand           desmoche.hand     record a hand (winner or none, bonuses, side games)
  POST      /<gi>/stake          desmoche.stake    the stake from the next hand on
  POST      /<gi>/end            desmoche.end      end the series: unwon pots go back
  GET/POST  /<gi>/hand/<hi>      desmoche.correct  a past hand, pre-filled; replace_hand
"""
from __future__ import annotations

from flask import Blueprint, abort, request, url_for
from werkzeug.datastructures import MultiDict

from ..rules import desmoche as R
from ..rules.errors import RuleError
from . import chipsweb as W
from .common import open_session, render, require_edit, unchanged_poll

bp = Blueprint("desmoche", __name__)

KIND = "desmoche"
SIDE_LABELS = {
    "oro": ("Oro", "highest ♦"), "corazon": ("Corazón", "highest ♥"), "flor": ("Flor", "highest ♣"),
    "corazon_negro": ("Corazón negro", "highest ♠"), "par_rojo": ("Par rojo", "highest red pair"),
    "par_negro": ("Par negro", "highest black pair"), "dos_par_rojo": ("Dos pares rojos", "best two red pairs"),
    "dos_par_negro": ("Dos pares negros", "best two black pairs"),
    "tres_cuerpos": ("Tres cuerpos", "best three of a kind"), "escalera": ("Escalera", "best run of 3+ in a suit"),
}
AUTO_LABELS = {"peladilla": "Peladilla", "cuatro_cuerpos": "Cuatro cuerpos", "color": "Color"}
TRUE = ("1", "on", "true", "yes")


@bp.context_processor
def _helpers():
    return W.template_helpers()


def side_label(name: str) -> str:
    return SIDE_LABELS.get(name, (name, ""))[0]


def headline(game: dict, state: dict) -> str:
    seats = state["seats"]
    order = sorted(seats, key=lambda p: (-state["net"][p], seats.index(p)))
    who = " · ".join(f"{p} {W.signed(state['net'][p])}" for p in order[:4])
    if state["ended"]:
        return f"{state['variant'].capitalize()} · series over · {who}"
    pot = f"pot {state['pot']}, next {state['next_multiple_words']}" if state["pot"] else "pot empty"
    return f"{state['variant'].capitalize()} · hand {state['hand_number']} · {pot} · {who}"


# ----------------------------------------------------------------------------------------------------
# the hand form: reading it, and its starting values
# ----------------------------------------------------------------------------------------------------

def _player_value(raw: str | None):
    """Radio values: "p:<name>" is a player, "none" is nobody, None is nothing chosen."""
    if raw is None:
        return None, False
    if raw == "none":
        return None, True
    return (raw[2:] if raw.startswith("p:") else raw), True


def _hand_from(form, game: dict, errors: dict) -> dict:
    """A session-file hand from the posted hand form. Field errors go to ``errors``."""
    rules = game["rules"]
    raw = W.only_one(form, "winner", errors, "Choose one winner.")
    winner, chosen = _player_value(raw)
    if not chosen and "winner" not in errors:
        errors["winner"] = "Who won the hand? (or No winner: the pot rolls over)"
    hand: dict = {"winner": winner}
    disq = [p for p in form.getlist("disqualified") if p]
    auto = None
    if rules["variant"] == "desmoche":
        a = W.only_one(form, "auto_win", errors, "Choose one kind of automatic win.")
        if a and a != "none":
            auto = a
            hand["auto_win"] = a
    if rules["bonuses"]:
        mico = W.read_int(form, "mico", errors, what="a number of micos")
        if mico:
            hand["mico"] = mico
        if (form.get("same_suit") or "").lower() in TRUE:
            hand["same_suit"] = True
        arriba = [p for p in form.getlist("arriba") if p and p != winner and p not in disq]
        if winner is not None and not auto and arriba:
            hand["arriba"] = arriba
    if disq:
        hand["disqualified"] = disq
    side = {}
    for name in rules["side_games"]:
        joined = [p for p in form.getlist(f"side_{name}_joined") if p]
        sraw = W.only_one(form, f"side_{name}_winner", errors, "Choose one winner.")
        if f"side_{name}_winner" in errors:
            errors[f"side_{name}"] = errors.pop(f"side_{name}_winner")
        sw, _ = _player_value(sraw)
        if joined:
            side[name] = {"joined": joined, "winner": sw}
        elif sw is not None:
            errors[f"side_{name}"] = f"{sw} won {side_label(name)}, but nobody joined it: tick who joined."
    if side:
        hand["side"] = side
    return hand


def _hand_field(path: str) -> str:
    p = path[len("hand"):].lstrip(".") if path.startswith("hand") else path
    if p.startswith("side."):
        name = W.path_head(p[len("side."):])
        return f"side_{name}"
    head = W.path_head(p)
    if head in ("winner", "auto_win", "mico", "same_suit", "arriba", "disqualified", "stake"):
        return head
    return "form"


def _new_hand_defaults(game: dict) -> MultiDict:
    """Everyone preselected as arriba del palo (untick who laid a meld); side games joined as in the
    previous hand (everyone for the first)."""
    seats = game["seats"]
    items = [("auto_win", "none")] + [("arriba", p) for p in seats]
    last = game["hands"][-1] if game["hands"] else None
    for name in game["rules"]["side_games"]:
        joined = seats
        if last is not None:
            joined = last.get("side", {}).get(name, {}).get("joined", seats)
        items += [(f"side_{name}_joined", p) for p in joined]
        items.append((f"side_{name}_winner", "none"))
    return MultiDict(items)


def _hand_values(game: dict, st: dict, hi: int) -> MultiDict:
    """The correction form pre-filled with hand ``hi`` as recorded."""
    h = game["hands"][hi]
    seats = game["seats"]
    items = [("winner", "none" if h["winner"] is None else f"p:{h['winner']}"),
             ("auto_win", h.get("auto_win") or "none"), ("stake", str(st["hands"][hi]["stake"]))]
    if h.get("mico"):
        items.append(("mico", str(h["mico"])))
    if h.get("same_suit"):
        items.append(("same_suit", "1"))
    arriba = h.get("arriba", [])
    if h.get("auto_win"):
        arriba = [p for p in seats if p != h["winner"] and p not in h.get("disqualified", [])]
    items += [("arriba", p) for p in arriba]
    items += [("disqualified", p) for p in h.get("disqualified", [])]
    for name in game["rules"]["side_games"]:
        sg = h.get("side", {}).get(name)
        if sg:
            items += [(f"side_{name}_joined", p) for p in sg["joined"]]
            items.append((f"side_{name}_winner", "none" if sg["winner"] is None else f"p:{sg['winner']}"))
        else:
            items.append((f"side_{name}_winner", "none"))
    return MultiDict(items)


# ----------------------------------------------------------------------------------------------------
# what the templates show
# ----------------------------------------------------------------------------------------------------

def _hand_lines(s: dict) -> list[str]:
    lines = []
    if s["winner"] is None:
        lines.append(f"No winner: the pot of {s['pot']} rolled over")
    else:
        how = f" ({AUTO_LABELS.get(s['auto_win'], s['auto_win'])})" if s.get("auto_win") else ""
        mult = f", {s['multiple_words']}" if s["multiple"] > 1 else ""
        lines.append(f"{s['winner']} won{how}: pot of {s['pot']}{mult}")
    if s["bonuses"]:
        lines.append("Bonuses: " + ", ".join(f"{p} paid {k}" for p, k in s["bonuses"].items()))
    for name, sg in s["side"].items():
        if sg["result"] == "won":
            lines.append(f"{side_label(name)}: {sg['winner']} took {sg['pot']}")
        elif sg["result"] == "returned":
            lines.append(f"{side_label(name)}: nobody qualified, stakes back")
        else:
            lines.append(f"{side_label(name)}: nobody qualified, {sg['pot']} carries")
    return lines


def _log_groups(log: list[dict]) -> list[dict]:
    groups: list[dict] = []
    for e in log:
        if not groups or groups[-1]["hand"] != e["hand"]:
            groups.append({"hand": e["hand"], "entries": []})
        groups[-1]["entries"].append(e)
    return list(reversed(groups))


def _sides(game: dict, st: dict) -> list[dict]:
    return [{"name": name, "label": side_label(name), "what": SIDE_LABELS.get(name, ("", ""))[1],
             "stake": stake, "pot": st["side_pots"].get(name, 0)}
            for name, stake in game["rules"]["side_games"].items()]


def _context(view, gi: int) -> dict:
    game = view.game(gi, KIND)
    st = view.state["games"][gi]
    seats = game["seats"]
    code = W.currency(view)
    value = game.get("unit_value", 1)
    n = len(seats)
    players = [{"name": p, "net": st["net"][p], "money": W.fmt_money(st["net"][p] * value, code, plus=True),
                "dealer": p == st["next_dealer"]} for p in seats]
    history = [{"index": i, "number": s["number"], "dealer": s["dealer"], "stake": s["stake"],
                "lines": _hand_lines(s), "delta": s["delta"],
                "url": url_for("desmoche.correct", token=view.token, gi=gi, hi=i)}
               for i, s in enumerate(st["hands"])]
    last_stake = st["hands"][-1]["stake"] if st["hands"] else game["rules"]["stake"]
    return {"gi": gi, "game": game, "st": st, "rules": game["rules"], "seats": seats, "currency": code,
            "unit_value": value, "unit_text": W.fmt_money(value, code), "players": players,
            "sides": _sides(game, st), "next_pot": st["pot"] + st["stake"] * n,
            "stake_changes": st["stake"] != last_stake, "last_stake": last_stake,
            "history": list(reversed(history)), "last": history[-1] if history else None,
            "log_groups": _log_groups(st["log"]), "auto_labels": AUTO_LABELS}


def _game_url(view, gi: int) -> str:
    return url_for("desmoche.game", token=view.token, gi=gi)


def _page(view, gi: int, errors: dict | None = None, status: int = 200, form=None):
    ctx = _context(view, gi)
    errors = dict(errors or {})
    if ctx["st"]["ended"]:
        moved = [errors.pop(k) for k in list(errors) if k not in ("form", "at")]
        if moved:
            errors["form"] = " ".join(([errors["form"]] if "form" in errors else []) + moved)
    return render("desmoche.html", view, status=status, errors=errors,
                  form=form if form is not None else _new_hand_defaults(ctx["game"]), **ctx)


# ----------------------------------------------------------------------------------------------------
# a new series
# ----------------------------------------------------------------------------------------------------

def _new_defaults(view) -> dict:
    form = {f"seat{i}": p for i, p in enumerate(W.seat_defaults(view.doc["players"], R.MAX_PLAYERS))}
    code = W.currency(view)
    form.update({"variant": "desmoche", "stake": "1", "side_unclaimed": "carry",
                 "unit_value": W.money_input(W.default_unit(code), code)})
    return MultiDict(form)


def _new_page(view, form, errors=None, status=200):
    return render("desmoche_new.html", view, status=status, form=form, errors=errors or {},
                  players=view.doc["players"], max_seats=R.MAX_PLAYERS, currency=W.currency(view),
                  side_games=[{"name": n, "label": SIDE_LABELS[n][0], "what": SIDE_LABELS[n][1]}
                              for n in R.SIDE_GAMES])


@bp.route("/s/<token>/desmoche/new", methods=["GET", "POST"])
def new(token):
    view = require_edit(token)
    if request.method == "GET":
        return _new_page(view, _new_defaults(view))
    form = request.form
    errors: dict[str, str] = {}
    data = {"variant": form.get("variant") or "", "side_unclaimed": form.get("side_unclaimed") or ""}
    for i in range(R.MAX_PLAYERS):
        data[f"seat{i}"] = form.get(f"seat{i}") or ""
    stake = W.read_int(form, "stake", errors, minimum=1, required=True, what="a stake")
    data["stake"] = "" if stake is None else str(stake)
    data["bonuses"] = "on" if (form.get("bonuses") or "").lower() in TRUE else "off"
    data["color_wins"] = "on" if (form.get("color_wins") or "").lower() in TRUE else "off"
    for name in R.SIDE_GAMES:
        if (form.get(f"side_on_{name}") or "").lower() not in TRUE:
            continue
        k = W.read_int(form, f"side_{name}", errors, minimum=1, what="a stake")
        if k is None and f"side_{name}" not in errors:
            errors[f"side_{name}"] = f"How much does each player put in for {SIDE_LABELS[name][0]}?"
        elif k is not None:
            data[f"side_{name}"] = str(k)
    value = W.read_money(form, "unit_value", W.currency(view), errors)
    data["unit_value"] = "" if value is None else str(value)
    game = None
    if not errors:
        try:
            game = R.new_game(view.doc["players"], data)
        except RuleError as err:
            field = W.path_head(err.path) or "form"
            if field.startswith("seat"):
                field = "seats"
            if field == "side_games":
                bad = next((n for n in R.SIDE_GAMES if f"side_{n}" in data and n in err.message), None)
                field = f"side_{bad}" if bad else "side_games"
            errors[field] = err.message
    if errors:
        return _new_page(view, form, errors, 422)
    return W.add_game(view, KIND, game, _new_page, form)


# ----------------------------------------------------------------------------------------------------
# the series
# ----------------------------------------------------------------------------------------------------

@bp.get("/s/<token>/desmoche/<int:gi>")
def game(token, gi):
    view = open_session(token)
    view.game(gi, KIND)
    return unchanged_poll(view) or _page(view, gi)


def _act(token: str, gi: int, build, field_of, hand_form: bool = False):
    """Read a form with ``build(game, form, errors) -> action``, then record it. On refusal the page comes
    back with the posted values (the hand form's own defaults when another form was posted)."""
    view = require_edit(token)
    game_obj = view.game(gi, KIND)
    errors: dict[str, str] = {}
    action = build(game_obj, request.form, errors)
    if hand_form:
        posted = request.form
    else:
        posted = _new_hand_defaults(game_obj)
        posted.setlist("new_stake", request.form.getlist("new_stake"))
    if errors:
        return _page(view, gi, errors, 422, form=posted)

    def on_error(fresh, errs, status):
        return _page(fresh, gi, errs, status, form=posted if status == 422 else None)

    return W.write_action(view, gi, action, _game_url(view, gi), on_error, field_of)


@bp.post("/s/<token>/desmoche/<int:gi>/hand")
def hand(token, gi):
    return _act(token, gi, lambda g, form, errors: {"type": "hand", "hand": _hand_from(form, g, errors)},
                _hand_field, hand_form=True)


def _stake_action(game_obj, form, errors):
    stake = W.read_int(form, "new_stake", errors, minimum=1, required=True, what="a stake")
    return {"type": "set_stake", "stake": stake}


@bp.post("/s/<token>/desmoche/<int:gi>/stake")
def stake(token, gi):
    return _act(token, gi, _stake_action, lambda path: "new_stake")


@bp.post("/s/<token>/desmoche/<int:gi>/end")
def end(token, gi):
    return _act(token, gi, lambda g, form, errors: {"type": "end_series"}, lambda path: "end")


# ----------------------------------------------------------------------------------------------------
# correcting a past hand
# ----------------------------------------------------------------------------------------------------

def _correct_page(view, gi: int, hi: int, form=None, errors=None, status=200):
    game_obj = view.game(gi, KIND)
    st = view.state["games"][gi]
    if not 0 <= hi < len(game_obj["hands"]):
        abort(404)
    s = st["hands"][hi]
    return render("desmoche_hand.html", view, status=status, gi=gi, hi=hi, game=game_obj, st=st,
                  rules=game_obj["rules"], seats=game_obj["seats"], summary=s, lines=_hand_lines(s),
                  sides=[dict(x, pot=0) for x in _sides(game_obj, st)], auto_labels=AUTO_LABELS,
                  errors=errors or {},
                  form=form if form is not None else _hand_values(game_obj, st, hi),
                  game_url=_game_url(view, gi))


@bp.route("/s/<token>/desmoche/<int:gi>/hand/<int:hi>", methods=["GET", "POST"])
def correct(token, gi, hi):
    view = require_edit(token)
    game_obj = view.game(gi, KIND)
    if not 0 <= hi < len(game_obj["hands"]):
        abort(404)
    if request.method == "GET":
        return _correct_page(view, gi, hi)
    st = view.state["games"][gi]
    errors: dict[str, str] = {}
    new_hand = _hand_from(request.form, game_obj, errors)
    stake_value = W.read_int(request.form, "stake", errors, minimum=1, what="a stake")
    if stake_value is not None:
        before = st["hands"][hi - 1]["stake"] if hi else game_obj["rules"]["stake"]
        if "stake" in game_obj["hands"][hi] or stake_value != before:
            new_hand["stake"] = stake_value
    if errors:
        return _correct_page(view, gi, hi, request.form, errors, 422)

    def on_error(fresh, errs, status):
        if hi >= len(fresh.game(gi, KIND)["hands"]):
            return _page(fresh, gi, errs, status)
        return _correct_page(fresh, gi, hi, request.form if status == 422 else None, errs, status)

    return W.write_action(view, gi, {"type": "replace_hand", "index": hi, "hand": new_hand},
                          _game_url(view, gi), on_error, _hand_field)
