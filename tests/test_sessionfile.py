"""The session file: validation with JSON paths, and export -> import -> export is identical."""
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import store
from companion.db import connect, init_db
from companion.rules.errors import RuleError
from companion.sessionfile import FORMAT, compute_state, normalize_session
from companion.summary import player_key

names = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp")), min_size=1,
                max_size=40)
players = st.lists(names, min_size=2, max_size=8, unique_by=player_key)
sessions = st.fixed_dictionaries(
    {"format": st.just(FORMAT), "name": names, "players": players, "games": st.just([])},
    optional={"started": st.datetimes().map(lambda d: d.isoformat(timespec="seconds")),
              "currency": st.sampled_from(["EUR", "USD", "JPY", "HNL"])},
)


@given(sessions)
def test_normalize_is_idempotent(doc):
    once = normalize_session(doc)
    assert normalize_session(json.loads(json.dumps(once))) == once


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(doc=sessions)
def test_export_import_export_is_identical(tmp_path, doc):
    path = str(tmp_path / "rt.db")
    init_db(path)
    db = connect(path)
    first = store.create(db, doc, location=lambda edit: edit)
    exported = store.load(db, db.execute("SELECT id FROM sessions WHERE edit_token = ?",
                                         [first.location]).fetchone()[0])["doc"]
    second = store.create(db, json.loads(json.dumps(exported)), location=lambda edit: edit)
    again = store.load(db, db.execute("SELECT id FROM sessions WHERE edit_token = ?",
                                      [second.location]).fetchone()[0])["doc"]
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
    ({"format": FORMAT, "name": "n", "players": [f"P{i}" for i in range(9)]}, "players"),
])
def test_malformed_sessions_name_the_path(doc, path):
    with pytest.raises(RuleError) as err:
        normalize_session(doc)
    assert err.value.path == path


def test_state_of_an_empty_session():
    doc = normalize_session({"format": FORMAT, "name": "n", "players": ["Ane", "Bea"]})
    state = compute_state(doc)
    assert state["format"] == "companion-state/1"
    assert state["settle"]["net"] == {"Ane": 0, "Bea": 0}
    assert state["settle"]["payments"] == []


def test_names_that_differ_only_by_accents_or_case_are_one_player():
    # history matches players across sessions this way, so one session cannot list both
    with pytest.raises(RuleError) as err:
        normalize_session({"format": FORMAT, "name": "n", "players": ["José", "JOSE"]})
    assert err.value.path == "players[1]" and "as José" in err.value.message
