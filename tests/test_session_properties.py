"""Whole sessions with real games, played through the event store with random legal actions:
the cached document is always a replay of the events, undo is the exact inverse across games, and
export -> import -> export is identical (with identical computed state)."""
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import events, store
from companion.db import connect, init_db
from companion.rules import desmoche, mus, newmarket
from companion.rules.errors import RuleError
from companion.sessionfile import FORMAT, compute_state

PLAYERS = ["Ane", "Bea", "Carlos", "Dani", "Eneko"]
RANKS = "RCS7654321"


def _new_games():
    return [
        mus.new_game(PLAYERS, {"seat0": "Ane", "seat1": "Bea", "seat2": "Carlos", "seat3": "Dani",
                               "preset": "spanish", "target": "15", "games_to_win": "2",
                               "stake_kind": "per_game", "stake": "100"}),
        newmarket.new_game(PLAYERS, {"seats": "Ane,Bea,Carlos,Dani,Eneko", "chip_value": "10"}),
        desmoche.new_game(PLAYERS, {"seats": "Ane,Bea,Carlos", "stake": "10", "bonuses": "on"}),
    ]


def _action(draw, game: dict, state: dict) -> dict | None:
    """A random legal action for a game, or None when the game has nothing left to do."""
    kind = game["kind"]
    if kind == "mus":
        legal = state["legal"]
        if not legal:
            return None
        if any(a["type"] == "start_hand" for a in legal):
            cards = {p: "".join(draw(st.sampled_from(RANKS)) for _ in range(4)) for p in game["seats"]}
            return {"type": "start_hand", "cards": cards, "at": state["at"]}
        moves = [a for a in legal if a["type"] not in ("declare", "showdown")]
        return draw(st.sampled_from(moves)) if moves else None
    if kind == "newmarket":
        if state["ended"]:
            return None
        seats = game["seats"]
        if not state["deal_open"]:
            return {"type": draw(st.sampled_from(["start_deal", "start_deal", "end_game"])), "at": state["at"]}
        choice = draw(st.sampled_from(["boodle", "end_deal"]))
        if choice == "boodle" and state["face_up"]:
            return {"type": "boodle", "card": draw(st.sampled_from(state["face_up"])),
                    "by": draw(st.sampled_from(seats)), "at": state["at"]}
        out = draw(st.sampled_from(seats))
        return {"type": "end_deal", "out": out, "at": state["at"],
                "cards_left": {p: draw(st.integers(0, 8)) for p in seats if p != out}}
    if state["ended"]:
        return None
    seats = game["seats"]
    winner = draw(st.sampled_from([None, *seats]))
    hand = {"winner": winner}
    if winner:
        hand["mico"] = draw(st.integers(0, 2))
    return {"type": "hand", "hand": hand, "at": state["at"]}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_sessions_with_games_replay_undo_and_round_trip(tmp_path_factory, data):
    path = str(tmp_path_factory.mktemp("p") / "s.db")
    init_db(path)
    db = connect(path)
    doc = {"format": FORMAT, "name": "Random night", "currency": "EUR", "players": PLAYERS, "games": []}
    created = store.create(db, doc, location=lambda e: e)
    sid = db.execute("SELECT id FROM sessions WHERE edit_token = ?", [created.location]).fetchone()[0]
    for game in _new_games():
        store.write(db, sid, "add_game", {"game": game}, key=None, seen_version=None, location="/")

    for _ in range(data.draw(st.integers(5, 30), label="steps")):
        current = store.load(db, sid)["doc"]
        gi = data.draw(st.integers(0, 2), label="game")
        if data.draw(st.integers(0, 5), label="undo?") == 0:
            last = store.last_effective(db, sid, gi)
            if last and last[1] == "game":
                # undo restores exactly the game as it was before that event; other games keep theirs
                before_event = events.replay([e for e in store.event_list(db, sid) if e[0] < last[0]])
                store.write(db, sid, "undo", {"game": gi}, key=None, seen_version=None, location="/")
                after = store.load(db, sid)["doc"]
                assert after["games"][gi] == before_event["games"][gi]
                assert [g for i, g in enumerate(after["games"]) if i != gi] == \
                       [g for i, g in enumerate(current["games"]) if i != gi]
            continue
        game = current["games"][gi]
        action = _action(data.draw, game, compute_state(current)["games"][gi])
        if action is None:
            continue
        try:
            store.write(db, sid, "game", {"game": gi, "action": action}, key=None, seen_version=None, location="/")
        except RuleError:
            assert store.load(db, sid)["doc"] == current  # refused: nothing changed

    final = store.load(db, sid)["doc"]
    assert events.replay(store.event_list(db, sid)) == final
    state = compute_state(final)
    assert sum(state["settle"]["net"].values()) + state["settle"]["on_table"] == 0 or \
        state["settle"]["method"] == "unbalanced"

    # export -> import -> export is identical, and computes the same state
    exported = json.loads(json.dumps(final))
    again = store.create(db, exported, location=lambda e: e)
    sid2 = db.execute("SELECT id FROM sessions WHERE edit_token = ?", [again.location]).fetchone()[0]
    reimported = store.load(db, sid2)["doc"]
    assert reimported == exported
    assert compute_state(reimported) == state
    db.conn.close()
