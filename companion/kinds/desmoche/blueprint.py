"""Desmoche (and Conquián) pages: add a series, record each hand (stakes go in by themselves, the pot and
its multiple in words, bonuses, side games), change the stake, end the series; correct a past hand.
Forms become typed actions here; every rule decision is the kind's. Routes (under ``/s/<token>/desmoche``):

  GET/POST  /new        add a series        POST /<gi>/hand    record a hand
  GET       /<gi>       the pot (live)      POST /<gi>/stake   the stake from the next hand on
  POST      /<gi>/end   end the series      GET/POST /<gi>/hand/<hi>  correct a past hand
"""
from __future__ import annotations


from flask import Blueprint, abort, request, url_for
from werkzeug.datastructures import MultiDict

from companion.domain.messages import msg
# the app, as far as a kind may see it (companion/kinds/face.py)
from companion.kinds.face import (FormError, open_session, render, require_edit, fmt_money, money_input,
                                  only_one, read_int, read_money, template_helpers, at_of, correction,
                                  done_toast, new_game, priced, record, show, t)
from companion.kinds.validate import MAX_COUNT
from companion.kinds.desmoche import actions as A
from companion.kinds.desmoche.kind import KIND
from companion.kinds.desmoche.options import Spec
from companion.kinds.desmoche.shape import MAX_PLAYERS, SIDE_GAMES
from companion.kinds.desmoche.view import DONE, RECENT, hand_lines, page, side_label, sides, toast


# its templates and stylesheet are in this package (a kind is one folder)
bp = Blueprint("desmoche", __name__, template_folder="templates", static_folder="static",
               static_url_path="/kinds/desmoche")
TRUE = ("1", "on", "true", "yes")
MAX_MICO = 20


@bp.context_processor
def _helpers():
    return template_helpers()


def _player_value(raw: str | None):
    """Radio values: "p:<name>" is a player, "none" is nobody, None is nothing chosen."""
    if raw is None:
        return None, False
    if raw == "none":
        return None, True
    return (raw[2:] if raw.startswith("p:") else raw), True


def _one(form, name: str, errors: dict, code: str) -> str | None:
    """``only_one``, with this form's own words when two values were posted."""
    value = only_one(form, name, errors)
    if name in errors:
        errors[name] = t(msg(code))
    return value


def hand_from(form, rules: dict) -> dict:
    """A session-file hand from the posted hand form (FormError for a bad field)."""
    errors: dict = {}
    raw = _one(form, "winner", errors, "desmoche.form.one_winner")
    winner, chosen = _player_value(raw)
    if not chosen and "winner" not in errors:
        errors["winner"] = t(msg("desmoche.form.who_won"))
    hand: dict = {"winner": winner}
    disq = [p for p in form.getlist("disqualified") if p]
    auto = None
    if rules["variant"] == "desmoche":
        a = _one(form, "auto_win", errors, "desmoche.form.one_auto")
        if a and a != "none":
            auto = a
            hand["auto_win"] = a
    if rules["bonuses"]:
        mico = read_int(form, "mico", errors, maximum=MAX_MICO, what="form.what.micos")
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
        sraw = _one(form, f"side_{name}_winner", errors, "desmoche.form.one_winner")
        if f"side_{name}_winner" in errors:
            errors[f"side_{name}"] = errors.pop(f"side_{name}_winner")
        sw, _ = _player_value(sraw)
        if joined:
            side[name] = {"joined": joined, "winner": sw}
        elif sw is not None:
            errors[f"side_{name}"] = t(msg("desmoche.form.nobody_joined", name=sw, side=side_label(name)))
    if side:
        hand["side"] = side
    if errors:
        raise FormError(errors)
    return hand


def new_hand_defaults(rec) -> MultiDict:
    """Nothing ticked that costs money (no bonus is ever pre-ticked); side games joined as in the
    previous hand (everyone for the first)."""
    seats = rec.head["seats"]
    items = [("auto_win", "none")]
    last = rec.items[-1].body if len(rec.items) else None
    for name in rec.head["rules"]["side_games"]:
        joined = seats
        if last is not None:
            joined = last.get("side", {}).get(name, {}).get("joined", seats)
        items += [(f"side_{name}_joined", p) for p in joined]
        items.append((f"side_{name}_winner", "none"))
    return MultiDict(items)


