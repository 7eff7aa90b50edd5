"""Settling up: the settle.md example and the settle() state object."""


import pytest

from companion.domain.errors import RuleError
from companion.domain.settle import banker_payments, fewest_payments, greedy_payments, settle

PLAYERS = ["Ane", "Bea", "Carlos", "Dani", "Eneko", "Fermín"]
EXAMPLE = {"Ane": 200, "Bea": -300, "Carlos": 600, "Dani": 500, "Eneko": -700, "Fermín": -300}


def pay(a, b, amount):
    return {"from": a, "to": b, "amount": amount}


def apply_payments(nets, payments):
    left = dict(nets)
    for p in payments:
        left[p["from"]] += p["amount"]
        left[p["to"]] -= p["amount"]
    return left


# --- the example of shared/rules/settle.md ---------------------------------------------------------

def test_example_greedy_is_the_five_listed_payments():
    assert greedy_payments(EXAMPLE) == [
        pay("Eneko", "Carlos", 600), pay("Bea", "Dani", 300), pay("Fermín", "Dani", 200),
        pay("Eneko", "Ane", 100), pay("Fermín", "Ane", 100),
    ]


def test_example_exact_is_the_four_listed_payments():
    # The least money any plan can move is the sum of the credits (1300 here); this plan moves exactly
    # that, and {Bea, Fermín, Carlos} + {Eneko, Ane, Dani} is the only split into two zero-sum groups,
    # so the listed plan is the one the tie-breaks pick, in the listed order.
    plan = fewest_payments(EXAMPLE)
    assert plan == [
        pay("Bea", "Carlos", 300), pay("Fermín", "Carlos", 300),
        pay("Eneko", "Ane", 200), pay("Eneko", "Dani", 500),
    ]
    assert sum(p["amount"] for p in plan) == 1300


def test_example_through_settle():
    games = [{"net": {"Ane": 200, "Bea": -300, "Carlos": 600}, "on_table": 0},
             {"net": {"Dani": 500, "Eneko": -700, "Fermín": -300, "Bea": 0}, "on_table": 0}]
    state = settle(PLAYERS + ["Gorka"], games)
    assert state["method"] == "exact"
    assert state["on_table"] == 0
    assert state["net"] == {**EXAMPLE, "Gorka": 0}
    assert list(state["net"]) == PLAYERS + ["Gorka"]
    assert state["payments"] == fewest_payments(EXAMPLE)
    assert state["by_game"][0] == {"Ane": 200, "Bea": -300, "Carlos": 600, "Dani": 0, "Eneko": 0,
                                   "Fermín": 0, "Gorka": 0}
    assert all(p["from"] != "Gorka" and p["to"] != "Gorka" for p in state["payments"])


def test_example_beyond_exact_limit_is_greedy():
    state = settle(PLAYERS, [{"net": EXAMPLE, "on_table": 0}], exact_limit=5)
    assert state["method"] == "greedy"
    assert state["payments"] == greedy_payments(EXAMPLE)


# --- settle() -------------------------------------------------------------------------------------

def test_session_format_example():
    games = [{"net": {"Ane": -340, "Bea": 780, "Carlos": -440}, "on_table": 0}]
    state = settle(["Ane", "Bea", "Carlos", "Dani", "Eneko"], games)
    assert {k: state[k] for k in ("net", "method", "on_table", "payments")} == {
        "net": {"Ane": -340, "Bea": 780, "Carlos": -440, "Dani": 0, "Eneko": 0},
        "method": "exact", "on_table": 0,
        "payments": [pay("Ane", "Bea", 340), pay("Carlos", "Bea", 440)],
    }


def test_nets_summed_over_games():
    games = [{"net": {"Ane": 100, "Bea": -100}, "on_table": 0},
             {"net": {"Ane": -250, "Bea": 50, "Carlos": 200}, "on_table": 0}]
    state = settle(["Ane", "Bea", "Carlos"], games)
    assert state["net"] == {"Ane": -150, "Bea": -50, "Carlos": 200}
    assert state["payments"] == [pay("Ane", "Carlos", 150), pay("Bea", "Carlos", 50)]
    assert len(state["by_game"]) == 2


def test_money_on_table_is_unbalanced_without_payments():
    games = [{"net": {"Ane": 300, "Bea": -500}, "on_table": 200},
             {"net": {"Ane": 100, "Bea": -100}, "on_table": 0}]
    state = settle(["Ane", "Bea"], games)
    assert state["method"] == "unbalanced"
    assert state["on_table"] == 200
    assert state["payments"] == []
    assert state["net"] == {"Ane": 400, "Bea": -600}


def test_unbalanced_wins_over_banker():
    state = settle(["Ane", "Bea"], [{"net": {"Ane": 50, "Bea": -100}, "on_table": 50}], banker="Ane")
    assert state["method"] == "unbalanced" and state["payments"] == []


def test_nets_not_summing_to_zero_are_unbalanced():
    state = settle(["Ane", "Bea"], [{"net": {"Ane": 50, "Bea": -40}, "on_table": 0}])
    assert state["method"] == "unbalanced"
    assert state["payments"] == []


