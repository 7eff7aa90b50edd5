"""Every user-visible string of every template goes through the catalog (issue 11): text between tags and
the attributes people read (aria-label, placeholder, title, alt) hold no words outside ``{{ ... }}``."""
import glob
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEMPLATES = sorted(glob.glob(os.path.join(ROOT, "templates", "**", "*.html"), recursive=True)
                   + glob.glob(os.path.join(ROOT, "companion", "kinds", "*", "templates", "**", "*.html"),
                               recursive=True))
# words that are not words: card notation, team letters, the app's symbols
ALLOWED = {"RR43", "RRCS", "Companion", "Mus", "Newmarket", "Desmoche", "Conquián", "Michigan", "Parlett"}
WORD = re.compile(r"[^\W\d_]{2,}")
CARDS = re.compile(r"\b[RCSA2-7]{2,}[0-9]*\b")     # card notation (RR43, RCCC): not words


def sentences_in_code(source: str) -> list[str]:
    """String literals inside ``{{ }}`` / ``{% %}`` that read like words (a label passed to a macro, say)
    and are not the argument of ``_()``, ``gettext()``, ``ngettext()`` or ``w()``."""
    out = []
    for block in re.findall(r"\{\{.*?\}\}|\{%.*?%\}", re.sub(r"\{#.*?#\}", " ", source, flags=re.S), flags=re.S):
        # the second literal of ngettext (the plural) and of w() (the word as written) are not free text
        block = re.sub(r"""\b(ngettext|w)\(\s*(["'])(?:\\.|(?!\2).)*\2\s*,\s*(["'])(?:\\.|(?!\3).)*\3""", r"\1(", block)
        for m in re.finditer(r"""(?<![\w.])(_|gettext|ngettext|w)?\(?\s*(["'])((?:\\.|(?!\2).)*)\2""", block):
            func, text = m.group(1), m.group(3)
            if func or not re.search(r"[^\W\d_]{2,}\s+[^\W\d_]", text) or "{{" in text or "%(" in text and func:
                continue
            out.append(text[:80])
    return out


def visible_strings(source: str) -> list[str]:
    """The literal texts a reader would see: between tags, and in readable attributes."""
    s = re.sub(r"\{#.*?#\}", " ", source, flags=re.S)
    s = re.sub(r"<script.*?</script>|<style.*?</style>", " ", s, flags=re.S)
    s = re.sub(r"\{%.*?%\}", " ", s, flags=re.S)
    s = re.sub(r"\{\{.*?\}\}", " ", s, flags=re.S)
    found = []
    for attr in re.findall(r'(?:aria-label|placeholder|title|alt)="([^"]*)"', s):
        found.append(attr)
    s = re.sub(r"<[^>]*>", "\n", s)
    found.extend(line.strip() for line in s.split("\n"))
    out = []
    for text in found:
        words = [x for x in WORD.findall(CARDS.sub(" ", text)) if x not in ALLOWED]
        if words:
            out.append(text.strip()[:80])
    return out


@pytest.mark.parametrize("path", TEMPLATES, ids=[os.path.relpath(p, ROOT) for p in TEMPLATES])
def test_no_user_visible_string_outside_the_catalog(path):
    with open(path, encoding="utf-8") as fh:
        source = fh.read()
    leftovers = visible_strings(source) + sentences_in_code(source)
    assert leftovers == [], f"{os.path.relpath(path, ROOT)}: wrap these in _(): {leftovers}"


def test_the_checker_finds_a_bare_string():
    assert visible_strings('<p class="x">Hello {{ name }}</p>') == ["Hello"]
    assert visible_strings('<button aria-label="Undo">{{ _("Undo") }}</button>') == ["Undo"]
    assert visible_strings('<p>{{ _("Hello %(n)s", n=name) }} · ✓ {{ w("envite") }} A 3</p>') == []
    assert sentences_in_code('{{ f.text("name", "Name of the night", v) }}') == ["Name of the night"]
    assert sentences_in_code('{{ f.text("name", _("Name of the night"), v, attrs=\'maxlength="80"\') }}') == []
    assert sentences_in_code('{{ ngettext("%(num)s chip on %(card)s", "%(num)s chips on %(card)s", n, card=c) }}') == []
    assert sentences_in_code('{{ w("no quiero", "No quiero", gloss=False) }}') == []
    assert visible_strings('<input placeholder="RR43">') == []
