"""Mus pages: add a match, record a hand lance by lance, the count, undo, correct a past hand, the
quick reference. Forms become typed actions here; every rule decision is the kind's."""
from __future__ import annotations

from dataclasses import replace

from flask import Blueprint, request, url_for

from ...messages import msg
from ...web.common import FormError, open_session, render, require_edit, see_other, unchanged_poll
from ...web.forms import only_one, read_int, read_money, template_helpers
from ...web.games import at_of, new_game, record, show
from ...web.i18n import fmt_money, t
from ..base import GameRec
from . import actions as A
from . import cards as C
from .kind import NewMus
from .options import LANCES, OPTIONS, PRESETS, RANGES, TEAMS, effective
from .shape import TALLY_LANCES
from .view import (MAX_TALLY, JUEGO_CHOICES, PARES_CHOICES, RECENT, moved, page, preset_name, read_tally,
                   tally_awards, toast)

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


def _held_from(form, seats: list[str], errors: dict, keys=("pares", "juego")) -> dict:
    """What each player held, from the rows of toggles (``pares0``, ``juego2``...); absent: nothing."""
    fields = {}
    for key in keys:
        held = {}
        for i, name in enumerate(seats):
            v = only_one(form, f"{key}{i}", errors)
            if v in (None, "", "none"):
                continue
            held[name] = int(v) if key == "juego" and v.isdigit() else v
        fields[key] = held
    return fields


def read_action(form, seats: list[str]):
    """One typed action from a scoring form. The button's ``move`` says which; other fields fill it in."""
    move = (form.get("move") or "").strip()
    parts = move.split(":")
    kind = parts[0]
    errors: dict = {}
    if kind == "pass":
        return A.Pass()
    if kind == "bet":
        # "bet:A:2", "bet:A:2:call" (answered at once) or "bet:A" with the amount typed
        team = parts[1] if len(parts) > 1 else ""
        if team not in TEAMS:
            raise FormError({"move": t(msg("mus.which_team"))})
        if len(parts) > 2:
            amount = read_int({"a": parts[2]}, "a", errors, minimum=1, maximum=999)
        else:
            amount = read_int(form, f"amount_{team}", errors, minimum=1, maximum=999, required=True)
        if errors:
            raise FormError({f"amount_{team}": next(iter(errors.values()))})
        answer = parts[3] if len(parts) > 3 else None
        if answer not in (None, "call", "fold"):
            raise FormError({"move": t(msg("mus.form.not_a_move"))})
        return A.Bet(team=team, amount=amount, answer=answer)
    if kind == "rest":
        # "rest", "rest:grande:A" or "rest:grande:A:chica:B" (the count's grid), with what was held
        winners = {L: form.get(f"win_{L}") for L in ("pares", "juego") if form.get(f"win_{L}") in TEAMS}
        for L, team in zip(parts[1::2], parts[2::2]):
            if L in LANCES and team in TEAMS:
                winners[L] = team
        held = _held_from(form, seats, errors)
        if errors:
            raise FormError(errors)
        return A.PassRest(**winners, pares_held=held.get("pares"), juego_held=held.get("juego"))
    if kind == "tally":
        awards = tally_awards(read_tally(form.get("tally")))
        return A.Tally(awards=awards)
    if kind == "adjust":
        team = form.get("adjust_team")
        if team not in TEAMS:
            errors["adjust_team"] = t(msg("mus.which_team"))
        points = read_int(form, "adjust_points", errors, minimum=-999, maximum=999, required=True)
        if points == 0:
            errors["adjust_points"] = t(msg("mus.adjust_zero"))
        why = " ".join((form.get("adjust_why") or "").split()) or None
        if errors:
            raise FormError(errors)
        return A.Adjust(team=team, points=points, why=why)
    if kind == "scoring":
        return A.SetScoring(scoring=parts[1] if len(parts) > 1 else "")
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
        fields = _held_from(form, seats, errors, keys)
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
    kind = move.split(":")[0]
    if path.startswith("cards."):
        name = path[len("cards."):]
        return f"cards{seats.index(name)}" if name in seats else "cards"
    if path == "cards":
        return "cards"
    if path == "amount" and move.count(":") == 1:
        return f"amount_{move.split(':')[1]}"
    if path in ("to", "more") and move == "to":
        return "to"
    if kind == "rest":
        if path.startswith(("pares_held", "juego_held")):
            return path.split("_")[0]
        if path in ("pares", "juego"):
            return f"win_{path}"
    if kind == "adjust" and path in ("team", "points", "why"):
        return f"adjust_{path}"
    if kind == "tally":
        return "tally"
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
    return {k: fmt_money(stake[k], code) for k in ("per_game", "per_match") if k in stake}