def test_no_games_no_payments():
    state = settle(["Ane", "Bea"], [])
    assert state == {"net": {"Ane": 0, "Bea": 0}, "method": "exact", "on_table": 0, "payments": [],
                     "by_game": []}


def test_banker_mode():
    state = settle(PLAYERS, [{"net": EXAMPLE, "on_table": 0}], banker="Ane")
    assert state["method"] == "banker"
    assert state["payments"] == [
        pay("Bea", "Ane", 300), pay("Ane", "Carlos", 600), pay("Ane", "Dani", 500),
        pay("Eneko", "Ane", 700), pay("Fermín", "Ane", 300),
    ]
    assert set(apply_payments(EXAMPLE, state["payments"]).values()) == {0}


def test_banker_at_zero_and_zero_players_skipped():
    nets = {"Ane": 0, "Bea": -300, "Carlos": 0, "Dani": 300}
    assert banker_payments(nets, "Carlos") == [pay("Bea", "Carlos", 300), pay("Carlos", "Dani", 300)]


def test_unknown_banker_refused():
    with pytest.raises(RuleError) as err:
        settle(["Ane", "Bea"], [], banker="Zoe")
    assert err.value.path == "settle.banker"


def test_unknown_player_in_a_game_refused():
    with pytest.raises(RuleError) as err:
        settle(["Ane", "Bea"], [{"net": {"Ane": 0}, "on_table": 0}, {"net": {"Zoe": 5}, "on_table": 0}])
    assert err.value.path == "games[1].net"


def test_non_integer_net_refused():
    with pytest.raises(RuleError):
        settle(["Ane", "Bea"], [{"net": {"Ane": 1.5, "Bea": -1.5}, "on_table": 0}])
    with pytest.raises(RuleError):
        settle(["Ane", "Bea"], [{"net": {"Ane": True, "Bea": -1}, "on_table": 0}])


def test_payment_functions_refuse_unbalanced_nets():
    for fn in (fewest_payments, greedy_payments):
        with pytest.raises(RuleError):
            fn({"Ane": 1, "Bea": 0})


def test_zero_players_are_omitted():
    nets = {"Ane": 0, "Bea": 500, "Carlos": 0, "Dani": -500, "Eneko": 0}
    for plan in (fewest_payments(nets), greedy_payments(nets)):
        assert plan == [pay("Dani", "Bea", 500)]


def test_order_is_stable_and_follows_session_order():
    nets = {"Ane": -100, "Bea": 100, "Carlos": -100, "Dani": 100}
    # Two groups {Ane, Bea} and {Carlos, Dani}; the smallest groups of the earliest players are chosen.
    assert fewest_payments(nets) == [pay("Ane", "Bea", 100), pay("Carlos", "Dani", 100)]
    reordered = {"Carlos": -100, "Dani": 100, "Ane": -100, "Bea": 100}
    assert fewest_payments(reordered) == [pay("Carlos", "Dani", 100), pay("Ane", "Bea", 100)]
    assert all(fewest_payments(nets) == fewest_payments(dict(nets)) for _ in range(3))


def test_groups_ordered_by_first_payer():
    nets = {"Ane": 100, "Bea": 200, "Carlos": -200, "Dani": -100}
    assert fewest_payments(nets) == [pay("Carlos", "Bea", 200), pay("Dani", "Ane", 100)]


def test_no_intermediary_even_when_a_chain_has_as_few_payments():
    # Ane -300, Bea +100, Carlos +200: "Ane -> Bea 300, Bea -> Carlos 200" is also 2 payments but moves
    # 500; the plan must move only 300.
    plan = fewest_payments({"Ane": -300, "Bea": 100, "Carlos": 200})
    assert plan == [pay("Ane", "Bea", 100), pay("Ane", "Carlos", 200)]


def test_exact_beats_greedy_and_respects_limit():
    nets = {"A": 5, "B": 3, "C": -4, "D": -4}   # greedy: 3 payments; no zero-sum split, so 3 is minimal
    assert len(fewest_payments(nets)) == 3
    nets = {"A": 7, "B": 3, "C": -5, "D": -5, "E": 4, "F": -4}
    assert len(fewest_payments(nets)) == 4       # {A,B,C,D} and {E,F}
    assert len(greedy_payments(nets)) == 5


def test_fifteen_players_get_the_exact_plan():
    values = [100, -100, 200, -200, 300, -300, 150, 250, -400, 50, 50, -100, 700, -350, 0]
    values[-1] = -sum(values[:-1]) or 1
    if sum(values):
        values[0] -= sum(values)
    nets = {f"P{i}": v for i, v in enumerate(values)}
    assert sum(1 for v in values if v) == 15
    state = settle(list(nets), [{"net": nets, "on_table": 0}])       # how fast: bench/kind_speed.py
    assert state["method"] == "exact"
    assert set(apply_payments(nets, state["payments"]).values()) == {0}


def test_sixteen_players_go_greedy():
    nets = {f"P{i}": (i + 1) * (1 if i % 2 else -1) for i in range(15)}
    nets["P15"] = -sum(nets.values())
    state = settle(list(nets), [{"net": nets, "on_table": 0}])
    assert state["method"] == "greedy"
    assert set(apply_payments(nets, state["payments"]).values()) == {0}
