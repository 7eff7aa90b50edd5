"""The session file: validation with JSON paths, and export -> import -> export is identical."""
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import service
from companion.record import session as S
from companion.storage.db import connect, init_db
from companion.domain import text as text_policy
from companion.domain.errors import RuleError

FORMAT = S.FORMAT
names = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Cf", "Co", "Zs", "Zl", "Zp")), min_size=1,
                max_size=40).filter(lambda n: text_policy.check(n) == (n, None))   # as the Unicode policy accepts
players = st.lists(names, min_size=2, max_size=40, unique_by=S.player_key)
sessions = st.fixed_dictionaries(
    {"format": st.just(FORMAT), "name": names, "players": players, "games": st.just([])},
    optional={"started": st.datetimes().map(lambda d: d.isoformat(timespec="seconds")),
              "currency": st.sampled_from(["EUR", "USD", "JPY", "HNL"])},
)


@given(sessions)
def test_load_is_idempotent(doc):
    once = S.to_doc(S.load(doc))
    assert S.to_doc(S.load(json.loads(json.dumps(once)))) == once


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(doc=sessions)
def test_export_import_export_is_identical(database, doc):
    path = database
    init_db(path)
    db = connect(path)
    service.create(db, S.load(doc), browser="b")
    exported = S.to_doc(service.load(db, db.execute("SELECT max(id) FROM sessions").fetchone()[0]))
    service.create(db, S.load(json.loads(json.dumps(exported))), browser="b")
    again = S.to_doc(service.load(db, db.execute("SELECT max(id) FROM sessions").fetchone()[0]))
    assert again == exported
    db.conn.close()


@pytest.mark.parametrize("doc, path", [
    ({"format": FORMAT, "name": "n", "players": ["A"]}, "players"),
    ({"format": FORMAT, "name": "n", "players": ["A", ""]}, "players[1]"),
    ({"format": FORMAT, "name": "n", "players": ["A", 3]}, "players[1]"),
    ({"format": FORMAT, "name": "", "players": ["A", "B"]}, "name"),
    ({"format": FORMAT, "name": "n", "players": ["A", "B"], "currency": "euro"}, "currency"),
    ({"format": FORMAT, "name": "n", "players": ["A", "B"], "started": "yesterday"}, "started"),
    ({"format": FORMAT, "name": "n", "players": ["A", "B"], "games": {}}, "games"),
    ({"format": FORMAT, "name": "n", "players": ["A", "B"], "games": [3]}, "games[0]"),
    ({"format": FORMAT, "name": "n", "players": ["A", "B"], "settle": {"banker": "Z"}}, "settle.banker"),
    ({"format": FORMAT, "name": "n", "players": [f"P{i}" for i in range(41)]}, "players"),
    ({"format": FORMAT, "name": "n", "players": ["A", "B\u202e"]}, "players[1]"),     # a bidi override
    ({"format": FORMAT, "name": "n", "players": ["A", "B\u0007"]}, "players[1]"),     # a control character
    ({"format": FORMAT, "name": "n", "players": ["A", "B"], "settle": {"paid": [
        {"from": "A", "to": "B", "amount": 10 ** 19}]}}, "settle.paid[0].amount"),
])
def test_malformed_sessions_name_the_path(doc, path):
    with pytest.raises(RuleError) as err:
        S.load(doc)
    assert err.value.path == path


def test_a_night_has_two_to_forty_players():
    forty = [f"Player {i}" for i in range(40)]
    assert S.load({"format": FORMAT, "name": "n", "players": forty}).players == forty
    with pytest.raises(RuleError) as err:
        S.load({"format": FORMAT, "name": "n", "players": forty + ["One more"]})
    assert err.value.path == "players" and "2 to 40" in err.value.message


def test_state_of_an_empty_session():
    state = S.state_of(S.load({"format": FORMAT, "name": "n", "players": ["Ane", "Bea"]}))
    assert state["format"] == "companion-state/1"
    assert state["settle"]["net"] == {"Ane": 0, "Bea": 0}
    assert state["settle"]["payments"] == []


def test_names_that_differ_only_by_accents_or_case_are_one_player():
    # history matches players across sessions this way, so one session cannot list both
    with pytest.raises(RuleError) as err:
        S.load({"format": FORMAT, "name": "n", "players": ["José", "JOSE"]})
    assert err.value.path == "players[1]" and "as José" in err.value.message
