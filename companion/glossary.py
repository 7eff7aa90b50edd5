"""The games' words in English, Spanish and both Japanese vocabularies, with the seed text each comes from.

The one source of the table's words: ``docs/glossary.md`` is written from it (``python tools/glossary.py``),
the catalog tests check every Japanese and Spanish message against it, and the Japanese poker vocabulary
("ポーカー用語") is derived from the Japanese catalog with its word map (``POKER``): the catalog is written in
the rule text's words ("スペイン語読み", the default) and a reader who chose the poker words sees each of them
swapped for the blog's. Pure data: no Flask.

Seeds: pagat = ../shared/seeds/mus-pagat-ja.txt (Pagat's rules in Japanese), blog = mus-blog-ja.txt (the
blog that chose poker words "because the original terms are confusing"), newmarket = newmarket-ja.txt,
desmoche = desmoche-ja.txt; "ours" where no seed names the thing.
"""
from __future__ import annotations

from dataclasses import dataclass

from .messages import N_

VOCABULARIES = ("spanish", "poker")    # the Japanese Mus vocabularies; "spanish" is the default
# their names (shown in Japanese only, in the language menu)
VOCABULARY_NAMES = {"spanish": N_("Mus words: Spanish reading"), "poker": N_("Mus words: poker terms")}


@dataclass(frozen=True)
class Term:
    key: str            # the Spanish word the table says (the gloss in Japanese)
    game: str
    en: str
    es: str
    ja: str             # スペイン語読み (the rule text's word)
    poker: str          # ポーカー用語 (the blog's word); the same as ja where the blog has none of its own
    seed: str
    note: str = ""


