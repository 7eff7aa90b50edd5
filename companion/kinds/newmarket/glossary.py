"""Newmarket's table words in English, Spanish and Japanese (companion/kinds/glossary.py assembles every
kind's; docs/glossary.md is written from them). Seed: newmarket = ../shared/seeds/newmarket-ja.txt; "ours"
where no seed names the thing."""
from companion.domain.terms import Term

T = Term
TERMS: tuple[Term, ...] = (
    T("newmarket", "newmarket", "Newmarket", "Newmarket", "ニューマーケット", "ニューマーケット", "newmarket"),
    T("parlett", "newmarket", "Parlett", "Parlett", "パーレット", "パーレット", "newmarket: David Parlett氏 → パーレット"),
    T("boodle", "newmarket", "boodle cards", "cartas de premio", "表示カード", "表示カード",
      "newmarket: 表示カード (Luxuries, Boodle, Money Cards)"),
    T("kitty", "newmarket", "kitty", "bote común", "共同ポット", "共同ポット", "ours (desmoche: ポット)"),
    T("pool", "newmarket", "pool", "bote", "プール", "プール", "newmarket: プール"),
    T("dummy", "newmarket", "dummy hand", "mano muerta", "ダミーハンド", "ダミーハンド", "newmarket: ダミーハンド"),
    T("ante", "newmarket", "ante", "entrada", "参加料", "参加料", "newmarket: 参加料"),
)
