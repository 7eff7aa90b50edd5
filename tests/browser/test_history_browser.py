"""The settle page, a past session hand by hand, the history list and a player's page on a 360 px phone:
nothing wider than the screen, the SVG charts and their text alternatives present, no CSP complaint.
Screenshots go to the ``shots`` directory (COMPANION_SHOTS keeps them)."""
import json
import random

import pytest

from companion import kinds

SEATS = ["Ane", "Bea", "Carlos", "Dani"]


def _mus_game(seed: int = 7, hands: int = 30) -> dict:
    from companion.kinds.mus import KIND

    rnd = random.Random(seed)
    game = {"kind": "mus", "rules": {"preset": "pagat"}, "seats": SEATS, "stake": {"per_game": 100},
            "hands": []}
    for i in range(hands):
        deck = list("A234567SCR") * 4
        rnd.shuffle(deck)
        hand = {"cards": {p: "".join(deck[j * 4:j * 4 + 4]) for j, p in enumerate(SEATS)},
                "grande": [], "chica": [], "pares": [], "juego": []}
        if i % 3 == 0:
            hand["grande"] = [{"team": "A", "bet": 2}, {"team": "B", "fold": True}]
        rec = KIND.build({**game, "hands": game["hands"] + [hand]}, SEATS)
        game = KIND.to_doc(rec)
        if rec.state["match_winner"]:
            break
    return game


NEWMARKET = {
    "kind": "newmarket",
    "rules": {"variant": "classic", "ante": 1, "dealer_ante": 2, "kitty_ante": 0, "payout": "cards",
              "boodles": ["AH", "KC", "QD", "JS"], "leftover": "share"},
    "seats": ["Ane", "Bea", "Carlos", "Dani", "Eneko"], "start_chips": 20, "chip_value": 10,
    "deals": [
        {"dummy": {"sold_to": "Bea", "price": 2}, "boodles_won": [{"card": "KC", "by": "Carlos"}],
         "out": "Bea", "cards_left": {"Ane": 3, "Carlos": 5, "Dani": 1, "Eneko": 2}},
        {"boodles_won": [{"card": "AH", "by": "Dani"}, {"card": "JS", "by": "Dani"}],
         "out": "Ane", "cards_left": {"Bea": 2, "Carlos": 0, "Dani": 4, "Eneko": 6}},
    ],
    "ended": True,
}

DESMOCHE = {
    "kind": "desmoche",
    "rules": {"variant": "desmoche", "stake": 10, "bonuses": True, "color_wins": False,
              "side_games": {"oro": 5, "par_rojo": 5}, "side_unclaimed": "carry"},
    "seats": ["Ane", "Bea", "Carlos"], "unit_value": 10,
    "hands": [{"winner": None},
              {"winner": "Bea", "mico": 1, "arriba": ["Carlos"],
               "side": {"oro": {"joined": ["Ane", "Bea"], "winner": "Ane"}}},
              {"stake": 20, "winner": "Ane", "auto_win": "peladilla", "disqualified": ["Carlos"]}],
    "ended": True,
}


def _doc() -> dict:
    games = []
    if "mus" in kinds.KINDS:
        games.append(_mus_game())
    if "newmarket" in kinds.KINDS:
        games.append(NEWMARKET)
    if "desmoche" in kinds.KINDS:
        games.append(DESMOCHE)
    if not games:
        pytest.skip("no game kind is importable yet (companion.rules.mus/newmarket/desmoche)")
    return {"format": "companion-session/1", "name": "Viernes en casa de Koldo, la revancha larga",
            "started": "2026-11-20T21:05:00+01:00", "currency": "EUR",
            "players": ["Ane", "Bea", "Carlos", "Dani", "Eneko"], "games": games}


