"""axe-core on every page, light and dark, at 360 px: no "critical" and no "serious" violation.

axe-core comes from the PyPI package axe-playwright-python (it ships axe.min.js inside the wheel: nothing is
fetched at run time). One session is built through the UI once per module (every game kind, a few hands of
each, so the scoring controls, logs and banners show); each (page, colour scheme) is then a test of its own in a
fresh phone context (360 x 740, touch) that carries the same cookies, so the home page and the history list
that session.

Run only these:  .venv/bin/python -m pytest -q -p no:cacheprovider tests/browser/test_axe.py
Keep every case's full axe result as JSON:  COMPANION_AXE_DIR=/tmp/axe (one file per case).
"""
import json
import os
import re
import urllib.parse

import pytest
from axe_playwright_python.sync_playwright import Axe
from helpers import start_session
from taps import at_rest, live_version, version_moved

PLAYERS = ("Ane", "Bea", "Carlos", "Dani")
BLOCKING = ("critical", "serious")
SCHEMES = ("light", "dark")

# (case id, what it shows); the URL of each is worked out by the `site` fixture
PAGES = [
    ("home", "home page, listing the session"),
    ("home-error", "new-session form re-rendered with a validation error"),
    ("session-edit", "session page through the scoring link"),
    ("session-watch", "session page through the watch link"),
    ("mus-new", "new Mus match form"),
    ("newmarket-new", "new Newmarket game form"),
    ("desmoche-new", "new Desmoche series form"),
    ("mus-bidding", "Mus at a bidding step (a game just won: the game-over banner, the last hand, the log)"),
    ("mus-answer", "Mus at an answer step, after a bet, with the dentro banner"),
    ("mus-declare", "Mus at the declaration step"),
    ("mus-count", "Mus at the count step"),
    ("mus-watch", "Mus through the watch link (dentro banner, no controls)"),
    ("mus-reference", "Mus quick reference"),
    ("mus-correct", "Mus fix-a-hand page (a lance's winner flipped: the preview and Save)"),
    ("mus-redo", "Mus fix-a-hand page, recording the hand again"),
    ("mus-rest", "Mus: everyone passes, the count in one form"),
    ("mus-tally", "Mus tally hand with points added and a lance chosen"),
    ("mus-toast", "Mus right after a tap: the toast under the score"),
    ("mus-over", "Mus after the match: no thumb bar"),
    ("newmarket-end", "Newmarket: the end of a deal (who went out, cards left)"),
    ("newmarket-game", "Newmarket mid-deal"),
    ("newmarket-deal", "Newmarket correct-deal page"),
    ("desmoche-game", "Desmoche after a rollover and a win"),
    ("desmoche-hand", "Desmoche correct-hand page"),
    ("settle", "settle up"),
    ("session-history", "the session hand by hand"),
    ("history", "/history"),
    ("player", "a player's page"),
    ("replace", "replace the scoring link: the confirmation"),
    ("not-found", "a 404 page"),
]


def _context(browser, scheme: str, storage_state=None):
    return browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2, has_touch=True,
                               is_mobile=True, color_scheme=scheme, reduced_motion="reduce",
                               storage_state=storage_state)


def tap(page, selector: str) -> None:
    """One tap that records something on a live page, once the page is at rest (static/app.js ignores taps on
    a control a swap has just brought in: [data-arming]); waits until the page shows the new version."""
    at_rest(page)
    before = live_version(page)
    with page.expect_request(lambda r: r.method == "POST", timeout=20000):
        page.click(selector)
    version_moved(page, before, 20, f"nothing recorded after tapping {selector}")


def submit(page, selector: str) -> None:
    """A tap on a plain (not boosted) form: wait for the next page."""
    with page.expect_navigation():
        page.click(selector)


def _new_mus(page, edit_url: str, target: int | None = None, stake: str = "") -> str:
    page.goto(edit_url + "/mus/new")
    if target:
        page.click("details.mus-more > summary")
        page.fill("input[name=target]", str(target))
        page.fill("input[name=games_to_win]", "2")
    if stake:
        page.fill("input[name=stake_game]", stake)
    submit(page, "form[action$='/mus/new'] button[type=submit]")
    assert re.search(r"/mus/\d+$", page.url), page.url
    return page.url


def _mus_moves(page, *moves: str) -> None:
    for move in moves:
        tap(page, f"button[name=move][value='{move}']")


