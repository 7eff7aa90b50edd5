"""A new user starts a session, a second phone scans the Watch QR code and sees changes live."""
import io
import time

import zxingcpp
from PIL import Image

from helpers import start_session


def _decode_qr(png: bytes) -> str:
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    assert found, "no QR code found in the screenshot"
    return found[0].text


def test_watch_qr_opens_a_live_read_only_view(live_server, phone, second_phone, shots):
    page = phone.new_page()
    edit_url = start_session(page, live_server, name="Friday at Koldo's", players=("Ane", "Iñaki", "赤桐", "Dani"))
    page.screenshot(path=f"{shots}/session-top.png", full_page=True)

    watch_qr = page.locator("figure.qr-box").first.locator("svg.qr")
    watch_qr.scroll_into_view_if_needed()
    watch_url = _decode_qr(watch_qr.screenshot())
    assert watch_url.startswith(live_server + "/s/") and watch_url != edit_url
    edit_qr = page.locator("figure.qr-box").nth(1).locator("svg.qr")
    assert _decode_qr(edit_qr.screenshot()) == edit_url

    viewer = second_phone.new_page()
    viewer.goto(watch_url)
    assert viewer.locator("text=Watching").is_visible()
    assert viewer.locator("form[method=post]:not(.beacon)").count() == 0
    assert viewer.locator("text=Score with me").count() == 0

    # a change on the first phone shows on the second within 3 seconds, without a reload
    page.click("summary:has-text('Rename')")
    page.fill("form[action$='/rename'] input[name=name]", "Sábado en casa")
    page.click("form[action$='/rename'] button")
    page.wait_for_selector("h1:has-text('Sábado en casa')")
    changed_at = time.monotonic()
    viewer.wait_for_selector("h1:has-text('Sábado en casa')", timeout=3000)
    assert time.monotonic() - changed_at < 3
    viewer.screenshot(path=f"{shots}/viewer.png", full_page=True)

    # no horizontal scrolling at 360 px, and every button is a real tap target
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    small = page.evaluate("""[...document.querySelectorAll('.btn, button')].filter(b => b.offsetParent)
        .map(b => b.getBoundingClientRect()).filter(r => r.height < 44).length""")
    assert small == 0
