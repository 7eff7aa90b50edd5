"""Through `companion serve` as shipped: a table's phone is refused after the organizer ends the round
(nothing changes), its live poll then follows the night to the next round's match, and the organizer's
confirmed reopening lands in the session file's log."""
import json
import re
import urllib.parse

from test_serve import HX, Phone, hidden, serve  # noqa: F401  (serve: the fixture)

PLAYERS = ["Ane", "Bea", "Carlos", "Dani", "Eneko", "Fermín", "Gorka", "Hodei"]


def test_a_table_phone_through_the_real_server(serve):  # noqa: F811
    port, _proc = serve("--workers", "1")
    org = Phone(port)
    _, home = org.request("GET", "/")
    csrf = re.search(r'name="csrf" value="([^"]+)"', home).group(1)
    form = {"csrf": csrf, "name": "Club", "currency": "EUR", "k": ""}
    form.update({f"p{i}": p for i, p in enumerate(PLAYERS)})
    resp, _ = org.request("POST", "/new", form)
    edit = urllib.parse.urlsplit(resp.getheader("Location")).path
    _, page = org.request("GET", edit + "/club")
    resp, _ = org.request("POST", edit + "/club/setup", {**hidden(page, edit + "/club/setup"), "format": "rotating",
                                                          "minutes": "50", "games_to_win": "1", "scoring": "tally",
                                                          "pairs": "", "rounds": "2"})
    assert resp.status == 303
    _, page = org.request("GET", edit + "/club")
    plan = re.search(r'name="plan" value="([^"]*)"', page).group(1).replace("&#34;", '"')
    resp, _ = org.request("POST", edit + "/club/start", {**hidden(page, edit + "/club/start"), "plan": plan})
    assert resp.status == 303
    _, page = org.request("GET", edit + "/club")
    one = dict(re.findall(r'<strong>Table ([^<]+)</strong>\s*<input readonly value="http://[^/"]+(/s/[^"]+)"', page))["1"]
    view = re.search(r'href="(/s/[^/"]+)/sala"', page).group(1)

    table = Phone(port)
    resp, _ = table.request("GET", one + "/table")
    game = urllib.parse.urlsplit(resp.getheader("Location")).path
    assert game == one + "/mus/0"
    _, page = table.request("GET", game)
    resp, _ = table.request("POST", game + "/act", {**hidden(page, game + "/act"), "move": "tally",
                                                    "tally": json.dumps([["A", 10]])})
    assert resp.status == 303
    # the organizer ends the round: the table's phone is refused, and nothing changes
    _, page = org.request("GET", edit + "/club")
    assert org.request("POST", edit + "/club/end", hidden(page, edit + "/club/end"))[0].status == 303
    _, before = org.request("GET", view + "/session.json")
    _, page = table.request("GET", game)
    version = re.search(r'data-version="(\d+)"', page).group(1)
    assert "The round is over." in page
    token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    resp, body = table.request("POST", game + "/act", {"csrf": token, "move": "tally",
                                                       "tally": json.dumps([["B", 5]]), "k": ""})
    assert resp.status == 403 and "clock ended this match" in body
    resp, _ = table.request("POST", one + "/undo/0", {"csrf": token})
    assert resp.status == 403
    assert org.request("GET", view + "/session.json")[1] == before
    # round 2: the table phone's next live poll opens its new match by itself
    _, page = org.request("GET", edit + "/club")
    plan = re.search(r'name="plan" value="([^"]*)"', page).group(1).replace("&#34;", '"')
    assert org.request("POST", edit + "/club/start", {**hidden(page, edit + "/club/start"), "plan": plan})[0].status == 303
    resp, _ = table.request("GET", f"{game}?since={version}", headers=HX)
    assert resp.status == 200 and resp.getheader("HX-Redirect") == one + "/mus/2"
    # the organizer takes the clock end of round 1 back: asked, then logged in the session file
    resp, asked = org.request("POST", edit + "/undo/0", {"csrf": csrf, "k": ""})
    assert resp.status == 200 and 'name="confirm" value="1"' in asked
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', asked.split('id="confirm"')[1]))
    assert org.request("POST", edit + "/undo/0", {**fields, "note": "late hand"})[0].status == 303
    log = json.loads(org.request("GET", view + "/session.json")[1])["log"]
    # round 1's match is in play again: its result changed after round 2 was paired, and the log says so
    assert [(e["by"], e["what"], e["game"], e.get("note")) for e in log] == [
        ("organizer", "clock_undone", 0, "late hand"), ("organizer", "result_changed", 0, None)]
