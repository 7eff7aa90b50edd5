"""A Desmoche series inside a session: the session file's example, its state document and settlement, and
a night replayed from its events with undo (the kind is registered for these tests only: registering it
for the app is ``companion/kinds/__init__.py``'s business)."""
import json

import pytest

from companion import kinds
from companion.record import events as E
from companion.record import session
from companion.domain.errors import RuleError
from companion.kinds.desmoche import KIND, Spec
from companion.kinds.desmoche import actions as A

FORMAT = "companion-session/1"


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    monkeypatch.setitem(kinds.KINDS, "desmoche", KIND)


def night(games):
    return {"format": FORMAT, "name": "Friday at Koldo's", "currency": "EUR",
            "players": ["Ane", "Bea", "Carlos", "Dani", "Eneko"], "games": games}


def test_format_example_state_and_settlement():
    game = {"kind": "desmoche", "rules": {"stake": 10, "bonuses": True, "side_games": {"oro": 5}},
            "seats": ["Ane", "Bea", "Carlos"], "unit_value": 10,
            "hands": [{"winner": None}, {"winner": "Bea", "mico": 1, "arriba": ["Carlos"]}], "ended": True}
    s = session.load(night([game]))
    st = session.state_of(s)
    entry = {k: v for k, v in st["games"][0].items() if k != "log"}
    assert entry == {"kind": "desmoche", "pot": 0, "multiple": 0, "side_pots": {"oro": 0},
                     "net": {"Ane": -30, "Bea": 70, "Carlos": -40}}
    assert st["settle"]["net"] == {"Ane": -300, "Bea": 700, "Carlos": -400, "Dani": 0, "Eneko": 0}
    assert st["settle"]["on_table"] == 0
    doc = session.to_doc(s)
    assert session.to_doc(session.load(json.loads(json.dumps(doc)))) == doc


def test_errors_carry_the_games_path():
    game = {"kind": "desmoche", "rules": {"stake": 10}, "seats": ["Ane", "Bea"], "hands": [{"winner": "Zoe"}]}
    with pytest.raises(RuleError) as e:
        session.load(night([game]))
    assert e.value.path == "games[0].hands[0].winner"


def test_a_night_replayed_from_its_events_with_undo():
    players = ["Ane", "Bea", "Carlos", "Dani", "Eneko"]
    new = KIND.new_game(players, Spec(seats=["Ane", "Bea", "Carlos", "Dani"], stake=5, bonuses=True,
                                      side_games={"oro": 2}))
    events = [(1, "create", {"doc": night([])}), (2, "add_game", {"game": new})]
    taps = [A.Hand(hand={"winner": None, "side": {"oro": {"joined": ["Ane", "Bea"], "winner": None}}}),
            A.SetStake(stake=10),
            A.Hand(hand={"winner": "Carlos", "mico": 1, "arriba": ["Dani"]}),
            A.ReplaceHand(index=0, hand={"winner": "Dani"}),
            A.Hand(hand={"winner": None}),
            A.EndSeries()]
    seq = 3
    for a in taps:
        events.append((seq, "game", {"game": 0, "action": json.loads(json.dumps(a.to_json()))}))
        seq += 1
    full = E.replay(events)
    rec = full.games[0]
    assert rec.head["ended"] and rec.state["pot"] == 0
    assert session.settle_of(full.header, full.games)["on_table"] == 0
    # undo the last three taps: the night is as it was after the second hand
    undone = E.replay(events + [(seq, "undo", {"target": seq - 1}), (seq + 1, "undo", {"target": seq - 2}),
                                      (seq + 2, "undo", {"target": seq - 3})])
    before = E.replay(events[:-3])
    u, b = undone.games[0], before.games[0]
    assert (u.head, u.state, list(u.items)) == (b.head, b.state, list(b.items))
    # the file of the night builds the same series
    again = session.load(json.loads(json.dumps(session.to_doc(full))))
    g = again.games[0]
    assert (g.head, g.state, list(g.items)) == (rec.head, rec.state, list(rec.items))
