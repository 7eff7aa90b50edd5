"""Mus pages: add a match, record a hand lance by lance, the count, undo, correct a past hand, the
quick reference. Forms become typed actions here; every rule decision is the kind's."""
from __future__ import annotations

import json
from dataclasses import replace
from urllib.parse import urlencode

from flask import Blueprint, abort, request, url_for

from ... import money
from ...errors import RuleError
from ...jsonparse import parse_document
from ...messages import msg
from ...web.common import FormError, open_session, perform, refusal, render, require_edit, see_other, unchanged_poll
from ...web.forms import only_one, read_int, read_money, template_helpers
from ...web.games import at_of, new_game, record, show
from ...web.i18n import t
from ..base import GameRec, apply_change, fingerprint
from . import actions as A
from . import cards as C
from .kind import KIND, NewMus
from .options import LANCES, OPTIONS, PRESETS, RANGES, TEAMS, effective
from .view import JUEGO_CHOICES, PARES_CHOICES, RECENT, hand_view, moved, page

bp = Blueprint("mus", __name__)


@bp.context_processor
def _helpers():
    return template_helpers()


# ---------------------------------------------------------------------------------------------------
# form fields -> typed actions

def _cards_from(form, seats: list[str]) -> dict:
    cards, errors = {}, {}
    for i, name in enumerate(seats):
        raw = (form.get(f"cards{i}") or "").strip()
        if not raw:
            errors[f"cards{i}"] = t(msg("mus.form.cards_needed", name=name))
        elif C.canon_hand(raw) is None:
            errors[f"cards{i}"] = t(msg("mus.form.cards_bad", text=raw[:12]))
        else:
            cards[name] = C.canon_hand(raw)
    if errors:
        raise FormError(errors)
    return cards


def read_action(form, seats: list[str]):
    """One typed action from a scoring form. The button's ``move`` says which; other fields fill it in."""
    move = (form.get("move") or "").strip()
    parts = move.split(":")
    kind = parts[0]
    errors: dict = {}
    if kind == "pass":
        return A.Pass()
    if kind == "bet":
        team = parts[1] if len(parts) > 1 else ""
        if team not in TEAMS:
            raise FormError({"move": t(msg("mus.which_team"))})
        if len(parts) > 2:
            amount = read_int({"a": parts[2]}, "a", errors, minimum=1, maximum=999)
        else:
            amount = read_int(form, f"amount_{team}", errors, minimum=1, maximum=999, required=True)
        if errors:
            raise FormError({f"amount_{team}": next(iter(errors.values()))})
        return A.Bet(team=team, amount=amount)
    if kind == "more":
        more = read_int({"m": parts[1] if len(parts) > 1 else ""}, "m", errors, minimum=1, maximum=999, required=True)
        if errors:
            raise FormError({"to": next(iter(errors.values()))})
        return A.Raise(more=more)
    if kind == "to":
        to = read_int(form, "to", errors, minimum=1, maximum=999, required=True)
        if errors:
            raise FormError(errors)
        return A.Raise(to=to)
    if kind == "ordago":
        return A.Ordago(team=parts[1] if len(parts) > 1 and parts[1] in TEAMS else None)
    if kind == "call":
        return A.Call()
    if kind == "fold":
        return A.Fold()
    if kind == "declare":
        keys = [k for k in (form.get("lances") or "pares,juego").split(",") if k in ("pares", "juego")]
        fields = {}
        for key in keys:
            held = {}
            for i, name in enumerate(seats):
                v = only_one(form, f"{key}{i}", errors)
                if v in (None, "", "none"):
                    continue
                held[name] = int(v) if key == "juego" and v.isdigit() else v
            fields[key] = held
        if errors:
            raise FormError(errors)
        return A.Declare(**fields)
    if kind == "showdown":
        winners = {}
        for L in LANCES:
            v = form.get(f"win_{L}")
            if v in TEAMS:
                winners[L] = v
        # "showdown:chica:B" or, from the two-lance grid, "showdown:grande:A:chica:B"
        for L, team in zip(parts[1::2], parts[2::2]):
            if L in LANCES and team in TEAMS:
                winners[L] = team
        return A.Showdown(**winners)
    if kind == "cards":
        cards = _cards_from(form, seats)
        if len(parts) > 1 and parts[1] == "showdown":
            return A.Showdown(cards=cards)
        return A.StartHand(cards=cards)
    if kind == "start":
        mano = form.get("mano") or None
        return A.StartHand(mano=mano if mano in seats else None)
    raise FormError({"move": t(msg("mus.form.not_a_move"))})