T = Term
TERMS: tuple[Term, ...] = (
    # Mus: the lances
    T("grande", "mus", "Grande (high cards)", "grande", "グランデ", "ハイ", "pagat: グランデ(ハイ); blog: ハイ"),
    T("chica", "mus", "Chica (low cards)", "chica", "チカ", "ロー", "pagat: チカ(ロー); blog: ロー"),
    T("pares", "mus", "Pares (pairs)", "pares", "パレス", "ペア", "pagat: パレス(ペア); blog: ペア"),
    T("juego", "mus", "Juego (31 or more)", "juego", "ユエゴ", "ゲーム", "pagat: ユエゴ(ゲーム); blog: ゲーム"),
    T("punto", "mus", "Punto (the total, nobody has juego)", "punto", "プント", "ポイント",
      "pagat: プント; blog: (評価点) → ポイント", "the blog names no lance here: ポイント keeps its style"),
    T("lance", "mus", "lance (a round of bidding)", "lance", "カテゴリー", "カテゴリー", "pagat: カテゴリー"),
    # Mus: the bids, the same words in both vocabularies
    T("envite", "mus", "envite (a bet)", "envite", "ベット", "ベット", "pagat: ベット(エンビド); blog: ベット"),
    T("envida", "mus", "envida (bets)", "envida", "ベット", "ベット", "pagat: ベット(エンビド)"),
    T("raise", "mus", "raise", "subir / más", "レイズ", "レイズ", "pagat, blog: レイズ"),
    T("quiero", "mus", "quiero (I accept: call)", "quiero", "コール", "コール", "pagat, blog: コール"),
    T("no quiero", "mus", "no quiero (I decline: fold)", "no quiero", "フォールド", "フォールド",
      "pagat, blog: フォールド"),
    T("paso", "mus", "paso (pass)", "paso", "パス", "パス", "pagat: パス(パソ)"),
    T("órdago", "mus", "órdago (all in: the whole game)", "órdago", "オルダゴ", "オールイン",
      "pagat: オルダゴ; blog: オールイン"),
    T("mano", "mus", "mano (the player who speaks first)", "mano (the player: «es mano Koldo»)", "マノ", "マノ",
      "pagat: マノ", "Spanish: «mano 1» / «jugada» only for the hand"),
    T("pareja", "mus", "pareja (a pair)", "pareja", "パル・シンプレ", "ペア", "pagat: パル・シンプレ(ペア); blog: ペア"),
    T("medias", "mus", "medias (three of a kind)", "medias", "メディアス", "スリーカード",
      "pagat: メディアス(スリーカード); blog: スリーカード"),
    T("duples", "mus", "duples (two pairs)", "duples", "ドゥプレス", "ツーペア", "pagat: ドゥプレス(ツーペア); blog: ツーペア"),
    T("dentro", "mus", "dentro (5 or fewer to win)", "dentro", "ディエントロ", "ディエントロ", "pagat: ディエントロ"),
    T("señas", "mus", "señas (signs between partners)", "señas", "シグナル", "シグナル", "pagat: シグナル"),
    T("amarracos", "mus", "amarracos (five-point stones)", "amarracos", "5点の小石", "5点の小石", "pagat: 小石, 5点"),
    T("rey", "mus", "rey (R, and every 3 with 8 kings)", "rey", "レイ", "レイ", "pagat: レイ(R) (blog: K)"),
    T("as", "mus", "as (A, and every 2 with 8 kings)", "as", "A", "A", "pagat, blog: A"),
    # Newmarket
    T("newmarket", "newmarket", "Newmarket", "Newmarket", "ニューマーケット", "ニューマーケット", "newmarket"),
    T("parlett", "newmarket", "Parlett", "Parlett", "パーレット", "パーレット", "newmarket: David Parlett氏 → パーレット"),
    T("boodle", "newmarket", "boodle cards", "cartas de premio (boodle)", "表示カード", "表示カード",
      "newmarket: 表示カード (Luxuries, Boodle, Money Cards)"),
    T("kitty", "newmarket", "kitty", "bote común (kitty)", "共同ポット", "共同ポット", "ours (desmoche: ポット)"),
    T("pool", "newmarket", "pool", "bote", "プール", "プール", "newmarket: プール"),
    T("dummy", "newmarket", "dummy hand", "mano muerta", "ダミーハンド", "ダミーハンド", "newmarket: ダミーハンド"),
    T("ante", "newmarket", "ante", "entrada", "参加料", "参加料", "newmarket: 参加料"),
    # Desmoche
    T("desmoche", "desmoche", "Desmoche", "Desmoche", "デスモッシュ", "デスモッシュ", "desmoche"),
    T("conquián", "desmoche", "Conquián", "Conquián", "コンキアン", "コンキアン", "desmoche"),
    T("cambio", "desmoche", "cambio (the card passed before play)", "cambio", "カンビオ", "カンビオ", "desmoche"),
    T("peladilla", "desmoche", "peladilla", "peladilla", "ペラディージャ", "ペラディージャ", "desmoche"),
    T("cuatro cuerpos", "desmoche", "cuatro cuerpos", "cuatro cuerpos", "クアトロ・クエルポス", "クアトロ・クエルポス",
      "desmoche"),
    T("color", "desmoche", "color", "color", "カラー", "カラー", "desmoche"),
    T("mico", "desmoche", "mico (a run A-2-3)", "mico", "ミコ", "ミコ", "desmoche"),
    T("arriba del palo", "desmoche", "arriba del palo (laid no meld)", "arriba del palo", "アリバ・デル・パロ",
      "アリバ・デル・パロ", "desmoche: Arriba del Palo (ツリーの上位)"),
    T("todo", "desmoche", "todo (bonuses on)", "todo", "すべてをプレイ", "すべてをプレイ", "desmoche: すべてをプレイする"),
    T("doble", "desmoche", "doble (rolled over once)", "doble", "ダブル", "ダブル", "desmoche: ダブル"),
    T("triple", "desmoche", "triple (rolled over twice)", "triple", "トリプル", "トリプル", "desmoche: トリプル"),
    T("oro", "desmoche", "oro (best diamond)", "oro", "オロ", "オロ", "desmoche: オロ"),
    T("corazón", "desmoche", "corazón (best heart)", "corazón", "コラソン", "コラソン", "desmoche: コラソン"),
    T("flor", "desmoche", "flor (best club)", "flor", "フロール", "フロール", "desmoche: flor → フロール"),
    T("corazón negro", "desmoche", "corazón negro (best spade)", "corazón negro", "コラソン・ネグロ", "コラソン・ネグロ",
      "desmoche: corazon negro → コラソン・ネグロ"),
    T("par rojo", "desmoche", "par rojo (best red pair)", "par rojo", "パー・ロホ", "パー・ロホ",
      "desmoche: par rojo → パー・ロホ (as パー・ネグロ)"),
    T("par negro", "desmoche", "par negro (best black pair)", "par negro", "パー・ネグロ", "パー・ネグロ", "desmoche: パー・ネグロ"),
    T("dos pares rojos", "desmoche", "dos pares rojos", "dos pares rojos", "ドス・パー・ロホ", "ドス・パー・ロホ",
      "desmoche: dos par rojo"),
    T("dos pares negros", "desmoche", "dos pares negros", "dos pares negros", "ドス・パー・ネグロ", "ドス・パー・ネグロ",
      "desmoche: dos par negro"),
    T("tres cuerpos", "desmoche", "tres cuerpos (best three of a kind)", "tres cuerpos", "トレス・クエルポス",
      "トレス・クエルポス", "desmoche: tres cuerpos"),
    T("escalera", "desmoche", "escalera (best run)", "escalera", "エスカレラ", "エスカレラ", "desmoche: エスカレラ"),
)
BY_KEY = {t.key: t for t in TERMS}

# The poker vocabulary, as a word map over the Japanese catalog (longest first: パル・シンプレ before パレス).
POKER: tuple[tuple[str, str], ...] = tuple(sorted(
    {(t.ja, t.poker) for t in TERMS if t.game == "mus" and t.ja != t.poker}, key=lambda p: -len(p[0])))

# Spanish Mus words a Japanese message may show only inside a parenthesised gloss, and the conjugated
# Spanish verbs it never shows at all (the catalog tests; the browser test reads the same lists).
SPANISH_MUS_WORDS = ("grande", "chica", "pares", "juego", "punto", "mano", "envite", "órdago", "ordago",
                     "quiero", "paso", "pareja", "medias", "duples", "dentro", "señas", "amarracos", "lance",
                     "reyes", "ases")
SPANISH_VERBS = ("envida", "envido", "quiero", "quieres", "paso", "pasa", "pasan", "veo", "subo", "más")


def poker(text: str) -> str:
    """A Japanese text in the rule text's words, in the poker words."""
    for ja, pk in POKER:
        if ja in text:
            text = text.replace(ja, pk).replace(f"{pk}（{pk}）", pk)   # "パル・シンプレ（ペア）" -> "ペア"
    return text
