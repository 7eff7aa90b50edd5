"""Issue 28 in the browser: the worked example of rules/tournament.md (10 pairs, groups then brackets A and
B) played through the UI from the registration to the podium. The organizer pastes nine pairs and taps
the tenth, checks them in, saves the plan as the page offers it (the spec's plan), starts every round and
tie from the tournament page (the first start asked first) and ends the two rounds the clock ends; four
table phones score their tables from the QR codes of the printed table cards; the sala at 1920x1080 shows
the results, the next seating and the brackets, and ends on the podium; the state JSON, the session page
and the CSV give the spec's classification."""
import io
import json
import re
import sys
from pathlib import Path
from urllib.parse import quote

import zxingcpp
from PIL import Image
from taps import at_rest, live_version, wait_recorded

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "club"))     # the worked example's data
from tourneydata import GROUP_ROUNDS, NAMES, P, STAGES  # noqa: E402

# Not marked both_engines: on PostgreSQL it takes 3 minutes (180 s measured alone, against 126 s on SQLite),
# and the store under these pages is what the non-browser tests check on both engines (tests/conftest.py);
# COMPANION_TEST_ENGINES=all runs it there too.

# the brackets as the spec plays them: (stage, round, table, a, b, finished games, game in progress)
BRACKET_ROUNDS = [
    [(1, "1", 8, 2, [(40, 31), (22, 40), (40, 35)], None), (2, "3", 4, 6, [(40, 10), (40, 36)], None),
     (2, "4", 7, 5, [(40, 32), (30, 40), (39, 40)], None), (1, "2", 3, 1, [(40, 33), (29, 40)], (18, 24))],
    [(1, "1", 8, 1, [(40, 20), (35, 40), (38, 40), (40, 12), (27, 40)], None),
     (1, "2", 2, 3, [(25, 40), (30, 40)], None), (2, "3", 4, 5, [(40, 35), (21, 40), (40, 33)], None)],
]
NIGHT = [(1, 1), (8, 2), (3, 3), (2, 4), (4, 5), (5, 6), (7, 7), (6, 7), (10, 9), (9, 9)]     # (pair, rank)


def phone_ctx(browser):
    return browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2, has_touch=True,
                               is_mobile=True)


def name(i):
    return " & ".join(P[i])


def organizer_page(org, url):
    org.goto(url)
    at_rest(org)


def submit(page, button, path):
    """Tap a form's button and wait for the write's answer (the page's address may not change: a form of
    the tournament page comes back to it), then for the page at rest."""
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith(path)) as answer:
        button.tap()
    assert answer.value.status in (200, 303), answer.value.status
    at_rest(page)


def start(org, edit, label, first=False):
    """Tap a start button of the tournament page (the first start is asked first), back on the page."""
    organizer_page(org, edit + "/tournament")
    button = org.locator(f"button:has-text('{label}')")
    box = button.bounding_box()
    assert box["height"] >= 44
    submit(org, button, "/tournament/start")
    if first:
        org.wait_for_selector("text=Start the tournament?")
        submit(org, org.locator("button:has-text('Yes, do it')"), "/tournament/start")
    assert org.url.endswith("/tournament")


def end_round(org, edit):
    organizer_page(org, edit + "/club")
    submit(org, org.locator("button:has-text('End the round')"), "/club/end")


def card_links(org, edit) -> dict:
    """Each table card's label and the link its QR code opens."""
    organizer_page(org, edit + "/club/cards")
    out = {}
    cards = org.locator(".table-card")
    for i in range(cards.count()):
        label = re.search(r"Table (\S+)", cards.nth(i).locator("h1").text_content()).group(1)
        found = zxingcpp.read_barcodes(Image.open(io.BytesIO(cards.nth(i).locator(".card-qr").screenshot())))
        assert len(found) == 1
        out[label] = found[0].text
    return out


def tally(phone, game_url, awards):
    """One hand counted on the table's phone: the awards in the tally's address (as its + buttons put
    them there), then the phone's own *Count the hand* tap."""
    phone.goto(game_url + "?mode=tally&tally=" + quote(json.dumps(awards)))
    at_rest(phone)
    before = live_version(phone)
    phone.locator("button:has-text('Count the hand')").tap()
    wait_recorded(phone, before)


