"""A whole short Mus match through the UI in Chromium at 360 px: declarations, the count with and without
cards (keypad), an órdago, an undo, a corrected past hand, a fold that ends a game; a watching phone sees the
dentro banner and no controls; the final state JSON is checked."""
import json
import time

from companion.record import session as S
from helpers import start_session


def version(page):
    return page.evaluate("document.querySelector('#live') && document.querySelector('#live').dataset.version")


def tap(page, selector):
    """One tap that records something: wait until the live region shows the new version and the page is
    at rest (static/app.js: <html data-busy> until the swap has settled)."""
    before = version(page)
    page.click(selector)
    deadline = time.monotonic() + 20
    while version(page) in (before, None):   # (wait_for_function evaluates strings: the CSP forbids it)
        assert time.monotonic() < deadline, f"nothing recorded after tapping {selector}"
        page.wait_for_timeout(30)
    page.wait_for_selector("html:not([data-busy])", state="attached", timeout=20000)
    page.wait_for_selector("[data-arming]", state="detached", timeout=20000)   # its controls live


TARGETS = "'.btn, button, label.toggle, summary, .mus-meta a, .mus-change'"


def check_width(page):
    wide = page.evaluate("""[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 361)
        .map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 8)""")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, wide
    # every tap target, toggles (the declarations' options) and the small links included: 44 x 44 px at least
    small = page.evaluate(f"""[...document.querySelectorAll({TARGETS})].filter(b => b.offsetParent)
        .map(b => [b.textContent.trim().slice(0, 20), b.getBoundingClientRect()]).filter(([t, r]) => r.height < 44 || r.width < 44)
        .map(([t, r]) => t + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))""")
    assert small == []


def shot(page, shots, name):
    check_width(page)
    page.screenshot(path=f"{shots}/mus-{name}.png", full_page=True)


