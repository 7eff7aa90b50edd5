"""The reader's language: English, Spanish or Japanese (Flask-Babel).

Chosen by the browser's ``Accept-Language`` until the reader picks one in the header, which is kept in a
cookie (per browser: each phone on a Watch link sees its own language). Templates say ``_("...")``;
messages (codes with parameters, from the rules) are rendered by ``t()`` through the same catalogs;
numbers, dates and money are written with Babel for the language. The session file, the state JSON and
the CSV stay English and language-free (``companion.messages.ENGLISH``)."""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from urllib.parse import urlsplit

from babel import numbers as bnum
from babel.dates import format_date, format_datetime
from flask import Blueprint, g, redirect, request
from flask_babel import Babel, get_locale, get_translations
from markupsafe import Markup, escape

from .. import kinds, money
from ..messages import ENGLISH, N_, Renderer, define

LANGUAGES = {"en": "English", "es": "Español", "ja": "日本語"}
COOKIE = "lang"
YEAR = 365 * 24 * 3600

bp = Blueprint("i18n", __name__)


def select_language() -> str:
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES), default="en") or "en"


def lang() -> str:
    """The language of this request ("en", "es" or "ja")."""
    if not request:
        return "en"
    got = g.get("lang")
    if got is None:
        got = g.lang = str(get_locale() or "en")
    return got


def number(n) -> str:
    return bnum.format_decimal(n, locale=lang())


def renderer() -> Renderer:
    r = g.get("renderer")
    if r is None:
        if lang() == "en":
            r = ENGLISH
        else:
            # the catalog's own lookups: the message's parameters are filled in by the Renderer
            tr = get_translations()
            r = Renderer(gettext=tr.ugettext, ngettext=lambda s, p, n: tr.ungettext(s, p, n if isinstance(n, int) else 0),
                         number=number)
        g.renderer = r
    return r


def t(m, r: Renderer | None = None) -> str:
    """A message in the reader's words (a plain string is returned as it is)."""
    return (r or renderer())(m)


def fmt_money(minor: int, code: str, plus: bool = False) -> str:
    """An amount (minor units) as the reader writes money: "€3.40" (en), "3,40 €" (es), "€3.40" (ja)."""
    if lang() == "en":
        return money.format_amount(int(minor), code, plus=plus)
    value = Decimal(int(minor)).scaleb(-money.decimals(code))
    text = bnum.format_currency(value, money.normalize_code(code), locale=lang())
    return ("+" + text) if plus and minor > 0 else text


def fmt_date(value, with_time: bool = False) -> str:
    """A date (or an ISO text) as the reader writes it."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value[:19]) if with_time and len(value) >= 16 else \
                date.fromisoformat(value[:10])
        except ValueError:
            return value
    if with_time and isinstance(value, datetime):
        return format_datetime(value, "short" if lang() != "en" else "yyyy-MM-dd HH:mm", locale=lang())
    return format_date(value, "medium", locale=lang())


# The table's words stay as the table says them (Spanish or English) in every language, with a
# short gloss the first time each appears on a page (not in Spanish, where they are the words). Each kind
# names its words (``glosses``) and the language they are in (``words_lang``).
GLOSSES = {term: gloss for kind in kinds.KINDS.values() for term, gloss in kind.glosses.items()}
SPANISH_WORDS = {term for kind in kinds.KINDS.values() if kind.words_lang == "es" for term in kind.glosses}


def w(term: str, shown: str | None = None, gloss: bool = True):
    """A table word as the table says it, glossed the first time on this page (in English and Japanese;
    ``gloss=False`` in a button, where the first mention in the page carries it)."""
    text = shown or term
    tag = Markup('<span class="term" lang="es">{}</span>').format(text) if term in SPANISH_WORDS else escape(text)
    seen = g.setdefault("glossed", set())
    if not gloss or lang() == "es" or term in seen or term not in GLOSSES:
        return tag
    seen.add(term)
    return tag + Markup(' <small class="gloss">({})</small>').format(get_translations().ugettext(GLOSSES[term]))


@bp.get("/lang/<code>")
def choose(code: str):
    """Switch the language of this browser and go back to the page (a preference: nothing is written)."""
    back = request.args.get("next") or "/"
    parts = urlsplit(back)
    if parts.scheme or parts.netloc or not back.startswith("/") or back.startswith("//") \
            or not back.isprintable():      # a header cannot carry a line break

        back = "/"
    resp = redirect(back, code=303)
    if code in LANGUAGES:
        resp.set_cookie(COOKIE, code, max_age=YEAR, samesite="Lax", secure=request.is_secure, httponly=True)
    return resp


def init_app(app) -> None:
    app.config.setdefault("BABEL_DEFAULT_LOCALE", "en")
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(_translations()))
    Babel(app, locale_selector=select_language)
    app.register_blueprint(bp)
    app.jinja_env.globals.update(t=t, w=w, lang=lang, languages=LANGUAGES, fmt_date=fmt_date, number=number)

    @app.after_request
    def _vary(resp):
        if resp.mimetype == "text/html":
            resp.vary.add("Accept-Language")
            resp.vary.add("Cookie")
        return resp


def _translations():
    from pathlib import Path

    return Path(__file__).resolve().parent.parent / "translations"


define("i18n", {
    "switch": N_("Language"),
})