def play(ctx, link, a, b, games, current=None):
    """A table's match from its card's link, scanned again on the table's phone (a new tab: the old one
    would follow the table to its new match by itself, racing the scan): each game (the loser's points,
    then the winner's 40), then the game in progress. The phone shows the pairs the plan seated there."""
    for old in ctx.pages:
        old.close()
    phone = ctx.new_page()
    phone.goto(link)
    phone.wait_for_url(re.compile(r".*/mus/\d+$"))
    at_rest(phone)
    text = phone.locator("main").text_content()
    assert P[a][0] in text and P[b][0] in text
    game_url = phone.url
    for x, y in games:
        win, lose = ("A", "B") if x > y else ("B", "A")
        pts = {"A": x, "B": y}
        tally(phone, game_url, ([[lose, pts[lose]]] if pts[lose] else []) + [[win, pts[win]]])
    if current:
        tally(phone, game_url, [[team, p] for team, p in zip("AB", current) if p])


def seating(sala, url, n=0):
    sala.goto(f"{url}?page=seat{n}")
    sala.wait_for_selector(f'.sala-tables.shown[data-page="seat{n}"]', state="attached")
    return [re.sub(r"\s+", " ", x).strip() for x in
            sala.eval_on_selector_all(".seating.shown .seat", "els => els.map(e => e.textContent)")]


