"""Issue 28 in the browser, the room as announcer: a rotating night's sala at 1920x1080 and 1024x768 shows round
1's seating before it starts, the live tables (and no seating) while it is played, and round 2's seating first
once it is over, labelled with its round, whole on the screen, no name cut."""
import os

from test_club_browser import start_night
from test_tournament_browser import no_name_cut

SIZES = ((1920, 1080), (1024, 768))


def look(salas, url, shots, name):
    """Each sala screen reloaded: what its first page shows (the pages turn every 15 s)."""
    out = []
    for (w, h), page in zip(SIZES, salas):
        page.goto(url)
        page.wait_for_selector(".sala-tables.shown", state="attached")
        page.screenshot(path=os.path.join(shots, f"sala-{name}-{w}x{h}.png"))
        assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight"), (name, w)
        shown = page.locator(".sala-tables.shown")
        out.append({"seating": shown.evaluate("e => e.classList.contains('seating')"),
                    "title": shown.locator(".page-title").text_content() if shown.locator(".page-title").count() else None,
                    "seats": shown.locator(".seat").count(), "tables": page.locator(".tbl").count(),
                    "cut": no_name_cut(page, ".sala-tables.shown .name")})
    return out


def test_the_sala_announces_the_next_round(browser, live_server, shots):
    base = live_server
    org_ctx = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    org = org_ctx.new_page()
    start_night(org, base, rounds=3)
    url = base + org.locator("a:has-text('Open the sala')").get_attribute("href")
    contexts = [browser.new_context(viewport={"width": w, "height": h}) for w, h in SIZES]
    salas = [c.new_page() for c in contexts]
    try:
        for seen in look(salas, url, shots, "before"):
            assert seen["seating"] and seen["title"] == "Round 1: proposed" and seen["seats"] == 3, seen
            assert seen["cut"] == [] and seen["tables"] == 0
        org.locator("button:has-text('Start round 1')").tap()
        org.wait_for_selector("#round")
        for seen in look(salas, url, shots, "playing"):
            assert not seen["seating"] and seen["tables"] == 3, seen
        assert salas[0].locator(".seating").count() == 0
        org.locator("button:has-text('End the round')").tap()
        org.wait_for_selector("#proposal")
        proposed = org.eval_on_selector_all("#proposal ol.plan li", "els => els.map(e => [e.querySelector('.team-a')"
                                            ".textContent, e.querySelector('.team-b').textContent])")
        for seen in look(salas, url, shots, "over"):
            assert seen["seating"] and seen["title"] == "Round 2: proposed" and seen["seats"] == 3, seen
            assert seen["cut"] == [] and seen["tables"] == 3           # round 1's results on the next page
        # the seating the sala shows is the organizer's proposal, table by table
        shown = salas[0].eval_on_selector_all(".seating .seat", "els => els.map(e => [...e.querySelectorAll('.seat-pair')]"
                                              ".map(p => p.textContent.replace(/\\s+/g, ' ').trim()))")
        assert shown == proposed and len(shown) == 3
    finally:
        for c in [org_ctx, *contexts]:
            c.close()