def _page(view, gi: int, status: int = 200, errors: dict | None = None, typed: dict | None = None):
    rec = view.game(gi, "mus")
    here = url_for("mus.game", token=view.token, gi=gi)
    # a refused form comes back as it was sent: its fields say which screen it was on
    args = request.values if view.can_edit else {}
    picks = {L: args.get(f"win_{L}") for L in LANCES}
    model = page(rec, view.recent(gi, RECENT), picks=picks, base_url=here, mode=args.get("mode"),
                 tally=_tally_arg(args), tally_lance=args.get("tl"), rest=bool(args.get("rest")))
    notice = []
    fixed = args.get("fixed", type=int) if args else None
    if fixed:
        was = [int(x) for x in args.get("was", "").split(".") if x.isdigit()]
        notice = moved(was, rec.state["game_ends"], fixed)
    shown = None
    if args.get("done") == "scoring":
        shown = msg("mus.toast.scoring_" + rec.head.get("scoring", "bids"))
    elif args.get("done") and status == 200:
        shown = toast(rec)
    return render("mus/game.html", view, status=status, gi=gi, game=rec.head, errors=errors or {}, notice=notice,
                  typed=typed, here=here, toast=shown, preset_name=preset_name(rec.head),
                  act_url=url_for("mus.act", token=view.token, gi=gi), stakes=_stake_texts(view, rec),
                  undo=view.undo_label(gi), pares_choices=PARES_CHOICES, juego_choices=JUEGO_CHOICES, **model)


def _tally_arg(args) -> list:
    """The tally in progress, plus the award typed in "another number" (a GET form: nothing is written
    until the hand is counted)."""
    awards = read_tally(args.get("tally"))
    team, points = args.get("team"), args.get("points", "")
    if team in TEAMS and points.strip().isdigit() and 1 <= int(points) <= 999:
        why = " ".join((args.get("why") or "").split())[:120]
        awards.append([team, int(points), args.get("tl") if args.get("tl") in TALLY_LANCES else None]
                      + ([why] if why else []))
    return awards[:MAX_TALLY]


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
    scoring = form.get("scoring") or "bids"
    if scoring not in ("bids", "tally"):
        errors["scoring"] = t(msg("mus.scoring", known="bids, tally"))
    if errors:
        return None, errors
    return NewMus(seats=tuple(seats), preset=preset, options=tuple(options), fives=tuple(fives),
                  per_game=per_game or None, per_match=per_match or None, team_names=names,
                  scoring=scoring), errors


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

    location = url_for("mus.game", token=token, gi=gi, done="scoring") \
        if (form.get("move") or "").startswith("scoring:") else None
    return record(view, gi, lambda: with_at(read_action(form, seats), form), on_error,
                  lambda path: _field_of(path, form, seats), location=location)


@bp.get("/s/<token>/mus/<int:gi>/reference")
def reference(token, gi):
    view = open_session(token)
    rec = view.game(gi, "mus")
    R = effective(rec.head["rules"])
    senas = [({"code": f"mus.sena.{k}"}, {"code": f"mus.sena.{k}_means"}) for k in SENAS]
    return render("mus/reference.html", view, gi=gi, R=R, juego_order=C.JUEGO_ORDER, bonus=C.PARES_BONUS,
                  senas=senas, preset_name=preset_name(rec.head))


SENAS = ("lip", "lip_side", "tongue", "tongue_side", "lips_twisted", "eyebrows", "wink", "lips_out", "shoulders",
         "shoulder", "eyes", "kiss")     # in the order of shared/rules/mus.md


from . import fix  # noqa: E402,F401  (the fix-a-past-hand routes, on this blueprint)
