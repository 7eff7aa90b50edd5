"""Random legal taps for Newmarket (hypothesis draws), for the tests that run over every kind (the conformance
test, the whole-session property test): a tap is drawn from what the kind's page would offer now, so most
are legal; the kind must refuse the rest cleanly. Imported by the tests only (hypothesis is a test
dependency)."""
from hypothesis import strategies as st

from companion.kinds.newmarket import KIND as N_KIND, actions as NA
from companion.kinds.newmarket.options import NewmarketSpec


def new_game(players):
    """A new game for a session with (at least) these five players."""
    return N_KIND.new_game(players, NewmarketSpec(seats=players[:5], chip_value=10, kitty_ante=1))


def tap(draw, rec):
    legal = [a for a in N_KIND.legal(rec) if a != "replace_deal"]
    if not legal:
        return None
    at = N_KIND.position(rec)
    seats = rec.head["seats"]
    choice = draw(st.sampled_from(legal))
    if choice == "start_deal":
        return NA.StartDeal(at=at)
    if choice == "end_game":
        return NA.EndGame(at=at) if draw(st.integers(0, 4)) == 0 else NA.StartDeal(at=at)
    if choice == "cancel_deal":
        return NA.CancelDeal(at=at)
    if choice == "dummy":
        return NA.Dummy(swap=True, at=at) if draw(st.booleans()) else \
            NA.Dummy(sold_to=draw(st.sampled_from(seats)), price=draw(st.integers(0, 3)), at=at)
    if choice == "exchange":
        return NA.Exchange(by=draw(st.sampled_from(seats)), at=at)
    if choice == "boodle":
        cards = rec.head["rules"]["boodles"] if rec.head["rules"]["variant"] == "classic" else \
            ["QS", "QH", "QD", "QC"]
        return NA.Boodle(card=draw(st.sampled_from(cards)), by=draw(st.sampled_from(seats)), at=at)
    out = draw(st.sampled_from(seats))
    if draw(st.integers(0, 5)) == 0:
        return NA.EndDeal(blocked=True, at=at)
    cards_left = {p: draw(st.integers(0, 8)) for p in seats if p != out}
    if rec.head["rules"]["variant"] != "classic" or rec.head["rules"].get("payout") != "cards":
        cards_left = None
    return NA.EndDeal(out=out, cards_left=cards_left, at=at)
