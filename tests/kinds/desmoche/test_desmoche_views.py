"""What the app shows of a Desmoche series: the state document, the table's overview, the one-line
summary and headline, the hand-by-hand page with its chart, the CSV rows, the settlement."""
from companion.kinds.desmoche import KIND
from companion.kinds.desmoche import actions as A
from companion.domain.messages import CATALOG, render
from dm_helpers import P3, act, game, hand, state, view


def series():
    return game({"side_games": {"oro": 5}}, hands=[
        {"winner": None},
        {"winner": "Bea", "mico": 1, "arriba": ["Carlos"], "side": {"oro": {"joined": ["Ane", "Bea"], "winner": None}}}])


def test_kind_attributes():
    assert KIND.name == "desmoche" and render({"code": KIND.title}) == "Desmoche"
    assert KIND.items_key == "hands" and (KIND.min_players, KIND.max_players) == (2, 4)
    assert KIND.ledger_round == "hand" and KIND.ledger_unit == "units"
    rec = series()
    assert KIND.seats(rec.head) == P3 and KIND.seed_out(rec) is None and KIND.partnership(rec) is None


def test_state_document():
    rec = series()
    s = state(rec)
    assert s["kind"] == "desmoche" and s["pot"] == 0 and s["multiple"] == 0 and s["side_pots"] == {"oro": 10}
    assert s["net"] == {"Ane": -35, "Bea": 65, "Carlos": -40}
    assert s["log"][0] == {"hand": 1, "from": "Ane", "to": "@pot", "units": 10, "why": "Ane put 10 in the pot"}
    assert s["log"][3] == {"hand": 1, "from": None, "to": None, "units": 0,
                           "why": "No winner: the pot of 30 rolls over (doble)"}
    assert {"hand": 2, "from": "Ane", "to": "@side:oro", "units": 5, "why": "Ane joined oro: put 5 in"} in s["log"]
    assert s["log"][-1]["why"] == "Nobody qualified for oro: its pot of 10 carries over"


def test_overview():
    rec = hand(series(), winner=None)
    v = view(rec)
    assert v["hand_number"] == 4 and v["next_dealer"] == "Ane" and v["pot"] == 30 and v["multiple"] == 1
    assert render(v["multiple_words"]) == "1×" and v["next_multiple"] == 2 and render(v["next_multiple_words"]) == "doble"
    assert v["legal"] == ["hand", "set_stake", "end_series", "replace_hand"] and v["at"] == KIND.position(rec)
    assert v["side_stakes"] == {"oro": 5} and v["returned"] is None and v["variant"] == "desmoche"
    assert view(game())["legal"] == ["hand", "set_stake", "end_series"] and view(game())["next_dealer"] == "Ane"
    ended = act(rec, A.EndSeries())
    v = view(ended)
    assert v["next_dealer"] is None and v["next_multiple"] == 0 and v["next_multiple_words"] is None
    assert v["returned"] == {"Ane": 15, "Bea": 15, "Carlos": 10}


def test_summary_and_headline():
    rec = series()
    assert render(KIND.summary(rec)) == "Bea +65 units (not ended)"
    assert render(KIND.headline(rec)) == "Desmoche · hand 3 · pot empty · Bea +65 · Ane −35 · Carlos −40"
    rec = hand(rec, winner=None)
    assert render(KIND.headline(rec)) == "Desmoche · hand 4 · pot 30, next doble · Bea +55 · Ane −45 · Carlos −50"
    ended = act(rec, A.EndSeries())
    assert render(KIND.summary(ended)) == "Bea +70 units"
    assert render(KIND.headline(ended)) == "Desmoche · series over · Bea +70 · Ane −30 · Carlos −40"
    assert render(KIND.summary(game())) == "nobody ahead (not ended)"
    assert render(KIND.summary(hand(game({"bonuses": False}, seats=["Ane", "Bea"]), winner="Ane"))) == \
        "Ane +10 units (not ended)"
    assert render(KIND.summary(hand(game({"stake": 1}, seats=["Ane", "Bea"]), winner="Bea"))) == \
        "Bea +1 unit (not ended)"


