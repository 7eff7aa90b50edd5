"""Whole sessions with real games of every kind, played through the event store with random legal taps:
the rows always equal a replay of the events, undo is the exact inverse across games, a refused tap
changes nothing, the night's money balances, and export -> import -> export is identical (with the same
computed state)."""
import itertools
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import service
from companion.record import events
from companion.record import session as S
from companion.storage import store
from companion.storage.db import connect, init_db
from companion.domain.errors import RuleError
from kind_strategies import new_games, tap

PLAYERS = ["Ane", "Bea", "Carlos", "Dani", "Eneko"]


def _write(db, sid, etype, payload):
    return service.write(db, store.session(db, sid), etype, payload, browser="p", key=None, seen_version=None, location="/")


_examples = itertools.count()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_sessions_with_games_replay_undo_and_round_trip(new_database, data):
    path = new_database(f"s{next(_examples)}.db")
    init_db(path)
    db = connect(path)
    doc = {"format": S.FORMAT, "name": "Random night", "currency": "EUR", "players": PLAYERS, "games": []}
    service.create(db, S.load(doc), browser="p")
    sid = db.execute("SELECT max(id) FROM sessions").fetchone()[0]
    for game in new_games(PLAYERS):
        _write(db, sid, "add_game", {"game": game})

    for _ in range(data.draw(st.integers(5, 40), label="steps")):
        current = S.to_doc(service.load(db, sid))
        gi = data.draw(st.integers(0, 2), label="game")
        if data.draw(st.integers(0, 5), label="undo?") == 0:
            if (store.last_undoable(db, sid, gi) or (0, None))[1] == "game":
                target = db.execute("SELECT max(seq) FROM events WHERE session_id = ? AND game = ? AND undo IS NOT NULL"
                                    " AND undone_by IS NULL", [sid, gi]).fetchone()[0]
                before_event = S.to_doc(events.replay([e for e in store.event_list(db, sid) if e[0] < target]))
                _write(db, sid, "undo", {"game": gi})
                after = S.to_doc(service.load(db, sid))
                assert after["games"][gi] == before_event["games"][gi]
                assert [g for i, g in enumerate(after["games"]) if i != gi] == \
                       [g for i, g in enumerate(current["games"]) if i != gi]
            continue
        action = tap(data.draw, service.game(db, sid, gi))
        if action is None:
            continue
        try:
            _write(db, sid, "game", {"game": gi, "action": action})
        except RuleError:
            assert S.to_doc(service.load(db, sid)) == current  # refused: nothing changed

    final = service.load(db, sid)
    assert S.to_doc(events.replay(store.event_list(db, sid))) == S.to_doc(final)
    state = S.state_of(final)
    settle = state["settle"]
    assert settle["method"] == "unbalanced" or (sum(settle["net"].values()) == 0 and settle["on_table"] == 0)

    # export -> import -> export is identical, and computes the same state
    exported = json.loads(json.dumps(S.to_doc(final)))
    service.create(db, S.load(exported), browser="p")
    sid2 = db.execute("SELECT max(id) FROM sessions").fetchone()[0]
    reimported = service.load(db, sid2)
    assert S.to_doc(reimported) == exported
    assert S.state_of(reimported) == state
    db.conn.close()
