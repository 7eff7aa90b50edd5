"""The session file's ``log`` (session-v1.md): the organizer's changes to closed results, read, checked
with the path of the first problem, kept as it is by export and import, and changing no score."""
import copy
import json

import pytest
from clubdata import example_doc

from companion.domain.errors import RuleError
from companion.record.session import load, state_of, to_doc

LOG = [{"at": "2026-11-20T22:41:07Z", "by": "organizer", "what": "reopened", "game": 4,
        "note": "last hand scored for the wrong team"},
       {"at": "2026-11-20T22:45:00.250Z", "by": "table 2", "what": "result_changed", "game": 3},
       {"at": "2026-11-20T23:01:00Z", "by": "organizer", "what": "removed", "game": 9}]


def with_log(log):
    doc = example_doc()
    doc["log"] = copy.deepcopy(log)
    return doc


def test_export_and_import_keep_the_log_as_it_is():
    doc = to_doc(load(with_log(LOG)))
    assert doc["log"] == LOG and list(doc)[-1] == "log"
    text = json.dumps(doc, ensure_ascii=False)
    assert json.dumps(to_doc(load(json.loads(text))), ensure_ascii=False) == text


def test_the_log_changes_no_score():
    assert state_of(load(with_log(LOG))) == state_of(load(example_doc()))


def test_a_file_without_a_log_reads_as_before():
    assert "log" not in to_doc(load(example_doc()))
    assert "log" not in to_doc(load(with_log([])))


@pytest.mark.parametrize("i,key,value,path", [
    (0, "at", "2026-11-20 22:41:07", "log[0].at"),
    (0, "at", "2026-13-20T22:41:07Z", "log[0].at"),
    (1, "by", "organiser", "log[1].by"),
    (1, "by", "table ", "log[1].by"),
    (1, "by", "table 123456789012345678901", "log[1].by"),
    (2, "what", "deleted", "log[2].what"),
    (2, "game", -1, "log[2].game"),
    (2, "game", "4", "log[2].game"),
    (2, "game", True, "log[2].game"),
    (0, "note", "x" * 201, "log[0].note"),
    (0, "note", "bad\u202etext", "log[0].note"),
    (0, "who", "me", "log[0].who"),
    (0, "at", None, "log[0].at"),
])
def test_a_bad_entry_is_refused_with_its_path(i, key, value, path):
    log = copy.deepcopy(LOG)
    if value is None:
        del log[i][key]
    else:
        log[i][key] = value
    with pytest.raises(RuleError) as err:
        load(with_log(log))
    assert err.value.path == path


@pytest.mark.parametrize("bad", [{}, "x", [1], [[]]])
def test_a_log_that_is_not_a_list_of_entries_is_refused(bad):
    with pytest.raises(RuleError) as err:
        load(with_log(bad))
    assert err.value.path.startswith("log")
