"""Settle up: each player's net for the night in money, broken down by game, the payments (fewest
possible, or banker mode), paid marks, and a plain-text copy for a group chat.

The numbers are the state's ``settle`` section (``companion.record.session.settle_of``); this page only presents
them. Anyone holding the view link sees it; only the edit link gets controls.
"""
from __future__ import annotations

from flask import Blueprint, request, url_for

from companion import kinds
from companion.domain import numbers
from companion.domain.errors import RuleError
from companion.domain.messages import N_, NP_, define, msg
from companion.web.i18n import fmt_money
from companion.record.session import settle_of
from companion.domain.settle import EXACT_LIMIT
from companion.session_commands import MarkPaid, SetBanker
from companion.web.common import SessionView, execute, open_session, refusal, render, require_edit, see_other, unchanged_poll
from companion.web.i18n import fmt_date, t

bp = Blueprint("settle", __name__)

COPY_COLUMNS = 30  # characters per line of the copy box on a 360 px phone (wrapping counted generously)

define("settle", {
    "plan.exact": N_("The fewest payments possible: %(n)s (exact plan)."),
    "plan.even": N_("Nothing to pay: everyone is even."),
    "plan.greedy": NP_("The greedy plan: more than %(limit)s players are not at zero (%(count)s), so the largest "
                       "debtor pays the largest creditor, %(n)s payment; it may not be the fewest possible.",
                       "The greedy plan: more than %(limit)s players are not at zero (%(count)s), so the largest "
                       "debtor pays the largest creditor, %(n)s payments; it may not be the fewest possible.", "n"),
    "plan.banker": NP_("Banker mode: everyone pays %(banker)s, or is paid by %(banker)s (%(n)s payment).",
                       "Banker mode: everyone pays %(banker)s, or is paid by %(banker)s (%(n)s payments).", "n"),
    "plan.unbalanced": N_("%(amount)s is still on the table: nobody can be paid yet."),
    "status.on_table": N_("%(amount)s still on the table"),
    "status.settled": N_("Settled ✓"),
    "status.marked": NP_("%(paid)s of %(n)s payment marked paid", "%(paid)s of %(n)s payments marked paid", "n"),
    "status.to_make": NP_("%(n)s payment to make", "%(n)s payments to make", "n"),
    "copy.nets": N_("Nets: %(items)s"),
    "copy.net": N_("%(name)s %(amount)s"),
    "copy.not_settled": N_("Not settled yet: %(amount)s still on the table."),
    "copy.not_settled_games": N_("Not settled yet: %(amount)s still on the table (end %(games)s first)."),
    "copy.payments": N_("Payments:"),
    "copy.payment": N_("• %(from)s → %(to)s: %(amount)s"),
    "copy.payment_paid": N_("• %(from)s → %(to)s: %(amount)s ✓ paid"),
    "copy.all_paid": N_("All paid: settled."),
    "game": N_("%(n)s. %(title)s"),
    "not_in_plan": N_("That payment is not in the plan."),
    # spoken names of the per-row buttons: every row has a "Mark paid" or an "Undo", so a screen reader
    # needs to hear which payment each one is about (they start with the visible word: label in name)
    "mark_label": N_("Mark paid: %(from)s pays %(to)s %(amount)s"),
    "undo_label": N_("Undo: %(from)s pays %(to)s %(amount)s is not paid"),
})


def _is_paid(payment: dict, paid: list[dict]) -> bool:
    return {"from": payment["from"], "to": payment["to"], "amount": payment["amount"]} in paid


def settle_context(view: SessionView) -> dict:
    """Everything the settle page shows, with amounts already written as people write them."""
    head = view.header
    code = view.currency
    st = view.state["settle"]

    def money(v, plus=False):
        return fmt_money(v, code, plus=plus)

    titles = [msg("settle.game", n=gi + 1, title=msg(kinds.KINDS[rec.kind].title)) for gi, rec in enumerate(view.games)]
    by_game = st["by_game"]
    players = []
    for name in view.players:
        value = st["net"].get(name, 0)
        parts = [{"title": titles[gi], "amount": money(row.get(name, 0), plus=True)}
                 for gi, row in enumerate(by_game) if row.get(name, 0)]
        players.append({"name": name, "net": value, "text": money(value, plus=True),
                        "cls": "pos" if value > 0 else "neg" if value < 0 else "zero", "games": parts})
    marks = (head.get("settle") or {}).get("paid") or []
    payments = []
    for p in st["payments"]:
        words = {"from": p["from"], "to": p["to"], "amount": money(p["amount"])}
        payments.append({**p, "text": words["amount"], "paid": _is_paid(p, marks),
                         "mark_label": {"code": "settle.mark_label", **words},
                         "undo_label": {"code": "settle.undo_label", **words}})
    method = st["method"]
    banker = (head.get("settle") or {}).get("banker")
    on_table_games = []
    if method == "unbalanced":
        for gi, rec in enumerate(view.games):
            result = kinds.KINDS[rec.kind].settlement(rec)
            if result["on_table"]:
                on_table_games.append({"title": titles[gi], "amount": money(result["on_table"]),
                                       "note": result.get("note"),
                                       "url": url_for(f"{rec.kind}.game", token=view.token, gi=gi)})
    not_zero = sum(1 for v in st["net"].values() if v)
    if method == "exact":
        plan = msg("settle.plan.exact", n=len(payments)) if payments else msg("settle.plan.even")
    elif method == "greedy":
        plan = msg("settle.plan.greedy", limit=EXACT_LIMIT, count=not_zero, n=len(payments))
    elif method == "banker":
        plan = msg("settle.plan.banker", banker=banker, n=len(payments))
    else:
        plan = msg("settle.plan.unbalanced", amount=money(st.get("on_table", 0)))
    settled = bool(payments) and all(p["paid"] for p in payments)
    ctx = {"currency": code, "players": players, "payments": payments, "method": method, "plan": plan,
           "banker": banker, "on_table": money(st.get("on_table", 0)), "on_table_games": on_table_games,
           "settled": settled, "money_games": any(any(row.values()) for row in by_game)}
    ctx["copy_text"] = copy_text(head, ctx)
    ctx["copy_rows"] = copy_rows(ctx["copy_text"])
    return ctx


