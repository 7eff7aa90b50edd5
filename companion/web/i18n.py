"""The reader's language: English, Spanish or Japanese (Flask-Babel).

Chosen by the browser's ``Accept-Language`` until the reader picks one in the header, which is kept in a
cookie (per browser: each phone on a Watch link sees its own language). Templates say ``_("...")``;
messages (codes with parameters, from the rules) are rendered by ``t()`` through the same catalogs;
numbers, dates and money are written with Babel for the language. The session file, the state JSON and
the CSV stay English and language-free (``companion.domain.messages.ENGLISH``)."""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from urllib.parse import urlsplit

from babel import numbers as bnum
from babel.dates import format_date, format_datetime, format_skeleton, format_time
from flask import Blueprint, g, redirect, request
from flask.globals import _cv_app
from babel.lists import format_list
from babel.support import NullTranslations
from flask_babel import Babel, Domain, get_locale, get_translations
from markupsafe import Markup, escape

from companion import kinds
from companion.kinds import glossary
from companion.domain import money
from companion.domain.messages import ENGLISH, N_, Renderer, define

LANGUAGES = {"en": "English", "es": "Español", "ja": "日本語"}
COOKIE = "lang"
VOCAB_COOKIE = "vocab"      # the Japanese table words: "spanish" (the rule text's, default) or "poker"
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


def vocabulary() -> str:
    """The table words this Japanese reader chose (a preference per browser, like the language)."""
    chosen = request.cookies.get(VOCAB_COOKIE) if request else None
    return chosen if chosen in glossary.VOCABULARIES else glossary.VOCABULARIES[0]


class PokerWords(NullTranslations):
    """The Japanese catalog with the glossary's poker words swapped in (ハイ for グランデ, オールイン for オルダゴ…).
    One catalog is written and reviewed; the second vocabulary is a pure function of it, so a message
    added later in the rule text's words gets its poker words with nothing more to translate."""

    def __init__(self, base):
        super().__init__()
        self.base = base
        self.cache: dict = {}

    def _swap(self, key, text: str) -> str:
        hit = self.cache.get(key)
        if hit is None:
            hit = self.cache[key] = glossary.poker(text)
        return hit

    def ugettext(self, message):
        return self._swap(message, self.base.ugettext(message))

    def ungettext(self, singular, plural, n):
        return self._swap((singular, plural, n), self.base.ungettext(singular, plural, n))

    def upgettext(self, context, message):
        return self._swap((context, message), self.base.upgettext(context, message))

    def unpgettext(self, context, singular, plural, n):
        return self._swap((context, singular, plural, n), self.base.unpgettext(context, singular, plural, n))

    gettext, ngettext, pgettext, npgettext = ugettext, ungettext, upgettext, unpgettext


class PokerDomain(Domain):
    """Flask-Babel's domain for a Japanese reader who chose the poker words (one wrapper per process)."""

    wrapped: dict = {}

    def get_translations(self):
        base = super().get_translations()
        got = self.wrapped.get(id(base))
        if got is None or got.base is not base:
            got = self.wrapped[id(base)] = PokerWords(base)
        return got


def listing(items) -> str:
    """Names or amounts joined as the reader's language joins a list ("A, B and C", "A、B、C")."""
    items = [str(x) for x in items]
    if not items:
        return ""
    if not request or lang() == "en":     # English pages read as the English files do: "A, B, C"
        return ", ".join(items)
    return format_list(items, locale=lang())


_NUMBERS: dict[tuple[str, int], str] = {}     # (language, whole number) -> as the language writes it


def number(n) -> str:
    language = lang()
    if n.__class__ is int:      # a page writes the same few scores again and again: Babel once each
        key = (language, n)
        hit = _NUMBERS.get(key)
        if hit is None:
            if len(_NUMBERS) > 8192:
                _NUMBERS.clear()
            hit = _NUMBERS[key] = bnum.format_decimal(n, locale=language)
        return hit
    return bnum.format_decimal(n, locale=language)


def renderer() -> Renderer:
    r = g.get("renderer")
    if r is None:
        if lang() == "en":
            r = ENGLISH
        else:
            # the catalog's own lookups: the message's parameters are filled in by the Renderer
            tr = _request_translations()
            r = Renderer(gettext=tr.ugettext, ngettext=lambda s, p, n: tr.ungettext(s, p, n if isinstance(n, int) else 0),
                         number=number, join=listing)
            g.poker_hands = lang() == "ja" and vocabulary() == "poker"
        g.renderer = r
    return r


def t(m, r: Renderer | None = None) -> str:
    """A message in the reader's words (a plain string is returned as it is). In the poker words a hand
    given as a parameter reads in the blog's letters too ("RR43" -> "KK43"), as the catalog's text does."""
    text = (r or renderer())(m)
    if m.__class__ is dict and text and g.get("poker_hands"):
        return glossary.poker_hands(text)
    return text


