"""Properties of random Newmarket games played tap by tap (hypothesis):
- no chip is created or destroyed (players + every pile = brought in), after every tap;
- undo (the inverse change) gives back exactly the record before the tap;
- the record built tap by tap equals the one built from its exported file (replay = cache);
- a refused tap is a RuleError with a path and a registered code, and changes nothing;
- nets sum to zero once nothing is on the table, and settlement always sums to zero;
- across two games where the first carries into the second, no chip is created or lost."""
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.domain.errors import RuleError
from companion.kinds.base import apply_change
from companion.kinds.newmarket import KIND
from companion.kinds.newmarket.kind import english
from companion.domain.messages import CATALOG, render

from nm_helpers import PLAYERS, A, now, rebuilt, same, total

RULESETS = st.fixed_dictionaries({
    "variant": st.sampled_from(["classic", "parlett"]),
    "ante": st.integers(0, 2), "dealer_ante": st.integers(0, 3), "kitty_ante": st.integers(0, 2),
    "free_ante": st.sampled_from([0, 0, 3]),
    "leftover": st.sampled_from(["share", "carry"]),
    "payout": st.sampled_from(["cards", "flat"]),
    "pool_ante": st.integers(0, 2),
})
QUEENS = ["QS", "QH", "QD", "QC"]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def clean(rules: dict) -> dict:
    drop = "pool_ante" if rules["variant"] == "classic" else "payout"
    return {k: v for k, v in rules.items() if k != drop}


def draw_action(data, rec):
    """A tap that is legal now, most of the time; now and then one that should be refused."""
    head = rec.head
    seats, rules = head["seats"], head["rules"]
    current, info = KIND.current(rec)
    legal = KIND.legal(rec)
    wild = data.draw(st.integers(0, 9)) == 0
    if "end_game" in legal and data.draw(st.integers(0, 5)):
        legal = [t for t in legal if t != "end_game"]          # the table stops now and then, not often
    types = list(KIND.actions) if wild or not legal else legal
    t = data.draw(st.sampled_from(types))
    pick = lambda: data.draw(st.sampled_from(seats + (["Zoe"] if wild else [])))  # noqa: E731
    if t == "start_deal":
        antes = None
        if rules["free_ante"] or wild:
            cards = current["face_up"] or rules["boodles"]
            antes = {}
            for p in seats:
                antes[p] = {}
                for _ in range(rules["free_ante"] or 1):
                    c = data.draw(st.sampled_from(cards))
                    antes[p][c] = antes[p].get(c, 0) + 1
        return A.StartDeal(dealer=pick() if data.draw(st.booleans()) else None, antes=antes)
    if t == "dummy":
        if data.draw(st.booleans()):
            return A.Dummy(swap=True)
        dealer = info["dealer"] if info else seats[0]
        buyers = [p for p in seats if p != dealer] + ([dealer] if wild else [])
        return A.Dummy(sold_to=data.draw(st.sampled_from(buyers)), price=data.draw(st.integers(-1 if wild else 0, 4)))
    if t == "exchange":
        return A.Exchange(by=pick())
    if t == "boodle":
        cards = rules["boodles"] if rules["variant"] == "classic" else QUEENS
        played = info["taken"] if info else []
        cards = [c for c in cards if c not in played or wild] or cards
        return A.Boodle(card=data.draw(st.sampled_from(cards + (["9H"] if wild else []))), by=pick())
    if t == "end_deal":
        if data.draw(st.integers(0, 3)) == 0:
            return A.EndDeal(blocked=True)
        out = pick()
        left = None
        if rules["variant"] == "classic" and rules["payout"] == "cards" or wild:
            left = {p: data.draw(st.integers(0, 8)) for p in seats if p != out}
        return A.EndDeal(out=out, cards_left=left)
    if t == "replace_deal":
        n = len(rec.items)
        i = data.draw(st.integers(0, max(n - 1, 0) + (1 if wild else 0)))
        deal = {"blocked": True}
        if data.draw(st.booleans()):
            cards = rules["boodles"] if rules["variant"] == "classic" else QUEENS
            deal["boodles_won"] = [{"card": c, "by": pick()} for c in data.draw(st.lists(
                st.sampled_from(cards), unique=True, max_size=4))]
            if rules["variant"] == "parlett" and len(deal["boodles_won"]) == 4:
                del deal["blocked"]
        if rules["free_ante"]:
            deal["antes"] = {p: {rules["boodles"][0]: rules["free_ante"]} for p in seats}
        return A.ReplaceDeal(index=i, deal=deal)
    return KIND.actions[t]()


