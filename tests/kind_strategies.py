"""Random legal taps for every game kind (hypothesis draws), for the tests that run over every kind:
the conformance test and the whole-session property test. A tap is drawn from what the kind's page would
offer now, so most of them are legal; the kinds must refuse the rest cleanly."""
from hypothesis import strategies as st

from companion.kinds import desmoche as D, mus as M, newmarket as N
from companion.kinds.desmoche import actions as DA
from companion.kinds.mus import actions as MA, view as mus_view
from companion.kinds.newmarket import actions as NA

RANKS = "RCS7654321"
PARES = [None, "pareja", "medias", "duples"]
JUEGO = [None, 31, 32, 33, 36, 40, "other"]


def new_games(players):
    """One new game of every kind for a session with (at least) these five players."""
    return [
        M.KIND.new_game(players, M.kind.NewMus(seats=tuple(players[:4]), preset="spanish",
                                               options=(("target", 15), ("games_to_win", 2)), per_game=100)),
        N.KIND.new_game(players, N.options.NewmarketSpec(seats=players[:5], chip_value=10, kitty_ante=1)),
        D.KIND.new_game(players, D.Spec(seats=players[:3], stake=10, bonuses=True, side_games={"oro": 5},
                                        unit_value=10)),
    ]


def mus_tap(draw, rec):
    model = mus_view.page(rec, list(rec.items[-2:]) if len(rec.items) else [])
    ui, at = model["ui"], model["st"]["at"]
    types = ui["types"]
    if not types:
        return None
    seats = rec.head["seats"]
    extra = ["tally", "adjust", "set_scoring"] if "start_hand" in types else []
    if "pass" in types or "declare" in types:
        extra.append("pass_rest")
    choice = draw(st.sampled_from(sorted(types) + extra))
    if "start_hand" in types and draw(st.integers(0, 15)) == 0:
        return MA.EndByTime(at=at)          # a club night's clock (rarely: it ends the match)
    if choice == "start_hand":
        cards = None
        if draw(st.booleans()):
            deck = [c for c in RANKS for _ in range(4)]
            order = draw(st.permutations(deck))
            cards = {p: "".join(order[i * 4:i * 4 + 4]) for i, p in enumerate(seats)}
        return MA.StartHand(cards=cards, at=at)
    if choice == "tally":
        awards = draw(st.lists(st.fixed_dictionaries({"team": st.sampled_from("AB"), "points": st.integers(1, 6)}),
                               max_size=3))
        return MA.Tally(awards=awards, at=at)
    if choice == "adjust":
        return MA.Adjust(team=draw(st.sampled_from("AB")), points=draw(st.sampled_from([-2, -1, 1, 3])), at=at)
    if choice == "set_scoring":
        return MA.SetScoring(scoring=draw(st.sampled_from(["bids", "tally"])), at=at)
    if choice == "pass_rest":
        held = {key: {p: v for p in seats if (v := draw(st.sampled_from(PARES if key == "pares" else JUEGO)))}
                for key in ("pares", "juego")}
        winners = {L: draw(st.sampled_from([None, "A", "B"])) for L in ("grande", "chica", "pares", "juego")}
        return MA.PassRest(**winners, pares_held=held["pares"], juego_held=held["juego"], at=at)
    if choice == "pass":
        return MA.Pass(at=at)
    if choice == "bet":
        return MA.Bet(team=draw(st.sampled_from("AB")), amount=draw(st.sampled_from([None, 2, 5])),
                      answer=draw(st.sampled_from([None, None, "call", "fold"])), at=at)
    if choice == "raise":
        return MA.Raise(more=draw(st.sampled_from([2, 5])), at=at)
    if choice == "ordago":
        return MA.Ordago(team=draw(st.sampled_from("AB")) if ui.get("open_teams") else None, at=at)
    if choice == "call":
        return MA.Call(at=at)
    if choice == "fold":
        return MA.Fold(at=at)
    if choice == "declare":
        fields = {}
        for key in ui["declare"]:
            fields[key] = {p: v for p in seats if (v := draw(st.sampled_from(PARES if key == "pares" else JUEGO)))}
        return MA.Declare(**fields, at=at)
    if choice == "showdown":
        return MA.Showdown(**{n["lance"]: draw(st.sampled_from("AB")) for n in ui["needs"]}, at=at)
    return None


def newmarket_tap(draw, rec):
    legal = [a for a in N.KIND.legal(rec) if a != "replace_deal"]
    if not legal:
        return None
    at = N.KIND.position(rec)
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


def desmoche_tap(draw, rec):
    ov = D.KIND.overview(rec)
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


TAPS = {"mus": mus_tap, "newmarket": newmarket_tap, "desmoche": desmoche_tap}


def tap(draw, rec):
    """A random tap for this game, or None when it has nothing left to do."""
    return TAPS[rec.kind](draw, rec)
