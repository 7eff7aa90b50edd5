"""Newmarket (parlett) and Desmoche played through the UI on a 360 px phone, checked against the state JSON.

Run with COMPANION_SHOTS=/tmp/chips-shots to keep the screenshots."""
import json
import urllib.request

from playwright.sync_api import expect

from companion.record import session as S
from companion.kinds.base import apply_change
from companion.kinds.desmoche import KIND as DM
from companion.kinds.desmoche import Spec
from companion.kinds.desmoche import actions as DA
from companion.kinds.newmarket import KIND as NM
from companion.kinds.newmarket import actions as NA
from companion.kinds.newmarket.options import NewmarketSpec
from companion.domain.messages import render
from helpers import start_session
from taps import at_rest

PLAYERS = ("Ane", "Bea", "Carlos", "Dani")


def _state(edit_url: str) -> dict:
    with urllib.request.urlopen(edit_url + "/state.json") as resp:
        return json.loads(resp.read())


def _session(edit_url: str) -> S.Session:
    """The session read back from its exported file."""
    with urllib.request.urlopen(edit_url + "/session.json") as resp:
        return S.load(json.loads(resp.read()))


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    small = page.evaluate("""[...document.querySelectorAll('.btn, button, .toggle span, input, select')]
        .filter(b => b.offsetParent && getComputedStyle(b).visibility !== 'hidden')
        .map(b => b.getBoundingClientRect()).filter(r => r.height < 44).length""")
    assert small == 0


def press(page, selector: str) -> None:
    """Tap a button or a link that sends a request, once the page is at rest: static/app.js ignores taps on a
    control a swap has just brought in (it is [data-arming] until it takes them), so the tap waits for that
    rather than tapping again on a guess (a retry after a short timeout landed on the next screen, or waited
    30 s for a control already gone, when the machine was busy)."""
    at_rest(page)
    with page.expect_request(lambda r: "since=" not in r.url and r.resource_type in ("document", "xhr", "fetch"),
                             timeout=20000):
        page.click(selector)
    page.wait_for_load_state()


def pick(page, card: str, who: str) -> None:
    """The bar's picker: the card played (or the dead hand), then who played it."""
    page.click(f"#thumb label:has(input[name=card][value='{card}'])")
    press(page, f"#thumb .who button[value='{who}']")


def _engine(kind, game: dict, actions: list) -> dict:
    """The state entry the kind computes for ``game`` after the typed ``actions``."""
    rec = kind.build(game, list(PLAYERS))
    for a in actions:
        rec, _inverse = apply_change(rec, kind.apply(rec, a))
    return kind.state(rec)


