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

import re
from dataclasses import dataclass

from companion.domain.messages import N_

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
    not_es: tuple = ()  # words a Spanish message never uses for this thing (the review's findings)
    not_ja: tuple = ()  # words a Japanese message never uses for this thing


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
    T("pareja", "mus", "pareja (a pair)", "pareja", "パル・シンプレ", "ワンペア", "pagat: パル・シンプレ(ペア); blog: ペア",
      "poker: ワンペア, since ペア is the lance (pares) in the poker words"),
    T("medias", "mus", "medias (three of a kind)", "medias", "メディアス", "スリーカード",
      "pagat: メディアス(スリーカード); blog: スリーカード"),
    T("duples", "mus", "duples (two pairs)", "duples", "ドゥプレス", "ツーペア", "pagat: ドゥプレス(ツーペア); blog: ツーペア"),
    T("dentro", "mus", "dentro (5 or fewer to win)", "dentro", "ディエントロ", "ディエントロ", "pagat: ディエントロ"),
    T("señas", "mus", "señas (signs between partners)", "señas", "シグナル", "シグナル", "pagat: シグナル"),
    T("amarracos", "mus", "amarracos (five-point stones)", "amarracos", "5点の小石", "5点の小石", "pagat: 小石, 5点"),
    T("rey", "mus", "rey (R, and every 3 with 8 kings)", "rey", "レイ", "レイ", "pagat: レイ(R) (blog: K)",
      "ja: レイ in the Mus messages (「レイ8枚」), never キング; the poker words' card keys read K (R)"),
    T("as", "mus", "as (A, and every 2 with 8 kings)", "as", "A", "A", "pagat, blog: A"),
    # Newmarket
    T("newmarket", "newmarket", "Newmarket", "Newmarket", "ニューマーケット", "ニューマーケット", "newmarket"),
    T("parlett", "newmarket", "Parlett", "Parlett", "パーレット", "パーレット", "newmarket: David Parlett氏 → パーレット"),
    T("boodle", "newmarket", "boodle cards", "cartas de premio", "表示カード", "表示カード",
      "newmarket: 表示カード (Luxuries, Boodle, Money Cards)"),
    T("kitty", "newmarket", "kitty", "bote común", "共同ポット", "共同ポット", "ours (desmoche: ポット)"),
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

# The app's own words around the games: one word per thing in each language (issue 29). Not table words (no
# poker form, never glossed); the catalog tests refuse the words in ``not_es`` / ``not_ja`` anywhere.
C = Term
CONCEPTS: tuple[Term, ...] = (
    C("juego (40 points)", "words", "game (Mus: to 40 points)", "juego", "本 (1本目, 2本先取)", "本 (1本目, 2本先取)",
      "pagat: 40点; ours: 本 (ゲーム is juego in the poker words)",
      "Spanish: a vaca is a set of juegos, the partida the whole thing", not_ja=()),
    C("vaca", "words", "match (Mus: the first to win N games)", "vaca", "試合", "試合", "ours",
      "the club's round match too", not_ja=("マッチ", "対局")),
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
    C("multiples", "words", "tenfold, ninefold (Desmoche)", "décuplo, nónuplo", "10倍, 9倍", "10倍, 9倍", "ours",
      not_es=("décuple", "nónuple")),
)

# The poker vocabulary, as a word map over the Japanese catalog (longest first: パル・シンプレ before パレス).
POKER: tuple[tuple[str, str], ...] = tuple(sorted(
    {(t.ja, t.poker) for t in TERMS if t.game == "mus" and t.ja != t.poker}, key=lambda p: -len(p[0])))

# Spanish Mus words a Japanese message may show only inside a parenthesised gloss, and the conjugated
# Spanish verbs it never shows at all (the catalog tests; the browser test reads the same lists).
SPANISH_MUS_WORDS = ("grande", "chica", "pares", "juego", "punto", "mano", "envite", "órdago", "ordago",
                     "quiero", "paso", "pareja", "medias", "duples", "dentro", "señas", "amarracos", "lance",
                     "reyes", "ases")
SPANISH_VERBS = ("envida", "envido", "quiero", "quieres", "paso", "pasa", "pasan", "veo", "subo", "más")


# the poker word Pagat's Japanese gives in brackets after a word ("パル・シンプレ(ペア)"): in the poker words the
# bracket would repeat the word ("ワンペア（ペア）"), so it goes
PAGAT_GLOSS = {m.group(1): m.group(2) for t in TERMS if t.game == "mus"
               for m in [re.match(r"pagat: ([^(;]+)\((.+?)\)", t.seed)] if m}


# the card letters: Pagat's Spanish R C S (rey, caballo, sota), the blog's K Q J; a hand written in the text
# ("RR43") reads in the blog's letters too (the app reads both: companion.kinds.mus.cards.CANON)
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