MINUS = "\u2212"     # one minus sign on a page: the scores' (forms.signed), the money's, the ratings'


def fmt_money(minor: int, code: str, plus: bool = False) -> str:
    """An amount (minor units) as the reader writes money: "€3.40" (en), "3,40 €" (es), "€3.40" (ja); a loss
    with the page's minus sign in Spanish and Japanese ("−0,40 €", "−€0.40", as the scores' "−4")."""
    if lang() == "en":
        return money.format_amount(int(minor), code, plus=plus)
    value = Decimal(int(minor)).scaleb(-money.decimals(code))
    text = bnum.format_currency(value, money.normalize_code(code), locale=lang()).replace("-", MINUS, 1)
    return ("+" + text) if plus and minor > 0 else text


def signed(n) -> str:
    """A difference in the reader's digits with its sign: "+1.234" (es), "−2", "0"."""
    if n > 0:
        return "+" + number(n)
    if n < 0:
        return MINUS + number(-n)
    return number(0)


# a place in a table, shared or not: "3" / "3=" (English), "3.º" / "3.º empatados", "3位" / "3位タイ"
RANKS = {"en": ("{n}", "{n}="), "es": ("{n}.º", "{n}.º empatados"), "ja": ("{n}位", "{n}位タイ")}


def rank(n, tied: bool = False) -> str:
    return RANKS.get(lang(), RANKS["en"])[1 if tied else 0].format(n=number(n))