def hand_values(rec, hi: int) -> MultiDict:
    """The correction form pre-filled with hand ``hi`` as recorded."""
    item = rec.items[hi]
    h = item.body
    items = [("winner", "none" if h["winner"] is None else f"p:{h['winner']}"),
             ("auto_win", h.get("auto_win") or "none"), ("stake", str(item.result["stake"]))]
    if h.get("mico"):
        items.append(("mico", str(h["mico"])))
    if h.get("same_suit"):
        items.append(("same_suit", "1"))
    # as ticked, never more: an automatic win charges every loser arriba by itself (the form says so), so
    # ticking them here would charge them silently once the automatic win is taken away
    items += [("arriba", p) for p in h.get("arriba", [])]
    items += [("disqualified", p) for p in h.get("disqualified", [])]
    for name in rec.head["rules"]["side_games"]:
        sg = h.get("side", {}).get(name)
        if sg:
            items += [(f"side_{name}_joined", p) for p in sg["joined"]]
            items.append((f"side_{name}_winner", "none" if sg["winner"] is None else f"p:{sg['winner']}"))
        else:
            items.append((f"side_{name}_winner", "none"))
    return MultiDict(items)


def _game_url(view, gi: int) -> str:
    return url_for("desmoche.game", token=view.token, gi=gi)


def hand_keys(rules: dict) -> set[str]:
    """The fields of the hand form (``hand_fields`` in desmoche/macros.html) for these rules."""
    keys = {"winner", "disqualified"} | {f"side_{name}" for name in rules["side_games"]}
    if rules["variant"] == "desmoche":
        keys.add("auto_win")
    if rules["bonuses"]:
        keys |= {"mico", "same_suit", "arriba"}
    return keys


def placed(errors: dict | None, keys: set[str]) -> dict:
    """Errors beside their fields; one whose field is not on the page goes on top, with the others."""
    shown: dict = {}
    for key, message in (errors or {}).items():
        key = key if key in keys or key in ("form", "at") else "form"
        shown[key] = (shown[key] + " " if key in shown else "") + message
    return shown


def _page(view, gi: int, errors: dict | None = None, status: int = 200, form=None):
    rec = view.game(gi, "desmoche")
    model = page(rec, view.recent(gi, RECENT))
    code = view.currency
    value = rec.head["unit_value"]
    priced(model, value, code, lambda hi: url_for("desmoche.correct", token=view.token, gi=gi, hi=hi))
    keys = set() if model["st"]["ended"] or not view.can_edit else hand_keys(rec.head["rules"]) | {"new_stake", "end"}
    errors = placed(errors, keys)
    # done=1: the toast (static/app.js takes it out of the address)
    shown = done_toast(view, status, lambda step, n: toast(rec, step, n), DONE)
    return render("desmoche/game.html", view, status=status, gi=gi, game=rec.head, errors=errors, currency=code,
                  unit_text=fmt_money(value, code), undo=view.undo_label(gi), toast=shown, here=_game_url(view, gi),
                  form=form if form is not None else new_hand_defaults(rec),
                  all_url=url_for("history.session", token=view.token) + f"#game-{gi}", **model)


# ---------------------------------------------------------------------------------------------------
# a new series

def _new_defaults(view) -> MultiDict:
    form = {f"seat{i}": p for i, p in enumerate(view.players[:MAX_PLAYERS])}
    form.update({"variant": "desmoche", "stake": "1", "side_unclaimed": "carry",
                 "unit_value": money_input(10, view.currency)})
    return MultiDict(form)


def _new_page(view, form, errors=None, status=200):
    return render("desmoche/new.html", view, status=status, form=form, errors=errors or {}, players=view.players,
                  max_seats=MAX_PLAYERS, currency=view.currency,
                  side_games=[{"name": n, "label": side_label(n), "what": {"code": f"desmoche.what.{n}"}}
                              for n in SIDE_GAMES])


def _read_new(form, code: str) -> tuple[Spec | None, dict]:
    errors: dict = {}
    seats = [s for s in ((form.get(f"seat{i}") or "").strip() for i in range(MAX_PLAYERS)) if s]
    stake = read_int(form, "stake", errors, minimum=1, required=True, what="form.what.stake")
    side_games = {}
    for name in SIDE_GAMES:
        if (form.get(f"side_on_{name}") or "").lower() not in TRUE:
            continue
        k = read_int(form, f"side_{name}", errors, minimum=1, maximum=MAX_COUNT, what="form.what.stake")
        if k is None and f"side_{name}" not in errors:
            errors[f"side_{name}"] = t(msg("desmoche.form.side_stake", side=side_label(name)))
        elif k is not None:
            side_games[name] = k
    value = read_money(form, "unit_value", code, errors)
    if errors:
        return None, errors
    return Spec(seats=seats, variant=form.get("variant") or "desmoche", stake=stake,
                bonuses=(form.get("bonuses") or "").lower() in TRUE,
                color_wins=(form.get("color_wins") or "").lower() in TRUE, side_games=side_games,
                side_unclaimed=form.get("side_unclaimed") or "carry",
                unit_value=10 if value is None else value), errors