def with_at(action, form):
    """The position the phone saw goes with the action (a step already recorded is refused)."""
    return replace(action, at=at_of(form))


def _field_of(path: str, form, seats: list[str]) -> str:
    """Where to show an engine error: beside the field the action came from, else at the step."""
    move = form.get("move") or ""
    if path.startswith("cards."):
        name = path[len("cards."):]
        return f"cards{seats.index(name)}" if name in seats else "cards"
    if path == "cards":
        return "cards"
    if path == "amount" and move.count(":") == 1:
        return f"amount_{move.split(':')[1]}"
    if path in ("to", "more") and move == "to":
        return "to"
    return "step"


def _typed(form, seats: list[str]) -> dict | None:
    """The cards a refused form carried, to show them again as typed."""
    typed = {name: (form.get(f"cards{i}") or "")[:16] for i, name in enumerate(seats)}
    return typed if any(typed.values()) else None


# ---------------------------------------------------------------------------------------------------
# pages

def _stake_texts(view, rec: GameRec) -> dict:
    stake = rec.head.get("stake") or {}
    code = view.currency
    return {k: money.format_amount(stake[k], code) for k in ("per_game", "per_match") if k in stake}


def _page(view, gi: int, status: int = 200, errors: dict | None = None, typed: dict | None = None):
    rec = view.game(gi, "mus")
    picks = {L: request.args.get(f"win_{L}") for L in LANCES} if view.can_edit else {}
    model = page(rec, view.recent(gi, RECENT), picks=picks,
                 base_url=url_for("mus.game", token=view.token, gi=gi))
    notice = []
    fixed = request.args.get("fixed", type=int)
    if view.can_edit and fixed:
        was = [int(x) for x in request.args.get("was", "").split(".") if x.isdigit()]
        notice = moved(was, rec.state["game_ends"], fixed)
    return render("mus/game.html", view, status=status, gi=gi, game=rec.head, errors=errors or {}, notice=notice,
                  typed=typed,
                  act_url=url_for("mus.act", token=view.token, gi=gi), stakes=_stake_texts(view, rec),
                  undo=view.undo_label(gi), pares_choices=PARES_CHOICES, juego_choices=JUEGO_CHOICES, **model)


def _read_new(form, players: list[str], code: str) -> tuple[NewMus | None, dict]:
    errors: dict = {}
    seats = [(form.get(f"seat{i}") or "").strip() for i in range(4)]
    preset = form.get("preset") or "pagat"
    if preset not in PRESETS:
        errors["preset"] = t(msg("mus.unknown_preset", preset=preset[:20]))
        preset = "pagat"
    options = []
    for k in OPTIONS:
        if k == "min_bet":
            continue
        lo, hi = RANGES[k]
        v = read_int(form, k, errors, minimum=lo, maximum=hi)
        if v is not None:
            options.append((k, v))
    fives = []
    for team, idx in (("A", (0, 2)), ("B", (1, 3))):
        pos = form.get(f"fives_{team}_pos")
        if pos in ("0", "1") and seats[idx[int(pos)]]:
            fives.append((team, seats[idx[int(pos)]]))
    per_game = read_money(form, "stake_game", code, errors)
    per_match = read_money(form, "stake_match", code, errors)
    names = tuple((team, (form.get(f"name_{team}") or "").strip()) for team in TEAMS
                  if (form.get(f"name_{team}") or "").strip())
    if errors:
        return None, errors
    return NewMus(seats=tuple(seats), preset=preset, options=tuple(options), fives=tuple(fives),
                  per_game=per_game or None, per_match=per_match or None, team_names=names), errors