def fmt_date(value, with_time: bool = False) -> str:
    """A date (or an ISO text) as the reader writes it."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value[:19]) if with_time and len(value) >= 16 else \
                date.fromisoformat(value[:10])
        except ValueError:
            return value
    language = lang()
    if with_time and isinstance(value, datetime):
        if language == "en":
            return format_datetime(value, "yyyy-MM-dd HH:mm", locale="en")
        # the language's own order with a four-digit year: "28/11/2026 17:40", "2026/11/28 17:40" (Babel's
        # "short" writes "28/11/26")
        return f"{format_skeleton('yMd', value, locale=language)} {format_time(value, 'short', locale=language)}"
    return format_date(value, "medium", locale=language)


# The table's words. English shows the table's word with a short English gloss the first time it appears
# on a page; Spanish shows the word; Japanese shows the glossary's Japanese word in the reader's vocabulary
# (the catalog's translation of ``shown``) with the Spanish word as a small gloss the first time, since the
# table may say it aloud. Each kind names its words (``glosses``) and the language they are in (``words_lang``).
GLOSSES = {term: gloss for kind in kinds.KINDS.values() for term, gloss in kind.glosses.items()}
SPANISH_WORDS = {term for kind in kinds.KINDS.values() if kind.words_lang == "es" for term in kind.glosses}
# the words as a button or a heading shows them (English source; the catalogs hold their Spanish and
# Japanese): w() looks them up, so a label never comes from a template literal
TABLE_WORDS = {
    "Grande": N_("Grande"), "Chica": N_("Chica"), "Pares": N_("Pares"), "Juego": N_("Juego"), "Punto": N_("Punto"),
    "Quiero": N_("Quiero"), "No quiero": N_("No quiero"), "Paso": N_("Paso"), "Paso en todo": N_("Paso en todo"),
    "Órdago": N_("Órdago"), "ÓRDAGO": N_("ÓRDAGO"), "DENTRO": N_("DENTRO"), "Mano": N_("Mano"),
    "Señas": N_("Señas"), "Kitty": N_("Kitty"), "Micos": N_("Micos"), "Arriba del palo": N_("Arriba del palo"),
    "envite": N_("envite"), "órdago": N_("órdago"), "quiero": N_("quiero"), "no quiero": N_("no quiero"),
    "dentro": N_("dentro"), "mano": N_("mano"), "kitty": N_("kitty"), "grande": N_("grande"), "chica": N_("chica"),
    "pares": N_("pares"), "juego": N_("juego"), "punto": N_("punto"), "paso": N_("paso"),
}


def w(term: str, shown: str | None = None, gloss: bool = True):
    """A table word in the reader's words, glossed the first time on this page (in English with what it
    means, in Japanese with the Spanish word; ``gloss=False`` in a button, where the first mention in the
    page carries it). ``shown`` is the form to show (a catalog message: "Quiero", "ÓRDAGO")."""
    text = _request_translations().ugettext(shown or term)
    language = lang()
    spanish = term in SPANISH_WORDS
    if language == "ja":
        tag = escape(text)
        seen = g.setdefault("glossed", set())
        if not gloss or term in seen or text.lower() == term.lower() or term not in glossary.BY_KEY:
            return tag
        seen.add(term)
        return tag + (Markup(' <small class="gloss" lang="es">(%s)</small>') % (term,))
    tag = (Markup('<span class="term" lang="es">%s</span>') % (text,)) if spanish and language != "es" else escape(text)
    seen = g.setdefault("glossed", set())
    if not gloss or language == "es" or term in seen or term not in GLOSSES:
        return tag
    seen.add(term)
    return tag + (Markup(' <small class="gloss">(%s)</small>') % (_request_translations().ugettext(GLOSSES[term]),))


def mano_is(name: str, gloss: bool = True):
    """Who is mano, as one sentence of the reader's language ("mano Ane", "es mano Ane", "マノはAne"), the name
    in bold; glossed like w() the first time on a page (not in Spanish)."""
    if lang() == "en":      # the table's word, glossed, then the name
        return w("mano", gloss=gloss) + (Markup(" <strong>%s</strong>") % (name,))
    text = _request_translations().ugettext(N_("mano %(name)s"))
    before, _, after = text.partition("%(name)s")
    out = escape(before) + (Markup("<strong>%s</strong>") % (name,)) + escape(after)
    language = lang()
    seen = g.setdefault("glossed", set())
    if not gloss or language == "es" or "mano" in seen:
        return out
    seen.add("mano")
    note = "mano" if language == "ja" else _request_translations().ugettext(GLOSSES["mano"])
    return out + (Markup(' <small class="gloss"%s>(%s)</small>') % (Markup(' lang="es"') if language == "ja" else "", note,))


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


@bp.get("/vocab/<code>")
def choose_vocabulary(code: str):
    """Switch the Japanese table words of this browser (スペイン語読み or ポーカー用語) and go back."""
    resp = choose("-")
    if code in glossary.VOCABULARIES:
        resp.set_cookie(VOCAB_COOKIE, code, max_age=YEAR, samesite="Lax", secure=request.is_secure, httponly=True)
    return resp


def init_app(app) -> None:
    app.config.setdefault("BABEL_DEFAULT_LOCALE", "en")
    # the app's catalog, then each kind's own (a kind is one folder: its messages travel with it)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", ";".join(str(d) for d in _translations()))
    Babel(app, locale_selector=select_language)
    # the templates' _() and ngettext() through this request's catalog, found once per request (Flask-Babel
    # looks the domain, the locale and its catalog up again for every string)
    app.jinja_env.install_gettext_callables(
        gettext=lambda s: _request_translations().ugettext(s),
        ngettext=lambda s, p, n: _request_translations().ungettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: _request_translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: _request_translations().unpgettext(c, s, p, n),
    )
    app.register_blueprint(bp)
    app.jinja_env.globals.update(t=t, w=w, mano_is=mano_is, lang=lang, languages=LANGUAGES, fmt_date=fmt_date, number=number,
                                 signed=signed, rank=rank,
                                 vocabulary=vocabulary, vocabularies=glossary.VOCABULARY_NAMES)
    app.jinja_env.filters["listing"] = listing
    poker = PokerDomain()

    @app.before_request
    def _vocabulary():
        if request.cookies.get(VOCAB_COOKIE) == "poker" and lang() == "ja":
            poker.as_default()

    @app.after_request
    def _vary(resp):
        if resp.mimetype == "text/html":
            resp.vary.add("Accept-Language")
            resp.vary.add("Cookie")
        return resp


def _request_translations():
    """``flask_babel.get_translations()``, kept on the request's ``g`` for as long as its domain and
    locale stay the ones it was found for (the Japanese poker words switch the domain in a hook)."""
    ctx = _cv_app.get(None)
    if ctx is None:
        return get_translations()
    state = ctx.g.__dict__
    babel = state.get("_flask_babel")
    held = state.get("_companion_translations")
    if held is not None and babel is not None and held[0] is getattr(babel, "babel_domain", None) \
            and held[1] is getattr(babel, "babel_locale", None):
        return held[2]
    found = get_translations()
    babel = state.get("_flask_babel")
    state["_companion_translations"] = (getattr(babel, "babel_domain", None), getattr(babel, "babel_locale", None),
                                        found)
    return found


def _translations() -> list:
    """The catalogs' folders: the app's, then every kind's that has one (``kinds/<kind>/translations``)."""
    from pathlib import Path

    from companion import kinds

    top = Path(__file__).resolve().parent.parent
    own = [Path(kinds.__file__).parent / name / "translations" for name in kinds.KINDS]
    return [top / "translations", *[d for d in own if d.is_dir()]]


define("i18n", {
    "switch": N_("Language"),
})
