"""Messages as codes with parameters, rendered into words at the edge.

Rules never write sentences: they return ``{"code": "kind.fold", "team": "B", "points": 2, ...}`` and raise
``RuleError(code, path, **params)``. Each module that owns codes registers their English templates here
(``define``), marked with ``N_`` so that ``pybabel extract -k N_`` puts them in the catalogs. The web
renders a message in the reader's language (``Renderer`` with Flask-Babel's gettext); the session file,
the state JSON and the CSV render it in English (the default renderer).

Templates use gettext's ``%(name)s`` placeholders. A parameter that is itself a message (a dict with a
``code``) is rendered first; a list is joined as the reader's language joins one (``join``: commas in English files). A template given as ``(singular, plural, key)``
is chosen by the number in parameter ``key`` (ngettext).
"""
from __future__ import annotations

import re
import weakref
from typing import Callable

Msg = dict  # {"code": str, **params}


def N_(text):
    """Marks an English template for the translation catalogs; returns it unchanged."""
    return text


def NP_(singular: str, plural: str, key: str) -> tuple[str, str, str]:
    """A template with a plural: the form is chosen by the number in parameter ``key`` (ngettext);
    ``pybabel extract -k NP_:1,2`` puts both forms in the catalogs as one plural entry."""
    return (singular, plural, key)


CATALOG: dict[str, str | tuple[str, str, str]] = {}
_RENDERERS: "weakref.WeakSet[Renderer]" = weakref.WeakSet()   # their kept plans go when a compound is defined
# One sentence per message: a code "X+Y" is the whole sentence of X whose parameter is the message Y
# ("<kind>.why.fold+<kind>.bet.raise": "... folded to B's raise to 7"), so no language has to glue a translated
# fragment into another. The renderer picks it when it exists; Y's own parameters join X's.
COMPOUND: set[str] = set()


def define(prefix: str, entries: dict) -> None:
    """Register templates under ``prefix.`` (``define("kind", {"fold": N_("...")})`` -> code ``kind.fold``)."""
    for key, template in entries.items():
        code = f"{prefix}.{key}" if prefix else key
        if code in CATALOG and CATALOG[code] != template:
            raise ValueError(f"message code {code!r} defined twice")
        CATALOG[code] = template
        if "+" in code:
            COMPOUND.add(code.split("+", 1)[0])
            _COMPOUNDS.clear()      # a sentence defined after a render looked for it
            for r in list(_RENDERERS):
                r.plain.clear()


def msg(code: str, **params) -> Msg:
    if code not in CATALOG:
        raise KeyError(f"unknown message code {code!r}")
    return {"code": code, **params}


def _identity(text: str) -> str:
    return text


def _english_plural(singular: str, plural: str, n) -> str:
    return singular if n == 1 else plural


class Renderer:
    """Turns messages into text: ``gettext``/``ngettext`` translate a template, ``number`` writes a number,
    ``overrides`` render some codes differently (a team letter as the team's names, say)."""

    def __init__(self, gettext: Callable[[str], str] = _identity, ngettext=_english_plural,
                 number: Callable[[int], str] = str, overrides: dict[str, Callable[[dict], str]] | None = None,
                 separator: str = ", ", join: Callable[[list[str]], str] | None = None):
        self.gettext = gettext
        self.ngettext = ngettext
        self.number = number
        self.overrides = overrides or {}
        self.separator = separator
        self.join = join or separator.join
        self.words: dict[str, str] = {}     # param-less messages already rendered
        self.texts: dict[str, str] = {}     # templates (without a plural) already translated
        self.plain: dict[str, tuple] = {}   # code -> plan of a template without plural or compound
        self.numbers = None if number is str else number    # None: written as Python writes them
        _RENDERERS.add(self)

    def value(self, v) -> str:
        t = v.__class__
        if t is str:
            return v
        if t is int:
            return self.number(v)
        if t is dict and "code" in v:
            return self(v)
        if t is list or t is tuple:
            return self.join([self.value(x) for x in v])
        return "" if v is None else str(v)

    def __call__(self, m) -> str:
        if m is None:
            return ""
        if m.__class__ is str:
            return m
        code = m["code"]
        if len(m) == 1:     # a word (a lance, a kind of pares): looked up once
            hit = self.words.get(code)
            if hit is None:
                hit = self.words[code] = self._render(code, m)
            return hit
        return self._render(code, m)

    def _render(self, code: str, m: dict) -> str:
        plan = self.plain.get(code)
        if plan is None:
            if code == "sep.dot":   # parts of one line, whatever the language
                return " · ".join(self.value(x) for x in m["items"])
            if self.overrides and code in self.overrides:
                return self.overrides[code](m)
            plain = True            # one template, no plural, no compound: its plan kept by its code
            if code in COMPOUND:
                plain = False
                for k, v in m.items():
                    if v.__class__ is dict and _compound(code, v.get("code")) is not None:
                        code = _compound(code, v["code"])
                        m = {**{a: b for a, b in m.items() if a != k},
                             **{a: b for a, b in v.items() if a != "code"}, "code": code}
                        break
            text = self.texts.get(code)     # the template in the reader's language, looked up once
            if text is None:
                entry = CATALOG.get(code)
                if entry is None:  # a code from a newer version, read from an old database: say what we can
                    return code
                if entry.__class__ is tuple:
                    plain = False
                    singular, plural, key = entry
                    text = self.ngettext(singular, plural, m.get(key, 0))
                else:
                    text = self.texts[code] = self.gettext(entry)
            plan = _PLANS.get(text)
            if plan is None:
                plan = _PLANS[text] = _plan(text)
            if plain and plan is not False:
                self.plain[code] = plan
            if len(m) == 1:
                return text
        elif len(m) == 1:
            return self.texts[code]
        else:
            text = None             # (only needed below when a placeholder is missing)
        if plan is not False:   # only the parameters the sentence writes, in its order
            fmt, names = plan
            args = []
            words = self.words
            number = self.numbers
            for k in names:
                v = m.get(k, _MISSING)
                t = v.__class__
                if t is str:
                    args.append(v)
                elif t is int:
                    args.append(v if number is None else number(v))
                elif t is dict:
                    if len(v) == 1:
                        hit = words.get(v["code"])
                        args.append(hit if hit is not None else self(v))
                    else:
                        args.append(self._render(v["code"], v))
                elif v is _MISSING:     # a translation that lost a placeholder: below, as it always did
                    break
                else:
                    args.append(self._list(v) if t is list else self.value(v))
            else:
                return fmt % tuple(args)
        # the parameters in words (value() inlined: a state renders thousands of these). Every template
        # writes its parameters with %s, so a number written as Python writes it (the English renderer)
        # goes in as it is.
        if text is None:
            text = self.texts[code]
        params = {}
        words = self.words
        number = self.numbers
        for k, v in m.items():
            t = v.__class__
            if t is str:
                params[k] = v
            elif t is int:
                params[k] = v if number is None else number(v)
            elif t is dict:
                if len(v) == 1:
                    hit = words.get(v["code"])
                    params[k] = hit if hit is not None else self(v)
                else:
                    params[k] = self._render(v["code"], v)
            elif t is list:
                params[k] = self._list(v)
            else:
                params[k] = self.value(v)
        try:
            return text % params
        except (KeyError, ValueError, TypeError):  # a translation that lost a placeholder
            entry = CATALOG[code]
            return (entry if isinstance(entry, str) else entry[0]) % params

    def _list(self, v: list) -> str:
        """A list of messages (the bonuses of a lance) as the reader's language joins one (``value``)."""
        parts = []
        for x in v:
            if x.__class__ is dict and len(x) > 1 and "code" in x:
                parts.append(self._render(x["code"], x))
            else:
                parts.append(self.value(x))
        return self.join(parts)


