"""Random legal taps for Desmoche (hypothesis draws), for the tests that run over every kind (the conformance
test, the whole-session property test): a tap is drawn from what the kind's page would offer now, so most
are legal; the kind must refuse the rest cleanly. Imported by the tests only (hypothesis is a test
dependency)."""
from hypothesis import strategies as st

from companion.kinds.desmoche import KIND as D_KIND, actions as DA
from companion.kinds.desmoche.options import Spec


def new_game(players):
    """A new series for a session with (at least) these three players."""
    return D_KIND.new_game(players, Spec(seats=players[:3], stake=10, bonuses=True, side_games={"oro": 5},
                                         unit_value=10))


def tap(draw, rec):
    ov = D_KIND.overview(rec)
    legal = [a for a in ov["legal"] if a != "replace_hand"]
    if not legal:
        return None
    at = ov["at"]
    seats = rec.head["seats"]
    choice = draw(st.sampled_from(legal + ["hand", "hand", "hand"]))
    if choice == "set_stake":
        return DA.SetStake(stake=draw(st.integers(1, 30)), at=at)
    if choice == "end_series":
        return DA.EndSeries(at=at) if draw(st.integers(0, 4)) == 0 else DA.Hand(hand={"winner": None}, at=at)
    winner = draw(st.sampled_from([None, *seats]))
    hand = {"winner": winner}
    if winner and rec.head["rules"]["bonuses"]:
        hand["mico"] = draw(st.integers(0, 2))
        losers = [p for p in seats if p != winner]
        hand["arriba"] = draw(st.lists(st.sampled_from(losers), unique=True, max_size=len(losers)))
    for name in rec.head["rules"]["side_games"]:
        joined = draw(st.lists(st.sampled_from(seats), unique=True, max_size=len(seats)))
        if joined:
            hand.setdefault("side", {})[name] = {"joined": joined, "winner": draw(st.sampled_from([None, *joined]))}
    return DA.Hand(hand=hand, at=at)
