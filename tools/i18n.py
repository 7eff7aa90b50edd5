"""The translation catalogs: extract every message, update the Spanish and Japanese catalogs, compile them.

    python tools/i18n.py extract     # companion/translations/messages.pot from the code and templates
    python tools/i18n.py update      # merge it into es and ja (new messages appear untranslated)
    python tools/i18n.py compile     # the .mo files the app reads
    python tools/i18n.py check       # every message translated in es and ja, placeholders kept

``retranslate(lang, {msgid: new})`` changes translations in place (the entry's lines only: the file is
neither re-sorted nor re-wrapped, so catalogs edited on two branches merge).

It runs `pybabel` (installed with Babel) with the keywords the code uses: N_ and NP_ (message templates
in companion/**/messages), _ / gettext / ngettext (templates).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIR = os.path.join(ROOT, "companion", "translations")
POT = os.path.join(DIR, "messages.pot")
LANGS = ("es", "ja")
KEYWORDS = ["-k", "N_", "-k", "NP_:1,2", "-k", "_", "-k", "gettext", "-k", "ngettext:1,2"]
PYBABEL = [sys.executable, "-m", "babel.messages.frontend", "-q"]


def run(*args: str) -> None:
    subprocess.run([*PYBABEL, *args], check=True, cwd=ROOT)


def extract(out: str = POT) -> None:
    run("extract", "-F", "babel.cfg", *KEYWORDS, "--no-location", "--sort-output", "--omit-header",
        "-o", out, ".")


def update() -> None:
    for lang in LANGS:
        po = os.path.join(DIR, lang, "LC_MESSAGES", "messages.po")
        if os.path.exists(po):
            run("update", "-i", POT, "-d", DIR, "-l", lang, "--no-fuzzy-matching", "--ignore-obsolete")
        else:
            run("init", "-i", POT, "-d", DIR, "-l", lang)


def compile_() -> None:
    run("compile", "-d", DIR, "--statistics")


def _po_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def _po_unquote(lines: list[str]) -> str:
    import ast

    return "".join(ast.literal_eval(x.strip()) for x in lines)


def _po_blocks(text: str):
    """(start, end, msgctxt, msgid, kind) of each entry, kind "msgstr" or "plural"; lines [start, end)."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith(("msgid ", "msgctxt ")):
            ctx = None
            start = i
            if lines[i].startswith("msgctxt "):
                j = i + 1
                while lines[j].startswith('"'):
                    j += 1
                ctx = _po_unquote([lines[i][8:], *lines[i + 1:j]])
                i = j
            j = i + 1
            while lines[j].startswith('"'):
                j += 1
            mid = _po_unquote([lines[i][6:], *lines[i + 1:j]])
            k = j
            while k < len(lines) and lines[k].strip() and not lines[k].startswith(("#", "msgid ", "msgctxt ")):
                k += 1      # (an entry ends at a blank line, or where the next begins: merged files lose some)
            yield start, j, k, ctx, mid
            i = k
        else:
            i += 1


def retranslate(lang: str, changes: dict, path: str | None = None) -> list:
    """Set translations in place: ``{msgid: text}`` or ``{msgid: [singular, plural]}``; a key may be
    ``(msgctxt, msgid)``. Returns the keys not found."""
    path = path or os.path.join(DIR, lang, "LC_MESSAGES", "messages.po")
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    lines = text.split("\n")
    todo = {(k if isinstance(k, tuple) else (None, k)): v for k, v in changes.items()}
    edits = []
    for start, after_id, end, ctx, mid in _po_blocks(text):
        new = todo.pop((ctx, mid), None)
        if new is None:
            continue
        body = lines[after_id:end]
        plural = any(x.startswith("msgid_plural") for x in body)
        if plural and not isinstance(new, (list, tuple)):
            new = [new] * (1 if lang == "ja" else 2)
        elif not plural and isinstance(new, (list, tuple)):
            new = new[0]
        if isinstance(new, (list, tuple)):
            keep = [x for x in body if x.startswith("msgid_plural") or (x.startswith('"') and not any(
                y.startswith("msgstr") for y in body[:body.index(x)]))]
            out = keep + [f"msgstr[{n}] {_po_quote(s)}" for n, s in enumerate(new[:2 if lang != "ja" else 1])]
        else:
            out = [f"msgstr {_po_quote(new)}"]
        edits.append((after_id, end, out))
    for after_id, end, out in sorted(edits, reverse=True):
        lines[after_id:end] = out
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines))
    return list(todo)


PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def problems(pot_path: str = POT) -> list[str]:
    """Messages of the template without a Spanish or Japanese translation, or whose translation lost or
    invented a placeholder."""
    from babel.messages.pofile import read_po

    with open(pot_path, "rb") as fh:
        template = read_po(fh)
    out = []
    for lang in LANGS:
        with open(os.path.join(DIR, lang, "LC_MESSAGES", "messages.po"), "rb") as fh:
            cat = read_po(fh, locale=lang)
        for m in template:
            if not m.id:
                continue
            got = cat.get(m.id, context=m.context)
            ids = m.id if isinstance(m.id, (tuple, list)) else (m.id,)
            if got is None or got.fuzzy or not got.string or not all(got.string if isinstance(got.string, (tuple, list)) else [got.string]):
                out.append(f"{lang}: untranslated: {ids[0][:80]!r}")
                continue
            want = set(PLACEHOLDER.findall(" ".join(ids)))
            strings = got.string if isinstance(got.string, (tuple, list)) else (got.string,)
            for s in strings:
                have = set(PLACEHOLDER.findall(s))
                if have - want or (want - have) - {"n", "num", "count"}:
                    out.append(f"{lang}: placeholders {sorted(have)} != {sorted(want)} in {ids[0][:60]!r}")
    return out


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else "all"
    if cmd in ("extract", "all"):
        extract()
    if cmd in ("update", "all"):
        update()
    if cmd in ("compile", "all"):
        compile_()
    if cmd in ("check", "all"):
        bad = problems()
        print("\n".join(bad) or "every message is translated")
        sys.exit(1 if bad else 0)
