"""The Newmarket game object of the session file: refused with the path of the problem, canonical,
round-tripping; new_game from typed options."""
import copy
import json
import re
from pathlib import Path

import pytest

from companion.kinds.newmarket import KIND
from companion.kinds.newmarket.options import KINGS, NewmarketSpec
from companion.domain.messages import CATALOG

from nm_helpers import P4, PLAYERS, err, refusal, same, rebuilt

BASE = {"kind": "newmarket", "rules": {}, "seats": P4, "start_chips": 20, "deals": []}


@pytest.mark.parametrize("patch, message", [
    ({"deals": [{"blocked": True}, {"boodles_won": [{"card": "9H", "by": "Ane"}], "blocked": True}]},
     "deals[1].boodles_won[0].card: 9H is not a boodle card"),
    ({"deals": [{"boodles_won": [{"card": "AH", "by": "Zoe"}], "blocked": True}]},
     "deals[0].boodles_won[0].by: “Zoe” is not seated at this game"),
    ({"deals": [{"out": "Bea", "cards_left": {"Ane": 1, "Carlos": 2, "Dani": -1}}]},
     "deals[0].cards_left.Dani: cannot be negative (-1)"),
    ({"deals": [{"out": "Bea", "cards_left": {"Ane": 1, "Bea": 2, "Carlos": 2, "Dani": 1}}]},
     "deals[0].cards_left.Bea: Bea went out: he has no cards left"),
    ({"deals": [{"out": ["Bea", "Ane"], "cards_left": {}}]}, "deals[0].out: only one player goes out in a deal"),
    ({"deals": [{"out": "Bea"}]}, "deals[0].cards_left: missing: how many cards each other player still holds"),
    ({"deals": [{}]}, "deals[0]: a finished deal needs out (who went out) or blocked: true"),
    ({"deals": [{"dummy": {"sold_to": "Bea", "price": -2}, "blocked": True}]},
     "deals[0].dummy.price: cannot be negative (-2)"),
    ({"deals": [{"open": True}, {"blocked": True}]}, "deals[0].open: only the last deal can be in progress"),
    ({"deals": [{"open": True}], "ended": True}, "deals[0].open: a deal in progress in an ended game: finish it first"),
    ({"deals": [{"blocked": True, "exchange": "Ane"}]},
     "deals[0].exchange: exchange is a parlett rule (classic has the dummy)"),
    ({"deals": [{"blocked": True, "oops": 1}]}, "deals[0].oops: unknown key “oops”"),
    ({"seats": ["Ane", "Bea"]}, "seats: needs 3 to 8 players, not 2"),
    ({"seats": ["Ane", "Bea", "Ane"]}, "seats[2]: Ane is seated twice"),
    ({"seats": ["Ane", "Bea", "Zoe"]}, "seats[2]: Zoe is not a player of this session"),
    ({"start_chips": -1}, "start_chips: cannot be negative (-1)"),
    ({"rules": {"variant": "london"}}, "rules.variant: must be one of classic, parlett, not “london”"),
    ({"rules": {"payout": "all"}}, "rules.payout: must be one of cards, flat, not “all”"),
    ({"rules": {"pool_ante": 1}}, "rules.pool_ante: pool_ante is a parlett option"),
    ({"rules": {"variant": "parlett", "payout": "flat"}},
     "rules.payout: parlett has no payout option: going out takes the pool"),
    ({"rules": {"variant": "parlett", "boodles": ["AH", "KC", "QD", "JS"]}},
     "rules.boodles: in parlett the boodles are the four Kings"),
    ({"rules": {"ante": True}}, "rules.ante: must be a whole number, not True"),
    ({"kind": "mus"}, "kind: must be “newmarket”"),
    ({"extra": 1}, "extra: unknown key “extra”"),
    ({"deals": [{"boodles_won": [{"card": "AH", "by": "Ane"}, {"card": "AH", "by": "Bea"}], "blocked": True}]},
     "deals[0].boodles_won[1].card: AH was already played in this deal"),
    # bounds: nothing may overflow later
    ({"rules": {"ante": 10001}}, "rules.ante: must be at most 10000 (10001 given)"),
    ({"deals": [{"out": "Bea", "cards_left": {"Ane": 1, "Carlos": 2, "Dani": 61}}]},
     "deals[0].cards_left.Dani: must be at most 60 (61 given)"),
    ({"chip_value": 10 ** 20}, "chip_value: must be at most 10000000 (a number of 67 bits given)"),
    ({"start_chips": 10 ** 7}, "start_chips: must be at most 1000000 (10000000 given)"),
    ({"deals": [{"dummy": {"sold_to": "Bea", "price": 10 ** 6}, "blocked": True}]},
     "deals[0].dummy.price: must be at most 10000 (1000000 given)"),
    # more shapes
    ({"deals": [{"boodles_won": [{"card": "ZZ", "by": "Ane"}], "blocked": True}]},
     "deals[0].boodles_won[0].card: ZZ is not a card (rank A K Q J 2-10, then suit S H D C)"),
    ({"deals": [{"boodles_won": [{"card": 7, "by": "Ane"}], "blocked": True}]},
     "deals[0].boodles_won[0].card: must be a card like AH or 10C, not 7"),
    ({"deals": {}}, "deals: must be a list"),
    ({"rules": {"free_ante": 4}, "deals": [{"blocked": True}]},
     "deals[0].antes: free ante: where each player put his 4 chips"),
    ({"deals": [{"antes": {}, "blocked": True}]}, "deals[0].antes: antes are only recorded with free_ante"),
    ({"deals": [{"dummy": {"swap": 1}, "blocked": True}]},
     "deals[0].dummy.swap: must be true (leave the dummy out when nothing happened)"),
    ({"deals": [{"dummy": {"swap": True, "price": 1}, "blocked": True}]},
     "deals[0].dummy: either the dealer swapped or the dummy was sold, not both"),
    ({"deals": [{"dummy": {}, "blocked": True}]}, "deals[0].dummy: give swap: true, or sold_to and price"),
    ({"deals": [{"dummy": {"sold_to": "Ane", "price": 1}, "blocked": True}]},
     "deals[0].dummy.sold_to: Ane is the dealer: he swaps, he does not buy"),
    ({"deals": [{"dummy": {"sold_to": "Bea"}, "blocked": True}]}, "deals[0].dummy.price: missing"),
    ({"deals": [{"cards_left": {"Ane": 1}, "blocked": True}]},
     "deals[0].cards_left: cards left without anybody going out"),
    ({"deals": [{"open": True, "out": "Bea"}]}, "deals[0].out: a deal in progress has no end yet"),
    ({"deals": [{"open": "yes"}]}, "deals[0].open: must be true or false, not “yes”"),
    ({"deals": [{"dealer": "Zoe", "blocked": True}]}, "deals[0].dealer: “Zoe” is not seated at this game"),
    ({"deals": [{"boodles_won": {}, "blocked": True}]}, "deals[0].boodles_won: must be a list"),
    ({"deals": [{"boodles_won": [{"card": "AH"}], "blocked": True}]}, "deals[0].boodles_won[0].by: missing"),
    ({"deals": [{"boodles_won": [{"card": "AH", "by": "Ane", "x": 1}], "blocked": True}]},
     "deals[0].boodles_won[0].x: unknown key “x”"),
    ({"deals": [{"boodles_won": ["AH"], "blocked": True}]}, "deals[0].boodles_won[0]: must be an object"),
    ({"rules": {"free_ante": 2}, "deals": [{"antes": {p: {"AH": 1, "ah": 1} for p in P4} | {"Ane": {"AH": 3}},
                                            "blocked": True}]},
     "deals[0].antes.Ane: Ane must place exactly 2 chips (placed 3)"),
    ({"ended": "yes"}, "ended: must be true or false, not “yes”"),
    ({"seats": "Ane"}, "seats: must be a list"),
])
def test_build_refuses_with_path(patch, message):
    assert err(KIND.build, dict(BASE, **patch), PLAYERS) == message


