"""Issue 28, the room as announcer: the sala shows the next round's seating (tables, sit-outs or byes), labelled
with its round, once it is the next one: a paired club night's proposal before the first round and after every
round (the same as the organizer's page proposes), a tournament stage's; never while the round it depends on is
in play (a Swiss pairing waits for every result), and the live tables of the round in play otherwise."""
import html as htmllib
import json
import re

from helpers import csrf, form_fields, new_session

PLAYERS = ["Ane", "Bea", "Carlos", "Dani", "Eneko", "Fermín", "Gorka", "Hodei"]


def club_post(client, edit, action, **data):
    page = client.get(edit + "/club").get_data(as_text=True)
    resp = client.post(edit + "/club/" + action, data={**form_fields(page, edit + "/club/" + action), **data})
    assert resp.status_code == 303, resp.get_data(as_text=True)[-2000:]


def sala(client, s) -> str:
    return htmllib.unescape(client.get(s["view"] + "/sala").get_data(as_text=True))


def seating(page: str) -> dict | None:
    """The sala's seating pages: their title, each table's two pairs, who sits out or has the bye."""
    found = re.findall(r'<section class="sala-tables sala-page seating[^"]*"[^>]*>(.*?)</section>', page, re.S)
    if not found:
        return None
    text = "".join(found)
    title = re.sub(r"<[^>]+>", "", re.search(r'<h2 class="page-title">(.*?)</h2>', text, re.S).group(1)).strip()
    tables = [(t, f"{a1} {a2}", f"{b1} {b2}") for t, a1, a2, b1, b2 in re.findall(
        r'<span class="seat-table">Table (\w+)(?:<small[^>]*>[^<]*</small>)?</span>\s*<span class="seat-pair"><span class="name">([^<]*)</span> '
        r'<span class="name">([^<]*)</span></span><span class="seat-v">vs</span><span class="seat-pair"><span class="name">([^<]*)'
        r'</span> <span class="name">([^<]*)</span></span>', text)]
    free = re.search(r'<p class="seat-byes">([^<]*):(.*?)</p>', text, re.S)
    first = re.search(r'<section class="sala-tables([^"]*)"', page).group(1) == " sala-page seating"
    return {"title": title, "tables": tables, "first": first,
            "free": (free.group(1), re.sub(r"<[^>]+>", "", free.group(2)).strip()) if free else None}


def proposed(client, edit) -> list:
    """The organizer's page's proposal: (table, team A, team B) as the sala words them."""
    page = client.get(edit + "/club").get_data(as_text=True)
    plan = json.loads(htmllib.unescape(re.search(r'name="plan" value="([^"]*)"', page).group(1)))
    return [(str(i), f"{t[0]} & {t[2]}", f"{t[1]} & {t[3]}") for i, t in enumerate(plan["tables"], 1)]


def table_links(client, edit) -> dict:
    page = client.get(edit + "/club").get_data(as_text=True)
    return dict(re.findall(r'<strong>Table ([^<]+)</strong>\s*<input readonly value="http://table\.example:8000(/s/[^"]+)"',
                           page))


def tally(client, link, team, points):
    gi = int(client.get(link + "/table").headers["Location"].rsplit("/", 1)[1])
    resp = client.post(f"{link}/mus/{gi}/act", data={"csrf": csrf(client), "move": "tally",
                                                      "tally": json.dumps([[team, points]]), "k": ""})
    assert resp.status_code == 303


def post(client, edit, action, **data):
    page = client.get(edit + "/tournament").get_data(as_text=True)
    return client.post(edit + "/tournament/" + action,
                       data={**form_fields(page, edit + "/tournament/" + action), **data})


def start(client, edit, k):
    """Start stage k's next round with the plan the tournament page proposes."""
    page = client.get(edit + "/tournament").get_data(as_text=True)
    form = re.search(r'<form method="post" action="[^"]*/tournament/start"[^>]*>(.*?)</form>', page, re.S).group(1)
    fields = form_fields(page, edit + "/tournament/checkin")
    fields.update(stage=str(k), plan=htmllib.unescape(re.search(r'name="plan" value="([^"]*)"', form).group(1)),
                  confirm="1")
    return client.post(edit + "/tournament/start", data=fields)


