"""The ratings pages on a phone: a season imported as an archive, the leaderboard, a player's page,
head-to-head; 360 and 320 px wide, tapped."""
import io
import json
import os
import sys
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "ratings"))
from ratings_data import season  # noqa: E402


def _no_overflow(page, width=360) -> None:
    """Nothing wider than the screen, and every link, button, summary and field at least 44 x 44 px."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width, page.url
    small = page.evaluate("""() => [...document.querySelectorAll(
        'main a, main button, main summary, main select, main input:not([type=hidden]), main textarea')]
        .filter(e => e.offsetParent !== null)
        .map(e => { const r = e.getBoundingClientRect();
                    return [e.tagName, (e.textContent || e.name || '').trim().slice(0, 30),
                            Math.round(r.width), Math.round(r.height)]; })
        .filter(([, , w, h]) => w < 44 || h < 44)""")
    assert not small, f"tap targets under 44 px on {page.url}: {small}"


def _archive(tmp_path):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for i, d in enumerate(season()):
            zf.writestr(f"night-{i}.json", json.dumps(d, ensure_ascii=False))
    path = tmp_path / "season.zip"
    path.write_bytes(buf.getvalue())
    return path


def _styled(page):
    """The page's own stylesheet is in its body (a boosted page change swaps the body): wait for it."""
    page.wait_for_function("() => [...document.styleSheets].some(s => s.href && s.href.includes('ratings.css'))")


def _import(page, base, path):
    page.goto(base + "/history")
    page.set_input_files("input[name=archive]", str(path))
    page.locator("form[action='/history/import'] button[type=submit]").tap()
    page.wait_for_url("**/history?imported=*")


def test_leaderboard_player_and_head_to_head(phone, live_server, shots, tmp_path):
    page = phone.new_page()
    _import(page, live_server, _archive(tmp_path))
    page.locator("a:has-text('Ratings: who plays best')").tap()
    page.wait_for_url("**/ratings")
    assert page.locator("table.board").first.locator("tbody tr").count() == 8
    assert page.locator("h2:has-text('Mus pairs')").count() == 1
    _styled(page)
    _no_overflow(page)
    page.screenshot(path=f"{shots}/ratings-board-360.png", full_page=True)

    page.locator("label.toggle:has-text('Desmoche')").tap()
    page.locator("button:has-text('Show')").tap()
    page.wait_for_url("**kind=desmoche**")
    assert page.locator("table.board tbody tr").count() >= 3

    page.goto(live_server + "/ratings")
    first = page.locator("table.board tbody tr >> nth=0 >> a.cell-link")
    name = first.inner_text()
    first.tap()
    page.wait_for_url("**/ratings/players/**")
    assert page.locator("h1").inner_text() == name
    assert page.locator("figure.chart svg.chart-svg").count() == 1
    assert page.locator("table.numbers").first.locator("tbody tr").count() == 12
    _styled(page)
    _no_overflow(page)
    page.screenshot(path=f"{shots}/ratings-player-360.png", full_page=True)

    other = "Ane" if name != "Ane" else "Bea"
    page.fill("input[name=b]", other)
    page.locator("button:has-text('Compare')").tap()
    page.wait_for_url("**/ratings/h2h**")
    assert page.locator("table.h2h tbody tr").count() >= 1
    _styled(page)
    page.screenshot(path=f"{shots}/ratings-h2h-360.png", full_page=True)
    _styled(page)
    _no_overflow(page)


def test_ratings_at_320_px(browser, live_server, tmp_path):
    ctx = browser.new_context(viewport={"width": 320, "height": 640}, device_scale_factor=2, has_touch=True,
                              is_mobile=True)
    try:
        page = ctx.new_page()
        _import(page, live_server, _archive(tmp_path))
        for url in ("/ratings", "/ratings/players/ane", "/ratings/h2h?a=Ane&b=Bea"):
            page.goto(live_server + url)
            _styled(page)
            width = page.evaluate("document.documentElement.scrollWidth")
            wide = page.evaluate("""() => [...document.querySelectorAll('main *')]
                .filter(e => e.getBoundingClientRect().right > 320).map(e => e.tagName + '.' + e.className)
                .slice(0, 5)""")
            assert width <= 320, (url, width, wide)
    finally:
        ctx.close()


def test_no_serious_axe_violation_on_the_ratings_pages(browser, live_server, tmp_path):
    from axe_playwright_python.sync_playwright import Axe

    for scheme in ("light", "dark"):
        ctx = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2, has_touch=True,
                                  is_mobile=True, color_scheme=scheme, reduced_motion="reduce")
        try:
            page = ctx.new_page()
            _import(page, live_server, _archive(tmp_path))
            for url in ("/ratings", "/ratings/players/ane", "/ratings/h2h?a=Ane&b=Bea", "/ratings/h2h?a=Ane&b=Zoe"):
                page.goto(live_server + url)
                _styled(page)
                page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
                violations = Axe().run(page).response["violations"]
                blocking = [(v["id"], [n["target"] for n in v["nodes"][:3]]) for v in violations
                            if v.get("impact") in ("critical", "serious")]
                assert not blocking, (scheme, url, blocking)
        finally:
            ctx.close()