def _no_overflow(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide on a 360 px screen"
    _tap_targets(page)


def _tap_targets(page) -> None:
    """Every visible link, button, summary and field of the page's body is at least 44 x 44 px."""
    small = page.evaluate("""() => [...document.querySelectorAll(
        'main a, main button, main summary, main select, main input:not([type=hidden]), main textarea')]
        .filter(e => e.offsetParent !== null)
        .map(e => { const r = e.getBoundingClientRect();
                    return [e.tagName, (e.textContent || e.name || '').trim().slice(0, 30),
                            Math.round(r.width), Math.round(r.height)]; })
        .filter(([, , w, h]) => w < 44 || h < 44)""")
    assert not small, f"tap targets under 44 px on {page.url}: {small}"


def test_history_pages_at_360(phone, live_server, shots, tmp_path):
    doc = _doc()
    path = tmp_path / "night.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    page = phone.new_page()
    complaints = []
    page.on("console", lambda msg: complaints.append(f"{page.url}: {msg.text}") if msg.type == "error" else None)

    page.goto(live_server + "/")
    page.set_input_files("input[name=file]", str(path))
    page.click("form[action='/import'] button[type=submit]")
    page.wait_for_url("**/s/**")
    edit = page.url.split("?")[0]

    # Settle up
    page.goto(edit + "/settle")
    page.wait_for_selector("ul.nets")
    _no_overflow(page)
    assert page.locator("ul.nets li").count() == 5
    assert page.locator("textarea#settle-text").count() == 1
    page.screenshot(path=f"{shots}/settle-360.png", full_page=True, caret="initial")
    if page.locator("ol.payments li").count():
        page.click("ol.payments li >> nth=0 >> button:has-text('Mark paid')")
        page.wait_for_selector("ol.payments .paid-status")
        _no_overflow(page)
        page.screenshot(path=f"{shots}/settle-paid-360.png", full_page=True, caret="initial")

    # A past session, hand by hand (Playwright hides the caret with an inline style unless told not to:
    # caret="initial" keeps the CSP check about the app only)
    page.goto(edit + "/history")
    page.wait_for_selector("svg.chart-svg")
    _no_overflow(page)
    assert page.locator("svg.chart-svg").count() >= len(doc["games"])
    assert page.locator("table.chart-table").count() == page.locator("svg.chart-svg").count()
    for svg in page.locator("svg.chart-svg").all():
        box = svg.bounding_box()
        assert box and box["width"] <= 340 and box["height"] > 100
    page.screenshot(path=f"{shots}/past-session-360.png", full_page=False, caret="initial")
    page.locator("details.chart-data summary").first.click()
    page.locator("table.chart-table").first.wait_for(state="visible")
    _no_overflow(page)
    page.locator("figure.chart").first.screenshot(path=f"{shots}/past-session-chart-360.png", caret="initial")
    page.screenshot(path=f"{shots}/past-session-full-360.png", full_page=True, caret="initial")

    # The history list and a player's page
    page.goto(live_server + "/history")
    page.wait_for_selector("ol.hist-list")
    _no_overflow(page)
    page.screenshot(path=f"{shots}/history-360.png", full_page=True, caret="initial")
    page.goto(live_server + "/players/ane")
    page.wait_for_selector("h1")
    _no_overflow(page)
    if doc["games"] and page.locator("svg.chart-svg").count():
        assert page.locator("table.chart-table").count() >= 1
    page.screenshot(path=f"{shots}/player-360.png", full_page=True, caret="initial")

    assert not [c for c in complaints if "Content Security Policy" in c], complaints


def test_past_session_and_settle_in_the_dark_without_js(browser, live_server, shots, tmp_path):
    """Dark theme, no JavaScript: the charts follow the text colour, marking a payment paid still works."""
    path = tmp_path / "night.json"
    path.write_text(json.dumps(_doc(), ensure_ascii=False), encoding="utf-8")
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2, is_mobile=True,
                              has_touch=True, color_scheme="dark", java_script_enabled=False)
    try:
        page = ctx.new_page()
        page.goto(live_server + "/")
        page.set_input_files("input[name=file]", str(path))
        page.click("form[action='/import'] button[type=submit]")
        page.wait_for_url("**/s/**")
        edit = page.url.split("?")[0]
        page.goto(edit + "/history")
        _no_overflow(page)
        svg = page.locator("svg.chart-svg").first
        text_colour = page.evaluate("e => getComputedStyle(e).color", svg.element_handle())
        background = page.evaluate("() => getComputedStyle(document.querySelector('.card')).backgroundColor")
        assert text_colour != background
        page.locator("figure.chart").first.screenshot(path=f"{shots}/past-session-chart-dark-360.png")
        page.goto(edit + "/settle")
        _no_overflow(page)
        if page.locator("ol.payments li").count():
            page.click("ol.payments li >> nth=0 >> button:has-text('Mark paid')")
            page.wait_for_url("**/settle")
            assert page.locator("ol.payments .paid-status").count() == 1
        page.screenshot(path=f"{shots}/settle-dark-nojs-360.png", full_page=True)
    finally:
        ctx.close()