def test_newmarket_parlett_through_the_ui(live_server, phone, second_phone, shots):
    page = phone.new_page()
    edit_url = start_session(page, live_server, name="Newmarket night", players=PLAYERS)
    press(page, "a:has-text('+ Newmarket')")
    page.wait_for_selector("h1:has-text('Newmarket')")
    page.click("label.toggle:has-text('Parlett')")
    # the classic-only fields step aside (waited for: a boosted page's stylesheet may still be loading)
    expect(page.locator(".only-classic").first).to_be_hidden()
    page.fill("input[name=chip_value]", "0.10")
    page.screenshot(path=f"{shots}/nm-new.png", full_page=True)
    _fits(page)
    page.click("button:has-text('Add the game')")
    page.wait_for_selector("button:has-text('Start deal 1')")
    game_url = page.url

    # deal 1: Ane deals; Bea takes the dead hand (pays 1 to the pool); Carlos's Queen turns K♣ face down
    press(page, "button:has-text('Start deal 1')")
    page.wait_for_selector("text=Deal 1 in play")
    page.screenshot(path=f"{shots}/nm-deal1-start.png", full_page=True)
    _fits(page)
    pick(page, "dead", "Bea")                                       # the dead hand is in the bar's picker
    page.wait_for_selector("text=Bea took the dead hand")
    pick(page, "QC", "Carlos")
    page.wait_for_selector(".board .pcard.back[aria-label='K♣ face down']")
    page.screenshot(path=f"{shots}/nm-deal1-queen.png", full_page=True)
    press(page, "#thumb a:has-text('End deal 1')")
    press(page, "#thumb button[aria-label='Bea went out']")
    page.wait_for_selector("button:has-text('Start deal 2')")
    page.screenshot(path=f"{shots}/nm-after-deal1.png", full_page=True)
    _fits(page)

    # a second phone watches: piles, no controls
    watcher = second_phone.new_page()
    page.goto(edit_url)
    watch = page.locator("#watch-link").input_value()
    watcher.goto(watch + "/newmarket/0")
    assert watcher.locator("form[method=post]:not(.beacon)").count() == 0   # the beacon only lists the session here
    assert watcher.locator("#thumb").count() == 0
    assert watcher.locator(".board .pcard.back").count() == 1
    page.goto(game_url)

    # deal 2: Bea deals; Dani's Queen takes K♥; blocked: the pool carries
    press(page, "button:has-text('Start deal 2')")
    page.wait_for_selector("text=Deal 2 in play")
    pick(page, "QH", "Dani")
    page.wait_for_selector(".board .pcard.back[aria-label='K♥ face down']")
    press(page, "#thumb a:has-text('End deal 2')")
    press(page, "button:has-text('Blocked')")
    page.wait_for_selector("button:has-text('Start deal 3')")
    watcher.wait_for_selector(".board .pcard.back[aria-label='K♥ face down']", timeout=3000)

    # deal 3: Carlos deals; Ane takes K♠, Bea takes the last King: the game ends by itself
    press(page, "button:has-text('Start deal 3')")
    page.wait_for_selector("text=Deal 3 in play")
    page.screenshot(path=f"{shots}/nm-deal3.png", full_page=True)
    pick(page, "QS", "Ane")
    page.wait_for_selector("text=Ane played Q♠")
    pick(page, "QD", "Bea")
    page.wait_for_selector("text=Game over")
    page.screenshot(path=f"{shots}/nm-final.png", full_page=True)
    _fits(page)
    assert page.locator(".board .pcard.back").count() == 4
    watcher.wait_for_selector("text=Game over", timeout=3000)
    watcher.screenshot(path=f"{shots}/nm-watcher.png", full_page=True)

    game = NM.new_game(list(PLAYERS), NewmarketSpec(seats=list(PLAYERS), variant="parlett", chip_value=10))
    expected = _engine(NM, game, [
        NA.StartDeal(), NA.Exchange(by="Bea"), NA.Boodle(card="QC", by="Carlos"), NA.EndDeal(out="Bea"),
        NA.StartDeal(), NA.Boodle(card="QH", by="Dani"), NA.EndDeal(blocked=True),
        NA.StartDeal(), NA.Boodle(card="QS", by="Ane"), NA.Boodle(card="QD", by="Bea")])
    got = _state(edit_url)["games"][0]
    assert got == expected
    rec = _session(edit_url).games[0]
    assert got["ended"] and NM.current(rec)[0]["face_up"] == [] and sum(got["chips"].values()) == 80
    assert got["net"] == {"Ane": 0, "Bea": 12, "Carlos": -8, "Dani": -4}  # by hand: see the rules file


