"""Club nights (rules/club.md): a round ended by the clock counts with its result; a club's nights can be
rated alone. The session file's "club" keys arrive with the club-night work; these tests build what the
store would hold."""
from companion.kinds.base import GameRec
from companion.ratings import derived
from companion.storage import ratings_store
from companion.ratings.contests import contest_of
from ratings_data import doc, make_db, mus


def rec(state, ended=None):
    head = {"kind": "mus", "rules": {"preset": "pagat"}, "seats": ["Ane", "Bea", "Carlos", "Dani"]}
    if ended:
        head["ended"] = ended
    base = {"score": {"A": 0, "B": 0}, "games_won": {"A": 0, "B": 0}, "match_winner": None, "games": []}
    return GameRec("mus", head, [], {**base, **state})


def ranks(r):
    said = contest_of(0, r)
    return said and said["ranks"]


def test_a_round_ended_by_the_clock():
    assert ranks(rec({"games_won": {"A": 1, "B": 0}})) is None                  # still playing: nothing yet
    assert ranks(rec({"games_won": {"A": 1, "B": 0}}, "time")) == [1, 2]        # more games won: A
    assert ranks(rec({"games_won": {"A": 1, "B": 1}, "score": {"A": 12, "B": 30}}, "time")) == [2, 1]
    assert ranks(rec({"games_won": {"A": 1, "B": 1}, "score": {"A": 7, "B": 7}}, "time")) == [1, 1]  # draw
    drawn = contest_of(0, rec({"games_won": {"A": 1, "B": 1}, "score": {"A": 7, "B": 7}}, "time"))
    assert drawn["ranks"] == [1, 1] and drawn["teams"] == [["ane", "carlos"], ["bea", "dani"]]


def test_a_session_with_a_club_is_a_club_night():
    share = derived.session_share(1, "2026-05-01", {"club": {"format": "free"}}, [])
    assert share["club"] is True
    assert derived.session_share(1, "2026-05-01", {}, [])["club"] is False


def test_club_nights_only(new_database):
    db = make_db(new_database, [doc("League", "2026-05-01T20:00", [mus(("Ane", "Bea", "Carlos", "Dani"), ["A"])]),
                            doc("Home", "2026-05-02T20:00", [mus(("Ane", "Bea", "Carlos", "Dani"), ["B"])])])
    ratings_store.refresh(db)
    db.execute("UPDATE rt_contests SET club = 1 WHERE session_id = (SELECT id FROM sessions WHERE name = 'League')")
    club = ratings_store.board_between(db, "mus", None, None, club=True)["mus"]
    assert {r["key"]: r["n"] for r in club} == {"ane": 1, "bea": 1, "carlos": 1, "dani": 1}
    assert club[0]["key"] in ("ane", "carlos")        # League: team A (Ane & Carlos) won
