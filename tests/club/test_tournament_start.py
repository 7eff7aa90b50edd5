"""Issue 28: the organizer starts a staged tournament's rounds from /s/<edit>/tournament (one write through
the StartStage command and permit), each table scored on its own table link; the worked example of
rules/tournament.md (10 pairs: groups, then brackets A and B) played through the web from the groups to the
night's classification."""
import html as htmllib
import json
import re

import pytest
from helpers import csrf, form_fields, new_session
from tourneydata import BYES, GROUP_ROUNDS, NAMES, P

PAIRS = "\n".join(f"{a}, {b}" for a, b in (P[i] for i in range(1, 11)))


def post(client, edit, action, **data):
    page = client.get(edit + "/tournament").get_data(as_text=True)
    return client.post(edit + "/tournament/" + action,
                       data={**form_fields(page, edit + "/tournament/" + action), **data})


def set_up(client):
    s = new_session(client, players=NAMES)
    edit = s["edit"]
    assert post(client, edit, "paste", pairs=PAIRS).status_code == 303
    resp = post(client, edit, "plan", template="groups_brackets", minutes="50", **{
        "groups_brackets-" + k: v for k, v in dict(groups="2", places="2", group_games_to_win="1", games_to_win="2",
                                                   final_games_to_win="3", third_place="on", b_games_to_win="2",
                                                   b_final_games_to_win="0").items()})
    assert resp.status_code == 303, resp.get_data(as_text=True)
    return s


def plans(page):
    """Each start form's stage and plan."""
    out = {}
    for form in re.findall(r'<form method="post" action="[^"]*/tournament/start"[^>]*>(.*?)</form>', page, re.S):
        k = int(re.search(r'name="stage" value="(\d+)"', form).group(1))
        out[k] = json.loads(htmllib.unescape(re.search(r'name="plan" value="([^"]*)"', form).group(1)))
    return out


def start(client, edit, k, plan=None):
    page = client.get(edit + "/tournament").get_data(as_text=True)
    fields = form_fields(page, edit + "/tournament/checkin")   # csrf, a fresh form key, the version
    fields.update(stage=str(k), plan=json.dumps(plan if plan is not None else plans(page)[k]), confirm="1")
    return client.post(edit + "/tournament/start", data=fields)


def links(client, edit):
    page = client.get(edit + "/club").get_data(as_text=True)
    return dict(re.findall(r'<strong>Table ([^<]+)</strong>\s*<input readonly value="http://table\.example:8000(/s/[^"]+)"',
                           page))


def tally(client, link, gi, team, points):
    return client.post(f"{link}/mus/{gi}/act", data={"csrf": csrf(client), "move": "tally",
                                                     "tally": json.dumps([[team, points]]), "k": ""})


def play(client, link, gi, games, current=None):
    """Through the table's own link: each finished game (the loser's points first), then the game in
    progress."""
    for a, b in games:
        win, lose = ("A", "B") if a > b else ("B", "A")
        pts = {"A": a, "B": b}
        if pts[lose]:
            assert tally(client, link, gi, lose, pts[lose]).status_code == 303
        resp = tally(client, link, gi, win, pts[win])
        assert resp.status_code == 303, resp.get_data(as_text=True)
    for team, p in zip("AB", current or (0, 0)):
        if p:
            assert tally(client, link, gi, team, p).status_code == 303


def game_index(client, link):
    resp = client.get(link + "/table")
    assert resp.status_code == 303
    return int(resp.headers["Location"].rsplit("/", 1)[1])


def end_round(client, edit):
    page = client.get(edit + "/club").get_data(as_text=True)
    resp = client.post(edit + "/club/end", data=form_fields(page, edit + "/club/end"))
    assert resp.status_code == 303, resp.get_data(as_text=True)


def key(pair):
    return frozenset(pair)