def test_desmoche_through_the_ui_with_a_rollover(live_server, phone, shots):
    page = phone.new_page()
    edit_url = start_session(page, live_server, name="Desmoche night", players=PLAYERS)
    press(page, "a:has-text('+ Desmoche')")
    page.wait_for_selector("h1:has-text('Desmoche')")
    page.select_option("select[name=seat3]", "")
    page.fill("input[name=stake]", "10")
    page.click("label.toggle:has-text('Bonuses')")
    page.click("label.toggle:has-text('Oro')")
    page.fill("input[name=side_oro]", "5")
    page.screenshot(path=f"{shots}/ds-new.png", full_page=True)
    _fits(page)
    page.click("button:has-text('Add the series')")
    page.wait_for_selector("button:has-text('Record hand 1')")
    page.screenshot(path=f"{shots}/ds-hand1.png", full_page=True)
    _fits(page)

    # hand 1: nobody wins; Ane and Bea joined oro, nobody qualified: it carries
    page.click("label.toggle:has-text('No winner')")
    page.click("fieldset.side label.toggle:has-text('Carlos') >> nth=0")  # Carlos did not join oro
    press(page, "button:has-text('Record hand 1')")
    page.wait_for_selector("button:has-text('Record hand 2')")
    assert page.locator(".felt .mult").inner_text().lower() == "doble"
    page.screenshot(path=f"{shots}/ds-rollover.png", full_page=True)
    _fits(page)

    # hand 2: Bea wins with one mico; Ane laid a meld, Carlos did not (tick him arriba); Ane wins oro
    page.click("fieldset.winner label.toggle:has-text('Bea')")
    page.fill("input[name=mico]", "1")
    page.click("fieldset.bonuses label.toggle:has-text('Carlos')")
    page.click("fieldset.side label.toggle:has-text('Ane') >> nth=1")
    press(page, "button:has-text('Record hand 2')")
    page.wait_for_selector("button:has-text('Record hand 3')")

    # the stake goes up to 20 from hand 3; Carlos wins with a peladilla
    page.fill("input[name=new_stake]", "20")
    press(page, "button:has-text('Change')")
    page.wait_for_selector("text=From hand 3 the stake is 20")
    page.click("fieldset.winner label.toggle:has-text('Carlos')")
    page.click("label.toggle:has-text('Peladilla')")
    press(page, "button:has-text('Record hand 3')")
    page.wait_for_selector("button:has-text('Record hand 4')")
    page.screenshot(path=f"{shots}/ds-after3.png", full_page=True)
    _fits(page)

    page.click("summary:has-text('End the series')")
    press(page, "button:has-text('End the series now')")
    page.wait_for_selector("text=Series over")
    page.screenshot(path=f"{shots}/ds-final.png", full_page=True)
    _fits(page)

    seats = ["Ane", "Bea", "Carlos"]
    game = DM.new_game(list(PLAYERS), Spec(seats=seats, stake=10, bonuses=True, side_games={"oro": 5}, unit_value=10))
    expected = _engine(DM, game, [
        DA.Hand(hand={"winner": None, "side": {"oro": {"joined": ["Ane", "Bea"], "winner": None}}}),
        DA.Hand(hand={"winner": "Bea", "mico": 1, "arriba": ["Carlos"],
                      "side": {"oro": {"joined": ["Ane", "Bea"], "winner": "Ane"}}}),
        DA.SetStake(stake=20),
        DA.Hand(hand={"winner": "Carlos", "auto_win": "peladilla",
                      "side": {"oro": {"joined": ["Ane", "Bea"], "winner": None}}}),
        DA.EndSeries()])
    got = _state(edit_url)["games"][0]
    assert got == expected
    assert sum(got["net"].values()) == 0


def test_both_games_work_without_javascript(live_server, browser, shots):
    # plain forms only: a classic deal paid by cards left, the end of the game, a Desmoche rollover
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2,
                              java_script_enabled=False)
    page = ctx.new_page()
    edit_url = start_session(page, live_server, name="No JS", players=PLAYERS)
    page.click("a:has-text('+ Newmarket')")
    page.click("button:has-text('Add the game')")
    page.click("button:has-text('Start deal 1')")
    page.click("#thumb label:has(input[name=card][value=KC])")     # the card played, then who
    page.click("#thumb .who button[value=Carlos]")
    page.click("#thumb a:has-text('End deal 1')")                   # the end of the deal: a page of its own
    page.click("form[action$='/end'] label.toggle:has-text('Bea')")
    for i, k in ((0, "3"), (2, "5"), (3, "1")):
        page.fill(f"input[name=left_{i}]", k)
    page.click("button:has-text('End deal 1')")
    page.wait_for_selector("button:has-text('Start deal 2')")
    page.click("summary:has-text('End the game')")
    page.click("button:has-text('End the game now')")
    page.wait_for_selector("text=Game over")
    _fits(page)
    page.goto(edit_url)
    page.click("a:has-text('+ Desmoche')")
    page.fill("input[name=stake]", "10")
    page.click("button:has-text('Add the series')")
    page.click("label.toggle:has-text('No winner')")
    page.click("button:has-text('Record hand 1')")
    page.wait_for_selector("button:has-text('Record hand 2')")
    assert page.locator(".felt .mult").inner_text().lower() == "doble"
    page.screenshot(path=f"{shots}/nojs-desmoche.png", full_page=True)
    got = _state(edit_url)["games"]
    assert got[0]["ended"] and got[0]["chips"] == {"Ane": 16, "Bea": 28, "Carlos": 18, "Dani": 18}
    series = DM.overview(_session(edit_url).games[1])
    assert got[1]["pot"] == 40 and render(series["next_multiple_words"]) == "doble"
    ctx.close()
