"""The CSV export: one row per award or chip movement, read tolerantly from each game's log."""
import csv
import io

import pytest

from companion import csvexport, kinds
from companion.sessionfile import compute_state, normalize_session


def test_place_names():
    assert csvexport.place_name("@AH") == "A♥ pile"
    assert csvexport.place_name("@10C") == "10♣ pile"
    assert csvexport.place_name("@kitty") == "kitty"
    assert csvexport.place_name("@pot") == "pot"
    assert csvexport.place_name("@side:oro") == "oro side pot"
    assert csvexport.place_name("@table") == "table (leftovers)"
    assert csvexport.place_name("Ane") == "Ane"
    assert csvexport.place_name(None) == ""


def _fake(doc_games, state_games, name="Night"):
    return {"name": name, "players": ["Ane", "Bea"], "games": doc_games}, {"games": state_games}


def test_entries_tolerate_odd_log_entries():
    doc, state = _fake(
        [{"kind": "mus"}, {"kind": "newmarket"}, {"kind": "future"}],
        [{"teams": {"A": ["Ane", "Carlos"], "B": ["Bea", "Dani"]},
          "log": [{"hand": 2, "game": 1, "lance": "chica", "team": "A", "points": 2, "why": "called"},
                  "not a dict", {"why": 5}]},
         {"log": [{"deal": 1, "from": "Ane", "to": "@AH", "chips": 2, "why": "ante"},
                  {"deal": None, "from": "@table", "to": "Bea", "chips": 1, "why": "leftovers"}]},
         {"log": [{"round": 1, "amount": 3, "why": "something new"}]}])
    rows = csvexport.entries(doc, state)
    assert len(rows) == 5
    mus = rows[0]
    assert (mus["game"], mus["kind"], mus["round"], mus["mus_game"], mus["lance"], mus["team"],
            mus["team_players"], mus["amount"], mus["unit"]) == (1, "mus", 2, 1, "chica", "A", "Ane & Carlos", 2,
                                                                  "points")
    assert rows[1]["why"] == "" and rows[1]["amount"] is None
    assert rows[2]["from"] == "Ane" and rows[2]["to"] == "@AH" and rows[2]["unit"] == "chips"
    assert rows[3]["round"] is None
    assert rows[4]["kind"] == "future" and rows[4]["round"] == 1 and rows[4]["amount"] == 3


def test_csv_text_columns_and_formula_protection():
    doc, state = _fake([{"kind": "desmoche"}],
                       [{"log": [{"hand": 1, "from": "=cmd()", "to": "@pot", "units": 10, "why": "+1 stake"}]}],
                       name="@night")
    text = csvexport.to_csv(doc, state)
    assert text.endswith("\r\n")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == csvexport.COLUMNS
    row = dict(zip(rows[0], rows[1]))
    assert row["session"] == "'@night"
    assert row["from"] == "'=cmd()" and row["to"] == "pot"
    assert row["why"] == "'+1 stake"
    assert row["amount"] == "10" and row["unit"] == "units" and row["round_type"] == "hand"


@pytest.mark.skipif("desmoche" not in kinds.KINDS, reason="companion.rules.desmoche not importable yet")
def test_a_real_desmoche_game_gives_one_row_per_log_entry():
    doc = normalize_session({
        "format": "companion-session/1", "name": "Night", "players": ["Ane", "Bea", "Carlos"],
        "games": [{"kind": "desmoche", "rules": {"variant": "desmoche", "stake": 10},
                   "seats": ["Ane", "Bea", "Carlos"], "unit_value": 10,
                   "hands": [{"winner": None}, {"winner": "Bea"}]}]})
    state = compute_state(doc)
    rows = csvexport.rows(doc, state)
    assert len(rows) == len(state["games"][0]["log"])
    # the movements balance: what leaves players equals what reaches players and piles
    won = [r for r in rows if r[10] == "Bea" and r[9] == "pot"]
    assert won and won[0][11] == 60