def copy_rows(text: str, width: int = COPY_COLUMNS) -> int:
    """Rows for the text box, counting the lines a 360 px phone wraps, so that the whole settlement shows
    without scrolling inside the box (capped: a very long night scrolls)."""
    rows = sum(max(1, -(-len(line) // width)) for line in text.split("\n"))
    return min(rows + 1, 30)


def copy_text(head: dict, ctx: dict) -> str:
    """The settlement as plain text for a group chat, in the reader's language."""
    when = fmt_date(head.get("started") or "")
    lines = [f"{head['name']}{' · ' + when if when else ''}"]
    lines.append(t(msg("settle.copy.nets", items=[msg("settle.copy.net", name=p["name"], amount=p["text"])
                                                  for p in ctx["players"]])))
    if ctx["method"] == "unbalanced":
        if ctx["on_table_games"]:
            lines.append(t(msg("settle.copy.not_settled_games", amount=ctx["on_table"],
                               games=[g["title"] for g in ctx["on_table_games"]])))
        else:
            lines.append(t(msg("settle.copy.not_settled", amount=ctx["on_table"])))
    elif ctx["payments"]:
        lines.append(t(msg("settle.copy.payments")))
        for p in ctx["payments"]:
            code = "settle.copy.payment_paid" if p["paid"] else "settle.copy.payment"
            lines.append(t({"code": code, "from": p["from"], "to": p["to"], "amount": p["text"]}))
        if ctx["settled"]:
            lines.append(t(msg("settle.copy.all_paid")))
    else:
        lines.append(t(msg("settle.plan.even")))
    return "\n".join(lines)


@bp.app_template_global("settle_status")
def settle_status(view: SessionView):
    """One line for the session page beside its "Settle up" link (a message), or None. Cheap: the
    games' running states, never their hands."""
    st = settle_of(view.header, view.games)
    if st["method"] == "unbalanced":
        return msg("settle.status.on_table", amount=fmt_money(st.get("on_table", 0), view.currency))
    payments = st["payments"]
    if not payments:
        return None
    marks = (view.header.get("settle") or {}).get("paid") or []
    paid = sum(1 for p in payments if _is_paid(p, marks))
    if paid == len(payments):
        return msg("settle.status.settled")
    if paid:
        return msg("settle.status.marked", paid=paid, n=len(payments))
    return msg("settle.status.to_make", n=len(payments))


def _page(view, status: int = 200, **ctx):
    ctx.setdefault("errors", {})
    return render("settle.html", view, status=status, s=settle_context(view), **ctx)


@bp.get("/s/<token>/settle")
def show(token):
    view = open_session(token)
    return unchanged_poll(view) or _page(view)


@bp.post("/s/<token>/settle/banker")
def banker(token):
    view = require_edit(token)
    here = url_for("settle.show", token=token)
    name = request.form.get("banker", "").strip() or None
    try:
        execute(view, SetBanker(name), here)
    except RuleError as err:
        return _page(view, status=refusal(err), errors={"banker": t(err.msg)})
    return see_other(here)


@bp.post("/s/<token>/settle/paid")
def paid(token):
    """Mark a payment paid, or take the mark back. It is checked against the plan inside the write
    (the store works it out on the state it commits on)."""
    view = require_edit(token)
    here = url_for("settle.show", token=token)
    form = request.form
    amount = form.get("amount", "")
    # the one number reader; anything else is refused by the command, after permit is asked
    number = int(amount) if numbers.is_ascii_int(amount) and len(amount) <= 15 else None
    cmd = MarkPaid(form.get("from", ""), form.get("to", ""), number,
                   paid=form.get("paid", "1") not in ("0", "", "false", "no"))
    try:
        execute(view, cmd, here)
    except RuleError as err:
        return _page(view, status=refusal(err), errors={"paid": t(err.msg)})
    return see_other(here)
