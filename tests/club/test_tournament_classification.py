"""The night's classification beyond the worked example: a group's 3= keeps its places (3rd placed of every
group share one rank, 4th placed the next), a Swiss's shared rank is shared in the night."""
from tourneydata import match

from companion.club.stage_proposals import propose_stage
from companion.club.tournament import tournament_state

PAIRS = [[f"A{i}", f"B{i}"] for i in range(1, 9)]


def play(club, result):
    """Every stage through its proposals; ``result(stage, a, b)`` -> (games, current, ended)."""
    matches = []
    for _ in range(30):
        moved = False
        for k, plan in enumerate(club["stages"]):
            p = propose_stage(club, matches, k)
            if not p.tables:
                continue
            moved = True
            if plan["format"] != "knockout" and p.free:
                plan.setdefault("byes", {})[str(p.round)] = p.free
            for t in p.tables:
                games, current, ended = result(k, t["a"], t["b"])
                matches.append(match(len(matches), k, t.get("round", p.round), t["table"], t["a"], t["b"],
                                     games, current, ended, to_win=1))
        if not moved:
            break
    return tournament_state(club, matches)


def drawn_groups(stage, a, b):
    if stage == 0:
        return [], (20, 20), "time"          # every group match drawn: everyone level in each group
    return [(40, 10)], None, None            # team A wins every tie


def test_a_groups_shared_places_keep_their_places():
    club = {"format": "stages", "kind": "mus", "pairs": PAIRS, "stages": [
        {"name": "Groups", "format": "groups", "groups": 2, "games_to_win": 1},
        {"name": "Bracket", "format": "knockout", "from": {"stage": 0, "ranks": [1, 2]}, "games_to_win": 1,
         "third_place": True}]}
    state = play(club, drawn_groups)
    groups = state["stages"][0]["groups"]
    assert all(r["rank"] == 1 for g in groups for r in g["standings"])          # 1= within each group
    night = [(tuple(r["pair"]), r["rank"], r["stage"]) for r in state["classification"]]
    assert [r[1] for r in night] == [1, 2, 3, 4, 5, 5, 7, 7]
    # groups by serpentine: {1, 4, 5, 8} and {2, 3, 6, 7}; places by seed order: 3rd P5 and P6, 4th P8, P7
    assert [r[0][0] for r in night[4:]] == ["A5", "A6", "A8", "A7"]
    assert {r[2] for r in night[4:]} == {0}


def test_a_swiss_shared_rank_is_shared_in_the_night():
    club = {"format": "stages", "kind": "mus", "pairs": PAIRS[:6], "stages": [
        {"name": "Swiss", "format": "pairs_swiss", "rounds": 1, "games_to_win": 1},
        {"name": "Final", "format": "knockout", "from": {"stage": 0, "ranks": [1, 2]}, "games_to_win": 1}]}
    state = play(club, lambda k, a, b: ([(40, 10)], None, None))
    swiss = state["stages"][0]["standings"]
    assert [r["rank"] for r in swiss] == [1, 1, 1, 4, 4, 4]
    night = state["classification"]
    # the 3rd placed (1= in the Swiss) alone; the 4th to 6th placed (4= there) share 4 in the night
    assert [r["rank"] for r in night] == [1, 2, 3, 4, 4, 4]