def test_the_first_start_is_asked_first_and_swaps_change_nothing_written(client):
    s = set_up(client)
    edit = s["edit"]
    page = client.get(edit + "/tournament").get_data(as_text=True)
    plan = plans(page)[0]
    fields = form_fields(page, edit + "/tournament/start")
    resp = client.post(edit + "/tournament/start", data=fields)
    body = resp.get_data(as_text=True)
    assert resp.status_code == 200 and "Start the tournament?" in body and 'name="confirm" value="1"' in body
    assert "Start round 1 of Groups" in client.get(edit + "/tournament").get_data(as_text=True)   # nothing written
    # a swap of two pairs between tables 1 and 3 (P4 and P3): the page comes back with it, nothing written
    fields = form_fields(page, edit + "/tournament/swap")
    resp = client.post(edit + "/tournament/swap", data={**fields, "x": "0:a", "y": "2:a"})
    assert resp.status_code == 200
    swapped = plans(resp.get_data(as_text=True))[0]
    assert swapped["tables"][0]["a"] == P[3] and swapped["tables"][2]["a"] == P[4]
    resp = client.post(edit + "/tournament/swap", data={**fields, "x": "0:a", "y": "0:a"})
    assert resp.status_code == 422 and 'id="err-swap0"' in resp.get_data(as_text=True)
    resp = client.post(edit + "/tournament/swap", data={**fields, "x": "9:z", "y": "0:a"})
    assert resp.status_code == 422
    for bad in ('{"tables": [1], "free": []}', '{"tables": [], "free": [7]}', "nope"):
        resp = client.post(edit + "/tournament/swap", data={**fields, "plan": bad, "x": "0:a", "y": "1:a"})
        assert resp.status_code == 400
    resp = start(client, edit, 0, {"tables": [{"table": "1", "a": ["Ane", "Bea"], "b": ["Carlos", "Dani"]}], "free": []})
    assert resp.status_code == 422 and 'id="err-start0"' in resp.get_data(as_text=True)
    resp = start(client, edit, 7, plan)
    assert resp.status_code == 422
    # P4 and P3 are of two groups: the session refuses that plan, with its reason beside the form, nothing written
    resp = start(client, edit, 0, swapped)
    assert resp.status_code == 422 and 'id="err-start0"' in resp.get_data(as_text=True)
    # a swap within group 1 (P9 and P8 change tables) starts
    fields = form_fields(client.get(edit + "/tournament").get_data(as_text=True), edit + "/tournament/swap")
    resp = client.post(edit + "/tournament/swap", data={**fields, "x": "0:b", "y": "1:b"})
    swapped = plans(resp.get_data(as_text=True))[0]
    assert swapped["tables"][0]["b"] == P[8] and swapped["tables"][1]["b"] == P[9]
    resp = start(client, edit, 0, swapped)
    assert resp.status_code == 303, re.findall(r'class="error"[^>]*>([^<]*)', resp.get_data(as_text=True))
    assert client.get(s["view"] + "/tournament").status_code == 403
    tl = links(client, edit)
    assert set(tl) == {"1", "2", "3", "4"}
    # a table's link cannot start a round
    resp = client.post(tl["1"] + "/tournament/start", data={"csrf": csrf(client), "stage": "0", "plan": "{}"})
    assert resp.status_code == 403


