"""Desmoche's table words in English, Spanish and Japanese (companion/kinds/glossary.py assembles every
kind's; docs/glossary.md is written from them). Seed: desmoche = ../shared/seeds/desmoche-ja.txt; "ours"
where no seed names the thing."""
from companion.domain.terms import Term

T = Term
TERMS: tuple[Term, ...] = (
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

# the app's words that are this game's (docs/glossary.md lists them with the app's own)
C = Term
CONCEPTS: tuple[Term, ...] = (
    C("multiples", "words", "tenfold, ninefold (Desmoche)", "décuplo, nónuplo", "10倍, 9倍", "10倍, 9倍", "ours",
      not_es=("décuple", "nónuple")),
)