@bp.route("/s/<token>/desmoche/new", methods=["GET", "POST"])
def new(token):
    return new_game(token, "desmoche", _new_page, _new_defaults, lambda view, form: _read_new(form, view.currency))


# ---------------------------------------------------------------------------------------------------
# the series

@bp.get("/s/<token>/desmoche/<int:gi>")
def game(token, gi):
    return show(token, gi, "desmoche", _page)


def _act(token: str, gi: int, build, what: str, hand_form: bool = False):
    """Read a form with ``build(rec, form) -> action``, then record it. On refusal the page comes back
    with the posted values (the hand form's own defaults when another form was posted)."""
    view = require_edit(token)
    rec = view.game(gi, "desmoche")
    form = request.form
    if hand_form:
        posted = form
    else:
        posted = new_hand_defaults(rec)
        posted.setlist("new_stake", form.getlist("new_stake"))

    def on_error(errors, status):
        # record() tells the address bar it is the table's page
        return _page(open_session(token), gi, errors, status, form=posted if status == 422 else None)

    return record(view, gi, lambda: build(rec, form), on_error,
                  location=url_for("desmoche.game", token=token, gi=gi, done=1, step=what))


@bp.post("/s/<token>/desmoche/<int:gi>/hand")
def hand(token, gi):
    return _act(token, gi, lambda rec, form: A.Hand(hand=hand_from(form, rec.head["rules"]), at=at_of(form)),
                "hand", hand_form=True)


def _stake(rec, form):
    errors: dict = {}
    stake = read_int(form, "new_stake", errors, minimum=1, required=True, what="form.what.stake")
    if errors:
        raise FormError(errors)
    return A.SetStake(stake=stake, at=at_of(form))


@bp.post("/s/<token>/desmoche/<int:gi>/stake")
def stake(token, gi):
    return _act(token, gi, _stake, "stake")


@bp.post("/s/<token>/desmoche/<int:gi>/end")
def end(token, gi):
    return _act(token, gi, lambda rec, form: A.EndSeries(at=at_of(form)), "end")


# ---------------------------------------------------------------------------------------------------
# correcting a past hand

def _correct_page(view, gi: int, hi: int, form=None, errors=None, status=200):
    rec = view.game(gi, "desmoche")
    if not 0 <= hi < len(rec.items):
        abort(404)
    result = rec.items[hi].result
    return render("desmoche/hand.html", view, status=status, gi=gi, hi=hi, game=rec.head, at=KIND.position(rec),
                  rules=rec.head["rules"], seats=rec.head["seats"], summary=result, lines=hand_lines(result),
                  sides=[dict(x, pot=0) for x in sides(rec, {})],
                  errors=placed(errors, hand_keys(rec.head["rules"]) | {"stake"}),
                  auto_labels={k: {"code": f"desmoche.autolabel.{k}"} for k in ("peladilla", "cuatro_cuerpos", "color")},
                  form=form if form is not None else hand_values(rec, hi), game_url=_game_url(view, gi))


@bp.route("/s/<token>/desmoche/<int:gi>/hand/<int:hi>", methods=["GET", "POST"])
def correct(token, gi, hi):
    return correction(token, "desmoche", gi, hi, lambda rec, form: _replacement(rec, form, hi), _page,
                      _correct_page)


def _replacement(rec, form, hi: int):
    """Hand ``hi`` as the correction form says it was (its stake only when it differs from the running one,
    or was recorded)."""
    errors: dict = {}
    try:
        new_hand = hand_from(form, rec.head["rules"])
    except FormError as err:
        errors.update(err.errors)
        new_hand = {}
    stake_value = read_int(form, "stake", errors, minimum=1, what="form.what.stake")
    if errors:
        raise FormError(errors)
    if stake_value is not None:
        before = rec.items[hi - 1].result["stake"] if hi else rec.head["rules"]["stake"]
        if "stake" in rec.items[hi].body or stake_value != before:
            new_hand["stake"] = stake_value
    return A.ReplaceHand(index=hi, hand=new_hand, at=at_of(form))


