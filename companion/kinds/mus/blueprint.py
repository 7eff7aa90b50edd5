"""Mus pages: add a match, record a hand lance by lance, the count, undo, correct a past hand, the
quick reference. Forms become typed actions here; every rule decision is the kind's."""
from __future__ import annotations

from dataclasses import replace

from flask import Blueprint, request, url_for
from werkzeug.datastructures import MultiDict

from companion.domain import numbers
from companion.domain.messages import msg
# the app, as far as a kind may see it (companion/kinds/face.py)
from companion.kinds.face import (open_session, render, require_edit, see_other, unchanged_poll, read_int,
                                  read_money, template_helpers, at_of, new_game, record, show, fmt_money, t)
from companion.kinds.base import GameRec
from companion.kinds.mus import cards as C
from companion.kinds.mus import fix, moves
from companion.kinds.mus.kind import NewMus
from companion.kinds.mus.options import LANCES, OPTIONS, PRESETS, RANGES, TEAMS, effective
from companion.kinds.mus.shape import TALLY_LANCES
from companion.kinds.mus.moves import MAX_TALLY, read_tally
from companion.kinds.mus.view import JUEGO_CHOICES, PARES_CHOICES, RECENT, moved, page, preset_name, toast


# its templates and stylesheet are in this package (a kind is one folder)
bp = Blueprint("mus", __name__, template_folder="templates", static_folder="static", static_url_path="/kinds/mus")


@bp.context_processor
def _helpers():
    return {**template_helpers(), "mv": moves.mv}      # a button's move, written by the codec


def with_at(action, form):
    """The position the phone saw goes with the action (a step already recorded is refused)."""
    return replace(action, at=at_of(form))


# ---------------------------------------------------------------------------------------------------
# pages

def _stake_texts(view, rec: GameRec) -> dict:
    stake = rec.head.get("stake") or {}
    code = view.currency
    return {k: fmt_money(stake[k], code) for k in ("per_game", "per_match") if k in stake}


def _page(view, gi: int, status: int = 200, errors: dict | None = None, typed: dict | None = None):
    rec = view.game(gi, "mus")
    here = url_for("mus.game", token=view.token, gi=gi)
    # a refused form comes back as it was sent: its fields say which screen it was on; a stale one (409) was
    # sent from a screen that is gone: the screen now is shown fresh (an old tally is never one tap from
    # being counted again on the next hand), in the same mode
    args = request.values if view.can_edit else {}
    if status == 409 and args:
        args = MultiDict([("mode", args["mode"])] if args.get("mode") else [])
    picks = {L: args.get(f"win_{L}") for L in LANCES}
    model = page(rec, view.recent(gi, RECENT), picks=picks, base_url=here, mode=args.get("mode"),
                 tally=_tally_arg(args), tally_lance=args.get("tl"), rest=bool(args.get("rest")))
    notice = []
    fixed = args.get("fixed", type=numbers.int_or_none) if args else None
    if fixed:
        # the game ends before the fix (hand numbers: a few digits each; anything else is not ours)
        was = [int(x) for x in args.get("was", "")[:400].split(".") if numbers.is_ascii_int(x) and len(x) <= 6]
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
    value = read_int({"points": points}, "points", {}, minimum=1, maximum=999)   # the one number reader
    if team in TEAMS and value is not None:
        why = " ".join((args.get("why") or "").split())[:120]
        awards.append([team, value, args.get("tl") if args.get("tl") in TALLY_LANCES else None]
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
        return _page(open_session(token), gi, status, errors,
                     typed=moves.typed_cards(form, seats) if status != 409 else None)

    location = url_for("mus.game", token=token, gi=gi, done="scoring") \
        if (form.get("move") or "").startswith("scoring:") else None
    return record(view, gi, lambda: with_at(moves.decode(form, seats), form), on_error,
                  lambda path: moves.form_field(path, form, seats), location=location)


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

# fixing a past hand (its own module: the draft, saving it, recording it again)
bp.add_url_rule("/s/<token>/mus/<int:gi>/hand/<int:hn>", endpoint="hand", view_func=fix.hand, methods=["GET", "POST"])
