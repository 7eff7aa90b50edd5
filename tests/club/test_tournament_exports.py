"""What a tournament gives beyond its state: the classification as CSV, every tie to the ratings."""
import csv
import io
import json

from tourneydata import example_doc

from companion.record.csvexport import CLASSIFICATION_COLUMNS, classification_csv, classification_rows
from companion.ratings.contests import contests_of
from companion.record.session import load


def test_the_night_classification_as_csv():
    session = load(example_doc())
    got = list(csv.reader(io.StringIO(classification_csv(session))))
    assert got[0] == CLASSIFICATION_COLUMNS
    assert got[1] == ["AEIT night", "1", "Ane", "Bea", "1", "Bracket A"]
    assert [r[1] for r in got[1:]] == ["1", "2", "3", "4", "5", "6", "7", "7", "9", "9"]
    assert got[-1][2:] == ["Unai", "Ainhoa", "0", "Groups"]


def test_no_classification_before_every_stage_is_done():
    doc = example_doc()
    doc["games"] = doc["games"][:-1]
    assert classification_rows(load(doc)) == []


def test_a_name_is_protected_against_formulas():
    doc = json.loads(json.dumps(example_doc(), ensure_ascii=False).replace('"Ane"', '"=Ane"'))
    assert classification_rows(load(doc))[0][2] == "'=Ane"


def test_every_tie_is_a_rated_match():
    session = load(example_doc())
    contests = contests_of(session.games)
    assert len(contests) == len(session.games) == 27
    clock_tie = contests[21]            # P3-P1, ended by the clock at 1-1, P1 ahead in the third game
    assert clock_tie["ranks"] == [2, 1] and clock_tie["teams"][1] == ["ane", "bea"]
    assert contests[5]["ranks"] == [1, 1]       # the group match P4-P5 drawn by the clock
