"""The games' words in English, Spanish and both Japanese vocabularies, with the seed text each comes from.

The one source of the table's words: each kind lists its own in its folder (``companion/kinds/<kind>/
glossary.py``: ``TERMS``, and optionally ``CONCEPTS``, ``VOCABULARY_NAMES``, ``SPANISH_WORDS`` and
``SPANISH_VERBS``) and this module assembles them, with the app's own words around the games.
``docs/glossary.md`` is written from it (``python tools/glossary.py``), the catalog tests check every
Japanese and Spanish message against it, and the Japanese poker vocabulary ("ポーカー用語") is derived from
the Japanese catalog with its word map (``POKER``): the catalog is written in the rule text's words
("スペイン語読み", the default) and a reader who chose the poker words sees each of them swapped for the
blog's. Pure data: no Flask.
"""
from __future__ import annotations

import importlib
import importlib.util
import re

from companion import kinds
from companion.domain.terms import Term


def _kinds_glossaries() -> list:
    """Every kind's ``glossary`` module, in the registry's order (a kind without one has no table words)."""
    out = []
    for name in kinds.KINDS:
        module = f"{kinds.__name__}.{name}.glossary"
        if importlib.util.find_spec(module) is not None:
            out.append(importlib.import_module(module))
    return out


_GLOSSARIES = _kinds_glossaries()

VOCABULARIES = ("spanish", "poker")    # the Japanese vocabularies of the table words; "spanish" is the default
# their names (shown in Japanese only, in the language menu), as the kind whose words have both says them
VOCABULARY_NAMES = {k: v for g in _GLOSSARIES for k, v in getattr(g, "VOCABULARY_NAMES", {}).items()}

TERMS: tuple[Term, ...] = tuple(t for g in _GLOSSARIES for t in g.TERMS)
BY_KEY = {t.key: t for t in TERMS}

# The app's own words around the games: one word per thing in each language (issue 29). Not table words (no
# poker form, never glossed); the catalog tests refuse the words in ``not_es`` / ``not_ja`` anywhere.
C = Term
_OWN: tuple[Term, ...] = (
    C("partida", "words", "game (one entry of a session: a Mus match, a Newmarket game)", "partida", "ゲーム",
      "ゲーム", "ours", "ja: on a Mus page the Mus match is 試合"),
    C("tantos", "words", "points (won at a lance)", "tantos", "点", "点", "ours"),
    C("jugada", "words", "the better hand (at a lance)", "la mejor jugada / llevar mejor", "強い手 / 強かった",
      "強い手 / 強かった", "pagat: 強いハンド", not_es=("la mejor mano", "ganaba a")),
    C("bote", "words", "pool, pot (Newmarket, Desmoche)", "bote (bote común: the kitty)", "プール / ポット",
      "プール / ポット", "newmarket: プール; desmoche: ポット", not_es=("pozo",)),
    C("cuenta", "words", "showdown, the count", "la cuenta", "ショーダウン / 得点計算",
      "ショーダウン / 得点計算", "pagat: ショーダウンを行い得点をつけます", not_ja=("カウント",)),
    C("tanteo", "words", "tally (the table counts)", "tanteo", "点数入力", "点数入力", "ours"),
    C("declarar", "words", "declare (pares, juego)", "declarar", "宣言", "宣言", "ours", not_ja=("申告",)),
    C("exportar", "words", "export", "exportar", "エクスポート", "エクスポート", "ours", not_ja=("書き出し",)),
    C("deshacer", "words", "Undo (a button: the imperative)", "deshacer", "元に戻す", "元に戻す", "ours",
      not_ja=("元に戻しました:",)),
    C("noche de club", "words", "club night", "noche de club", "例会", "例会", "ours",
      not_ja=("クラブの夜", "今夜の名前", "夜の設定")),
    C("sala", "words", "sala (the room screen)", "sala", "会場画面", "会場画面", "ours", not_ja=("サラ",)),
    C("pareja (partners)", "words", "pair (two partners)", "pareja", "コンビ", "コンビ", "ours",
      "ja: ペア is the cards' (pares, and Desmoche's pairs)"),
    C("puntos de partida", "words", "match points (club standings)", "puntos", "勝ち点", "勝ち点", "ours",
      not_ja=("マッチポイント",)),
    C("empate", "words", "a shared rank", "3.º empatados", "3位タイ", "3位タイ", "ours", "never \"3=\""),
)
# the order docs/glossary.md lists them in, the kinds' own among the app's
ORDER = ("juego (40 points)", "vaca", "partida", "tantos", "jugada", "bote", "cuenta", "tanteo", "declarar",
         "exportar", "deshacer", "noche de club", "sala", "pareja (partners)", "puntos de partida", "empate",
         "multiples")
CONCEPTS: tuple[Term, ...] = tuple(sorted(
    _OWN + tuple(t for g in _GLOSSARIES for t in getattr(g, "CONCEPTS", ())),
    key=lambda t: ORDER.index(t.key) if t.key in ORDER else len(ORDER)))

# The poker vocabulary, as a word map over the Japanese catalog (longest first: パル・シンプレ before パレス).
POKER: tuple[tuple[str, str], ...] = tuple(sorted(
    {(t.ja, t.poker) for t in TERMS if t.ja != t.poker}, key=lambda p: -len(p[0])))

# Spanish table words a Japanese message may show only inside a parenthesised gloss, and the conjugated
# Spanish verbs it never shows at all (the catalog tests; the browser test reads the same lists): the kinds'
SPANISH_WORDS = tuple(w for g in _GLOSSARIES for w in getattr(g, "SPANISH_WORDS", ()))
SPANISH_VERBS = tuple(w for g in _GLOSSARIES for w in getattr(g, "SPANISH_VERBS", ()))


# the poker word Pagat's Japanese gives in brackets after a word ("パル・シンプレ(ペア)"): in the poker words the
# bracket would repeat the word ("ワンペア（ペア）"), so it goes
PAGAT_GLOSS = {m.group(1): m.group(2) for t in TERMS
               for m in [re.match(r"pagat: ([^(;]+)\((.+?)\)", t.seed)] if m}


# the card letters: Pagat's Spanish R C S (rey, caballo, sota), the blog's K Q J; a hand written in the text
# ("RR43") reads in the blog's letters too (the app's card reader reads both)
KQJ = str.maketrans({"R": "K", "C": "Q", "S": "J"})
_HAND = re.compile(r"(?<![A-Za-z0-9])[RCS765432A]{4}(?![A-Za-z0-9])")


def poker_hands(text: str) -> str:
    """Hands written in Pagat's letters ("RR43", a message's parameter) in the blog's ("KK43")."""
    return _HAND.sub(lambda m: m.group(0).translate(KQJ) if set(m.group(0)) & set("RCS") else m.group(0), text)


def poker_cards(text: str) -> str:
    """Card letters in the blog's way: "R C S" -> "K Q J（R C S）", "RR43" -> "KK43", "レイ（R）" -> "レイ（K）"."""
    return poker_hands(text.replace("R C S", "K Q J（R C S）").replace("レイ（R）", "レイ（K）"))


def poker(text: str) -> str:
    """A Japanese text in the rule text's words, in the poker words."""
    text = poker_cards(text)
    for ja, pk in POKER:
        if ja in text:
            gloss = PAGAT_GLOSS.get(ja)
            if gloss:
                text = text.replace(f"{ja}（{gloss}）", ja).replace(f"{ja}({gloss})", ja)
            text = text.replace(ja, pk).replace(f"{pk}（{pk}）", pk)   # "パル・シンプレ（ペア）" -> "ペア"
    return text
