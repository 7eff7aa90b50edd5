"""What the app shows of a Newmarket game: one line (summary, headline), the hand-by-hand page with its
chart (history), the CSV rows (ledger), the state's log."""
from companion.kinds.newmarket import KIND
from companion.kinds.newmarket.kind import english
from companion.domain.messages import render

from nm_helpers import P4, PARLETT, A, game, run, state


def played():
    return run(game({"kitty_ante": 1}), A.StartDeal(), A.Dummy(sold_to="Carlos", price=2),
               A.Boodle(card="KC", by="Carlos"), A.EndDeal(out="Bea", cards_left={"Ane": 3, "Carlos": 5, "Dani": 1}),
               A.StartDeal())


def test_headline_and_summary():
    g = played()
    assert render(KIND.headline(g)) == "Classic · deal 2 in play · Bea 23 · Ane 9 · Dani 9 · Carlos 7"
    assert render(KIND.summary(g)) == "Bea +3 chips (not ended)"
    done = run(g, A.EndDeal(blocked=True))
    assert render(KIND.headline(done)).startswith("Classic · deal 3 next · Bea 23")
    assert render(KIND.headline(game(PARLETT))) == "Parlett · deal 1 next · Ane 20 · Bea 20 · Carlos 20 · Dani 20"
    one = run(game(start=0), A.StartDeal(), A.EndDeal(out="Bea", cards_left={"Ane": 0, "Carlos": 0, "Dani": 1}),
              A.EndGame())
    assert render(KIND.summary(one)) == "Bea +1 chip"


def test_history_groups_rounds_and_chart():
    g = run(played(), A.EndDeal(blocked=True), A.EndGame())
    [group] = KIND.history(g)
    assert group["title"] is None
    rounds = group["rounds"]
    assert [render(r["label"]) for r in rounds] == ["Deal 1", "Deal 2", "End of the game"]
    assert [render(m) for m in rounds[0]["meta"]] == ["dealer Ane", "Bea went out"]
    assert [render(m) for m in rounds[1]["meta"]] == ["dealer Bea", "blocked: nobody went out"]
    assert [render(m) for m in rounds[2]["meta"]] == ["32 chips left on the table, shared"]   # piles 28 + kitty 4
    moves = rounds[0]["moves"]
    assert {"from": "Carlos", "to": "Ane", "amount": 2, "why": moves[20]["why"]} == moves[20]
    assert render(moves[20]["why"]) == "Carlos bought the dummy: paid Ane 2"
    chart = group["chart"]
    assert render(chart["title"]) == "Chips in hand, deal by deal" and render(chart["unit"]) == "chips"
    assert [render(x) for x in chart["x_labels"]] == ["start", "D1", "D2", "end"]
    series = {s["name"]: s["values"] for s in chart["series"]}
    assert series["Bea"][0] == 20 and series["Bea"][-1] == state(g)["chips"]["Bea"]
    assert all(len(v) == 4 for v in series.values())
    # a game with nothing recorded has no chart
    assert KIND.history(game())[0]["chart"] is None and KIND.history(game())[0]["rounds"] == []


def test_history_of_an_open_deal_and_a_carry_end():
    g = played()
    rounds = KIND.history(g)[0]["rounds"]
    assert [render(m) for m in rounds[-1]["meta"]] == ["dealer Bea", "in play"]
    c = run(game({"leftover": "carry"}), A.StartDeal(), A.EndDeal(blocked=True), A.EndGame())
    [group] = KIND.history(c)
    assert [render(m) for m in group["rounds"][-1]["meta"]] == \
        ["16 chips left on the table for the next Newmarket game"]
    assert group["rounds"][-1]["moves"] == [] and len(group["chart"]["x_labels"]) == 2
    k = run(game(PARLETT), A.StartDeal(), *[A.Boodle(card=q, by="Dani") for q in ("QS", "QH", "QD", "QC")])
    assert "Dani took the last King: the game is over" in [render(m) for m in KIND.history(k)[0]["rounds"][0]["meta"]]


def test_ledger_rows_are_the_log():
    g = run(played(), A.EndDeal(blocked=True), A.EndGame())
    rows = KIND.ledger(g)
    log = state(g)["log"]
    assert len(rows) == len(log)
    for row, entry in zip(rows, log):
        assert set(row) == {"round", "from", "to", "amount", "why"} and not KIND.csv_columns   # no columns of its own
        assert (row["round"], row["from"], row["to"], row["amount"]) == \
            (entry["deal"], entry["from"], entry["to"], entry["chips"])
        assert render(row["why"]) == entry["why"] == english(row["why"])
    assert rows[-1]["round"] is None and rows[-1]["from"] == "@table"
    assert KIND.ledger_round == "deal" and KIND.ledger_unit == "chips" and KIND.items_key == "deals"
    assert (KIND.min_players, KIND.max_players, KIND.name) == (3, 8, "newmarket")
    assert render({"code": KIND.title}) == "Newmarket"


def test_log_includes_the_deal_in_progress_and_zero_takes():
    g = run(game(PARLETT), A.StartDeal(), A.Boodle(card="QH", by="Bea"), A.EndDeal(blocked=True), A.StartDeal(),
            A.Boodle(card="QH", by="Ane"))
    log = state(g)["log"]
    assert log[-1] == {"deal": 2, "from": "@KH", "to": "Ane", "chips": 0,
                       "why": "Ane played Q♥: K♥ is face down, took nothing"}
    assert "Ane anted 1 on K♠ (deal 2)" in [e["why"] for e in log]
    assert KIND.seats(g.head) == P4 and KIND.seats(g.head) is not g.head["seats"]