def test_build_refuses_non_objects():
    assert err(KIND.build, [], PLAYERS) == "must be an object"
    assert err(KIND.build, {"kind": "newmarket", "rules": {}}, PLAYERS) == "seats: missing"


def test_canonical_and_idempotent():
    g = dict(BASE, rules={"boodles": ["ah", "kc", "qd", "js"], "dealer_ante": 2},
             deals=[{"dummy": {"swap": True}, "boodles_won": [{"card": "ah", "by": "Ane"}], "out": "Bea",
                     "cards_left": {"Dani": 1, "Ane": 3, "Carlos": 5}}, {"open": True}])
    before = copy.deepcopy(g)
    rec = KIND.build(g, PLAYERS)
    assert g == before                          # build never changes its input
    n1 = KIND.to_doc(rec)
    assert KIND.to_doc(KIND.build(n1, PLAYERS)) == n1
    assert n1["rules"] == {"variant": "classic", "ante": 1, "dealer_ante": 2, "free_ante": 0, "kitty_ante": 0,
                           "payout": "cards", "boodles": ["AH", "KC", "QD", "JS"], "leftover": "share"}
    assert n1["deals"][0]["boodles_won"][0]["card"] == "AH"
    assert list(n1["deals"][0]["cards_left"]) == ["Ane", "Carlos", "Dani"]
    assert n1["deals"][1] == {"open": True} and n1["ended"] is False
    assert json.loads(json.dumps(n1)) == n1
    assert same(rebuilt(rec), rec)
    assert set(n1) == {"kind", "rules", "seats", "start_chips", "chip_value", "deals", "ended"}


