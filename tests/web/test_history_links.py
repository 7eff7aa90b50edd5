"""Players link to their pages from a past session (every player, escaped), not only from the list."""
from urllib.parse import quote

from test_settle_page import import_doc, session_doc


def test_past_session_links_each_player_to_their_page(client):
    links = import_doc(client, session_doc(players=("Iñaki", "<b>x</b>")))
    page = client.get(links["view"] + "/history").get_data(as_text=True)
    assert 'class="chip" href="/players/inaki">Iñaki</a>' in page
    assert f'href="/players/{quote("<b>x</b>")}">&lt;b&gt;x&lt;/b&gt;</a>' in page
    assert "<b>x</b>" not in page
    assert client.get("/players/inaki").status_code == 200
    assert client.get(f"/players/{quote('<b>x</b>')}").status_code == 200
