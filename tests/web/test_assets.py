"""The installable app: /favicon.ico is a real ICO of PNGs, /manifest.webmanifest is JSON whose every icon
exists at the size it declares, both at fixed root URLs, cached, never setting a cookie, allowed by the CSP
and never counted as a wrong link by the rate limiter; the committed icons are what tools/make_icons.py
draws."""
import importlib.util
import io
import json
import re
import struct
import zlib
from pathlib import Path

import pytest

from companion.web import security

pytestmark = pytest.mark.one_engine    # pages and typed values, not the store: one engine (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR, checking the signature and the chunk's CRC."""
    assert data[:8] == PNG_SIGNATURE, "not a PNG"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13
    body = data[16:29]
    assert struct.unpack(">I", data[29:33])[0] == zlib.crc32(b"IHDR" + body), "IHDR CRC"
    return struct.unpack(">II", body[:8])


def _pixels(data: bytes):
    """RGBA pixels of a PNG (Pillow is a test dependency, never the app's)."""
    image = pytest.importorskip("PIL.Image").open(io.BytesIO(data)).convert("RGBA")
    return image.size, image.load()


def _ico_entries(data: bytes) -> list[tuple[int, int, bytes]]:
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert reserved == 0 and kind == 1 and count >= 1, "an ICO header (type 1: icon)"
    entries = []
    for i in range(count):
        w, h, _colors, _res, planes, bits, size, offset = struct.unpack("<BBBBHHII", data[6 + 16 * i:22 + 16 * i])
        assert planes in (0, 1) and bits in (0, 32)
        assert 6 + 16 * count <= offset and offset + size <= len(data), "entry inside the file"
        entries.append((w or 256, h or 256, data[offset:offset + size]))
    return entries


def test_favicon_is_an_ico_of_pngs_cached_long(client):
    resp = client.get("/favicon.ico")
    assert resp.status_code == 200 and resp.mimetype in ("image/vnd.microsoft.icon", "image/x-icon")
    entries = _ico_entries(resp.data)
    assert any((w, h) == (32, 32) for w, h, _ in entries) and any((w, h) == (16, 16) for w, h, _ in entries)
    for w, h, png in entries:
        assert _png_size(png) == (w, h), "each entry's PNG is the size its directory entry says"
    assert resp.cache_control.max_age >= 7 * 24 * 3600 and resp.cache_control.public
    assert resp.data == (STATIC / "icons" / "favicon.ico").read_bytes()
    # a browser asks again with its ETag and gets a 304
    again = client.get("/favicon.ico", headers={"If-None-Match": resp.headers["ETag"]})
    assert again.status_code == 304


def test_apple_touch_icon_at_the_root_is_opaque(client):
    for path in ("/apple-touch-icon.png", "/apple-touch-icon-precomposed.png"):
        resp = client.get(path)
        assert resp.status_code == 200 and resp.mimetype == "image/png"
        assert _png_size(resp.data) == (180, 180)
    (w, h), px = _pixels(client.get("/apple-touch-icon.png").data)
    assert all(px[x, y][3] == 255 for x in range(w) for y in range(h)), "iOS shows transparency as black"


def _manifest(client) -> dict:
    resp = client.get("/manifest.webmanifest")
    assert resp.status_code == 200 and resp.mimetype == "application/manifest+json"
    assert 0 < resp.cache_control.max_age <= 24 * 3600, "a short cache: an edited manifest reaches phones"
    return json.loads(resp.get_data(as_text=True))


