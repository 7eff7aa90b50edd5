"""The quick ways to record a Mus hand (issue "Faster than the stones"): an envite answered at once,
"everyone passes the rest" with the count in one form, the way a match is scored. Each must give exactly
the hand the step-by-step taps give, as one change (one undo)."""
import pytest
from hypothesis import given, settings, strategies as st

from companion.domain.errors import RuleError
from companion.kinds.base import apply_change
from companion.kinds.mus import actions as A
from companion.kinds.mus.kind import KIND

SEATS = ["Ane", "Bea", "Carlos", "Dani"]


def new(preset="spanish", **options):
    return KIND.build({"kind": "mus", "rules": {"preset": preset, **options}, "seats": SEATS}, SEATS)


def play(rec, *actions):
    for a in actions:
        rec, _inv = apply_change(rec, KIND.apply(rec, a))
    return rec


def doc(rec):
    return KIND.to_doc(rec)


@pytest.mark.parametrize("answer,verb", [("call", "call"), ("fold", "fold")])
def test_an_envite_answered_at_once_is_the_two_taps(answer, verb):
    one = play(new(), A.Pass(), A.Bet(team="A", amount=2, answer=answer))
    two = play(new(), A.Pass(), A.Bet(team="A", amount=2), A.Call() if verb == "call" else A.Fold())
    assert doc(one) == doc(two)
    assert one.items[-1].body["chica"] == [{"team": "A", "bet": 2}, {"team": "B", verb: True}]


def test_an_envite_answered_at_once_is_one_undo():
    rec = play(new(), A.Pass())
    change = KIND.apply(rec, A.Bet(team="B", amount=5, answer="fold"))
    after, inverse = apply_change(rec, change)
    assert after.items[-1].body["chica"] == [{"team": "B", "bet": 5}, {"team": "A", "fold": True}]
    back, _ = apply_change(after, inverse)
    assert doc(back) == doc(rec)


def test_an_answer_that_is_not_quiero_or_no_quiero_is_refused():
    with pytest.raises(RuleError) as e:
        KIND.apply(new(), A.Bet(team="A", amount=2, answer="maybe"))
    assert e.value.path == "answer"


def test_everyone_passes_the_rest_is_the_hand_tapped_paso_by_paso():
    held = {"pares_held": {"Ane": "pareja", "Bea": "medias"}, "juego_held": {"Ane": 31, "Bea": "other"}}
    quick = play(new(), A.PassRest(grande="A", chica="B", **held))
    slow = play(new(), A.Pass(), A.Pass(),
                A.Declare(pares=held["pares_held"], juego=held["juego_held"]), A.Pass(), A.Pass(),
                A.Showdown(grande="A", chica="B"))
    assert doc(quick) == doc(slow)
    # spanish: paso points for grande (A) and chica (B); Bea's medias 2; Ane's 31: 3
    assert quick.state["score"] == {"A": 4, "B": 3}


def test_everyone_passes_the_rest_after_a_called_envite():
    rec = play(new("pagat"), A.Pass(), A.Bet(team="A", amount=2, answer="call"))
    rec = play(rec, A.PassRest(chica="B", pares_held={"Ane": "pareja"}, juego_held={"Carlos": 31}))
    hand = rec.items[-1].body
    assert hand["chica"] == [{"team": "A", "bet": 2}, {"team": "B", "call": True}]
    assert hand["showdown"] == {"chica": "B", "pares_held": {"Ane": "pareja"}, "juego_held": {"Carlos": 31}}
    assert rec.state["score"] == {"A": 3, "B": 2}       # pagat: pareja 1, 31 = 2; chica's envite 2


def test_with_the_cards_known_everyone_passes_needs_nothing_more():
    rec = play(new(), A.StartHand(cards={"Ane": "RRSA", "Bea": "CCS7", "Carlos": "4567", "Dani": "A456"}))
    rec = play(rec, A.PassRest())
    assert "open" not in rec.items[-1].body and rec.items[-1].body["grande"] == []


def test_everyone_passes_is_refused_with_an_envite_on_the_table_or_a_winner_missing():
    rec = play(new(), A.Bet(team="A", amount=2))
    with pytest.raises(RuleError) as e:
        KIND.apply(rec, A.PassRest())
    assert e.value.code == "mus.rest_bet_pending"
    with pytest.raises(RuleError) as e:
        KIND.apply(new(), A.PassRest(grande="A"))       # spanish: the paso point of chica needs its winner
    assert e.value.path == "chica"
    with pytest.raises(RuleError) as e:
        KIND.apply(new(), A.PassRest(grande="A", chica="B", pares_held={"Ane": "tres"}))
    assert e.value.path.startswith("pares_held")