def play_random(data, rec, steps, brought):
    """Random taps on ``rec``, checking the properties after each; returns the last record."""
    for _ in range(steps):
        a = draw_action(data, rec)
        at = KIND.position(rec)
        try:
            change = KIND.apply(rec, a)
        except RuleError as e:
            assert e.path and e.code in CATALOG, (a, e.path, e.code)
            assert KIND.position(rec) == at
            continue
        new, inverse = apply_change(rec, change)
        assert total(now(new)) == brought, a                       # no chip created or destroyed
        assert same(apply_change(new, inverse)[0], rec), a         # undo is the exact inverse
        assert same(rebuilt(new), new), a                          # replay = cache
        if not isinstance(a, A.ReplaceDeal) or new.state != rec.state:
            assert KIND.position(new) != at, a
        rec = new
    return rec


def finish(rec):
    if KIND.current(rec)[1] is not None:
        rec = apply_change(rec, KIND.apply(rec, A.EndDeal(blocked=True)))[0]
    if not rec.head["ended"]:
        rec = apply_change(rec, KIND.apply(rec, A.EndGame()))[0]
    return rec


def new_rec(rules, seats, start, chip_value=1, seed=None):
    game = {"kind": "newmarket", "rules": rules, "seats": seats, "start_chips": start, "chip_value": chip_value,
            "deals": [], "ended": False}
    return KIND.build(game, PLAYERS, seed)


@SETTINGS
@given(data=st.data(), rules=RULESETS, n=st.integers(3, 8), start=st.integers(0, 30))
def test_random_games(data, rules, n, start):
    rec = new_rec(clean(rules), PLAYERS[:n], start)
    brought = start * n
    rec = play_random(data, rec, data.draw(st.integers(0, 16)), brought)
    s = KIND.state(rec)
    json.dumps(s)
    json.dumps([KIND.to_doc(rec), rec.state, [(i.body, i.result, i.before) for i in rec.items]])
    assert [e["why"] for e in s["log"]] == [render(m["why"]) for m in KIND.moves(rec)]
    money = KIND.settlement(rec)
    assert sum(money["net"].values()) + money["on_table"] == 0
    rec = finish(rec)
    s = KIND.state(rec)
    money = KIND.settlement(rec)
    assert sum(money["net"].values()) + money["on_table"] == 0
    assert total(s) == brought
    if rec.head["rules"]["leftover"] == "share":
        assert sum(s["net"].values()) == 0 and money["on_table"] == 0
        assert KIND.seed_out(rec) is None
    else:
        seed = KIND.seed_out(rec)
        assert (seed["chips"] if seed else 0) == sum(s["pots"].values()) + s["kitty"] + s["pool"]
        assert sum(s["net"].values()) == -(seed["chips"] if seed else 0)
        assert ("note" in money) == bool(seed)


@SETTINGS
@given(data=st.data(), rules=RULESETS, n1=st.integers(3, 8), n2=st.integers(3, 8), start1=st.integers(0, 30),
       start2=st.integers(0, 30), value=st.sampled_from([1, 5, 10]), leftover2=st.sampled_from(["share", "carry"]))
def test_chips_are_never_created_or_lost_across_a_carry(data, rules, n1, n2, start1, start2, value, leftover2):
    rules = clean(dict(rules, leftover="carry"))
    first = play_random(data, new_rec(rules, PLAYERS[:n1], start1, value), data.draw(st.integers(0, 12)),
                        start1 * n1)
    first = finish(first)
    seed = KIND.seed_out(first)
    carried = seed["chips"] if seed else 0
    seats2 = PLAYERS[8 - n2:]
    second = new_rec(dict(rules, leftover=leftover2), seats2, start2, value, seed)
    assert second.seed == seed
    second = play_random(data, second, data.draw(st.integers(0, 12)), start2 * n2 + carried)
    for rec in (second, finish(second)):
        s1, s2 = KIND.state(first), KIND.state(rec)
        # every chip brought to either game is in a player's hand or on the second game's table
        assert sum(s1["chips"].values()) + sum(s2["chips"].values()) + sum(s2["pots"].values()) + s2["kitty"] + \
            s2["pool"] == start1 * n1 + start2 * n2
        m1, m2 = KIND.settlement(first), KIND.settlement(rec)
        assert sum(m1["net"].values()) + m1["on_table"] + sum(m2["net"].values()) + m2["on_table"] == 0
        assert m1["on_table"] == carried * value
    # the second game's file (no carry_in) reads back the same with the same seed
    assert same(KIND.build(json.loads(json.dumps(KIND.to_doc(second))), PLAYERS, seed), second)
    if seed:
        # ... and its old-app form, with carry_in equal to the seed
        doc = dict(KIND.to_doc(second), carry_in={**seed["piles"], "kitty": seed["kitty"], "pool": seed["pool"]})
        if rules["variant"] == "classic":
            doc["carry_in"].pop("pool")
        assert same(KIND.build(doc, PLAYERS, seed), second)


@settings(max_examples=30, deadline=None)
@given(data=st.data(), rules=RULESETS)
def test_english_renders_like_render(data, rules):
    rec = play_random(data, new_rec(clean(rules), PLAYERS[:4], 10), 10, 40)
    rec = finish(rec)
    for m in KIND.moves(rec):
        assert english(m["why"]) == render(m["why"])
