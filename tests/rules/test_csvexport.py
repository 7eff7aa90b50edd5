"""The CSV export: one row per award or chip movement, read tolerantly from each game's log."""
import csv
import io


from companion.record import csvexport
from companion.record import session as S


def test_place_names():
    assert csvexport.place_name("@AH") == "A♥ pile"
    assert csvexport.place_name("@10C") == "10♣ pile"
    assert csvexport.place_name("@kitty") == "kitty"
    assert csvexport.place_name("@pot") == "pot"
    assert csvexport.place_name("@side:oro") == "oro side pot"
    assert csvexport.place_name("@table") == "table (leftovers)"
    assert csvexport.place_name("Ane") == "Ane"
    assert csvexport.place_name(None) == ""


def _session(games, name="Night", players=("Ane", "Bea", "Carlos", "Dani")):
    return S.load({"format": S.FORMAT, "name": name, "players": list(players), "games": games})


def test_rows_of_every_kind():
    sess = _session([
        {"kind": "mus", "seats": ["Ane", "Bea", "Carlos", "Dani"],
         "hands": [{"chica": [{"team": "A", "bet": 2}, {"team": "B", "call": True}],
                    "showdown": {"grande": "A", "chica": "A", "pares_held": {}, "juego_held": {}}}]},
        {"kind": "newmarket", "seats": ["Ane", "Bea", "Carlos"], "start_chips": 5,
         "deals": [{"out": "Ane", "cards_left": {"Bea": 1, "Carlos": 2}}], "ended": True}])
    rows = [dict(zip(csvexport.COLUMNS, r)) for r in csvexport.rows(sess)]
    mus = rows[0]
    assert (mus["game"], mus["kind"], mus["round"], mus["mus_game"], mus["lance"], mus["team"],
            mus["team_players"], mus["amount"], mus["unit"]) == (1, "mus", 1, 1, "chica", "A", "Ane & Carlos", 2,
                                                                  "points")
    chips = [r for r in rows if r["kind"] == "newmarket"]
    assert chips[0]["from"] == "Ane" and chips[0]["to"] == "A♥ pile" and chips[0]["unit"] == "chips"
    assert chips[-1]["round"] == ""           # the leftovers, after the last deal
    assert all(r["why"] for r in rows)


def test_a_game_won_by_ordago_has_a_row():
    sess = _session([{"kind": "mus", "seats": ["Ane", "Bea", "Carlos", "Dani"],
                      "hands": [{"grande": [{"team": "A", "ordago": True}, {"team": "B", "call": True}],
                                 "showdown": {"grande": "B"}}]}])
    rows = [dict(zip(csvexport.COLUMNS, r)) for r in csvexport.rows(sess)]
    assert len(rows) == 1 and rows[0]["lance"] == "ordago" and rows[0]["team"] == "B"
    assert "órdago" in rows[0]["why"]


def test_csv_text_columns_and_formula_protection():
    sess = _session([{"kind": "desmoche", "rules": {"stake": 10}, "seats": ["=cmd()", "Bea"],
                      "hands": [{"winner": "Bea"}]}], name="@night", players=("=cmd()", "Bea"))
    text = csvexport.to_csv(sess)
    assert text.endswith("\r\n")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == csvexport.COLUMNS
    row = dict(zip(rows[0], rows[1]))
    assert row["session"] == "'@night"
    assert row["from"] == "'=cmd()" and row["to"] == "pot"
    assert row["amount"] == "10" and row["unit"] == "units" and row["round_type"] == "hand"


def test_a_real_desmoche_game_gives_one_row_per_log_entry():
    sess = _session([{"kind": "desmoche", "rules": {"variant": "desmoche", "stake": 10},
                      "seats": ["Ane", "Bea", "Carlos"], "unit_value": 10,
                      "hands": [{"winner": None}, {"winner": "Bea"}]}], players=("Ane", "Bea", "Carlos"))
    state = S.state_of(sess)
    rows = csvexport.rows(sess)
    assert len(rows) == len(state["games"][0]["log"])
    won = [r for r in rows if r[10] == "Bea" and r[9] == "pot"]
    assert won and won[0][11] == 60