def _build(page, base: str) -> dict:
    """The session every case looks at; returns {case id: URL}."""
    edit = start_session(page, base, name="Axe night", players=PLAYERS)
    watch = page.locator("#watch-link").input_value()
    urls = {"home": base + "/", "session-edit": edit, "session-watch": watch,
            "mus-new": edit + "/mus/new", "newmarket-new": edit + "/newmarket/new",
            "desmoche-new": edit + "/desmoche/new"}

    # Mus 0, left at a bidding step: hand 1 with a bet and a fold and a count; hand 2 an órdago called and won
    # by team B: the game-over banner shows above the next hand's bidding
    url = _new_mus(page, edit, target=10, stake="2.00")
    _mus_moves(page, "bet:A:2", "fold", "pass")                  # grande: A envida, B no quiero; chica passed
    page.click("input[name=pares0][value=pareja]")
    page.click("input[name=pares1][value=pareja]")
    page.click("input[name=juego2][value='31']")
    page.click("input[name=juego3][value=other]")
    _mus_moves(page, "declare", "pass", "pass", "showdown:pares:A")
    _mus_moves(page, "ordago:B", "call")
    while page.locator("button[name=move][value^='showdown:'][value$=':B']").count():  # the count, if asked
        _mus_moves(page, page.locator("button[name=move][value^='showdown:'][value$=':B']").first
                   .get_attribute("value"))
    assert page.locator(".mus-over").count(), "Mus 0: expected the game-over banner"
    urls["mus-bidding"] = url
    urls["mus-reference"] = url + "/reference"
    link = page.locator("a[href*='/hand/1']").first      # "Correct hand 1" in the log
    urls["mus-correct"] = link.evaluate("a => a.href") if link.count() else url + "/hand/1"

    # Mus 1, left at an answer step with team B dentro
    url = _new_mus(page, edit, target=10)
    _mus_moves(page, "bet:B:5", "call", "pass", "declare", "pass", "showdown:grande:B")
    _mus_moves(page, "bet:A:2")
    assert page.locator("[data-dentro]").count(), "Mus 1: expected the dentro banner"
    urls["mus-answer"] = url
    urls["mus-watch"] = watch + url[len(edit):]

    # Mus 2, left at the declaration step; Mus 3 at the count step
    url = _new_mus(page, edit)
    _mus_moves(page, "bet:A:2", "fold", "pass")
    assert page.locator("button[name=move][value=declare]").count()
    urls["mus-declare"] = url
    url = _new_mus(page, edit)
    _mus_moves(page, "bet:A:2", "call", "pass", "declare", "pass")
    assert page.locator("button[name=move][value^='showdown:']").count()
    urls["mus-count"] = url
    urls["mus-rest"] = urls["mus-bidding"] + "?rest=1"
    urls["mus-tally"] = (urls["mus-bidding"] + "?mode=tally&tl=pares&tally=" +
                         urllib.parse.quote('[["A",3,"grande"],["B",2,null]]'))
    urls["mus-toast"] = urls["mus-answer"] + "?done=1"
    urls["mus-redo"] = urls["mus-correct"] + "?redo=1"
    url = _new_mus(page, edit, target=10)
    page.goto(url + "?mode=tally")
    for _ in range(2):          # two games of 10 won by tally: the match is over (best of 3 in pagat: 2)
        page.goto(url + "?mode=tally&tally=" + urllib.parse.quote('[["A",5,null],["A",5,null]]'))
        tap(page, "button[name=move][value=tally]")
    urls["mus-over"] = url

    # Newmarket (Parlett), mid-deal 2: a dead hand taken, a Queen played, a deal ended
    page.goto(edit + "/newmarket/new")
    page.click("label:has(input[name=variant][value=parlett])")
    page.fill("input[name=chip_value]", "0.10")
    page.click("form[action$='/newmarket/new'] button.primary")
    page.wait_for_url(re.compile(r".*/newmarket/\d+$"))
    url = page.url
    tap(page, "form[action$='/start'] button")
    page.click("#thumb label:has(input[name=card][value=dead])")
    tap(page, "#thumb .who button[value=Bea]")
    page.click("#thumb label:has(input[name=card][value=QC])")
    tap(page, "#thumb .who button[value=Carlos]")
    page.goto(url + "?end=1")
    urls["newmarket-end"] = url + "?end=1"
    tap(page, "#thumb button[aria-label='Bea went out']")
    tap(page, "form[action$='/start'] button")
    page.click("#thumb label:has(input[name=card][value=QH])")
    tap(page, "#thumb .who button[value=Dani]")
    urls["newmarket-game"] = url
    urls["newmarket-deal"] = url + "/deal/0"

    # Desmoche: a rollover (nobody won, oro carried), then Bea wins with a mico
    page.goto(edit + "/desmoche/new")
    page.fill("input[name=stake]", "10")
    page.click("label:has(input[name=bonuses])")
    page.click("label:has(input[name=side_on_oro])")
    page.fill("input[name=side_oro]", "5")
    page.click("form[action$='/desmoche/new'] button.primary")
    page.wait_for_url(re.compile(r".*/desmoche/\d+$"))
    url = page.url
    page.click("label.toggle:has-text('No winner')")
    tap(page, "form.hand-form button.primary")
    page.click("fieldset.winner label.toggle:has-text('Bea')")
    page.fill("input[name=mico]", "1")
    tap(page, "form.hand-form button.primary")
    urls["desmoche-game"] = url
    urls["desmoche-hand"] = url + "/hand/0"

    urls["settle"] = edit + "/settle"
    urls["session-history"] = edit + "/history"
    urls["history"] = base + "/history"
    urls["player"] = base + "/players/" + urllib.parse.quote("Ane")
    urls["replace"] = edit + "/replace"
    urls["not-found"] = base + "/s/no-such-session"
    return urls