def test_the_worked_example_through_the_web(client):
    s = set_up(client)
    edit = s["edit"]
    for rnd, games in GROUP_ROUNDS.items():
        page = client.get(edit + "/tournament").get_data(as_text=True)
        assert f"Start round {rnd} of Groups" in page
        plan = plans(page)[0]
        want = [(P[a], P[b]) for a, b, _ in games]
        assert [(t["a"], t["b"]) for t in plan["tables"]] == want
        assert [t["table"] for t in plan["tables"]] == ["1", "2", "3", "4"]
        assert sorted(map(key, plan["free"]), key=sorted) == sorted((key(P[x]) for x in BYES[rnd]), key=sorted)
        assert start(client, edit, 0).status_code == 303
        assert start(client, edit, 0, plan).status_code == 422     # a second tap: that plan no longer fits
        tl = links(client, edit)
        for t, (a, b, score) in enumerate(games, 1):
            link = tl[str(t)]
            gi = game_index(client, link)
            if score is None:
                play(client, link, gi, [], (20, 20))
            else:
                play(client, link, gi, [score])
        if rnd == 2:
            end_round(client, edit)          # P4-P5 20-20: drawn by the clock
        if rnd == 1:
            sheet = htmllib.unescape(client.get(edit + "/tournament/sheet").get_data(as_text=True))
            rows = re.findall(r'<td class="t">(\d+)</td><td class="name">([^<]+)</td><td class="v">vs</td><td class="name">([^<]+)</td>', sheet)
            assert rows == [(str(t), " & ".join(P[a]), " & ".join(P[b])) for t, (a, b, _) in enumerate(games, 1)]
            assert "Bye: Ane & Bea, Carlos & Dani" in sheet
            assert client.get(s["view"] + "/tournament/sheet").status_code == 403
            sala = htmllib.unescape(client.get(s["view"] + "/sala").get_data(as_text=True))
            # the finished tables show their result (40-25), the next round's seating and byes, the groups
            assert ">40</span>" in sala and ">25</span>" in sala
            seating = sala.split("Next: seating")[1]
            assert re.search(r'Table 1<small[^>]*>Groups · Round 2</small></span>\s*<span class="seat-pair"><span class="name">Ane</span> <span class="name">& Bea</span>', seating)
            assert "Bye: " in seating and "Oier & Paula" in seating.split("Bye: ")[1]
            assert "Groups · Group 2" in sala
    page = client.get(edit + "/tournament").get_data(as_text=True)
    both = plans(page)
    assert set(both) == {1, 2}
    assert [(t["table"], t["a"], t["b"]) for t in both[1]["tables"]] == [("1", P[8], P[2]), ("2", P[3], P[1])]
    assert [(t["table"], t["a"], t["b"]) for t in both[2]["tables"]] == [("3", P[4], P[6]), ("4", P[7], P[5])]
    # a knockout's plan keeps its ties: another pairing is refused, nothing written
    bad = json.loads(json.dumps(both[1]))
    bad["tables"][0]["b"], bad["tables"][1]["b"] = bad["tables"][1]["b"], bad["tables"][0]["b"]
    resp = start(client, edit, 1, bad)
    assert resp.status_code == 422 and "not the stage" in resp.get_data(as_text=True)
    assert start(client, edit, 1).status_code == 303
    assert start(client, edit, 2).status_code == 303
    printed = htmllib.unescape(client.get(edit + "/tournament/bracket").get_data(as_text=True))
    assert printed.count('class="print-bracket"') == 2 and "Oier" in printed and "Table 4" in printed
    sheet = htmllib.unescape(client.get(edit + "/tournament/sheet").get_data(as_text=True))
    assert "Bracket A" in sheet and "Bracket B" in sheet and sheet.count('<td class="t">') == 4
    sala = htmllib.unescape(client.get(s["view"] + "/sala").get_data(as_text=True))
    assert 'class="bracket"' in sala and sala.count('class="tie') >= 6 and "Bracket B" in sala
    tl = links(client, edit)
    play(client, tl["1"], game_index(client, tl["1"]), [(40, 31), (22, 40), (40, 35)])
    play(client, tl["3"], game_index(client, tl["3"]), [(40, 10), (40, 36)])
    play(client, tl["4"], game_index(client, tl["4"]), [(40, 32), (30, 40), (39, 40)])
    play(client, tl["2"], game_index(client, tl["2"]), [(40, 33), (29, 40)], (18, 24))
    end_round(client, edit)                  # P3-P1 ended by the clock: P1 wins on the game in progress
    page = client.get(edit + "/tournament").get_data(as_text=True)
    ready = plans(page)
    assert [(t["table"], t["a"], t["b"]) for t in ready[1]["tables"]] == [("1", P[8], P[1]), ("2", P[2], P[3])]
    # the setup page's plan is the spec's: bracket B has no third-place match, its final at table 3
    assert [(t["table"], t["a"], t["b"]) for t in ready[2]["tables"]] == [("3", P[4], P[5])]
    assert start(client, edit, 1).status_code == 303
    assert start(client, edit, 2).status_code == 303
    tl = links(client, edit)
    gi = game_index(client, tl["1"])
    strip = client.get(f"{tl['1']}/mus/{gi}").get_data(as_text=True)
    assert "Round 2" in strip and "Round 5" not in strip      # the final is its stage's round 2
    club_page = client.get(edit + "/club").get_data(as_text=True)
    assert "/tournament" in club_page and 'id="proposal"' not in club_page
    play(client, tl["1"], gi, [(40, 20), (35, 40), (38, 40), (40, 12), (27, 40)])
    play(client, tl["2"], game_index(client, tl["2"]), [(25, 40), (30, 40)])
    play(client, tl["3"], game_index(client, tl["3"]), [(40, 35), (21, 40)])
    page = client.get(edit + "/tournament").get_data(as_text=True)
    assert "id=\"classification\"" not in page     # B's final is best of three: 1-1 is not decided
    play(client, tl["3"], game_index(client, tl["3"]), [(40, 33)])
    page = client.get(edit + "/tournament").get_data(as_text=True)
    assert not plans(page)
    night = re.search(r'id="classification">(.*?)</section>', page, re.S).group(1)
    order = re.findall(r"<li>(\d+)\. ([^<]+)</li>", htmllib.unescape(night))
    assert [(int(r), n) for r, n in order][:4] == [(1, "Ane & Bea"), (2, "Oier & Paula"), (3, "Eneko & Fermín"),
                                                   (4, "Carlos & Dani")]
    sala = htmllib.unescape(client.get(s["view"] + "/sala").get_data(as_text=True))
    assert 'class="step r1"><span class="place">1</span> <span class="who">Ane & Bea' in sala
    assert order == [(str(r), " & ".join(P[i])) for r, i in
                     ((1, 1), (2, 8), (3, 3), (4, 2), (5, 4), (6, 5), (7, 7), (7, 6), (9, 10), (9, 9))]
