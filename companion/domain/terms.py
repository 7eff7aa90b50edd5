"""A word of the games' glossary: what the table says, in English, Spanish and both Japanese vocabularies,
with the seed text it comes from. Each kind lists its own (``companion/kinds/<kind>/glossary.py``);
``companion.kinds.glossary`` assembles them."""
from __future__ import annotations

from dataclasses import dataclass


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
