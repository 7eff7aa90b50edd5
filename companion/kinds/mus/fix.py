"""Fixing a past hand: open it, change only what was wrong (a lance's winner, its bids, what was held,
the cards, a tally's points), see what the hand gives now, save. Every change before Save is a link
carrying the draft (nothing is written); Save replaces the hand and every later point is recomputed.
"Record it again" re-records the hand with the scoring controls on a scratch copy."""
from __future__ import annotations

import json
from urllib.parse import urlencode

from flask import abort, request, url_for

from companion.domain.errors import RuleError
from companion.domain.jsonparse import parse_document
from companion.domain.messages import msg
# the app, as far as a kind may see it (companion/kinds/face.py)
from companion.kinds.face import FormError, perform, refusal, render, require_edit, see_other, read_int, t
from companion.kinds.base import GameRec, apply_change, fingerprint
from companion.kinds.mus import actions as A
from companion.kinds.mus.moves import cards_from, decode, form_field, held_from
from companion.kinds.mus.fixview import fix_view, with_cards, with_held, with_tally_award
from companion.kinds.mus.kind import KIND, ctx_of, team_names
from companion.kinds.mus.options import TEAMS, effective
from companion.kinds.mus.shape import TALLY_LANCES, norm_item
from companion.kinds.mus.view import JUEGO_CHOICES, PARES_CHOICES, hand_view, page


def _past(view, gi: int, hn: int) -> tuple[GameRec, int]:
    """The game and the index of its ``hn``-th element (1-based), which must be a finished hand (an
    adjustment is taken back with undo or another adjustment)."""
    rec = view.game(gi, "mus")
    hi = hn - 1
    if not 0 <= hi < len(rec.items) or "open" in rec.items[hi].body or "adjust" in rec.items[hi].body:
        abort(404)
    return rec, hi


def _sandbox(rec: GameRec, hi: int, draft: dict | None) -> GameRec:
    """The match as it stood before hand ``hi``, with the draft of its correction as its only hand."""
    before = rec.items[hi].before
    if draft is None:
        return GameRec("mus", rec.head, [], before)
    items, state = KIND.play_from(rec.head, before, [draft], hi)
    return GameRec("mus", rec.head, items, state)


def _draft_from(raw: str | None, rec: GameRec) -> dict | None:
    """The draft in the address, shaped as a hand of the session file (its play is checked later: a draft
    that plays wrong is shown with why); anything else is refused."""
    if not raw:
        return None
    try:
        draft = parse_document(raw, max_bytes=16 * 1024, max_depth=8)
        if not isinstance(draft, dict):
            raise RuleError("mus.hand_shape", "draft")
        norm_item(draft, "draft", rec.head["seats"], ctx_of(rec.head).kings)
    except RuleError:
        raise FormError({"step": t(msg("mus.form.draft_bad"))}) from None
    return draft


def _dump(draft) -> str:
    return json.dumps(draft, ensure_ascii=False, separators=(",", ":")) if draft else ""


def _link(here: str, draft: dict | None, was: str, **extra) -> str:
    return here + "?" + urlencode({**({"draft": _dump(draft)} if draft else {}), "was": was, **extra})


def _hand_page(view, gi: int, hn: int, draft: dict | None, status: int = 200, errors: dict | None = None,
               was: str | None = None, redo: bool = False):
    rec, hi = _past(view, gi, hn)
    errors = {k: t(v) for k, v in (errors or {}).items()}      # a codec's refusal is a message code
    orig = rec.items[hi]
    was = was or fingerprint(orig.body)
    here = url_for("mus.hand", token=view.token, gi=gi, hn=hn)
    if draft is None and not redo:
        draft = orig.body
    needs = ()
    try:
        box = _sandbox(rec, hi, draft)
    except RuleError as err:
        # the draft plays wrong by itself (a changed bid that needs a winner, say): show why, keep it, and
        # offer the choice it lacks (the better pares when both teams hold pareja...)
        errors.setdefault("draft", t(msg("mus.form.draft_unusable", why=err.msg)))
        box = None
        if ".showdown." in (err.path or ""):
            needs = (err.path.rsplit(".", 1)[-1],)
    recording = draft is None or "open" in draft
    common = dict(status=status, gi=gi, hn=hn, game=rec.head, errors=errors, old=hand_view(orig.result),
                  draft=_dump(draft), was=was, act_url=here, here=here, team_names=team_names(rec.head),
                  pares_choices=PARES_CHOICES, juego_choices=JUEGO_CHOICES, orig_cards=orig.body.get("cards"))
    if recording and box is not None:
        picks = {L: request.args.get(f"win_{L}") for L in ("grande", "chica", "pares", "juego")} \
            if request.method == "GET" else {}
        mano = orig.body.get("mano") or orig.result.get("mano")
        model = page(box, list(box.items), picks=picks, mano_override=mano, mode="bids",
                     base_url=_link(here, draft, was, redo=1), rest=bool(request.values.get("rest")))
        model["ui"]["hand_no"] = orig.result["hand"]
        common["here"] = _link(here, draft, was, redo=1)
        return render("mus/hand.html", view, recording=True, sst=model["st"], ui=model["ui"],
                      names=model["names"], **common)
    # the draft is a whole hand: what it gives, and whether the match can take it
    new = hand_view(box.items[0].result) if box is not None else None
    if box is not None and draft != orig.body and "draft" not in errors:
        try:
            KIND.apply(rec, A.ReplaceHand(index=hi, hand=draft))
        except RuleError as err:
            errors["draft"] = t(err.msg)
    model = fix_view(draft, box.items[0].result if box is not None else None, effective(rec.head["rules"]),
                     lambda d: _link(here, d, was), needs=needs)
    return render("mus/hand.html", view, recording=False, new=new, fix=model, changed=draft != orig.body,
                  seats=rec.head["seats"], redo_url=_link(here, None, was, redo=1),
                  reset_url=here, **common)