_MISSING = object()
_COMPOUNDS: dict[tuple, str | None] = {}


def _compound(code: str, inner) -> str | None:
    """The code of the one sentence "code+inner" when the catalog has it (looked up once per pair)."""
    key = (code, inner)
    try:
        return _COMPOUNDS[key]
    except KeyError:
        pass
    except TypeError:           # an unhashable inner code: never a catalog key
        return None
    whole = f"{code}+{inner}"
    found = _COMPOUNDS[key] = whole if whole in CATALOG else None
    return found
_PLANS: dict[str, tuple | bool] = {}    # template (any language) -> _plan(template): a few thousand at most
_PLACEHOLDER = re.compile(r"%\(([^()]*)\)s|%%")


def _plan(text: str):
    """A template as a positional one and the parameter names it writes, in order (``"%(a)s+%(b)s"`` ->
    ``("%s+%s", ("a", "b"))``); False when it holds anything else than ``%(name)s`` and ``%%`` (then the
    renderer formats it with the whole dict, as before)."""
    if "%" in _PLACEHOLDER.sub("", text):
        return False
    names = []

    def positional(mo):
        if mo.group(1) is None:
            return "%%"
        names.append(mo.group(1))
        return "%s"

    return _PLACEHOLDER.sub(positional, text), tuple(names)


ENGLISH = Renderer()


def render(m, renderer: Renderer = ENGLISH) -> str:
    return renderer(m)


define("", {
    # generic validation, used by every kind and the session file
    "v.object": N_("must be an object"),
    "v.list": N_("must be a list"),
    "v.int": N_("must be a whole number, not %(value)s"),
    "v.int_min": N_("must be at least %(min)s (%(value)s given)"),
    "v.int_max": N_("must be at most %(max)s (%(value)s given)"),
    "v.negative": N_("cannot be negative (%(value)s)"),
    "v.bool": N_("must be true or false, not %(value)s"),
    "v.choice": N_("must be one of %(choices)s, not %(value)s"),
    "v.unknown_key": N_("unknown key %(key)s"),
    "v.missing": N_("missing"),
    "v.text": N_("must be text"),
    "v.not_seated": N_("%(name)s is not seated at this game"),
    "v.not_player": N_("%(name)s is not a player of this session"),
    "v.seated_twice": N_("%(name)s is seated twice"),
    "v.listed_twice": N_("%(name)s is listed twice"),
    "v.seats_count": N_("needs %(low)s to %(high)s players, not %(count)s"),
    "v.player_name": N_("must be a player's name"),
    "v.card": N_("%(value)s is not a card (rank A K Q J 2-10, then suit S H D C)"),
    "v.stale": N_("That tap was already recorded (on this phone or another): here is the game as it is now."),
    "v.action_type": N_("unknown action %(type)s"),
    "v.no_game": N_("there is no such game in this session"),
    "v.amount_max": N_("that amount is too large (at most %(max)s)"),
    "sep.dot": N_("%(items)s"),
    "chart.start": N_("start"),
    "chart.end": N_("end"),
})