def test_two_equal_parejas_need_the_better_pares_named():
    held = {"pares_held": {"Ane": "pareja", "Bea": "pareja"}, "juego_held": {"Carlos": 31}}
    with pytest.raises(RuleError) as e:
        KIND.apply(new(), A.PassRest(grande="A", chica="B", **held))
    assert e.value.path == "pares"
    rec = play(new(), A.PassRest(grande="A", chica="B", pares="B", **held))
    assert rec.state["score"] == {"A": 1 + 3, "B": 1 + 1}   # paso points; Carlos' 31 alone; Bea's pareja


def test_the_way_a_match_is_scored_is_kept_in_the_file_and_a_file_without_it_imports():
    rec = play(new(), A.SetScoring(scoring="tally"))
    assert doc(rec)["scoring"] == "tally"
    assert KIND.build(doc(rec), SEATS).head["scoring"] == "tally"
    back = play(rec, A.SetScoring(scoring="bids"))
    assert "scoring" not in doc(back)
    with pytest.raises(RuleError):
        KIND.apply(rec, A.SetScoring(scoring="tally"))  # already so
    with pytest.raises(RuleError) as e:
        KIND.build({**doc(new()), "scoring": "stones"}, SEATS)
    assert e.value.path == "scoring"


PARES = st.sampled_from([None, "pareja", "medias", "duples"])
JUEGO = st.sampled_from([None, 31, 32, 40, "other", 30, 25])


@settings(max_examples=80, deadline=None)
@given(preset=st.sampled_from(["pagat", "spanish"]), pares=st.lists(PARES, min_size=4, max_size=4),
       juego=st.lists(JUEGO, min_size=4, max_size=4), wins=st.lists(st.sampled_from("AB"), min_size=4, max_size=4))
def test_everyone_passes_gives_what_the_taps_give_or_refuses_as_they_would(preset, pares, juego, wins):
    """Whatever was held: the quick form and Paso after Paso give the same hand, or both refuse."""
    pares_held = {p: v for p, v in zip(SEATS, pares) if v}
    # a punto total (< 31) is said at the count; a declaration only says juego or not
    juego_held = {p: v for p, v in zip(SEATS, juego) if v}
    winners = dict(zip(("grande", "chica", "pares", "juego"), wins))
    try:
        quick = play(new(preset), A.PassRest(**winners, pares_held=pares_held, juego_held=juego_held))
    except RuleError:
        quick = None
    slow = None
    try:
        rec = play(new(preset), A.Pass(), A.Pass(),
                   A.Declare(pares=pares_held, juego={p: v for p, v in juego_held.items() if v == "other" or v >= 31}))
        for _ in range(3):
            if KIND.open_item(rec) is None:
                break
            _st, p = KIND.current(rec)
            if p.progress["status"] == "bidding":
                rec = play(rec, A.Pass())
            elif p.progress["status"] == "showdown":
                rec = play(rec, A.Showdown(**winners, juego_held={p: v for p, v in juego_held.items()
                                                                 if v != "other" and v < 31} or None))
        slow = rec if KIND.open_item(rec) is None else None
    except RuleError:
        slow = None
    if quick is not None and slow is not None:
        assert quick.state == slow.state


class _Counted(list):
    """A match's items, counting how many are read."""
    reads = 0

    def __getitem__(self, i):
        self.reads += 1 if isinstance(i, int) else len(range(*i.indices(len(self))))
        return super().__getitem__(i)

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]


def _reads_at(hands: int, action) -> int:
    """Items read by ``action`` on a hand in progress after ``hands`` stored items."""
    adjusts = [{"adjust": {"team": "A", "points": 1 if i % 2 == 0 else -1}} for i in range(hands)]
    rec = KIND.build({"kind": "mus", "rules": {"preset": "spanish"}, "seats": SEATS, "hands": adjusts}, SEATS)
    rec = play(rec, A.Pass())
    items = _Counted(rec.items)
    counted = type(rec)(rec.kind, rec.head, items, rec.state, rec.seed)
    apply_change(counted, KIND.apply(counted, action))
    return items.reads


@pytest.mark.parametrize("action", [A.Bet(team="A", amount=2, answer="call"), A.Bet(team="B", answer="fold"),
                                    A.PassRest(grande="A", chica="B", juego="A", pares_held={}, juego_held={})])
def test_the_quick_taps_read_the_last_item_only(action):
    """The answered bet and "everyone passes the rest" cost the same at hand 600 as at hand 2."""
    assert _reads_at(2, action) == _reads_at(600, action) <= 12
