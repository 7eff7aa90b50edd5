"""Ratings follow the instant (issue 26): nights started in other UTC offsets are rated in the order they
happened, not in the order of their clocks."""
from companion.ratings import derived
from companion.storage import ratings_store
from companion.storage import ratings_tables as T
from ratings_data import doc, make_db, mus

SEATS = ("Ane", "Bea", "Carlos", "Dani")


def test_an_instant_sorts_as_time_does():
    assert derived.instant("2026-05-01T21:00:00+02:00") == "2026-05-01T19:00:00Z"
    assert derived.instant("2026-05-01T20:00:00+00:00") == "2026-05-01T20:00:00Z"
    assert derived.instant("2026-05-01T20:00") == "2026-05-01T20:00:00Z"       # no offset: taken as UTC
    assert derived.instant("2026-05-01T23:30:00-05:00") == "2026-05-02T04:30:00Z"   # the next UTC day


def test_nights_in_other_offsets_are_rated_in_the_order_they_happened(new_database):
    # Madrid's night began at 19:00 UTC, London's at 20:00 UTC: by their clocks London's (20:00) comes first
    db = make_db(new_database, [doc("London", "2026-05-01T20:00:00+00:00", [mus(SEATS, ["B"])]),
                                doc("Madrid", "2026-05-01T21:00:00+02:00", [mus(SEATS, ["A"])])])
    ratings_store.refresh(db)
    order = [c["names"] and c["ranks"] for c in T.contests_between(db, "mus", None, None, False, None)]
    assert order == [[1, 2], [2, 1]]      # Madrid's (team A won) is rated first, then London's (team B)
