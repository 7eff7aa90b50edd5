"""Card letters and hand evaluation (port of tests/rules/test_mus_cards.py to companion.kinds.mus.cards)."""
import pytest

from companion.kinds.mus import cards as C

ORDER = ["p0", "p1", "p2", "p3"]


def winner(lance, hands, kings=8):
    return C.lance_winner(lance, ORDER, dict(zip(ORDER, hands)), kings)


@pytest.mark.parametrize("text,canon", [("rr43", "RR43"), ("K Q J 1", "RCSA"), ("A45C", "A45C"), ("RR4", None),
                                        ("RR48", None), ("RR4X", None), ("", None)])
def test_canon(text, canon):
    assert C.canon_hand(text) == canon


@pytest.mark.parametrize("a,b,better", [
    ("RR43", "RCCC", "a"),            # mus.md example (8 kings: 3 is a rey -> RRR4 anyway)
    ("RCS7", "RCS6", "a"),
    ("RCS7", "RCS7", "a"),            # tie: nearer the mano
    ("7777", "RA45", "b"),
    ("3AAA", "RAAA", "a"),            # 8 kings: 3 == R, tie -> mano
])
def test_grande(a, b, better):
    w = winner("grande", [a, b, "A456", "A457"])
    assert w == ("p0" if better == "a" else "p1")


@pytest.mark.parametrize("a,b,better", [
    ("A45C", "A556", "a"),            # mus.md example
    ("A556", "A45C", "b"),
    ("AA45", "2A45", "a"),            # 8 kings: 2 == A: tie -> mano
    ("4567", "A777", "b"),
])
def test_chica(a, b, better):
    w = winner("chica", [a, b, "RRRS", "RRCS"])
    assert w == ("p0" if better == "a" else "p1")


def test_chica_4_kings():
    # with 4 kings A is the lowest card, then 2; with 8 kings a 2 is an as
    assert winner("chica", ["2456", "A456", "RRRS", "RRCS"], kings=4) == "p1"
    assert winner("chica", ["2456", "A456", "RRRS", "RRCS"], kings=8) == "p0"   # 2 == A: tie, mano


@pytest.mark.parametrize("hand,kind", [
    ("RR45", "pareja"), ("RRR4", "medias"), ("RRCC", "duples"), ("RRRR", "duples"), ("R456", None),
    ("R3A2", "duples"),   # 8 kings: R3 = RR, A2 = AA
])
def test_pares_kind(hand, kind):
    assert C.pares_kind(hand, 8) == kind


def test_pares_kind_4_kings():
    assert C.pares_kind("R3A2", 4) is None
    assert C.pares_kind("33A2", 4) == "pareja"


@pytest.mark.parametrize("a,b,better", [
    ("RR45", "CCC4", "b"),      # medias beat pareja
    ("AAA4", "RRSS", "b"),      # duples beat medias
    ("RR45", "CC67", "a"),      # higher pair
    ("CCC4", "SSS7", "a"),      # higher trio
    ("RRAA", "CCSS", "a"),      # duples: higher pair first
    ("RRAA", "RRSS", "b"),      # then the lower pair
    ("RRRR", "RRCC", "a"),      # four kings = RR+RR
    ("RR45", "RR67", "a"),      # other cards never break a tie: mano
    ("RR67", "RR45", "a"),
])
def test_pares(a, b, better):
    w = winner("pares", [a, b, "A456", "A457"])
    assert w == ("p0" if better == "a" else "p1")


JUEGO = {31: "RSA", 32: "RS2", 33: "RS3", 34: "RS4", 35: "RS5", 36: "RS6", 37: "RS7", 40: "RSC"}


@pytest.mark.parametrize("i", range(7))
def test_juego_order(i):
    order = [31, 32, 40, 37, 36, 35, 34, 33]
    hi, lo = order[i], order[i + 1]
    # 4 kings so 2/3 keep their value
    ha = {31: "RSAR", 32: "RS2R", 33: "RS3R", 34: "RS4R", 35: "RS5R", 36: "RS6R", 37: "RS7R", 40: "RSCR"}
    assert C.total(ha[hi], 4) == hi and C.total(ha[lo], 4) == lo
    assert C.lance_winner("juego", ["x", "y", "z", "w"], {"x": "A456", "y": ha[lo], "z": "A457", "w": ha[hi]}, 4) == "w"
    assert C.lance_winner("juego", ["x", "y", "z", "w"], {"x": ha[hi], "y": ha[lo], "z": "A457", "w": "A456"}, 4) == "x"


def test_juego_tie_and_values():
    assert C.total("RR3A", 8) == 31 and C.total("RR3A", 4) == 24
    assert C.total("RR2A", 8) == 22 and C.total("RR2A", 4) == 23
    assert winner("juego", ["A456", "RRSA", "A457", "RCSA"]) == "p1"   # both 31: p1 nearer than p3
    assert winner("juego", ["A456", "A456", "A457", "A567"]) is None


@pytest.mark.parametrize("hands,w", [
    (["RSA7", "R7A7", "A456", "A457"], "p0"),   # 28 vs 25
    (["RSAA", "RS55", "A456", "A457"], "p1"),   # 22 vs 30: 30 best
    (["RS55", "R7A7", "RS55", "A457"], "p0"),   # tie 30, mano
])
def test_punto(hands, w):
    assert winner("punto", hands) == w