def test_parlett_rules_canonical():
    doc = KIND.to_doc(KIND.build(dict(BASE, rules={"variant": "parlett", "boodles": ["kc", "KD", "KH", "KS"]}), P4))
    assert doc["rules"] == {"variant": "parlett", "ante": 1, "dealer_ante": 1, "free_ante": 0, "kitty_ante": 0,
                            "pool_ante": 1, "boodles": KINGS, "leftover": "share"}


def test_defaults_and_null_keys():
    rec = KIND.build({"kind": "newmarket", "seats": P4, "deals": None, "carry_in": None}, None)
    assert rec.head["start_chips"] == 0 and rec.head["chip_value"] == 1 and rec.items == []
    assert KIND.to_doc(rec)["deals"] == []
    # "open": false is a finished deal; "exchange": null is no exchange
    rec = KIND.build(dict(BASE, deals=[{"open": False, "blocked": True}]), P4)
    assert rec.items[0].body == {"blocked": True}


def test_new_game_options():
    g = KIND.new_game(PLAYERS, NewmarketSpec(seats=("Bea", "Ane", "Dani"), variant="classic", ante=2,
                                             kitty_ante=1, payout="flat", boodles=["AS", "KH", "qc", "JD"],
                                             leftover="carry", start_chips=30, chip_value=5, pool_ante=7))
    assert g["seats"] == ["Bea", "Ane", "Dani"] and g["rules"]["dealer_ante"] == 2
    assert g["rules"]["boodles"] == ["AS", "KH", "QC", "JD"] and g["chip_value"] == 5 and g["start_chips"] == 30
    assert "pool_ante" not in g["rules"] and g["deals"] == [] and g["ended"] is False
    p = KIND.new_game(PLAYERS, NewmarketSpec(seats=["Ane", "Bea", "Carlos"], variant="parlett", pool_ante=2,
                                             payout="flat", boodles=["AH", "KC", "QD", "JS"]))
    assert p["rules"]["boodles"] == KINGS and p["rules"]["pool_ante"] == 2 and "payout" not in p["rules"]
    assert KIND.new_game(PLAYERS, NewmarketSpec(seats=P4, variant="parlett"))["rules"]["pool_ante"] == 1

    def refused(**options):
        spec = NewmarketSpec(**{"seats": ["Ane", "Bea", "Carlos"], **options})
        return err(KIND.new_game, PLAYERS, spec)

    assert refused(seats=["Ane", "Bea"]) == "seats: needs 3 to 8 players, not 2"
    assert refused(seats=["Ane", "Bea", "Zoe"]) == "seats: Zoe is not a player of this session"
    assert refused(ante="x") == "ante: must be a whole number, not “x”"
    assert refused(ante=-1) == "ante: cannot be negative (-1)"
    assert refused(payout="x").startswith("payout:")
    assert refused(boodles=["AH", "KC", "QD", "9Z"]).startswith("boodles:")
    assert refused(boodles=["AH", "KC", "QD"]) == "boodles: needs 4 boodle cards, not 3"
    assert refused(variant="x").startswith("variant:")
    assert refused(leftover="keep").startswith("leftover:")
    assert refused(chip_value=10 ** 8).startswith("chip_value: must be at most")
    assert refused(free_ante=True).startswith("free_ante:")


def test_every_message_code_is_registered():
    """Every "newmarket.<code>" the kind's source names has an English template."""
    src = _sources()
    codes = set(re.findall(r'"newmarket\.([a-z_.]+)"', src))
    assert len(codes) > 50
    missing = sorted(c for c in codes if "newmarket." + c not in CATALOG and not c.endswith("."))
    assert not missing, missing


def _sources() -> str:
    import companion.kinds.newmarket as pkg

    return "\n".join(p.read_text() for p in Path(pkg.__file__).parent.glob("*.py") if p.name != "blueprint.py")


def test_rule_errors_carry_registered_codes():
    for patch in ({"rules": {"variant": "x"}}, {"deals": [{}]}, {"extra": 1}, {"carry_in": {"KC": 2}}):
        e = refusal(KIND.build, dict(BASE, **patch), PLAYERS)
        assert e.code in CATALOG and e.path
