"""Parlett with one King left face up before a deal (issue 9; shared/seeds/newmarket-ja.txt lines 86-91):
no dead-hand exchange, 'bury the Jack' instead, and no chip moves for it."""
from companion.kinds.newmarket import KIND
from companion.domain.messages import render

from nm_helpers import P4, PARLETT, A, game, refusal, run, same, state, total, whys


def one_king_left(rules=PARLETT):
    """Deal 1 turned three Kings face down (blocked): only K♣ is face up before deal 2."""
    return run(game(rules), A.StartDeal(), A.Boodle(card="QS", by="Ane"), A.Boodle(card="QH", by="Ane"),
               A.Boodle(card="QD", by="Bea"), A.EndDeal(blocked=True))


def test_the_next_deal_is_a_bury_the_jack_deal():
    g = one_king_left()
    assert KIND.next_deal(g) == {"number": 2, "dealer": "Bea", "bury": True}
    g = run(g, A.StartDeal())
    _, info = KIND.current(g)
    assert info["bury"] and info["open"] and info["face_up_before"] == ["KC"] and info["taken"] == []
    assert "exchange" not in KIND.legal(g)
    # the deals before were not
    assert KIND.next_deal(game(PARLETT))["bury"] is False
    first = run(game(PARLETT), A.StartDeal())
    assert KIND.current(first)[1]["bury"] is False and "exchange" in KIND.legal(first)
    assert KIND.next_deal(game())["bury"] is False          # classic never buries


def test_exchange_tap_is_refused_and_says_why():
    g = run(one_king_left(), A.StartDeal())
    e = refusal(KIND.apply, g, A.Exchange(by="Carlos"))
    assert e.code == "newmarket.bury_jack" and e.path == "type"
    text = e.message
    assert "Bury the Jack" in text and "no chips" in text and "K♣" in text and "J♣" in text
    assert text == ("Only K♣ is face up: this deal has no dead-hand exchange. Bury the Jack instead (whoever holds "
                    "J♣ swaps his hand with the dead hand): no chips change hands, so there is nothing to record.")
    # the dealer too
    assert refusal(KIND.apply, g, A.Exchange(by="Bea")).code == "newmarket.bury_jack"


def test_a_files_exchange_in_such_a_deal_charges_nothing():
    g = one_king_left()
    doc = KIND.to_doc(g)
    doc["deals"].append({"exchange": "Carlos", "out": "Dani"})
    rec = KIND.build(doc, P4)
    s = state(rec)
    r = rec.items[1].result
    assert r["bury"] and r["exchange"] == "Carlos"
    # deal 2: 1 on K♣ + 1 to the pool each, no exchange price; Dani takes the pool of 4 + 4 left from deal 1
    assert s["chips"]["Carlos"] == state(g)["chips"]["Carlos"] - 2
    assert s["pool"] == 0 and s["chips"]["Dani"] == state(g)["chips"]["Dani"] - 2 + 8 and total(s) == 80
    line = [e for e in s["log"] if e["deal"] == 2 and e["from"] == "Carlos" and e["to"] == "@pool" and
            e["chips"] == 0]
    assert len(line) == 1
    assert "bury the Jack" in line[0]["why"] and "no chips" in line[0]["why"]
    assert line[0]["why"] == ("Carlos swapped with the dead hand: only K♣ was face up, so it was 'bury the Jack' "
                              "(J♣): no chips")
    # round trip, and the history page says it
    assert KIND.to_doc(rec)["deals"][1] == {"exchange": "Carlos", "out": "Dani"}
    meta = [render(m) for m in KIND.history(rec)[0]["rounds"][1]["meta"]]
    assert "one King face up: bury the Jack" in meta


def test_a_files_exchange_in_a_normal_deal_is_charged():
    doc = KIND.to_doc(game(PARLETT))
    doc["deals"] = [{"exchange": "Carlos", "out": "Dani"}]
    rec = KIND.build(doc, P4)
    assert state(rec)["chips"]["Carlos"] == 20 - 5 - 1
    assert "Carlos took the dead hand: paid 1 into the pool" in whys(rec)


def test_a_correction_that_makes_a_deal_a_bury_deal_drops_its_price():
    g = run(game(PARLETT), A.StartDeal(), A.Boodle(card="QS", by="Ane"), A.EndDeal(blocked=True),
            A.StartDeal(), A.Exchange(by="Carlos"), A.EndDeal(out="Dani"))
    assert not g.items[1].result["bury"] and g.items[1].result["delta"]["Carlos"] == -4 - 1
    fixed = run(g, A.ReplaceDeal(index=0, deal={"boodles_won": [{"card": q, "by": "Ane"} for q in ("QS", "QH", "QD")],
                                                "blocked": True}))
    r = fixed.items[1].result
    assert r["bury"] and r["delta"]["Carlos"] == -2 and total(state(fixed)) == 80


def test_the_last_king_in_a_bury_deal_ends_the_game():
    g = run(one_king_left(), A.StartDeal(), A.Boodle(card="QC", by="Carlos"))
    assert g.head["ended"] and g.items[-1].result["bury"] and g.items[-1].result["ends_game"]
    assert same(KIND.build(KIND.to_doc(g), P4), g)
