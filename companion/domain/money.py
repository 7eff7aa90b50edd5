"""Amounts of money in minor units (cents), written the way people write them.

Pure Python, no Flask. Amounts are always ints in the currency's minor units (ISO 4217 exponent):
340 EUR cents is "€3.40", 1200 JPY is "¥1,200" (no decimals).

``format_amount(minor, code, plus=False) -> str``
    "€3.40", "-¥1,200", "$12.00", "£1.05", "CHF 3.40", "3.40 kr" (SEK), an unknown code "3.40 XYZ".
``parse_amount(text, code) -> int``
    "3.40" -> 340 (EUR); also "3,40", "€3.40", "1,234.50", "1.234,50", "-2". ValueError with a message
    meant for a person otherwise.
``decimals(code) -> int``, ``symbol(code) -> str``, ``CURRENCIES``.
"""

from __future__ import annotations

import re

__all__ = ["CURRENCIES", "Currency", "currency", "decimals", "symbol", "format_amount", "parse_amount",
           "normalize_code"]


class Currency:
    """One currency: its ISO code, the symbol people write, its decimals, where the symbol goes."""

    __slots__ = ("code", "symbol", "decimals", "style")

    def __init__(self, code: str, symbol: str, decimals: int, style: str = "prefix"):
        # style: "prefix" ("€3.40"), "prefix_space" ("CHF 3.40"), "suffix_space" ("3.40 kr")
        self.code, self.symbol, self.decimals, self.style = code, symbol, decimals, style

    def __repr__(self) -> str:
        return f"Currency({self.code!r}, {self.symbol!r}, {self.decimals}, {self.style!r})"


_TABLE = [
    # Europe
    ("EUR", "€", 2), ("GBP", "£", 2), ("CHF", "CHF", 2, "prefix_space"),
    ("SEK", "kr", 2, "suffix_space"), ("NOK", "kr", 2, "suffix_space"), ("DKK", "kr", 2, "suffix_space"),
    ("ISK", "kr", 0, "suffix_space"), ("PLN", "zł", 2, "suffix_space"), ("CZK", "Kč", 2, "suffix_space"),
    ("HUF", "Ft", 2, "suffix_space"), ("RON", "lei", 2, "suffix_space"), ("TRY", "₺", 2),
    ("UAH", "₴", 2), ("RUB", "₽", 2),
    # Americas ("$" alone is the US dollar; other dollars and pesos say which)
    ("USD", "$", 2), ("CAD", "CA$", 2), ("MXN", "MX$", 2), ("ARS", "AR$", 2), ("CLP", "CL$", 0),
    ("COP", "COL$", 2), ("UYU", "$U", 2), ("BRL", "R$", 2), ("PEN", "S/", 2), ("BOB", "Bs", 2),
    ("PYG", "₲", 0), ("VES", "Bs.", 2), ("CRC", "₡", 2), ("GTQ", "Q", 2), ("HNL", "L", 2),
    ("NIO", "C$", 2), ("PAB", "B/.", 2), ("DOP", "RD$", 2), ("CUP", "CU$", 2),
    # Elsewhere
    ("JPY", "¥", 0), ("CNY", "CN¥", 2), ("KRW", "₩", 0), ("INR", "₹", 2), ("AUD", "A$", 2),
    ("NZD", "NZ$", 2), ("ILS", "₪", 2), ("ZAR", "R", 2), ("MAD", "MAD", 2, "prefix_space"),
    ("KWD", "KWD", 3, "prefix_space"), ("BHD", "BHD", 3, "prefix_space"), ("TND", "DT", 3, "prefix_space"),
    ("VND", "₫", 0, "suffix_space"), ("THB", "฿", 2), ("PHP", "₱", 2), ("SGD", "S$", 2),
    ("HKD", "HK$", 2),
]

CURRENCIES: dict[str, Currency] = {row[0]: Currency(*row) for row in _TABLE}

_CODE = re.compile(r"[A-Z]{3}")


def normalize_code(code: str) -> str:
    """'eur ' -> 'EUR'; ValueError unless three letters."""
    if not isinstance(code, str):
        raise ValueError(f"A currency code is three letters, like EUR, not {code!r}")
    clean = code.strip().upper()
    if not _CODE.fullmatch(clean):
        raise ValueError(f"A currency code is three letters, like EUR, not {code!r}")
    return clean


def currency(code: str) -> Currency:
    """The table entry, or for an unknown (but well-formed) code: 2 decimals, the code written after."""
    clean = normalize_code(code)
    return CURRENCIES.get(clean) or Currency(clean, clean, 2, "suffix_space")


def decimals(code: str) -> int:
    """Digits after the decimal point: EUR 2, JPY 0, KWD 3; 2 for a code not in the table."""
    return currency(code).decimals


def symbol(code: str) -> str:
    """The symbol people write: '€' for EUR; the code itself when not in the table."""
    return currency(code).symbol


def _digits(minor: int, places: int) -> str:
    """Non-negative minor units -> '1,234.50' (comma thousands, point decimals)."""
    whole, frac = divmod(minor, 10 ** places) if places else (minor, 0)
    text = f"{whole:,}"
    if places:
        text += "." + str(frac).zfill(places)
    return text


