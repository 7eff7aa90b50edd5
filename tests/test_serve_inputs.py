"""Through `companion serve` as shipped (gunicorn on Linux): a body over the limit is read and answered
with the "too large" page in the reader's language (not a reset connection); a live poll with ``since=²``
(answered before Flask for a table link) is a page, not a 500."""
import html
import http.client
import re
import sys
import urllib.parse

import pytest

from test_serve import HX, Phone, a_match, hidden, serve  # noqa: F401  (serve: the fixture)

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="gunicorn")


def _upload(port, path, size, cookie="", csrf="", language="es"):
    """A multipart upload of ``size`` bytes sent whole before the answer is read (as a phone does)."""
    boundary = "companionboundary"
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n{csrf}\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"k\"\r\n\r\n\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"night.json\"\r\n"
            "Content-Type: application/json\r\n\r\n").encode()
    body = head + b" " * size + f"\r\n--{boundary}--\r\n".encode()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("POST", path, body=body, headers={"Content-Type": f"multipart/form-data; boundary={boundary}",
                                                   "Accept-Language": language, "Cookie": cookie})
    resp = conn.getresponse()
    return resp.status, resp.read().decode()


@pytest.mark.parametrize("server, language, words", [("gunicorn", "es", "demasiado grande"),
                                                      ("gunicorn", "en", "too large"),
                                                      ("waitress", "ja", "大きすぎ")])
def test_an_upload_over_the_limit_is_answered_413_in_the_readers_language(serve, server, language, words):
    port, _ = serve("--server", server, *(["--workers", "1"] if server == "gunicorn" else []))
    p = Phone(port)
    _, home = p.request("GET", "/")
    csrf = re.search(r'name="csrf" value="([^"]+)"', home).group(1)
    status, page = _upload(port, "/import", 10 * 1024 * 1024, cookie=p.cookie, csrf=csrf, language=language)
    assert status == 413
    assert words in page.lower()
    _, after = p.request("GET", "/")           # nothing was imported, and the server still answers
    assert after.count('class="row-link"') == home.count('class="row-link"')


def test_a_poll_with_a_superscript_since_is_answered_through_a_table_link(serve):
    port, _ = serve("--workers", "1")
    p = Phone(port)
    _, home = p.request("GET", "/")
    csrf = re.search(r'name="csrf" value="([^"]+)"', home).group(1)
    names = ["Ane", "Bea", "Carlos", "Dani"]
    resp, _ = p.request("POST", "/new", {"csrf": csrf, "name": "Club", "currency": "EUR", "k": "",
                                         **{f"p{i}": n for i, n in enumerate(names)}})
    edit = urllib.parse.urlsplit(resp.getheader("Location")).path
    _, page = p.request("GET", edit + "/club")
    resp, _ = p.request("POST", edit + "/club/setup", {**hidden(page, edit + "/club/setup"), "format": "rotating",
                                                       "minutes": "50", "games_to_win": "2", "pairs": ""})
    assert resp.status == 303
    _, page = p.request("GET", edit + "/club")
    start = {k: html.unescape(v) for k, v in hidden(page, edit + "/club/start").items()}   # the plan is JSON
    resp, _ = p.request("POST", edit + "/club/start", start)
    assert resp.status == 303
    _, page = p.request("GET", edit + "/club")
    table = re.search(r'<input readonly value="http://[^"/]+(/s/[^"]+)"', page).group(1)
    for since in ("²", "٣", "9" * 3000, "-1", "0"):      # (gunicorn answers a request line past 4 KB 414)
        resp, body = p.request("GET", f"{table}/mus/0?since={urllib.parse.quote(since)}", headers=HX)
        assert resp.status == 200, (since, resp.status)
        assert 'id="live"' in body
