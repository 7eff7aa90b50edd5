"""The table's language, graded (issue 29): one word per thing in each language, no word the review refused,
counters after numbers of chips and cards, Japanese punctuation, and a poker word map that never gives one
word two meanings in a Mus message."""
import os
import re

import pytest

from companion.kinds import glossary
from companion.domain.messages import CATALOG
import companion.kinds  # noqa: F401  (registers every kind's messages)
import companion.web  # noqa: F401  (registers the web's messages: ratings, club)

from test_glossary import ES, JA, ROOT

JAPANESE = re.compile(r"[ぁ-んァ-ヶ一-龯]")


def mus_messages():
    """The English templates of the Mus kind's codes and of its page templates (the Mus pages' own sentences)."""
    out = set()
    for code, entry in CATALOG.items():
        if code.startswith("mus."):
            out.add(entry[0] if isinstance(entry, tuple) else entry)
    folder = os.path.join(ROOT, "companion", "kinds", "mus", "templates", "mus")
    for name in os.listdir(folder):
        with open(os.path.join(folder, name), encoding="utf-8") as fh:
            text = fh.read()
        out |= {m.replace('\\"', '"') for m in re.findall(r'(?:\b_|ngettext)\(\s*"((?:[^"\\]|\\.)*)"', text)}
        out |= set(re.findall(r"(?:\b_|ngettext)\(\s*'([^']*)'", text))
    return out


def test_no_word_the_review_refused():
    bad = []
    for term in glossary.CONCEPTS:
        for lang, cat, words in (("es", ES, term.not_es), ("ja", JA, term.not_ja)):
            for word in words:
                bad += [(lang, word, s[:70]) for strings in cat.values() for s in strings if word in s]
    assert bad == []


@pytest.mark.parametrize("word", ["マッチ", "対局"])
def test_japanese_says_match_one_way(word):
    assert [s for ss in JA.values() for s in ss if word in s] == []


def test_spanish_has_no_english_gloss_nor_showdown_outside_a_key():
    bad = [s for ss in ES.values() for s in ss
           if re.search(r"(?i)\b(kitty|boodles?|showdown)\b", re.sub(r"Michigan, Boodle, Stops|«[^»]*»|\"[^\"]*\"|%\(\w+\)s", " ", s))]
    assert bad == []


def test_a_mus_game_to_40_is_a_juego_and_the_set_a_vaca():
    """Spanish: every Mus message naming a game (to 40) says juego; a match, vaca; never partida (the Mus
    kind's own sentences, where a game is always the 40-point one, except a game record: "not a Mus game")."""
    record = {"this is not a Mus game", "unknown key %(key)s in a Mus game (known: %(known)s)"}
    bad = []
    for mid in mus_messages() - record:
        if re.search(r"(?i)\b(games?|match(es)?)\b", mid):
            bad += [(mid[:50], s) for s in ES.get(mid, []) if re.search(r"(?i)\bpartidas?\b", s)]
    assert bad == []
    assert ES["Games to win"] == ["Juegos para ganar"] and "juegos" in ES["first to %(n)s games"][0]


def test_a_team_wins_in_the_plural():
    bad = [s for ss in ES.values() for s in ss if re.search(r"%\((team|t)\)s gana\b|\bgana %\((team|t)\)s", s)]
    assert bad == []


def test_japanese_mus_messages_never_say_game_for_the_40_points():
    """ゲーム is juego in the poker words: a Mus sentence says 本 for the game, 試合 for the match."""
    bad = [(mid[:50], s) for mid in mus_messages() for s in JA.get(mid, []) if "ゲーム" in s]
    assert bad == []
    assert JA["first to %(n)s games"] == ["%(n)s本先取"]


def test_the_poker_words_never_collide_in_a_mus_message():
    """In a Mus sentence of the Spanish reading no poker word already stands for something else, so that in
    the poker words each one means one thing (ペア the lance, ワンペア the pareja, ゲーム juego)."""
    words = {t.poker for t in glossary.TERMS if t.game == "mus" and t.poker != t.ja}
    bad = [(mid[:40], w, s[:60]) for mid in mus_messages() for s in JA.get(mid, []) for w in words
           if w in s and w not in ("ペア",)]  # ペア: only inside ツーペア/ワンペア below
    bad += [(mid[:40], s[:60]) for mid in mus_messages() for s in JA.get(mid, [])
            if re.search(r"(?<!ツー)(?<!ワン)ペア", s)]
    assert bad == []
    assert glossary.poker("パル・シンプレ < ドゥプレス") == "ワンペア < ツーペア"
    assert glossary.poker("パレス: パル・シンプレ") == "ペア: ワンペア"


# English templates whose parameter counts chips or cards: the Japanese puts the counter after it
COUNTED = re.compile(r"%\((\w+)\)s (?:chips?|cards?)\b|collected %\((\w+)\)s|%\((each)\)s each|got %\((n)\)s \(")


def test_numbers_of_chips_and_cards_take_their_counter():
    bad = []
    for mid, strings in JA.items():
        names = {n for groups in COUNTED.findall(mid) for n in groups if n}
        for name in names:
            for s in strings:
                if f"%({name})s" in s and not re.search(rf"%\({name}\)s(枚|人|点)", s):
                    bad.append((mid[:60], s[:70]))
    assert bad == [], bad[:10]


def test_japanese_punctuation_and_numerals():
    """Full-width brackets and 「」 around Japanese text; Arabic numerals before a counter (レイ2枚, 2人)."""
    bad = []
    for mid, strings in JA.items():
        for s in strings:
            text = re.sub(r"%\(\w+\)[sd]|\{[^{}]*\}", " ", s)
            if not JAPANESE.search(text):
                continue
            if re.search(r"[()]", text):
                bad.append(("ascii brackets", s[:60]))
            for inner in re.findall(r'"([^"]*)"', text):
                if JAPANESE.search(inner):
                    bad.append(("straight quotes", s[:60]))
            if re.search(r"[二三四五六七八九十][枚人組本]", text):
                bad.append(("kanji numeral", s[:60]))
    assert bad == [], bad[:10]


def test_the_vocabulary_menu_names_the_mus_words_not_a_language():
    for name in glossary.VOCABULARY_NAMES.values():
        assert JA[name][0].startswith("ムスの用語")


def test_a_mus_king_is_a_rey_in_japanese():
    """Pagat's レイ for the Mus king (「レイ8枚」), never キング (Newmarket's, a French deck's)."""
    assert [s for mid in mus_messages() for s in JA.get(mid, []) if "キング" in s] == []