def format_amount(minor: int, code: str, plus: bool = False) -> str:
    """Minor units -> how people write it: format_amount(340, 'EUR') == '€3.40',
    format_amount(-1200, 'JPY') == '-¥1,200', format_amount(340, 'XYZ') == '3.40 XYZ'.

    The minus sign goes first ("-€3.40"); ``plus=True`` writes "+€3.40" for a gain (zero stays "€0.00").
    """
    if not isinstance(minor, int) or isinstance(minor, bool):
        raise ValueError(f"An amount in minor units is a whole number, not {minor!r}")
    cur = currency(code)
    sign = "-" if minor < 0 else ("+" if plus and minor > 0 else "")
    body = _digits(abs(minor), cur.decimals)
    if cur.style == "prefix":
        return f"{sign}{cur.symbol}{body}"
    if cur.style == "prefix_space":
        return f"{sign}{cur.symbol} {body}"
    return f"{sign}{body} {cur.symbol}"


_MINUS = "-\u2212\u2013"  # hyphen-minus, minus sign, en dash (as typed on phones)
_SPACES = " \u00a0\u202f\u2009"
_NUMBER = re.compile(r"[0-9.,_]+")


def parse_amount(text: str, code: str) -> int:
    """What a person typed -> minor units: parse_amount('3.40', 'EUR') == 340.

    Accepted: an optional sign, the currency's symbol or code before or after, digits with at most one
    decimal separator ('.' or ','), and thousands separators (',' '.' space or apostrophe, in groups of
    three). With both '.' and ',' the last one is the decimal separator ("1.234,50", "1,234.50"). A
    single separator followed by exactly three digits groups thousands in a currency without decimals
    ("1,200" yen), is the decimal point with three decimals (KWD), and is refused as ambiguous
    otherwise ("1.000" euros: a thousand, or one?). More decimals than the currency has are
    refused unless they are zeros. Raises ValueError with a message for a person.
    """
    cur = currency(code)
    if not isinstance(text, str):
        raise ValueError(f"Not an amount: {text!r}")
    original = text
    s = text.strip()
    if not s:
        raise ValueError("Enter an amount")

    negative = False

    def take_sign(s: str) -> str:
        nonlocal negative
        if s[:1] and s[0] in _MINUS + "+":
            if negative or s[0] == "+" and s[1:2] in _MINUS:
                raise ValueError(f"Not an amount: {original!r}")
            negative = s[0] in _MINUS
            return s[1:].strip()
        return s

    s = take_sign(s)
    marks = {cur.symbol, cur.code} | ({"$"} if "$" in cur.symbol else set())
    for mark in sorted(marks, key=len, reverse=True):
        upper = s.upper()
        if upper.startswith(mark.upper()):
            s = take_sign(s[len(mark):].strip())
            break
        if upper.endswith(mark.upper()):
            s = s[: -len(mark)].strip()
            break
    for space in _SPACES + "'\u2019":
        s = s.replace(space, "_")  # spaces and apostrophes only ever group thousands
    if not s:
        raise ValueError(f"Not an amount: {original!r}")
    if not _NUMBER.fullmatch(s) or not any(c.isdigit() for c in s):
        raise ValueError(f"Not an amount: {original!r} (use digits, like 3.40)")

    places = cur.decimals
    last_dot, last_comma = s.rfind("."), s.rfind(",")
    if last_dot >= 0 and last_comma >= 0:
        point = "." if last_dot > last_comma else ","
    elif last_dot >= 0 or last_comma >= 0:
        sep = "." if last_dot >= 0 else ","
        tail = s.rsplit(sep, 1)[1]
        head = s.rsplit(sep, 1)[0].replace("_", "")
        if s.count(sep) > 1:
            point = None  # all separators group thousands
        elif len(tail) == 3 and head and places != 3:
            if places:  # "1.000" EUR: a thousand euros, or one euro written with 3 decimals?
                raise ValueError(f"Ambiguous amount {original!r}: write {head}{tail} (no separator) "
                                 f"or {head}.{tail[:places]} ({places} decimals)")
            point = None  # no decimals in this currency: "1,200" yen
        else:
            point = sep
    else:
        point = None

    if point is not None:
        if s.count(point) > 1:
            raise ValueError(f"Not an amount: {original!r} (more than one decimal separator)")
        whole, frac = s.split(point)
    else:
        whole, frac = s, ""
    if "_" in frac:
        raise ValueError(f"Not an amount: {original!r} (thousands are grouped by three)")
    groups = re.split(r"[.,_]", whole)
    if len(groups) > 1:
        if not (1 <= len(groups[0]) <= 3) or any(len(g) != 3 for g in groups[1:]):
            raise ValueError(f"Not an amount: {original!r} (thousands are grouped by three)")
    whole = "".join(groups)
    if not whole and not frac:
        raise ValueError(f"Not an amount: {original!r}")
    if len(frac) > places:
        if frac[places:].strip("0"):
            if places == 0:
                raise ValueError(f"{cur.code} amounts have no decimals: {original!r}")
            raise ValueError(f"{cur.code} amounts have at most {places} decimals: {original!r}")
        frac = frac[:places]
    minor = int(whole or "0") * 10 ** places + int(frac.ljust(places, "0") or "0")
    return -minor if negative else minor
