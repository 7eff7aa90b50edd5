"""Mus's table words in English, Spanish and both Japanese vocabularies (companion/kinds/glossary.py
assembles every kind's; docs/glossary.md is written from them), and what the Japanese messages may show of
its Spanish words.

Seeds: pagat = ../shared/seeds/mus-pagat-ja.txt (Pagat's rules in Japanese), blog = mus-blog-ja.txt (the
blog that chose poker words "because the original terms are confusing"); "ours" where no seed names the thing.
"""
from companion.domain.messages import N_
from companion.domain.terms import Term

# the Japanese vocabularies' names (shown in Japanese only, in the language menu)
VOCABULARY_NAMES = {"spanish": N_("Mus words: Spanish reading"), "poker": N_("Mus words: poker terms")}

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
)

# the app's words that are this game's (docs/glossary.md lists them with the app's own)
C = Term
CONCEPTS: tuple[Term, ...] = (
    C("juego (40 points)", "words", "game (Mus: to 40 points)", "juego", "本 (1本目, 2本先取)", "本 (1本目, 2本先取)",
      "pagat: 40点; ours: 本 (ゲーム is juego in the poker words)",
      "Spanish: a vaca is a set of juegos, the partida the whole thing", not_ja=()),
    C("vaca", "words", "match (Mus: the first to win N games)", "vaca", "試合", "試合", "ours",
      "the club's round match too", not_ja=("マッチ", "対局")),
)

# Spanish words a Japanese message may show only inside a parenthesised gloss, and the conjugated Spanish
# verbs it never shows at all (the catalog tests; the browser test reads the same lists).
SPANISH_WORDS = ("grande", "chica", "pares", "juego", "punto", "mano", "envite", "órdago", "ordago",
                 "quiero", "paso", "pareja", "medias", "duples", "dentro", "señas", "amarracos", "lance",
                 "reyes", "ases")
SPANISH_VERBS = ("envida", "envido", "quiero", "quieres", "paso", "pasa", "pasan", "veo", "subo", "más")
