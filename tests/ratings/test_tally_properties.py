"""Properties of the sums behind partners, rivals and head-to-head (hypothesis)."""
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.ratings import rating as R, tally

PLAYERS = ["ane", "bea", "carlos", "dani", "eneko", "fermin"]


@st.composite
def contests(draw):
    out = []
    for _ in range(draw(st.integers(0, 12))):
        if draw(st.booleans()):
            four = draw(st.permutations(PLAYERS))[:4]
            ranks = draw(st.sampled_from([[1, 2], [2, 1], [1, 1]]))
            out.append({"kind": "mus", "teams": [four[:2], four[2:]], "ranks": ranks})
        else:
            n = draw(st.integers(2, 5))
            who = draw(st.permutations(PLAYERS))[:n]
            ranks = draw(st.lists(st.integers(1, n), min_size=n, max_size=n))
            out.append({"kind": "desmoche", "teams": [[p] for p in who], "ranks": ranks})
    return out


@settings(max_examples=150, deadline=None)
@given(contests(), st.randoms())
def test_sums_do_not_depend_on_order_and_mirror_each_other(found, rnd):
    total = tally.sum_rows(found)
    shuffled = found[:]
    rnd.shuffle(shuffled)
    assert tally.sum_rows(shuffled) == total
    for (a, what, b), (played, won, lost, drawn) in total.items():
        assert played == won + lost + drawn
        if what.startswith("h2h:") or what == "pair_opp":      # b's record against a: the other way round
            assert total[(b, what, a)] == [played, lost, won, drawn]
        elif what == "partner":                                # partners share their results
            assert total[(b, what, a)] == [played, won, lost, drawn]
        else:                                                  # a player against a pair: that pair's view
            assert what == "opp_pair"
            mine = [k for k in total if k[1] == "pair_opp" and k[2] == b and a in k[0].split("|")]
            assert sum(total[k][0] for k in mine) == played


@settings(max_examples=60, deadline=None)
@given(contests())
def test_a_replay_in_two_parts_equals_one_replay(found):
    whole, _rows = R.replay(found)
    half = len(found) // 2
    first, _ = R.replay(found[:half])
    second, _ = R.replay(found[half:], start=first)
    assert second == whole
    for (kind, key), r in whole.items():
        assert r.n == sum(1 for c in found if (c["kind"] == kind or kind == R.PAIRS and c["kind"] == "mus")
                          and any(key in ([R.pair_key(*t)] if kind == R.PAIRS else t) for t in c["teams"]))
