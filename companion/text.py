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
  (Arabic, Persian, the Indic scripts), nowhere else;
- a text must hold at least one visible character (a letter, digit, punctuation or symbol).

Pure: no Flask, no SQLite (the rule engines use it).
"""
from __future__ import annotations

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


def first_hidden(text: str) -> int | None:
    """The index of the first character the policy refuses, or None."""
    for i, c in enumerate(text):
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
    from .errors import RuleError

    text, bad = check(raw)
    if bad is not None:
        raise RuleError("text.hidden", path, char=bad)
    return text


from .messages import N_, define  # noqa: E402

define("text", {"hidden": N_("cannot hold invisible, blank-looking, control or text-direction characters "
                             "(%(char)s found)")})