def test_a_rotating_night_shows_the_next_round_only_when_no_round_is_in_play(client):
    s = new_session(client, players=PLAYERS)
    edit = s["edit"]
    club_post(client, edit, "setup", format="rotating", minutes="50", rounds="3", games_to_win="1", scoring="tally",
              pairs="")
    # before the first round: round 1's seating, the organizer's proposal, the sala's first page
    seat = seating(sala(client, s))
    assert seat["title"] == "Round 1: proposed" and seat["tables"] == proposed(client, edit) and seat["first"]
    assert len(seat["tables"]) == 2 and seat["free"] is None
    club_post(client, edit, "start")
    # a round in play: its live tables, no seating (the next one is not known yet)
    page = sala(client, s)
    assert seating(page) is None and page.count('class="tbl') == 2 and "Round 1" in page
    links = table_links(client, edit)
    tally(client, links["1"], "A", 40)
    assert seating(sala(client, s)) is None                  # one table done, the other still in play
    club_post(client, edit, "arrive", name="Iker")          # late: sits out round 2
    club_post(client, edit, "end")
    page = sala(client, s)
    seat = seating(page)
    assert seat["title"] == "Round 2: proposed" and seat["tables"] == proposed(client, edit) and seat["first"]
    assert seat["free"][0] == "Sitting out" and len(seat["free"][1].split(", ")) == 1
    assert 'class="sala-tables later" data-page="0"' in page     # round 1's results follow it
    assert "The round is over" in page
    club_post(client, edit, "start")
    page = sala(client, s)
    assert seating(page) is None and "Round 2" in page and "Round 1: proposed" not in page


def test_a_pair_night_names_the_bye_and_the_night_over_shows_no_seating(client):
    s = new_session(client, players=PLAYERS)
    edit = s["edit"]
    club_post(client, edit, "setup", format="pairs_round_robin", minutes="50", rounds="1", games_to_win="1",
              scoring="tally", pairs="Ane, Bea\nCarlos, Dani\nEneko, Fermín")
    seat = seating(sala(client, s))
    assert seat["title"] == "Round 1: proposed" and len(seat["tables"]) == 1 and seat["free"][0] == "Bye"
    assert seat["tables"] == proposed(client, edit)
    club_post(client, edit, "start")
    tally(client, table_links(client, edit)["1"], "B", 40)
    page = sala(client, s)
    assert "The night is over" in page and seating(page) is None      # the rounds planned are played


def test_a_swiss_stage_shows_its_next_seating_once_its_round_is_over(client):
    s = new_session(client, players=["Ane", "Bea"])
    edit = s["edit"]
    pairs = "Ane, Bea\nCarlos, Dani\nEneko, Fermín\nGorka, Hodei\nIker, Jone\nKoldo, Leire"
    assert post(client, edit, "paste", pairs=pairs).status_code == 303
    assert post(client, edit, "plan", template="swiss_knockout", rounds="3", top="4", games_to_win="1",
                group_games_to_win="1", final_games_to_win="1", groups="2", places="2").status_code == 303
    seat = seating(sala(client, s))
    assert seat["title"] == "Next: seating · Swiss · Round 1" and len(seat["tables"]) == 3
    assert start(client, edit, 0).status_code == 303
    links = table_links(client, edit)
    tally(client, links["1"], "A", 40)
    page = sala(client, s)
    assert seating(page) is None and page.count('class="tbl') == 3   # round 2's pairing waits for round 1
    tally(client, links["2"], "B", 40)
    tally(client, links["3"], "B", 40)
    seat = seating(sala(client, s))
    assert seat["title"] == "Next: seating · Swiss · Round 2" and len(seat["tables"]) == 3
    page = client.get(edit + "/tournament").get_data(as_text=True)
    assert "Start round 2 of Swiss" in page


def test_the_podium_writes_half_points_as_the_standings_do(client):
    s = new_session(client, players=PLAYERS[:4])
    edit = s["edit"]
    club_post(client, edit, "setup", format="rotating", minutes="50", rounds="1", games_to_win="1", scoring="tally",
              pairs="")
    club_post(client, edit, "start")
    club_post(client, edit, "end")                           # 0–0 at the clock: drawn, half a point each
    page = sala(client, s)
    podium = re.search(r'<ol class="podium-steps">(.*?)</ol>', page, re.S).group(1)
    assert podium.count('<span class="pts">0½</span>') == 4 and "0.5" not in podium
    assert seating(page) is None