def test_history_page():
    rec = act(series(), A.EndSeries())
    [group] = KIND.history(rec)
    chart = group["chart"]
    assert group["title"] is None
    assert [render(x) for x in chart["x_labels"]] == ["start", "H1", "H2", "end"]
    assert render(chart["title"]) == "Units won or lost, hand by hand" and render(chart["unit"]) == "units"
    assert chart["series"] == [{"name": "Ane", "values": [0, -10, -35, -30]},
                               {"name": "Bea", "values": [0, -10, 65, 70]},
                               {"name": "Carlos", "values": [0, -10, -40, -40]}]
    rounds = group["rounds"]
    assert [render(r["label"]) for r in rounds] == ["Hand 1", "Hand 2", "End of the game"]
    assert [render(m) for m in rounds[1]["meta"]] == ["dealer Bea", "stake 10", "pot 60 (doble)"]
    assert rounds[1]["moves"][5] == {"from": "@pot", "to": "Bea", "amount": 60,
                                     "why": {"code": "desmoche.why.won", "winner": "Bea", "pot": 60}}
    assert [render(m["why"]) for m in rounds[2]["moves"]] == ["Series ended: Ane got back 5 from the oro pot",
                                                             "Series ended: Bea got back 5 from the oro pot"]
    # nothing recorded yet: no chart
    assert KIND.history(game()) == [{"title": None, "chart": None, "rounds": []}]


def test_ledger_rows_are_the_log():
    rec = act(series(), A.EndSeries())
    rows = KIND.ledger(rec)
    log = state(rec)["log"]
    assert len(rows) == len(log)
    for row, e in zip(rows, log):
        assert (row["round"], row["from"], row["to"], row["amount"], render(row["why"])) == \
            (e["hand"], e["from"], e["to"], e["units"], e["why"])
        assert set(row) == {"round", "from", "to", "amount", "why"} and not KIND.csv_columns


def test_settlement_in_minor_units():
    rec = game({"side_games": {"oro": 5}}, unit_value=25,
               hands=[{"winner": None, "side": {"oro": {"joined": ["Ane"], "winner": None}}}])
    assert KIND.settlement(rec) == {"net": {"Ane": -375, "Bea": -250, "Carlos": -250}, "on_table": 875}
    ended = act(rec, A.EndSeries())
    assert KIND.settlement(ended) == {"net": {"Ane": 0, "Bea": 0, "Carlos": 0}, "on_table": 0}


def test_every_code_used_is_defined():
    rec = game({"side_games": {"oro": 5, "flor": 1}, "side_unclaimed": "return", "color_wins": True}, hands=[
        {"winner": None, "stake": 20, "side": {"oro": {"joined": ["Ane"], "winner": None}}},
        {"winner": "Ane", "auto_win": "cuatro_cuerpos", "side": {"flor": {"joined": P3, "winner": "Bea"}}},
        {"winner": "Bea", "mico": 2, "same_suit": True, "arriba": ["Ane"]}] + [{"winner": None}] * 11)
    rec = act(rec, A.EndSeries())

    def codes(v):
        if isinstance(v, dict):
            if "code" in v:
                yield v["code"]
            for x in v.values():
                yield from codes(x)
        elif isinstance(v, list):
            for x in v:
                yield from codes(x)

    parts = [KIND.history(rec), KIND.ledger(rec), KIND.summary(rec), KIND.headline(rec), KIND.overview(rec)]
    used = set(codes(parts))
    assert used and all(c in CATALOG for c in used)
    assert "desmoche.mult.n" in used and "desmoche.why.micos" in used and "desmoche.why.side_returned" in used
    # every reason renders without a placeholder left over
    for e in KIND.state(rec)["log"]:
        assert e["why"] and "%(" not in e["why"] and "desmoche." not in e["why"]