def test_a_whole_short_match(live_server, phone, second_phone, shots):
    page = phone.new_page()
    edit_url = start_session(page, live_server)
    page.click("text=+ Mus")
    page.wait_for_selector("h1:has-text('New Mus match')")
    shot(page, shots, "01-new")
    # the four players seated (4 players in the session: already in order), target 10, 2 games to win
    page.click("summary:has-text('Change an option')")
    page.fill("input[name=target]", "10")
    page.fill("input[name=games_to_win]", "2")
    page.click("label:has(input[name=fives_B_pos][value='1'])")
    page.click("button:has-text('Start the match')")
    page.wait_for_url("**/mus/0*")
    game_url = page.url.split("?")[0]
    assert page.locator(".sb-score").all_inner_texts() == ["0", "0"]
    shot(page, shots, "02-start")

    watch = second_phone.new_page()
    edit_page = phone.new_page()
    edit_page.goto(edit_url)
    watch_url = edit_page.input_value("#watch-link")
    edit_page.close()

    # hand 1 (mano Ane): a wrong tap undone, then A envida 2, B no quiero: A +1 at once
    tap(page, "button[value='bet:B:2']")
    assert page.locator("text=Team A answers").is_visible()
    tap(page, "button:has-text('Undo last')")
    tap(page, "button[value='bet:A:2']")
    shot(page, shots, "03-answer")
    tap(page, "button[value=fold]")
    assert page.locator(".sb-score").all_inner_texts() == ["1", "0"]
    tap(page, "button[value=pass]")                        # chica
    page.click("input[name=pares0][value=pareja]")         # Ane
    page.click("input[name=pares1][value=pareja]")         # Bea
    page.click("input[name=juego2][value='31']")           # Carlos
    page.click("input[name=juego3][value=other]")          # Dani
    shot(page, shots, "04-declare")
    tap(page, "button[value=declare]")
    tap(page, "button[value=pass]")                        # pares
    tap(page, "button[value=pass]")                        # juego
    assert page.locator("text=Who had the better").is_visible()
    shot(page, shots, "05-count")
    tap(page, "button[value='showdown:pares:A']")          # both pareja: Ane is nearer the mano anyway
    assert page.locator(".sb-score").all_inner_texts() == ["4", "0"]
    assert page.locator("text=Juego: all passed, A had the better juego").first.is_visible()
    shot(page, shots, "06-counted")

    # hand 2 (mano Bea): the cards with the keypad, then an órdago called: the cards decide the game
    page.click("summary:has-text('Cards known?')")
    for hand in ("RRCS", "7654", "AA45", "CCSA"):           # Bea, Carlos, Dani, Ane (speaking order)
        for card in hand:
            page.click(f"form[data-picker] button[data-card='{card}']")
    assert page.input_value("input[name=cards1]") == "RRCS"
    assert page.input_value("input[name=cards0]") == "CCSA"
    shot(page, shots, "07-cards")
    tap(page, "#thumb button[value='cards:start']")          # the bar's button while the hands are open
    tap(page, "button[value='ordago:A']")
    tap(page, "button[value=call]")
    assert page.locator(".mus-over:has-text('Game 1 won by team B')").is_visible()
    assert page.locator("text=by órdago").first.is_visible()
    shot(page, shots, "08-ordago")

    # game 2, hand 3 (mano Carlos): B envida 5, A quiero; nobody has pares or juego; B had the better grande
    tap(page, "button[value='bet:B:5']")
    tap(page, "button[value=call]")
    tap(page, "button[value=pass]")
    tap(page, "button[value=declare]")
    tap(page, "button[value=pass]")                        # punto
    tap(page, "button[value='showdown:grande:B']")
    assert page.locator(".sb-score").all_inner_texts() == ["0", "5"]
    banner = page.locator("[data-dentro='2-B']")
    assert banner.is_visible() and "DENTRO" in banner.inner_text()
    shot(page, shots, "09-dentro")
    watch.goto(watch_url)
    watch.click("text=Mus")
    watch.wait_for_selector("[data-dentro='2-B']")
    assert watch.locator("form[method=post]:not(.beacon)").count() == 0
    assert watch.locator("text=Fix hand").count() == 0
    check_width(watch)
    watch.screenshot(path=f"{shots}/mus-10-watch.png", full_page=True)

    # hand 4 (mano Dani): A envida 2, B no quiero; chica passed; punto passed
    tap(page, "button[value='bet:A:2']")
    tap(page, "button[value=fold]")
    tap(page, "button[value=pass]")
    tap(page, "button[value=declare]")
    tap(page, "button[value=pass]")
    assert page.locator(".sb-score").all_inner_texts() == ["1", "5"]

    # fix hand 3 in place: A had the better grande, not B (open, flip, save: 3 taps)
    page.tap("a:has-text('Fix hand 3')")
    page.wait_for_selector("h1:has-text('Fix hand 3')")
    page.tap(".fix-winner a.team-a")
    page.wait_for_selector("text=After the fix")
    shot(page, shots, "11-correct")
    page.tap("button[value=save]")
    page.wait_for_selector("text=Hand 3 corrected")
    assert page.locator(".sb-score").all_inner_texts() == ["6", "0"]
    assert page.locator("[data-dentro='2-A']").is_visible()
    assert page.locator("[data-dentro='2-B']").count() == 0
    shot(page, shots, "12-corrected")

    # hand 5 (mano Ane): A envida 5, B 2 más (7), A 5 más (12), B no quiero: A +7 ends game 2 at once
    tap(page, "button[value='bet:A:5']")
    tap(page, "button[value='more:2']")
    tap(page, "button[value='more:5']")
    assert page.locator(".mus-total").inner_text() == "12"
    tap(page, "button[value=fold]")
    assert page.locator(".mus-over:has-text('Game 2 won by team A')").is_visible()
    shot(page, shots, "13-fold-ends")

    # game 3, hand 6 (mano Bea): órdago by B at Grande, called; without cards the count asks who won it
    tap(page, "button[value='ordago:B']")
    tap(page, "button[value=call]")
    tap(page, "button[value='showdown:grande:A']")
    assert page.locator(".mus-over:has-text('Match won by team A')").is_visible()
    assert page.locator("button[name=move]").count() == 0
    shot(page, shots, "14-match")

    state = json.loads(page.request.get(game_url.rsplit("/mus/", 1)[0] + "/state.json").text())["games"][0]
    assert state["games"] == [
        {"winner": "B", "score": {"A": 4, "B": 0}, "by": "ordago"},
        {"winner": "A", "score": {"A": 13, "B": 0}, "by": "points"},
        {"winner": "A", "score": {"A": 0, "B": 0}, "by": "ordago"},
    ]
    assert state["games_won"] == {"A": 2, "B": 1} and state["match_winner"] == "A"
    assert state["score"] == {"A": 0, "B": 0} and state["next_mano"] is None
    assert state["stones"] == {"A": {"amarracos": 0, "ones": 0}, "B": {"amarracos": 0, "ones": 0}, "dish": 22}
    assert [(e["hand"], e["lance"], e["team"], e["points"]) for e in state["log"]] == [
        (1, "grande", "A", 1), (1, "pares", "A", 1), (1, "juego", "A", 2),
        (3, "grande", "A", 5), (4, "grande", "A", 1), (5, "grande", "A", 7)]
    exported = page.request.get(game_url.rsplit("/mus/", 1)[0] + "/session.json").json()
    assert S.load(exported).games[0].state["game_ends"] == [2, 5, 6]     # the hands that ended each game

    page.click("a:has-text('Rules & señas')")
    page.wait_for_selector("h1:has-text('Quick reference')")
    shot(page, shots, "15-reference")
