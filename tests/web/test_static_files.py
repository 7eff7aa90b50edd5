"""Stylesheets and scripts are served minified and compressed once, from memory, with long caching."""
import gzip
import re

import pytest

from companion.web.static_files import minify_css, minify_js

pytestmark = pytest.mark.one_engine    # pages and typed values, not the store: one engine (tests/conftest.py)


def test_css_minified_keeps_every_rule():
    src = "/* a note */\n.a > .b,\n.c { color: red;  margin: 0 4px; }\n@media (max-width: 340px) { .d:hover { x: calc(1px - 2px); } }\n"
    assert minify_css(src) == ".a>.b,.c{color:red;margin:0 4px}@media (max-width: 340px){.d:hover{x:calc(1px - 2px)}}"


def test_js_minified_keeps_the_code():
    src = "// why\n(function () {\n  var a = 'http://x'; // stays\n\n  return a;\n})();\n"
    assert minify_js(src) == "(function () {\nvar a = 'http://x'; // stays\nreturn a;\n})();\n"


def test_a_stylesheet_is_served_gzipped_minified_and_cached(client):
    page = client.get("/").get_data(as_text=True)
    url = re.search(r'href="(/static/app\.css\?v=[^"]+)"', page).group(1)
    resp = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert resp.status_code == 200 and resp.headers["Content-Encoding"] == "gzip"
    assert "immutable" in resp.headers["Cache-Control"] and resp.headers["Vary"] == "Accept-Encoding"
    text = gzip.decompress(resp.get_data()).decode()
    assert "/*" not in text and ".thumb{" in text
    again = client.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": resp.headers["ETag"]})
    assert again.status_code == 304
    plain = client.get(url, headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers and plain.get_data(as_text=True) == text


def test_htmx_is_served_as_vendored_and_icons_as_files(client):
    resp = client.get("/static/htmx-2.0.11.min.js", headers={"Accept-Encoding": "gzip"})
    with open("static/htmx-2.0.11.min.js", "rb") as fh:
        assert gzip.decompress(resp.get_data()) == fh.read()
    assert client.get("/static/icons/icon.svg").status_code == 200
    assert client.get("/static/nope.css").status_code == 404
    assert client.get("/static/../companion/web/app.py").status_code == 404
