"""Settle up: each player's net for the night in money, broken down by game, the payments (fewest
possible, or banker mode), paid marks, and a plain-text copy for a group chat.

The numbers are the state's ``settle`` section (``companion/rules/settle.py`` via ``compute_state``);
this page only presents them. Anyone holding the view link sees it; only the edit link gets controls.
"""
from __future__ import annotations

from flask import Blueprint, request, url_for

from .. import kinds
from ..money import format_amount
from ..rules.errors import RuleError
from ..rules.settle import EXACT_LIMIT
from ..store import Conflict
from .common import game_title, open_session, perform, render, require_edit, see_other, unchanged_poll, web_module

bp = Blueprint("settle", __name__)

DEFAULT_CURRENCY = "EUR"
COPY_COLUMNS = 30  # characters per line of the copy box on a 360 px phone (wrapping counted generously)


def currency_of(doc: dict) -> str:
    return doc.get("currency") or DEFAULT_CURRENCY


def _game_link(view, gi: int, game: dict) -> str | None:
    web = web_module(game["kind"])
    if web is None:
        return None
    try:
        return url_for(f"{game['kind']}.game", token=view.token, gi=gi)
    except Exception:  # noqa: BLE001 - a game blueprint still being written
        return None


def _on_table_by_game(doc: dict, state: dict) -> list[int]:
    """Money each game still has on the table (minor units); 0 when its kind cannot say."""
    out = []
    for game, gstate in zip(doc["games"], state.get("games") or []):
        try:
            left = kinds.get(game["kind"]).settlement(game, gstate).get("on_table", 0)
        except Exception:  # noqa: BLE001 - engines are young: never break the settle page
            left = 0
        out.append(left if isinstance(left, int) else 0)
    return out


def _by_game(doc: dict, state: dict) -> list[dict]:
    rows = state["settle"].get("by_game")
    if isinstance(rows, list) and len(rows) == len(doc["games"]):
        return rows
    out = []
    for game, gstate in zip(doc["games"], state.get("games") or []):
        try:
            out.append(dict(kinds.get(game["kind"]).settlement(game, gstate).get("net", {})))
        except Exception:  # noqa: BLE001
            out.append({})
    return out


def _is_paid(payment: dict, paid: list[dict]) -> bool:
    return {"from": payment["from"], "to": payment["to"], "amount": payment["amount"]} in paid


def settle_context(view) -> dict:
    """Everything the settle page shows, with amounts already written as people write them."""
    doc, state = view.doc, view.state
    code = currency_of(doc)
    st = state["settle"]
    money = lambda v, plus=False: format_amount(v, code, plus=plus)  # noqa: E731
    titles = [f"{gi + 1}. {game_title(g)}" for gi, g in enumerate(doc["games"])]
    by_game = _by_game(doc, state)
    players = []
    for name in doc["players"]:
        value = st["net"].get(name, 0)
        parts = [{"title": titles[gi], "amount": money(row.get(name, 0), plus=True)}
                 for gi, row in enumerate(by_game) if row.get(name, 0)]
        players.append({"name": name, "net": value, "text": money(value, plus=True),
                        "cls": "pos" if value > 0 else "neg" if value < 0 else "zero", "games": parts})
    paid_marks = (doc.get("settle") or {}).get("paid") or []
    payments = [{**p, "text": money(p["amount"]), "paid": _is_paid(p, paid_marks)} for p in st["payments"]]
    method = st["method"]
    banker = (doc.get("settle") or {}).get("banker")
    on_table_games = []
    if method == "unbalanced":
        for gi, left in enumerate(_on_table_by_game(doc, state)):
            if left:
                on_table_games.append({"title": titles[gi], "amount": money(left),
                                       "url": _game_link(view, gi, doc["games"][gi])})
    not_zero = sum(1 for v in st["net"].values() if v)
    if method == "exact":
        plan = (f"The fewest payments possible: {len(payments)} (exact plan)." if payments
                else "Nothing to pay: everyone is even.")
    elif method == "greedy":
        plan = (f"The greedy plan: more than {EXACT_LIMIT} players not at zero ({not_zero}), so the "
                f"largest debtor pays the largest creditor, {len(payments)} payments; it may not be the "
                "fewest possible.")
    elif method == "banker":
        plan = (f"Banker mode: everyone pays {banker}, or is paid by {banker} "
                f"({len(payments)} payment{'s' if len(payments) != 1 else ''}).")
    else:
        plan = f"{money(st.get('on_table', 0))} is still on the table: nobody can be paid yet."
    settled = bool(payments) and all(p["paid"] for p in payments)
    ctx = {"currency": code, "players": players, "payments": payments, "method": method, "plan": plan,
           "banker": banker, "on_table": money(st.get("on_table", 0)), "on_table_games": on_table_games,
           "settled": settled, "money_games": any(any(row.values()) for row in by_game)}
    ctx["copy_text"] = copy_text(doc, ctx)
    ctx["copy_rows"] = copy_rows(ctx["copy_text"])
    return ctx


