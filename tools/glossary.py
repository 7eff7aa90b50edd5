"""Write docs/glossary.md from companion/kinds/glossary.py (the one source of the games' words).

    python tools/glossary.py          # rewrite docs/glossary.md
    python tools/glossary.py --check  # exit 1 when docs/glossary.md is not up to date
"""
from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
OUT = os.path.join(ROOT, "docs", "glossary.md")

GAMES = {"mus": "Mus (ムス)", "newmarket": "Newmarket (ニューマーケット)", "desmoche": "Desmoche (デスモッシュ)"}


def render() -> str:
    from companion.kinds.glossary import CONCEPTS, TERMS

    out = ["# Glossary: the games' words in English, Spanish and Japanese", "",
           "Written by `python tools/glossary.py` from `companion/kinds/glossary.py`; the catalog tests",
           "(`tests/test_glossary.py`) check every Spanish and Japanese message against it.", "",
           "Japanese has two Mus vocabularies, chosen per phone in the language menu: **スペイン語読み** (the default,",
           "the words of Pagat's rules in Japanese, `../shared/seeds/mus-pagat-ja.txt`) and **ポーカー用語** (the words",
           "the blog `mus-blog-ja.txt` chose \"because the original terms are confusing\"). The bids are the same in both.",
           "The catalog is written in スペイン語読み; the poker words are the word map of the last column, applied to it",
           "at run time. A Japanese message shows a Spanish word only as a gloss in parentheses: 「ハイ (grande)」.", ""]
    for game, title in GAMES.items():
        out += [f"## {title}", "", "| key (said at the table) | English | Spanish | 日本語: スペイン語読み | 日本語: ポーカー用語 | seed |",
                "| --- | --- | --- | --- | --- | --- |"]
        for t in TERMS:
            if t.game == game:
                seed = t.seed + (f" — {t.note}" if t.note else "")
                out.append(f"| {t.key} | {t.en} | {t.es} | {t.ja} | {t.poker} | {seed} |")
        out.append("")
    out += ["## The app's words (one word per thing)", "",
            "Not table words: the same in both Japanese vocabularies, never glossed. The catalog tests refuse the",
            "words of the last column in every message of that language.", "",
            "| thing | Spanish | 日本語 | never | seed / note |", "| --- | --- | --- | --- | --- |"]
    for t in CONCEPTS:
        never = ", ".join([f"es: {w}" for w in t.not_es] + [f"ja: {w}" for w in t.not_ja]) or "—"
        seed = t.seed + (f" — {t.note}" if t.note else "")
        out.append(f"| {t.en} | {t.es} | {t.ja} | {never} | {seed} |")
    out += ["", "## Rules for new Japanese messages", "",
            "- Use the スペイン語読み column's word (グランデ, チカ, パレス, ユエゴ, プント, オルダゴ, パル・シンプレ, メディアス,",
            "  ドゥプレス) and the bids ベット, コール, フォールド, レイズ, パス; マノ; ディエントロ; シグナル. The poker",
            "  vocabulary follows by itself.",
            "- No Spanish word in Latin letters outside parentheses (never a conjugated verb: envida, quiero, paso…);",
            "  a gloss may follow in parentheses: 「マノ (mano)」.",
            "- Newmarket and Desmoche in katakana: ニューマーケット, パーレット, デスモッシュ, コンキアン, ペラディージャ, ミコ,",
            "  アリバ・デル・パロ, the side games as listed above.",
            "- Counters once: 「チップ%(n)s枚」, 「%(n)s点」, 「%(n)s本先取」 where the parameter is a bare number.",
            "- One message per sentence; a list parameter is joined for the reader's language (、).",
            "- A count of things takes its counter: 「チップ%(n)s枚」, 「1人%(each)s枚」, 「レイ2枚」 (Arabic numerals).",
            "- Full-width brackets （） and quotes 「」 around Japanese text; ASCII \"…\" only around a file's keys and values.",
            "- The Mus game to 40 is 本 (「2本目」, 「2本先取」), the match 試合: ゲーム is juego in the poker words.",
            "- \"Better\" at a lance is 強い (the seeds' 強いハンド), never 上.", "",
            "## Rules for new Spanish messages", "",
            "- A Mus game to 40 is a *juego*, the set a *vaca*; *partida* is a game of the session as a whole.",
            "- A team is plural (\"%(team)s ganan\"); the hand is the *jugada* (\"la mejor jugada\", \"llevaba mejor\");",
            "  *mano* is the player; points at a lance are *tantos*; Newmarket's pool is the *bote*.",
            "- No English word, not even as a gloss: no kitty, boodle or showdown.", ""]
    return "\n".join(out)


if __name__ == "__main__":
    text = render()
    if "--check" in sys.argv:
        with open(OUT, encoding="utf-8") as fh:
            sys.exit(0 if fh.read() == text else 1)
    with open(OUT, "w", encoding="utf-8") as fh:
        fh.write(text)
