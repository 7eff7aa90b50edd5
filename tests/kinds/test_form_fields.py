"""A refused tap names the form field its refused part was typed in (``RuleError.field``): the action knows
its form, so no route turns an engine path back into a field name."""
import pytest

from companion.domain.errors import RuleError, Stale
from companion.kinds.base import apply_change
from companion.kinds.desmoche import KIND as DM
from companion.kinds.desmoche import actions as DA
from companion.kinds.newmarket import KIND as NM
from companion.kinds.newmarket import actions as NA
from companion.kinds.newmarket.options import NewmarketSpec

SEATS = ["Ana", "Bea", "Ana Mari", "Dani"]


def refused(kind, rec, action) -> RuleError:
    with pytest.raises(RuleError) as err:
        kind.apply(rec, action)
    return err.value


def nm_game(**options):
    game = NM.new_game(SEATS, NewmarketSpec(seats=SEATS, boodles=["AH", "KC", "QD", "JS"], **options))
    return NM.build(game, SEATS)


def played(kind, rec, *actions):
    for action in actions:
        rec = apply_change(rec, kind.apply(rec, action))[0]
    return rec


@pytest.mark.parametrize("action, path, field", [
    (NA.EndDeal(out="Ana", cards_left={"Bea": -1, "Ana Mari": 1, "Dani": 1}), "cards_left.Bea", "left_1"),
    # the longest seat name that the path starts with: "Ana Mari" is not "Ana"
    (NA.EndDeal(out="Bea", cards_left={"Ana": 1, "Ana Mari": -2, "Dani": 1}), "cards_left.Ana Mari", "left_2"),
    (NA.EndDeal(out="Zed"), "out", "out"),
    (NA.Dummy(sold_to="Zed", price=1), "sold_to", "sold_to"),
    (NA.Dummy(sold_to="Bea", price=-1), "price", "price"),
    (NA.Boodle(card="AH", by="Zed"), "by", "boodle"),
    (NA.StartDeal(), "type", "start"),
    (NA.EndGame(), "type", "end_game"),
])
def test_a_newmarket_tap_names_its_form_field(action, path, field):
    rec = played(NM, nm_game(), NA.StartDeal())
    err = refused(NM, rec, action)
    assert (err.path, err.field) == (path, field)


def test_a_free_ante_is_refused_beside_the_players_row():
    rec = nm_game(free_ante=4)
    antes = {p: {"AH": 4} for p in SEATS}
    err = refused(NM, rec, NA.StartDeal(antes={**antes, "Ana Mari": {"AH": 3}}))
    assert err.field == "ante_2" and err.path.startswith("antes.Ana Mari")


def test_a_corrected_boodle_is_refused_beside_its_card():
    """The correction form has a field per boodle card (``won_<card>``): the refusal of the second boodle
    won goes beside that card's field, whatever order the form listed them in."""
    rec = played(NM, nm_game(), NA.StartDeal(), NA.Boodle(card="KC", by="Bea"),
                 NA.EndDeal(out="Ana", cards_left={"Bea": 1, "Ana Mari": 1, "Dani": 1}))
    deal = {"boodles_won": [{"card": "KC", "by": "Bea"}, {"card": "JS", "by": "Zed"}], "out": "Ana",
            "cards_left": {"Bea": 1, "Ana Mari": 1, "Dani": 1}}
    err = refused(NM, rec, NA.ReplaceDeal(index=0, deal=deal))
    assert (err.path, err.field) == ("deal.boodles_won[1].by", "won_JS")
    err = refused(NM, rec, NA.ReplaceDeal(index=0, deal={**deal, "boodles_won": [], "cards_left": {"Bea": -1}}))
    assert err.field == "left_1"
    err = refused(NM, rec, NA.ReplaceDeal(index=0, deal={**deal, "boodles_won": [], "dummy": {"sold_to": "Zed",
                                                                                              "price": 1}}))
    assert err.field == "sold_to"


def test_a_desmoche_tap_names_its_form_field():
    rec = DM.build({"kind": "desmoche", "rules": {"stake": 10, "bonuses": True, "side_games": {"oro": 5}},
                    "seats": SEATS[:3], "hands": [], "ended": False}, SEATS)
    err = refused(DM, rec, DA.Hand(hand={"winner": "Bea", "side": {"oro": {"joined": ["Ana"], "winner": "Bea"}}}))
    assert err.field == "side_oro"
    err = refused(DM, rec, DA.Hand(hand={"winner": "Zed"}))
    assert (err.path, err.field) == ("hand.winner", "winner")
    err = refused(DM, rec, DA.SetStake(stake=0))
    assert err.field == "new_stake"
    rec = played(DM, rec, DA.Hand(hand={"winner": "Bea"}))
    err = refused(DM, rec, DA.ReplaceHand(index=0, hand={"winner": "Bea", "mico": -1}))
    assert err.field == "mico"


def test_a_stale_screen_stays_stale():
    """The position check comes before any field: a stale tap is answered 409 on top, as before."""
    rec = nm_game()
    with pytest.raises(Stale):
        NM.apply(rec, NA.StartDeal(at="not-the-position"))


def test_a_new_game_option_is_refused_beside_its_field():
    with pytest.raises(RuleError) as err:
        NM.new_game(SEATS, NewmarketSpec(seats=SEATS + ["Zed"], boodles=["AH", "KC", "QD", "JS"]))
    assert err.value.field == "seats"
    with pytest.raises(RuleError) as err:
        DM.new_game(SEATS, DM.Spec(seats=SEATS[:3], side_games={"oro": -1}))
    assert err.value.field == "side_oro"
