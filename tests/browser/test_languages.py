"""A night in Spanish and in Japanese on a 360 px touch phone (issue 11): the browser's language chooses,
then a Mus hand, a Newmarket deal, a Desmoche hand and the settle page. On every screen: the page says its
language, nothing is wider than the screen, every tap target is at least 44 px, the thumb bar's buttons are
on screen, and none of the English UI words shows. The header switches the language and remembers it.

Run with COMPANION_SHOTS=/tmp/lang-shots to keep the screenshots."""
import re

import pytest

ENGLISH_UI = ["Undo", "Settle up", "History", "Score with me", "Everyone passes", "Count the hand", "Start deal",
              "Record hand", "Hand by hand", "Watch", "No winner", "Add the game", "Start the match", "Players",
              "Who has", "On the table", "Payments", "Net for the night", "went out", "Mark paid"]
PLAYERS = ("Ane", "Bea", "Carlos", "Dani")


def settle(page):
    page.wait_for_load_state()
    page.wait_for_selector("html:not([data-busy])", state="attached", timeout=20000)
    page.wait_for_selector("[data-arming]", state="detached", timeout=20000)   # its controls live


def tap(page, selector):
    settle(page)
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.tap(selector)
    settle(page)


def check(page, lang, shots, name):
    page.screenshot(path=f"{shots}/lang-{lang}-{name}.png")
    assert page.evaluate("document.documentElement.lang") == lang, name
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, f"{name}: wider than the screen"
    small = page.evaluate("""() => [...document.querySelectorAll('.btn, button, .toggle span, summary, input:not([type=hidden])')]
        .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 44).map(e => e.outerHTML.slice(0, 90))""")
    assert small == [], f"{name}: tap targets under 44 px: {small}"
    cut = page.evaluate("""() => [...document.querySelectorAll('main *')]
        .filter(e => e.offsetParent !== null && e.children.length === 0 && e.textContent.trim())
        .filter(e => { const s = getComputedStyle(e);
                       return s.textOverflow === 'ellipsis' && e.scrollWidth > e.clientWidth + 1; })
        .map(e => e.textContent.trim())""")
    assert cut == [], f"{name}: text cut: {cut}"
    if page.locator("#thumb").count():
        for box in page.evaluate("""[...document.querySelectorAll('#thumb .btn')].filter(b => b.offsetParent)
                .map(b => { const r = b.getBoundingClientRect(); return [b.textContent.trim().slice(0, 30), r.top, r.bottom]; })"""):
            assert box[1] >= 0 and box[2] <= 740.5, f"{name}: {box[0]!r} is off screen"
    text = page.evaluate("document.body.innerText")
    leftovers = [w for w in ENGLISH_UI if re.search(rf"\b{re.escape(w)}\b", text)]
    assert leftovers == [], f"{name}: English left on the page: {leftovers}"


@pytest.mark.parametrize("locale,lang", [("es-ES", "es"), ("ja-JP", "ja")])
def test_a_night_in_another_language(browser, live_server, locale, lang, shots):
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2, has_touch=True,
                              is_mobile=True, locale=locale)
    page = ctx.new_page()
    page.goto(live_server + "/")
    check(page, lang, shots, "01-home")
    page.fill("input[name=name]", "Noche")
    for i, p in enumerate(PLAYERS):
        page.fill(f"input[name=p{i}]", p)
    page.tap("form[action$='/new'] button.primary")
    page.wait_for_url("**/s/**")
    edit = page.url.split("?")[0]
    settle(page)
    check(page, lang, shots, "02-session")

    # Mus: an envite answered at once, then everyone passes with the count in one form
    page.goto(edit + "/mus/new")
    check(page, lang, shots, "03-mus-new")
    page.locator("input[name=preset][value=spanish]").check()
    page.tap("form[action$='/mus/new'] button[type=submit]")
    page.wait_for_url("**/mus/0*")
    game = page.url.split("?")[0]
    settle(page)
    check(page, lang, shots, "04-mus")
    tap(page, "#thumb button[value='bet:A:2:call']")
    assert page.locator(".toast").is_visible()
    check(page, lang, shots, "05-mus-toast")
    page.goto(game + "?rest=1")
    settle(page)
    check(page, lang, shots, "06-mus-rest")
    page.locator("input[name=pares0][value=pareja]").check()
    tap(page, "#thumb button[name=move]")
    check(page, lang, shots, "07-mus-counted")
    page.goto(game + "/reference")
    check(page, lang, shots, "08-mus-reference")
    assert page.locator("table.mus-senas tr").count() >= 12

    # Newmarket (Parlett, flat payout): a Queen, then who went out
    page.goto(edit + "/newmarket/new")
    page.tap("label:has(input[name=variant][value=parlett])")
    page.tap("form[action$='/newmarket/new'] button.primary")
    page.wait_for_url("**/newmarket/1*")
    nm = page.url.split("?")[0]
    settle(page)
    check(page, lang, shots, "09-newmarket")
    tap(page, "#thumb form[action$='/start'] button")
    page.tap("#thumb label:has(input[name=card][value=QH])")
    tap(page, "#thumb .who button[value=Dani]")
    check(page, lang, shots, "10-newmarket-deal")
    page.goto(nm + "?end=1")
    settle(page)
    check(page, lang, shots, "11-newmarket-end")
    tap(page, "#thumb button[name=out][value=Bea]")
    check(page, lang, shots, "12-newmarket-ended")

    # Desmoche: a hand won by Carlos
    page.goto(edit + "/desmoche/new")
    page.fill("input[name=stake]", "10")
    page.tap("form[action$='/desmoche/new'] button.primary")
    page.wait_for_url("**/desmoche/2*")
    settle(page)
    page.tap("#thumb label:has(input[name=winner][value='p:Carlos'])")
    tap(page, "#thumb button[type=submit]")
    check(page, lang, shots, "13-desmoche")

    # settle up: numbers and money in the language's way
    page.goto(edit + "/settle")
    settle(page)
    check(page, lang, shots, "14-settle")
    if lang == "es":
        assert re.search(r"\d+,\d{2}\s?€", page.locator("main").inner_text()) or "€" not in page.content()

    # the header switches the language and the browser keeps it
    page.tap(".lang-menu > summary")
    with page.expect_navigation():
        page.tap(".lang-list a[lang=en]")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert "Settle up" in page.locator("main").inner_text()
    page.goto(edit)
    assert page.evaluate("document.documentElement.lang") == "en"
    ctx.close()
