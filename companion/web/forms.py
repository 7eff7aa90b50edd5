"""Reading typed values out of posted forms, with a message beside the field (never a 500). Every kind's
blueprint turns its forms into typed actions with these; the rules never see form strings."""
from __future__ import annotations

import re
from datetime import date

from companion.domain import numbers
from companion.domain import money
from companion.kinds.validate import MAX_COUNT, MAX_MONEY
from companion.domain.messages import N_, NP_, define, msg
from companion.web.i18n import fmt_money, t


define("form", {
    "int": N_("“%(text)s” is not %(what)s: use digits, like 3."),
    "type": N_("Type %(what)s."),
    "negative": N_("Cannot be negative."),
    "min": N_("Must be at least %(min)s."),
    "between": N_("Must be between %(min)s and %(max)s."),
    "large": N_("That number is too large."),
    "money_large": N_("That amount is too large."),
    "one": N_("Choose only one."),
    "what.number": N_("a whole number"),
    "what.price": N_("a price in chips"),
    "what.cards": N_("a number of cards"),
    "what.stake": N_("a stake"),
    "what.micos": N_("a number of micos"),
    "what.points": N_("a number of points"),
    # money.parse_amount's reasons, in the reader's words (see _amount_error)
    "amount.not": N_("Not an amount: %(text)s"),
    "amount.digits": N_("Not an amount: %(text)s (use digits, like 3.40)"),
    "amount.points": N_("Not an amount: %(text)s (more than one decimal separator)"),
    "amount.groups": N_("Not an amount: %(text)s (thousands are grouped by three)"),
    "amount.ambiguous": NP_("Ambiguous amount %(text)s: write %(whole)s (no separator) or %(decimal)s (%(places)s decimal)",
                            "Ambiguous amount %(text)s: write %(whole)s (no separator) or %(decimal)s (%(places)s decimals)",
                            "places"),
    "amount.no_decimals": N_("%(currency)s amounts have no decimals: %(text)s"),
    "amount.decimals": NP_("%(currency)s amounts have at most %(places)s decimal: %(text)s",
                           "%(currency)s amounts have at most %(places)s decimals: %(text)s", "places"),
})

# money.parse_amount says why an amount is refused in English words (it is not a web module): each reason,
# most specific first, becomes a message with the same values
_AMOUNT_REASONS = [(re.compile(pattern), code) for pattern, code in (
    (r"Not an amount: (?P<text>.*) \(use digits, like 3\.40\)", "form.amount.digits"),
    (r"Not an amount: (?P<text>.*) \(more than one decimal separator\)", "form.amount.points"),
    (r"Not an amount: (?P<text>.*) \(thousands are grouped by three\)", "form.amount.groups"),
    (r"Not an amount: (?P<text>.*)", "form.amount.not"),
    (r"Ambiguous amount (?P<text>.*): write (?P<whole>\S+) \(no separator\) or (?P<decimal>\S+) \((?P<places>\d+) decimals\)",
     "form.amount.ambiguous"),
    (r"(?P<currency>\S+) amounts have no decimals: (?P<text>.*)", "form.amount.no_decimals"),
    (r"(?P<currency>\S+) amounts have at most (?P<places>\d+) decimals: (?P<text>.*)", "form.amount.decimals"),
)]


def _amount_error(err: ValueError, text: str) -> str:
    """Why an amount was refused, in the reader's words."""
    reason = str(err)
    for pattern, code in _AMOUNT_REASONS:
        m = pattern.fullmatch(reason)
        if m:
            params = {k: int(v) if k == "places" else v for k, v in m.groupdict().items()}
            return t(msg(code, **params))
    return t(msg("form.amount.not", text=repr(text)))


def _text(form, name: str) -> str:
    raw = form.get(name, "")
    return raw.strip() if isinstance(raw, str) else ""


