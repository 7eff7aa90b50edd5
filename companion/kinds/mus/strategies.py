"""Random legal taps for Mus (hypothesis draws), for the tests that run over every kind (the conformance
test, the whole-session property test): a tap is drawn from what the kind's page would offer now, so most
are legal; the kind must refuse the rest cleanly. Imported by the tests only (hypothesis is a test
dependency)."""
from hypothesis import strategies as st

from companion.kinds.mus import KIND, actions as MA, view as mus_view
from companion.kinds.mus.kind import NewMus

RANKS = "RCS7654321"
PARES = [None, "pareja", "medias", "duples"]
JUEGO = [None, 31, 32, 33, 36, 40, "other"]


def new_game(players):
    """A new match for a session with (at least) these four players."""
    return KIND.new_game(players, NewMus(seats=tuple(players[:4]), preset="spanish",
                                         options=(("target", 15), ("games_to_win", 2)), per_game=100))


def tap(draw, rec):
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