def test_ten_pairs_from_the_draw_to_the_podium(browser, live_server, shots):
    base = live_server
    org_ctx, sala_ctx = phone_ctx(browser), browser.new_context(viewport={"width": 1920, "height": 1080})
    phones_ctx = [phone_ctx(browser) for _ in range(4)]
    org, sala = org_ctx.new_page(), sala_ctx.new_page()
    try:
        # registration: the session starts with P10's players, nine pairs pasted, the tenth tapped
        org.goto(base + "/")
        org.fill("input[name=name]", "AEIT night")
        org.fill("input[name=p0]", P[10][0])
        org.fill("input[name=p1]", P[10][1])
        org.locator("button:has-text('Start the session')").tap()
        org.wait_for_url("**/s/**")
        edit = org.url.split("?")[0]
        watch = re.sub(r"^https?://[^/]+", base, org.locator("#watch-link").input_value())
        organizer_page(org, edit + "/tournament")
        org.locator("summary:has-text('Paste pairs')").tap()
        org.fill("textarea[name=pairs]", "\n".join(", ".join(P[i]) for i in range(1, 10)))
        submit(org, org.locator("button:has-text('Add these pairs')"), "/tournament/paste")
        org.wait_for_selector("#stages")
        org.locator("summary:has-text('Add a pair')").tap()
        org.locator("select[name=a]").select_option(P[10][0])
        org.locator("select[name=b]").select_option(P[10][1])
        submit(org, org.locator("#pairs button:has-text('Add a pair')"), "/tournament/pair")
        org.locator('#pairs ol li').nth(9).wait_for()
        assert [x.strip() for x in org.locator("#pairs ol li").all_text_contents()] == [name(i) for i in range(1, 11)]
        # the check-in (everyone is here) and the plan as the page offers it
        submit(org, org.locator("button:has-text('Keep only the pairs checked in')"), "/tournament/checkin")
        assert org.locator("#plan-groups_brackets input[type=radio]").is_checked()
        submit(org, org.locator("button:has-text('Save the plan')"), "/tournament/plan")
        club = org.request.get(edit + "/session.json").json()["club"]
        assert club["stages"] == STAGES and club["minutes"] == 50 and club["pairs"] == [P[i] for i in range(1, 11)]

        # the groups: five rounds as the spec proposes them, every table scored on its phone
        links = {}
        for rnd, games in GROUP_ROUNDS.items():
            organizer_page(org, edit + "/tournament")
            rows = org.locator("#plan-0 li")
            assert [(rows.nth(t).locator(".team-a").text_content(), rows.nth(t).locator(".team-b").text_content())
                    for t in range(rows.count())] == [(name(a), name(b)) for a, b, _s in games]
            start(org, edit, f"Start round {rnd} of Groups", first=rnd == 1)
            if rnd == 1:
                links = card_links(org, edit)
                assert sorted(links) == ["1", "2", "3", "4"]
                sala.goto(watch + "/sala")
                sala.wait_for_selector(".tbl")
                assert sala.locator(".tbl").count() == 4
            for t, (a, b, score) in enumerate(games, 1):
                if score is None:
                    play(phones_ctx[t - 1], links[str(t)], a, b, [], (20, 20))     # drawn when the clock ends it
                else:
                    play(phones_ctx[t - 1], links[str(t)], a, b, [score])
            if rnd == 2:
                end_round(org, edit)
            if rnd == 1:
                # the sala: round 1's results and the next seating (round 2, table 1: P1 v P9), byes P8, P7
                sala.locator(".tbl.done").nth(3).wait_for(state="attached", timeout=20000)
                rows = seating(sala, watch + "/sala")
                assert rows[0].startswith("Table 1Groups · Round 2") and name(1).split(" & ")[0] in rows[0]
                byes = sala.locator(".seating.shown .seat-byes").text_content()
                assert name(8) in byes and name(7) in byes
        # after round 5: the groups done, both brackets' semifinals proposed side by side (A at 1-2, B at 3-4)
        organizer_page(org, edit + "/tournament")
        for k, ties in ((1, [("1", 8, 2), ("2", 3, 1)]), (2, [("3", 4, 6), ("4", 7, 5)])):
            rows = org.locator(f"#plan-{k} li")
            assert [re.sub(r"\s+", " ", rows.nth(i).text_content()).strip() for i in range(rows.count())] == [
                f"Table {tb}: {name(a)} vs {name(b)}" for tb, a, b in ties]
        for rnd, ties in enumerate(BRACKET_ROUNDS, 1):
            start(org, edit, "Start the ready ties of Bracket A")
            start(org, edit, "Start the ready ties of Bracket B")
            for stage, table, a, b, games, current in ties:
                play(phones_ctx[int(table) - 1], links[table], a, b, games, current)
            if rnd == 1:
                end_round(org, edit)            # P3-P1 at 1-1, 18-24 in the third: P1 wins on the clock
                sala.goto(watch + "/sala?page=br0")
                sala.wait_for_selector('.sala-tables.shown[data-page="br0"]', state="attached")
                won = sala.eval_on_selector_all(".sala-tables.shown .tie-pair.won", "els => els.map(e => e.textContent)")
                assert len(won) == 2 and any(P[1][0] in w for w in won) and any(P[8][0] in w for w in won)
                sala.screenshot(path=f"{shots}/tournament-bracket-a-1920x1080.png")
        # the podium on the sala, the night's classification page, the state, the session page and the CSV
        sala.goto(watch + "/sala?page=class")
        sala.wait_for_selector('.sala-tables.shown[data-page="class"]', state="attached")
        podium = [re.sub(r"\s+", " ", x).strip() for x in sala.locator(".podium .step").all_text_contents()]
        assert podium == [f"1 {name(1)}", f"2 {name(8)}", f"3 {name(3)}"]
        listed = [re.sub(r"\s+", " ", x).strip() for x in sala.locator(".night-class li").all_text_contents()]
        assert listed == [f"{rank} {name(i)}" for i, rank in NIGHT]
        assert sala.evaluate("document.documentElement.scrollHeight <= window.innerHeight")
        sala.screenshot(path=f"{shots}/tournament-podium-1920x1080.png")
        state = org.request.get(watch + "/state.json").json()
        assert [(r["pair"], r["rank"]) for r in state["club"]["classification"]] == [(P[i], r) for i, r in NIGHT]
        assert [s["done"] for s in state["club"]["stages"]] == [True, True, True]
        assert state["club"]["stages"][1]["bracket"][0][1]["games"] == [1, 1]      # won on the game in progress
        organizer_page(org, edit)
        assert [x.strip() for x in org.locator("#session-classification .podium-list li").all_text_contents()] == [
            f"1. {name(1)}", f"2. {name(8)}", f"3. {name(3)}"]
        csv = org.request.get(watch + "/tournament/classification.csv").text()
        assert csv.lstrip("\ufeff").splitlines()[1] == "AEIT night,1,Ane,Bea,1,Bracket A"
        assert sorted(NAMES) == sorted(x for i in range(1, 11) for x in P[i])
    finally:
        for c in (org_ctx, sala_ctx, *phones_ctx):
            c.close()