def read_int(form, name: str, errors: dict, *, minimum: int | None = 0, maximum: int = MAX_COUNT, default=None,
             required: bool = False, what: str = "form.what.number"):
    """A whole number typed in a form field. Blank gives ``default`` (or an error when ``required``);
    anything else that is not a whole number within bounds puts a message in ``errors[name]``."""
    text = _text(form, name)
    if not text:
        if required:
            errors.setdefault(name, t(msg("form.type", what=msg(what))))
        return default
    try:               # the one number reader: ASCII digits, a sign, 18 digits at most (never a 500)
        value = numbers.parse_int(text, signed=True)
    except numbers.NumberRefused as err:
        if err.reason == "not_int":
            shown = text if len(text) <= 20 else text[:20] + "…"
            errors.setdefault(name, t(msg("form.int", text=shown, what=msg(what))))
        elif minimum is not None and maximum != MAX_COUNT:
            errors.setdefault(name, t(msg("form.between", min=minimum, max=maximum)))
        elif text.startswith("-") and minimum is not None:
            errors.setdefault(name, t(msg("form.negative")) if minimum == 0 else t(msg("form.min", min=minimum)))
        else:
            errors.setdefault(name, t(msg("form.large")))
        return default
    bounded = minimum is not None and maximum != MAX_COUNT
    if bounded and not minimum <= value <= maximum:
        errors.setdefault(name, t(msg("form.between", min=minimum, max=maximum)))
        return default
    if minimum is not None and value < minimum:
        errors.setdefault(name, t(msg("form.negative")) if minimum == 0 else t(msg("form.min", min=minimum)))
        return default
    if value > maximum:
        errors.setdefault(name, t(msg("form.large")))
        return default
    return value


def read_money(form, name: str, code: str, errors: dict, default=None, maximum: int = MAX_MONEY):
    """An amount typed in the session currency ("0.10") -> minor units (10), >= 0."""
    text = _text(form, name)
    if not text:
        return default
    try:
        value = money.parse_amount(text, code)
    except ValueError as err:
        errors.setdefault(name, _amount_error(err, text))
        return default
    if value < 0:
        errors.setdefault(name, t(msg("form.negative")))
        return default
    if value > maximum:
        errors.setdefault(name, t(msg("form.money_large")))
        return default
    return value


def read_dates(args, errors: dict, bad_date: str, order: str) -> dict:
    """A filter's date range, {"from", "to"} as ISO dates ("" when blank), with the message ``bad_date``
    beside a date that is none and ``order`` beside "to" when it comes before "from"."""
    out = {"from": "", "to": ""}
    for name in ("from", "to"):
        raw = (args.get(name) or "").strip()
        if not raw:
            continue
        try:
            out[name] = date.fromisoformat(raw).isoformat()
        except ValueError:
            errors[name] = t(msg(bad_date, example="2026-11-20"))
    if out["from"] and out["to"] and out["from"] > out["to"]:
        errors["to"] = t(msg(order))
    return out


def only_one(form, name: str, errors: dict) -> str | None:
    """The single value of a radio field; two values (a crafted form) is an error, not a guess."""
    values = [v for v in form.getlist(name) if v != ""]
    if len(values) > 1:
        errors.setdefault(name, t(msg("form.one")))
        return None
    return values[0] if values else None


def money_input(minor: int, code: str) -> str:
    """Minor units written for a form field, without the symbol: 10 EUR cents -> "0.10"."""
    places = money.decimals(code)
    if not places:
        return str(minor)
    whole, frac = divmod(abs(minor), 10 ** places)
    return ("-" if minor < 0 else "") + f"{whole}.{str(frac).zfill(places)}"


def signed(n: int) -> str:
    """+3, −2, 0 (a real minus sign: readable at arm's length)."""
    if n > 0:
        return f"+{n}"
    if n < 0:
        return f"−{-n}"
    return "0"


def template_helpers() -> dict:
    return {"signed": signed, "fmt_money": fmt_money, "money_input": money_input}


def answer_reused_keys(app) -> None:
    """A form's key reused with other fields (companion/formkeys.py) is answered 422 with the message,
    wherever the write was attempted; never silently taken for the first."""
    from flask import render_template, request

    from companion.domain.errors import KeyReused
    from companion.domain.messages import ENGLISH

    @app.errorhandler(KeyReused)
    def _reused(err):
        if request.path.endswith(".json") or request.accept_mimetypes.best == "application/json":
            return {"error": ENGLISH(err.msg), "status": 422}, 422
        return render_template("error.html", code=422, message=t(err.msg)), 422