def _new_page(view, form, errors=None, status=200):
    return render("mus/new.html", view, status=status, form=form, errors=errors or {}, players=view.players,
                  presets=PRESETS)


@bp.route("/s/<token>/mus/new", methods=["GET", "POST"])
def new(token):
    return new_game(token, "mus", _new_page, _new_defaults,
                    lambda view, form: _read_new(form, view.players, view.currency),
                    lambda path: {"fives_A": "fives_A_pos", "fives_B": "fives_B_pos"}.get(path, path or "form"))


def _new_defaults(view) -> dict:
    return {f"seat{i}": p for i, p in enumerate(view.players)} if len(view.players) == 4 else {}


@bp.get("/s/<token>/mus/<int:gi>")
def game(token, gi):
    return show(token, gi, "mus", _page)


@bp.route("/s/<token>/mus/<int:gi>/act", methods=["GET", "POST"])
def act(token, gi):
    if request.method == "GET":
        # an error page was shown at this address: its live poll (and a reload) land here
        view = open_session(token)
        view.game(gi, "mus")
        return unchanged_poll(view) or see_other(url_for("mus.game", token=token, gi=gi))
    view = require_edit(token)
    rec = view.game(gi, "mus")
    form = request.form

    seats = rec.head["seats"]

    def on_error(errors, status):
        if status == 409:
            errors = {"stale": errors.pop("at", "")} | errors
        return _page(open_session(token), gi, status, errors, typed=_typed(form, seats))

    return record(view, gi, lambda: with_at(read_action(form, seats), form), on_error,
                  lambda path: _field_of(path, form, seats))


@bp.get("/s/<token>/mus/<int:gi>/reference")
def reference(token, gi):
    view = open_session(token)
    rec = view.game(gi, "mus")
    R = effective(rec.head["rules"])
    return render("mus/reference.html", view, gi=gi, R=R, juego_order=C.JUEGO_ORDER, bonus=C.PARES_BONUS)


# ---------------------------------------------------------------------------------------------------
# correcting a past hand: re-record it with the same controls on a scratch copy, then replace it

def _past(view, gi: int, hn: int) -> tuple[GameRec, int]:
    """The game and the index of its ``hn``-th element (1-based), which must be a finished hand."""
    rec = view.game(gi, "mus")
    hi = hn - 1
    if not 0 <= hi < len(rec.items) or "open" in rec.items[hi].body:
        abort(404)
    return rec, hi


def _sandbox(rec: GameRec, hi: int, draft: dict | None) -> GameRec:
    """The match as it stood before hand ``hi``, with the draft of its correction as its only hand."""
    before = rec.items[hi].before
    if draft is None:
        return GameRec("mus", rec.head, [], before)
    items, state = KIND.play_from(rec.head, before, [draft], hi)
    return GameRec("mus", rec.head, items, state)


def _draft_from(raw: str | None) -> dict | None:
    if not raw:
        return None
    try:
        draft = parse_document(raw, max_bytes=16 * 1024, max_depth=8)
    except RuleError:
        raise FormError({"step": t(msg("mus.form.draft_bad"))}) from None
    if not isinstance(draft, dict):
        raise FormError({"step": t(msg("mus.form.draft_bad"))})
    return draft


def _dump(draft) -> str:
    return json.dumps(draft, ensure_ascii=False, separators=(",", ":")) if draft else ""