def copy_rows(text: str, width: int = COPY_COLUMNS) -> int:
    """Rows for the text box, counting the lines a 360 px phone wraps, so that the whole settlement shows
    without scrolling inside the box (capped: a very long night scrolls)."""
    rows = sum(max(1, -(-len(line) // width)) for line in text.split("\n"))
    return min(rows + 1, 30)


def copy_text(doc: dict, ctx: dict) -> str:
    """The settlement as plain text for a group chat."""
    when = (doc.get("started") or "")[:10]
    lines = [f"{doc['name']}{' · ' + when if when else ''}"]
    lines.append("Nets: " + ", ".join(f"{p['name']} {p['text']}" for p in ctx["players"]))
    if ctx["method"] == "unbalanced":
        lines.append(f"Not settled yet: {ctx['on_table']} still on the table"
                     + (" (end " + ", ".join(g["title"] for g in ctx["on_table_games"]) + " first)."
                        if ctx["on_table_games"] else "."))
    elif ctx["payments"]:
        lines.append("Payments:")
        for p in ctx["payments"]:
            lines.append(f"• {p['from']} → {p['to']}: {p['text']}{' ✓ paid' if p['paid'] else ''}")
        if ctx["settled"]:
            lines.append("All paid: settled.")
    else:
        lines.append("Nothing to pay: everyone is even.")
    return "\n".join(lines)


@bp.app_template_global("settle_status")
def settle_status(view) -> str:
    """One line for the session page beside its "Settle up" link: 'Settled ✓', '2 of 3 payments marked
    paid', '€1.50 still on the table', or '' when there is nothing to pay."""
    st = view.state["settle"]
    if st["method"] == "unbalanced":
        return f"{format_amount(st.get('on_table', 0), currency_of(view.doc))} still on the table"
    payments = st["payments"]
    if not payments:
        return ""
    marks = (view.doc.get("settle") or {}).get("paid") or []
    paid = sum(1 for p in payments if _is_paid(p, marks))
    if paid == len(payments):
        return "Settled ✓"
    if paid:
        return f"{paid} of {len(payments)} payments marked paid"
    return f"{len(payments)} payment{'s' if len(payments) != 1 else ''} to make"


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
        if name is not None and name not in view.doc["players"]:
            raise RuleError(f"{name!r} is not a player of this session", "banker")
        perform(view, "banker", {"banker": name}, here)
    except Conflict as err:
        return _page(view, status=409, errors={"banker": err.message})
    except RuleError as err:
        return _page(view, status=422, errors={"banker": err.message})
    return see_other(here)


@bp.post("/s/<token>/settle/paid")
def paid(token):
    view = require_edit(token)
    here = url_for("settle.show", token=token)
    form = request.form
    try:
        try:
            payment = {"from": form.get("from", ""), "to": form.get("to", ""),
                       "amount": int(form.get("amount", ""))}
        except ValueError:
            raise RuleError("That payment is not in the plan.", "paid") from None
        mark = form.get("paid", "1") not in ("0", "", "false", "no")
        plan = view.state["settle"]["payments"]
        marks = (view.doc.get("settle") or {}).get("paid") or []
        if mark and payment not in plan:
            raise RuleError("That payment is no longer in the plan (the numbers changed): check the list "
                            "again.", "paid")
        if not mark and payment not in marks:
            raise RuleError("That payment was not marked paid.", "paid")
        perform(view, "paid", {"payment": payment, "paid": mark}, here)
    except Conflict as err:
        return _page(view, status=409, errors={"paid": err.message})
    except RuleError as err:
        return _page(view, status=422, errors={"paid": err.message})
    return see_other(here)