def _edit_draft(args, draft: dict, seats: list[str]) -> dict:
    """A GET form of the fix page changed part of the draft: what was held, the cards, a tally award."""
    errors: dict = {}
    what = args.get("edit")
    if what == "held":
        held = held_from(args, seats, errors)
        if errors:
            raise FormError(errors)
        return with_held(draft, held.get("pares", {}), held.get("juego", {}),
                         {L: args.get(f"win_{L}") for L in ("pares", "juego") if args.get(f"win_{L}") in TEAMS})
    if what == "cards":
        return with_cards(draft, cards_from(args, seats))
    if what == "award":
        team = args.get("team")
        points = read_int(args, "points", errors, minimum=1, maximum=999, required=True)
        if team not in TEAMS:
            errors["team"] = t(msg("mus.which_team"))
        if errors:
            raise FormError(errors)
        lance_name = args.get("tl") if args.get("tl") in TALLY_LANCES else None
        return with_tally_award(draft, team, points, lance_name)
    return draft


def hand(token, gi, hn):
    """The fix page of hand ``hn``: GET shows the draft (or applies an edit of it), POST saves it or
    records one more step of it again."""
    view = require_edit(token)
    rec, hi = _past(view, gi, hn)
    source = request.args if request.method == "GET" else request.form
    was = source.get("was") or None
    try:
        draft = _draft_from(source.get("draft"), rec)
    except FormError as err:
        return _hand_page(view, gi, hn, None, status=422, errors=err.errors, was=was)
    if request.method == "GET":
        return edit_draft(view, rec, gi, hn, hi, draft, was)
    if request.form.get("move") == "save":
        return save(view, rec, gi, hn, hi, draft, was)
    return record_again(view, rec, gi, hn, hi, draft, was)


def edit_draft(view, rec: GameRec, gi: int, hn: int, hi: int, draft: dict | None, was: str | None):
    """Show the draft, or change part of it (a GET form: nothing is written) and show the result."""
    args = request.args
    if not args.get("edit"):
        return _hand_page(view, gi, hn, draft, was=was, redo=bool(args.get("redo")))
    base = draft if draft is not None else rec.items[hi].body
    try:
        new = _edit_draft(args, base, rec.head["seats"])
    except FormError as err:
        return _hand_page(view, gi, hn, base, status=422, errors=err.errors, was=was)
    here = url_for("mus.hand", token=view.token, gi=gi, hn=hn)
    return see_other(_link(here, new, was or fingerprint(rec.items[hi].body)))


def save(view, rec: GameRec, gi: int, hn: int, hi: int, draft: dict | None, was: str | None):
    """Replace the hand with the draft; every later point is recomputed."""
    redo = bool(request.form.get("redo"))
    if draft is None or "open" in draft:
        return _hand_page(view, gi, hn, draft, status=422, errors={"step": t(msg("mus.form.finish_hand"))},
                          was=was, redo=redo)
    if was and was != fingerprint(rec.items[hi].body):
        # another phone corrected this hand since this one opened it: keep the draft to redo
        return _hand_page(view, gi, hn, draft, status=409, errors={"stale": t(msg("mus.form.hand_changed"))},
                          was=fingerprint(rec.items[hi].body))
    ends = ".".join(str(x) for x in rec.state["game_ends"])
    location = url_for("mus.game", token=view.token, gi=gi) + "?" + urlencode({"fixed": hn, "was": ends})
    try:
        perform(view, "game", {"game": gi, "action": A.ReplaceHand(index=hi, hand=draft)}, location)
    except RuleError as err:
        return _hand_page(view, gi, hn, draft, status=refusal(err), errors={"step": t(err.msg)}, was=was)
    return see_other(location)


def record_again(view, rec: GameRec, gi: int, hn: int, hi: int, draft: dict | None, was: str | None):
    """One move of the scoring controls, played on a scratch copy of the match before the hand."""
    form = request.form
    here = url_for("mus.hand", token=view.token, gi=gi, hn=hn)
    orig = rec.items[hi].body
    if draft is not None and "open" not in draft:
        draft = None        # a whole hand in the address: recording starts again from nothing
    box = _sandbox(rec, hi, draft)
    try:
        action = decode(form, rec.head["seats"])
        if draft is None and orig.get("mano"):
            if isinstance(action, A.StartHand):
                action = A.StartHand(mano=orig["mano"], cards=action.cards)
            else:
                box, _inv = apply_change(box, KIND.apply(box, A.StartHand(mano=orig["mano"])))
        box, _inv = apply_change(box, KIND.apply(box, action))
    except FormError as err:
        return _hand_page(view, gi, hn, draft, status=422, errors=err.errors, was=was, redo=True)
    except RuleError as err:
        return _hand_page(view, gi, hn, draft, status=422,
                          errors={form_field(err.path, form, rec.head["seats"]): t(err.msg)}, was=was, redo=True)
    new_draft = box.items[0].body if len(box.items) else None
    extra = {"redo": 1} if new_draft is None or "open" in new_draft else {}
    return see_other(_link(here, new_draft, was or fingerprint(orig), **extra))
