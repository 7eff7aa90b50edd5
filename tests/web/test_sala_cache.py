"""Issue 28: the sala renders each table's piece once per that table's state and the reader's language (the
app's registry, web/club.py: sala_piece), and what grows with the tables once per version of the night
(by_version). The cached sala is the same bytes as a sala rendered afresh; a tap at table 7 changes table
7's piece and no other."""
import json
import re

import pytest
from helpers import csrf, form_fields, new_session

from companion import registry
from companion.web import club
from companion.web.common import open_session

PLAYERS = ["Ane", "Bea", "Carlos", "Dani", "Eneko", "Fermín", "Gorka", "Hodei"]
TABLES = 13         # two sala pages


def night(client) -> dict:
    """A free night (no clock: two renders of one version are the same bytes) of 13 Mus tables and a
    Newmarket table, a few hands in at some of them."""
    s = new_session(client, players=PLAYERS)
    edit = s["edit"]
    page = client.get(edit + "/club").get_data(as_text=True)
    resp = client.post(edit + "/club/setup", data={**form_fields(page, edit + "/club/setup"), "format": "free",
                                                   "minutes": "", "games_to_win": "2", "scoring": "tally"})
    assert resp.status_code == 303, resp.get_data(as_text=True)
    for n in range(TABLES):
        page = client.get(edit + "/club").get_data(as_text=True)
        seats = {f"seat{i}": PLAYERS[(n + 2 * i) % 8] for i in range(4)}
        resp = client.post(edit + "/club/table", data={**form_fields(page, edit + "/club/table"), "label": str(n + 1),
                                                       **seats})
        assert resp.status_code == 303, resp.get_data(as_text=True)
    page = client.get(edit + "/club").get_data(as_text=True)
    resp = client.post(edit + "/club/table", data={**form_fields(page, edit + "/club/table"), "label": "Barra",
                                                   "kind": "newmarket", "players": PLAYERS[:4]})
    assert resp.status_code == 303, resp.get_data(as_text=True)
    page = client.get(edit + "/club").get_data(as_text=True)
    s["tables"] = dict(re.findall(r'<strong>Table ([^<]+)</strong>\s*<input readonly value="http://table\.example:8000'
                                  r'(/s/[^"]+)"', page))
    assert len(s["tables"]) == TABLES + 1
    for label, points in (("1", 12), ("3", 36), ("7", 5)):
        tap(client, s, label, points)
    return s


def tap(client, s, label, points, team="A"):
    link = s["tables"][label]
    gi = int(label) - 1
    resp = client.post(f"{link}/mus/{gi}/act", data={"csrf": csrf(client), "move": "tally",
                                                      "tally": json.dumps([[team, points]]), "k": ""})
    assert resp.status_code == 303, resp.get_data(as_text=True)


def pieces(html: str) -> dict[str, str]:
    """Each table's piece by its label (found in its heading, in any language)."""
    out = {}
    for piece, heading in re.findall(r'(<article class="tbl[^"]*">\s*<h2>([^<]*).*?</article>)', html, re.S):
        label = re.search(r"\d+|Barra", heading).group(0)
        assert label not in out
        out[label] = piece
    return out


def forget(app) -> None:
    """Empty the app's caches: the next sala is rendered afresh."""
    reg = registry.of(app)
    reg.sala_pieces = registry.LRU(registry.SALA_PIECES)
    reg.table_states = registry.LRU(registry.TABLE_STATES)
    reg.club_versions = registry.LRU(registry.CLUB_VERSIONS)


@pytest.mark.parametrize("lang", ["en", "es", "ja"])
def test_the_cached_sala_is_the_same_bytes_as_one_rendered_afresh(app, client, lang):
    s = night(client)
    headers = {"Accept-Language": lang}
    client.get(s["view"] + "/sala", headers=headers)        # every piece in the cache
    tap(client, s, "3", 2, "B")
    tap(client, s, "9", 40)                                   # a game won: its dot
    cached = client.get(s["view"] + "/sala", headers=headers).get_data(as_text=True)
    poll = client.get(s["view"] + "/sala?since=1", headers={**headers, "HX-Request": "true"}).get_data(as_text=True)
    forget(app)
    fresh = client.get(s["view"] + "/sala", headers=headers).get_data(as_text=True)
    assert cached == fresh
    assert len(pieces(fresh)) == TABLES + 1 and "●" in pieces(fresh)["9"]
    forget(app)
    assert poll == client.get(s["view"] + "/sala?since=1", headers={**headers, "HX-Request": "true"}).get_data(as_text=True)
    # each piece as the cache keeps it and as sala_piece renders it without the cache
    with app.test_request_context(s["view"] + "/sala", headers=headers):
        view = open_session(s["view"].rsplit("/", 1)[1])
        tables = club.tables_now(view, club.night(view))
        assert len(tables) == TABLES + 1
        for tb in tables:
            assert club.sala_piece(tb) == club.sala_piece(tb, cache=False)
            assert club.sala_piece(tb) in fresh


def test_a_tap_at_table_7_changes_its_piece_and_no_other(app, client):
    s = night(client)
    before = client.get(s["view"] + "/sala").get_data(as_text=True)
    cached = len(registry.of(app).sala_pieces)
    tap(client, s, "7", 3, "B")
    after = client.get(s["view"] + "/sala").get_data(as_text=True)
    old, new = pieces(before), pieces(after)
    assert set(old) == set(new) and len(new) == TABLES + 1
    assert [label for label in new if new[label] != old[label]] == ["7"]
    assert '<span class="score">3</span>' in new["7"] and '<span class="score">3</span>' not in old["7"]
    # one piece rendered for the tap (table 7's new state), the other 13 from the cache
    assert len(registry.of(app).sala_pieces) == cached + 1
    # the same in another language: its own pieces, the English ones untouched
    es = client.get(s["view"] + "/sala", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert "Mesa 7" in es and len(registry.of(app).sala_pieces) == cached + 1 + TABLES + 1
