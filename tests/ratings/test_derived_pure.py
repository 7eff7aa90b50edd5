"""The ratings' tables are worked out without a database (companion/ratings/derived.py, issue 27): a
session's share from plain records, what changed between two shares, and the replay in steps equal to
the replay at once. (Keeping the tables is storage/ratings_store's, tested through it elsewhere.)"""
from companion.record import session as S
from companion.ratings import derived, rating as R
from ratings_data import doc, mus

SEATS = ("Ane", "Bea", "Carlos", "Dani")


def _share(sid, started, winners):
    sess = S.load(doc(f"Night {sid}", started, [mus(SEATS, winners)]))
    return derived.session_share(sid, started, sess.header, sess.games)


def test_what_changed_between_two_shares():
    first, second = _share(1, "2026-05-01T20:00", ["A"]), _share(2, "2026-05-02T20:00", ["B"])
    assert derived.first_change(first, first) is None                      # read again, the same
    assert derived.first_change(None, first) == first["contests"][0]["ord"]  # new
    assert derived.first_change(first, None) == first["contests"][0]["ord"]  # gone
    later = _share(1, "2026-05-01T20:00", ["B"])                            # a hand corrected
    assert derived.first_change(first, later) == min(first["contests"][0]["ord"], later["contests"][0]["ord"])
    assert derived.first_change(first, second) == first["contests"][0]["ord"]


def test_the_replay_in_steps_equals_the_replay_at_once():
    shares = [_share(n, f"2026-05-{n:02d}T20:00", ["A"] if n % 3 else ["B"]) for n in range(1, 8)]
    contests = sorted(((c["ord"], c) for s in shares for c in s["contests"]), key=lambda oc: oc[0])
    _h, _m, whole = derived.rerate(contests, lambda kind, key: None)
    stored: dict = {}
    for start in range(0, len(contests), 3):                 # three at a time, each from the last's ratings
        _h, _m, current = derived.rerate(contests[start:start + 3], lambda kind, key: stored.get((kind, key)))
        for kind, key, _name, mu, sigma, _o, n, _ord in current:
            stored[(kind, key)] = (mu, sigma, n)
    assert {(r[0], r[1]): (round(r[3], 9), round(r[4], 9), r[6]) for r in whole} == \
        {k: (round(v[0], 9), round(v[1], 9), v[2]) for k, v in stored.items()}
    assert any(k[0] == R.PAIRS for k in stored)              # the pairs are rated too, with their names
    assert {r[2] for r in whole if r[0] == R.PAIRS} <= {"Ane & Carlos", "Bea & Dani"}


def test_a_range_is_ranked_best_first():
    shares = [_share(n, f"2026-05-{n:02d}T20:00", ["A"]) for n in range(1, 4)]
    ranked = derived.ranked([c for s in shares for c in s["contests"]])
    for rows in ranked.values():
        assert [r["ordinal"] for r in rows] == sorted((r["ordinal"] for r in rows), reverse=True)
    assert {r["key"] for r in ranked[R.PAIRS][:1]} == {"ane|carlos"}
