"""The table phone in a browser: it follows the night to the next round's match by itself (its live poll),
shows the round clock above its match, is refused after the round ends; the organizer's confirmation
page and log, and these pages pass axe (no critical or serious violation)."""
import re

from test_club_browser import phone_ctx, start_night


def axe_blocking(page):
    from axe_playwright_python.sync_playwright import Axe

    result = Axe().run(page).response
    return [v["id"] for v in result["violations"] if v.get("impact") in ("critical", "serious")]


def test_the_table_phone_follows_the_night(browser, live_server):
    org_ctx, tbl_ctx = phone_ctx(browser), phone_ctx(browser)
    org, tbl = org_ctx.new_page(), tbl_ctx.new_page()
    try:
        start_night(org, live_server)
        club = org.url
        org.locator("button:has-text('Start round 1')").tap()
        org.wait_for_selector("#round")
        link = org.locator("#tables .table-link input").first.input_value()
        tbl.goto(link)
        tbl.wait_for_url(re.compile(r".*/mus/\d+$"))
        first = tbl.url
        assert "min left" in tbl.locator("#table-strip").inner_text()
        assert axe_blocking(tbl) == []
        # the organizer ends round 1: the strip says so at its next look, the phone records nothing more
        org.goto(club)
        org.locator("button:has-text('End the round')").tap()
        org.wait_for_selector("#proposal")
        tbl.reload()
        assert "The round is over." in tbl.locator("#table-strip").inner_text()
        # round 2 starts: the phone, left on its finished match, opens the new one by its own poll
        org.locator("button:has-text('Start round 2')").tap()
        org.wait_for_selector("#round")
        tbl.wait_for_url(lambda url: url != first and re.search(r"/mus/\d+$", url) is not None, timeout=30000)
        assert "Round 2" in tbl.locator("#table-strip").inner_text()
        # the organizer removes the last table's new match (games 3, 4, 5): asked first, with a note, then logged
        org.goto(club.replace("/club", "/mus/5"))
        org.locator("button:has-text('Remove this game')").tap()
        org.wait_for_selector("#confirm")
        assert axe_blocking(org) == []
        org.fill("input[name=note]", "wrong seats")
        org.locator("button:has-text('Yes, do it')").tap()
        org.wait_for_url(re.compile(r".*/s/[^/]+$"))      # the game is gone: the session's page
        org.goto(club)
        assert "removed a round match" in org.locator("#log").inner_text()
        assert axe_blocking(org) == []
    finally:
        org_ctx.close()
        tbl_ctx.close()
