"""The Mus scoring form's codec: every action the scoring form sends, encoded as the page writes it (the
button's move and the fields beside it) and decoded as the route reads it, is the same action."""
import pytest
from werkzeug.datastructures import MultiDict

from companion.domain.errors import FormError
from companion.kinds.mus import actions as A, moves

SEATS = ["Ane", "Bea", "Carlos", "Dani"]
CARDS = {"Ane": "RRSA", "Bea": "CCS7", "Carlos": "4567", "Dani": "A456"}

EXAMPLES = [
    A.StartHand(), A.StartHand(mano="Bea"), A.StartHand(cards=CARDS),
    A.Pass(),
    A.Bet(team="A", amount=2), A.Bet(team="B", amount=5, answer="call"), A.Bet(team="A", amount=2, answer="fold"),
    A.Raise(more=5), A.Raise(to=12),
    A.Ordago(), A.Ordago(team="B"),
    A.Call(), A.Fold(),
    A.Declare(pares={"Ane": "pareja", "Dani": "duples"}, juego={"Bea": 31, "Carlos": "other"}),
    A.Declare(juego={}),
    A.Showdown(grande="A"), A.Showdown(chica="B", pares="A"), A.Showdown(cards=CARDS),
    A.PassRest(pares_held={}, juego_held={}),
    A.PassRest(grande="A", chica="B", pares_held={"Ane": "medias"}, juego_held={"Bea": 32}),
    A.Tally(awards=[{"team": "A", "points": 3}, {"team": "B", "points": 1, "lance": "pares"},
                    {"team": "A", "points": 2, "lance": "juego", "why": "31 real"}]),
    A.Adjust(team="B", points=-2, why="miscounted stones"), A.Adjust(team="A", points=3),
    A.SetScoring(scoring="tally"), A.SetScoring(scoring="bids"),
]


def _posted(action) -> MultiDict:
    move, fields = moves.encode(action, SEATS)
    return MultiDict({"move": move, **fields})


def _normal(action):
    """Absent and empty held dicts are one thing to the engine (nobody held anything)."""
    if isinstance(action, (A.PassRest,)):
        return action.__class__(**{**action.__dict__, "pares_held": action.pares_held or {},
                                   "juego_held": action.juego_held or {}})
    return action


def test_every_action_the_scoring_form_sends_has_an_example():
    assert {type(a).TYPE for a in EXAMPLES} == set(moves.CONTROLS)
    # corrections post a draft; the club organizer's page (not the scoring form) ends a match by the clock
    assert set(moves.CONTROLS) | {"replace_hand", "add_hand", "end_by_time"} == set(A.ACTIONS)


@pytest.mark.parametrize("action", EXAMPLES, ids=lambda a: moves.encode(a, SEATS)[0])
def test_decode_reads_back_what_encode_wrote(action):
    assert _normal(moves.decode(_posted(action), SEATS)) == _normal(action)


def test_a_button_value_is_the_encoded_move():
    assert moves.mv("bet", team="A", amount=2, answer="call") == "bet:A:2:call"
    assert moves.mv("pass_rest", grande="A", chica="B") == "rest:grande:A:chica:B"
    assert moves.mv("start_hand", cards={}) == "cards:start" and moves.mv("showdown", cards={}) == "cards:showdown"
    assert moves.mv("adjust") == "adjust" and moves.mv("raise") == "to"


@pytest.mark.parametrize("form,field", [({"move": "bet:C:2"}, "move"), ({"move": "bet:A"}, "amount_A"),
                                        ({"move": "bet:A:0"}, "amount_A"), ({"move": "nonsense"}, "move"),
                                        ({"move": "adjust", "adjust_team": "A", "adjust_points": "0"},
                                         "adjust_points"),
                                        ({"move": "cards", "cards0": "XX"}, "cards0")])
def test_a_form_that_is_no_action_names_its_field(form, field):
    with pytest.raises(FormError) as err:
        moves.decode(MultiDict(form), SEATS)
    assert field in err.value.errors