def _hand_page(view, gi: int, hn: int, draft: dict | None, status: int = 200, errors: dict | None = None,
               was: str | None = None):
    rec, hi = _past(view, gi, hn)
    errors = dict(errors or {})
    try:
        box = _sandbox(rec, hi, draft)
    except RuleError as err:
        errors.setdefault("step", t(msg("mus.form.draft_unusable", why=err.msg)))
        draft, box = None, _sandbox(rec, hi, None)
    orig = rec.items[hi]
    mano = orig.body.get("mano") or orig.result.get("mano")
    here = url_for("mus.hand", token=view.token, gi=gi, hn=hn)
    picks = {L: request.args.get(f"win_{L}") for L in LANCES} if request.method == "GET" else {}
    model = page(box, list(box.items), picks=picks, mano_override=mano,
                 base_url=here + "?" + urlencode({"draft": _dump(draft), "was": was or fingerprint(orig.body)})
                 if draft else None)
    model["ui"]["hand_no"] = hn
    done = draft is not None and "open" not in draft
    return render("mus/hand.html", view, status=status, gi=gi, hn=hn, game=rec.head, errors=errors,
                  old=hand_view(orig.result), new=hand_view(box.items[0].result) if done else None, done=done,
                  draft=_dump(draft), was=was or fingerprint(orig.body), act_url=here,
                  orig_cards=orig.body.get("cards"), pares_choices=PARES_CHOICES, juego_choices=JUEGO_CHOICES,
                  sst=model["st"], ui=model["ui"], names=model["names"])


@bp.route("/s/<token>/mus/<int:gi>/hand/<int:hn>", methods=["GET", "POST"])
def hand(token, gi, hn):
    view = require_edit(token)
    rec, hi = _past(view, gi, hn)
    source = request.args if request.method == "GET" else request.form
    was = source.get("was") or None
    try:
        draft = _draft_from(source.get("draft"))
    except FormError as err:
        return _hand_page(view, gi, hn, None, status=422, errors=err.errors, was=was)
    if request.method == "GET":
        return _hand_page(view, gi, hn, draft, was=was)
    form = request.form
    here = url_for("mus.hand", token=token, gi=gi, hn=hn)
    if form.get("move") == "restart":
        return see_other(here)
    if form.get("move") == "save":
        if draft is None or "open" in draft:
            return _hand_page(view, gi, hn, draft, status=422, errors={"step": t(msg("mus.form.finish_hand"))}, was=was)
        if was and was != fingerprint(rec.items[hi].body):
            # another phone corrected this hand since this one opened it: keep the draft to redo
            return _hand_page(view, gi, hn, draft, status=409, errors={"stale": t(msg("mus.form.hand_changed"))},
                              was=fingerprint(rec.items[hi].body))
        ends = ".".join(str(x) for x in rec.state["game_ends"])
        location = url_for("mus.game", token=token, gi=gi) + "?" + urlencode({"fixed": hn, "was": ends})
        try:
            perform(view, "game", {"game": gi, "action": A.ReplaceHand(index=hi, hand=draft)}, location)
        except RuleError as err:
            return _hand_page(view, gi, hn, draft, status=refusal(err), errors={"step": t(err.msg)}, was=was)
        return see_other(location)
    orig = rec.items[hi].body
    box = _sandbox(rec, hi, draft)
    try:
        action = read_action(form, rec.head["seats"])
        if draft is None and orig.get("mano"):
            if isinstance(action, A.StartHand):
                action = A.StartHand(mano=orig["mano"], cards=action.cards)
            else:
                box, _inv = apply_change(box, KIND.apply(box, A.StartHand(mano=orig["mano"])))
        box, _inv = apply_change(box, KIND.apply(box, action))
    except FormError as err:
        return _hand_page(view, gi, hn, draft, status=422, errors=err.errors, was=was)
    except RuleError as err:
        return _hand_page(view, gi, hn, draft, status=422,
                          errors={_field_of(err.path, form, rec.head["seats"]): t(err.msg)}, was=was)
    new_draft = box.items[0].body if len(box.items) else None
    return see_other(f"{here}?{urlencode({'draft': _dump(new_draft), 'was': was or fingerprint(orig)})}")