@pytest.fixture(scope="module")
def site(live_server, browser):
    """One session with every game kind, built through the UI; the URLs and the cookies of that phone."""
    ctx = _context(browser, "light")
    page = ctx.new_page()
    urls = _build(page, live_server)
    page.goto(urls["session-edit"])      # the beacon lists the session on this phone
    page.wait_for_load_state("networkidle")
    state = ctx.storage_state()
    ctx.close()
    return {"urls": urls, "state": state}


def _open(page, case: str, urls: dict) -> int:
    if case == "home-error":                               # no name, no players: the form again, with errors
        page.goto(urls["home"])
        with page.expect_response(lambda r: r.request.method == "POST") as resp:
            page.click("button:has-text('Start the session')")
        page.wait_for_selector(".error, [aria-invalid=true]")
        return resp.value.status
    if case == "player":                                   # the link the history page gives, else the URL
        page.goto(urls["session-history"])
        link = page.locator("a[href*='/players/']").first
        if link.count():
            urls = {**urls, "player": link.evaluate("a => a.href")}
    resp = page.goto(urls[case])
    page.wait_for_load_state("load")
    if case == "home":                                     # the "No connection" banner every page may show
        page.evaluate("document.getElementById('net-error').hidden = false")
    return resp.status


def _reveal(page) -> None:
    """Open every <details> (the options, the card keypad, "End the game"...): axe checks only what shows."""
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")


def _report(case: str, scheme: str, url: str, violations: list[dict]) -> str:
    lines = [f"{case} [{scheme}] {url}: {len(violations)} blocking axe violation(s)"]
    for v in violations:
        lines.append(f"- {v['id']} ({v['impact']}): {v['help']} [{len(v['nodes'])} node(s)] {v['helpUrl']}")
        for node in v["nodes"][:4]:
            lines.append(f"    target {', '.join(map(str, node['target']))}")
            lines.append(f"      html {node['html'][:160]}")
            summary = (node.get("failureSummary") or "").replace("\n", " ")
            if summary:
                lines.append(f"      why  {summary[:300]}")
        if len(v["nodes"]) > 4:
            lines.append(f"    ... and {len(v['nodes']) - 4} more")
    return "\n".join(lines)


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("case", [c for c, _ in PAGES])
def test_no_serious_axe_violation(site, browser, case, scheme):
    ctx = _context(browser, scheme, site["state"])
    try:
        page = ctx.new_page()
        status = _open(page, case, site["urls"])
        expected = {"not-found": 404, "home-error": 422}.get(case, 200)
        assert status == expected, f"{case}: HTTP {status}"
        _reveal(page)
        url = page.url
        result = Axe().run(page, options={"resultTypes": ["violations", "incomplete"]}).response
        keep = os.environ.get("COMPANION_AXE_DIR")
        if keep:
            os.makedirs(keep, exist_ok=True)
            with open(os.path.join(keep, f"{case}-{scheme}.json"), "w") as out:
                json.dump({"case": case, "scheme": scheme, "url": url, "violations": result["violations"],
                           "incomplete": result.get("incomplete", [])}, out, indent=1)
    finally:
        ctx.close()
    blocking = [v for v in result["violations"] if v.get("impact") in BLOCKING]
    assert not blocking, _report(case, scheme, url, blocking)