def test_manifest_says_how_to_install_the_app(client):
    m = _manifest(client)
    assert m["name"] == "Companion" and m["short_name"] == "Companion"
    assert m["start_url"] == "/" and m["scope"] == "/" and m["display"] == "standalone"
    # the colours of the header bar (.bar's background is --felt in the light theme)
    css = (STATIC / "app.css").read_text()
    bar = re.search(r"\.bar \{[^}]*background: var\(--(\w+)\)", css).group(1)
    felt = re.search(rf"--{bar}: (#[0-9a-f]{{6}})", css).group(1)
    assert m["theme_color"].lower() == felt and m["background_color"].lower() == felt
    purposes = {(i["sizes"], i.get("purpose", "any")) for i in m["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= purposes


def test_every_icon_of_the_manifest_exists_at_its_declared_size(client):
    for icon in _manifest(client)["icons"]:
        resp = client.get(icon["src"])
        assert resp.status_code == 200, icon["src"]
        assert resp.mimetype == icon["type"], icon["src"]
        assert icon["src"].startswith("/static/") and (STATIC / icon["src"][len("/static/"):]).is_file()
        if icon["type"] == "image/png":
            w, h = _png_size(resp.data)
            assert icon["sizes"] == f"{w}x{h}", icon["src"]
        else:
            assert icon["type"] == "image/svg+xml" and icon["sizes"] == "any"
            assert resp.data.lstrip().startswith(b"<svg") and b"<script" not in resp.data


def test_maskable_icon_keeps_its_drawing_in_the_safe_zone(client):
    [icon] = [i for i in _manifest(client)["icons"] if i.get("purpose") == "maskable"]
    (w, h), px = _pixels(client.get(icon["src"]).data)
    background = px[0, 0]
    assert background[3] == 255, "full bleed: a launcher cuts its own shape"
    radius = 0.4 * w  # the safe zone: a circle of 80 % of the icon's width
    drawn = outside = 0
    for y in range(0, h, 2):
        for x in range(0, w, 2):
            far = (x + 0.5 - w / 2) ** 2 + (y + 0.5 - h / 2) ** 2 > radius ** 2
            if px[x, y] != background:
                drawn += 1
                outside += far
    assert drawn and not outside


def test_any_icons_have_transparent_corners_and_a_drawing(client):
    for src in ("/static/icons/icon-192.png", "/static/icons/icon-512.png"):
        (w, h), px = _pixels(client.get(src).data)
        assert px[0, 0][3] == 0 and px[w - 1, h - 1][3] == 0, "rounded corners"
        assert px[w // 2, h // 2][3] == 255
        assert any(px[x, h // 2][:3] == (255, 255, 255) for x in range(w)), "the white C and stone"


def test_no_cookie_is_set_or_read(client):
    client.get("/")  # this phone has a session cookie now
    for path in ("/favicon.ico", "/manifest.webmanifest", "/apple-touch-icon.png"):
        resp = client.get(path)
        assert "Set-Cookie" not in resp.headers, path
        assert "cookie" not in resp.headers.get("Vary", "").lower(), path


def test_the_csp_lets_the_page_use_them(client):
    csp = client.get("/").headers["Content-Security-Policy"]
    assert csp == security.CSP
    directives = {d.split()[0]: d.split()[1:] for d in csp.split("; ")}
    assert "'self'" in directives["manifest-src"] and "'self'" in directives["img-src"]


def test_they_never_count_as_wrong_links(client):
    # the limiter counts 404s (120 a minute): a browser asking for its icon on every page must not use them up
    for _ in range(130):
        assert client.get("/favicon.ico").status_code == 200
        assert client.get("/apple-touch-icon-precomposed.png").status_code == 200
    assert client.get("/manifest.webmanifest").status_code == 200
    assert client.get("/s/not-a-link").status_code == 404


def _make_icons():
    spec = importlib.util.spec_from_file_location("make_icons", ROOT / "tools" / "make_icons.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_icons_are_what_the_tool_draws():
    drawn = _make_icons().files()
    for name, data in drawn.items():
        assert (STATIC / "icons" / name).read_bytes() == data, f"run python tools/make_icons.py ({name})"
    manifest = json.loads((STATIC / "manifest.webmanifest").read_text())
    assert {i["src"].rsplit("/", 1)[1] for i in manifest["icons"]} <= set(drawn)
