"""The games' words (issue 20): docs/glossary.md is written from companion/kinds/glossary.py; every Japanese and
Spanish message uses the glossary's word for each term it names; no Japanese message shows a Spanish Mus
word or a conjugated Spanish verb outside a parenthesised gloss; the side games and the kinds' names are
translated; the poker vocabulary is a clean word map over the Japanese catalog."""
import importlib.util
import os
import re

import pytest
from babel.messages.pofile import read_po

from companion.kinds import glossary
from companion.domain.messages import CATALOG
import companion.kinds  # noqa: F401  (registers every kind's messages)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("glossary_tool", os.path.join(ROOT, "tools", "glossary.py"))
tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tool)

LATIN_SPANISH = re.compile(r"(?i)(?<![\w-])(" + "|".join(sorted(
    map(re.escape, set(glossary.SPANISH_WORDS) | set(glossary.SPANISH_VERBS)), key=len, reverse=True)) + r")(?![\w-])")
KATAKANA = "ァ-ヶー・"


def catalog(lang):
    with open(os.path.join(ROOT, "companion", "translations", lang, "LC_MESSAGES", "messages.po"), "rb") as fh:
        cat = read_po(fh, locale=lang)
    out = {}
    for m in cat:
        if not m.id or not m.string:
            continue
        ids = m.id if isinstance(m.id, (tuple, list)) else (m.id,)
        strings = m.string if isinstance(m.string, (tuple, list)) else (m.string,)
        out[ids[0]] = [s for s in strings if s]
    return out


JA, ES = catalog("ja"), catalog("es")


def literal_free(text: str) -> str:
    """A message without its placeholders, markup, code literals ("…" and “…”: file keys and values) and the
    names of games ("Michigan, Boodle, Stops")."""
    text = re.sub(r"Michigan, Boodle, Stops", " ", text)
    text = re.sub(r"(?i)paso en todo", "paso", text)
    text = re.sub(r"%\(\w+\)[sd]|<[^>]*>|&\w+;", " ", text)
    text = re.sub(r'"[^"]*"|“[^”]*”|\{[^}]*\}', " ", text)
    return text


def outside_parentheses(text: str) -> str:
    prev = None
    while prev != text:
        prev = text
        text = re.sub(r"\([^()（）]*\)|（[^()（）]*）", " ", text)
    return text


def japanese_problems(text: str) -> list[str]:
    """The Spanish Mus words and conjugated verbs a Japanese message shows outside parentheses."""
    return sorted({m.lower() for m in LATIN_SPANISH.findall(outside_parentheses(literal_free(text)))})


def test_the_checker_finds_spanish_standing_alone():
    assert japanese_problems("チームA envida") == ["envida"]
    assert japanese_problems("Paso en todo") == ["paso"]
    assert japanese_problems("AがBの7点へのレイズに no quiero") == ["quiero"]
    assert japanese_problems("%(team)sが%(n)s点ベット") == []
    assert japanese_problems("ハイ (grande) · マノ（mano）") == []
    assert japanese_problems('ステップは "ordago" のキー') == []


def test_the_glossary_document_is_written_from_the_module():
    with open(tool.OUT, encoding="utf-8") as fh:
        assert fh.read() == tool.render(), "run `python tools/glossary.py`"


def test_no_japanese_message_shows_spanish_outside_a_gloss():
    bad = {mid: japanese_problems(" ".join(s)) for mid, s in JA.items()}
    bad = {mid: words for mid, words in bad.items() if words}
    assert bad == {}, f"{len(bad)} Japanese messages with Spanish standing alone: {list(bad.items())[:10]}"


# terms whose key is also an ordinary English word, or that English messages use in another sense
NOT_CHECKED = {"as", "raise", "pool", "ante", "dummy", "color", "envida", "rey"}


def named_terms(msgid: str) -> list:
    """The glossary terms an English message names (longest first; a longer term hides the shorter inside)."""
    text = literal_free(msgid)
    found = []
    for term in sorted(glossary.TERMS, key=lambda t: -len(t.key)):
        if term.key in NOT_CHECKED:
            continue
        pattern = re.compile(rf"(?i)(?<![\w-]){re.escape(term.key)}(?![\w-])")
        if pattern.search(text):
            found.append(term)
            text = pattern.sub(" ", text)
    return found


@pytest.mark.parametrize("lang", ["ja", "es"])
def test_every_message_names_a_term_in_the_glossarys_word(lang):
    cat = JA if lang == "ja" else ES
    wrong = []
    for mid, strings in cat.items():
        for term in named_terms(mid):
            want = term.ja if lang == "ja" else term.es.split(" (")[0]
            # Spanish: singular or plural ("carta de premio", "cartas de premio")
            pattern = re.compile(r"(?i)" + r"\s".join(re.escape(x.rstrip("s")) + "s?" for x in want.split()))
            for s in strings:
                if not pattern.search(s):
                    wrong.append(f"{mid[:50]!r} names {term.key!r}: {s[:60]!r} lacks {want!r}")
    assert wrong == [], f"{len(wrong)} messages: {wrong[:12]}"


def test_spanish_never_shows_the_english_kitty_or_boodle_alone():
    bad = [(mid, s) for mid, ss in ES.items() for s in ss
           if re.search(r"(?i)\b(kitty|boodles?)\b", outside_parentheses(literal_free(s)))]
    assert bad == []


def test_the_side_games_and_the_kinds_names_are_translated():
    codes = [c for c in CATALOG if re.match(r"desmoche\.(side|side_label)\.", c) or c in ("mus.title", "newmarket.title", "desmoche.title")]
    assert len(codes) >= 21
    names = {CATALOG[c] for c in codes} | {"Mus", "Newmarket", "Desmoche", "Conquián", "Parlett"}
    for english in names:
        ja, es = JA.get(english, [""])[0], ES.get(english, [""])[0]
        assert ja and not re.search(r"[A-Za-z_]", ja), f"{english!r} in Japanese: {ja!r}"
        assert es and "_" not in es, f"{english!r} in Spanish: {es!r}"


def test_the_poker_words_are_a_clean_word_map():
    """Each word the poker vocabulary replaces appears in the Japanese catalog only as a whole word (グランデ,
    never inside a longer katakana word), so the map changes nothing else; and the result has none left."""
    for ja, poker in glossary.POKER:
        inside = re.compile(rf"[{KATAKANA}]{re.escape(ja)}|{re.escape(ja)}(?!ボーナス)[{KATAKANA.replace('・', '')}]")
        for mid, strings in JA.items():
            for s in strings:
                assert not inside.search(s.replace("パル・シンプレ", "")), f"{ja} inside a longer word: {s!r}"
                assert ja not in glossary.poker(s)
    assert glossary.poker("グランデ: Aが2点ベット、オルダゴ（órdago）にコール") == "ハイ: Aが2点ベット、オールイン（órdago）にコール"
    assert glossary.poker("パル・シンプレ（ペア）< メディアス（スリーカード）") == "ワンペア< スリーカード"
