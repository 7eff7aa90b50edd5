"""Issue 28 in the browser: 80 pairs (160 players) set up through the tournament page (pasted), drawn into
20 groups of 4, round 1 started (40 tables), its 40 table cards printed on A4, and the sala at 1920x1080
and 1024x768 showing the next round's seating in pages that turn by themselves, no name cut."""
import os
import re
import subprocess

from helpers import start_session

FIRST = ["Maialen", "Aitziber", "Itziar", "Garazi", "Nahikari", "Ainhoa", "Josune", "Edurne", "Arantxa", "Izaskun",
         "Koldobika", "Gorka", "Iñaki", "Xabier", "Joseba", "Unai", "Aitor", "Eneko", "Mikel", "Asier"]
LAST = ["Etxeberria", "Larrañaga", "Goikoetxea", "Urrutikoetxea", "Agirrezabala", "Olabarrieta", "Zubizarreta",
        "Arrizabalaga"]
NAMES = [f"{FIRST[i % 20]} {LAST[i // 20]}" for i in range(160)]
PAIRS = [NAMES[2 * i:2 * i + 2] for i in range(80)]


def no_name_cut(page, selector):
    """Every name element whole: nothing wider than its box, at most two lines."""
    return page.eval_on_selector_all(selector, """els => els.filter(e => {
        const lh = parseFloat(getComputedStyle(e).lineHeight) || parseFloat(getComputedStyle(e).fontSize) * 1.2;
        return e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().height > 2 * lh + 2;
      }).map(e => e.textContent)""")


def show(page, url, data_page):
    """The sala held on one of its pages (sala.js: ?page=<data-page>)."""
    page.goto(f"{url}?page={data_page}")
    page.wait_for_selector(f'.sala-tables.shown[data-page="{data_page}"]', state="attached")


def test_eighty_pairs_drawn_started_carded_and_announced(browser, live_server, tmp_path, shots):
    base = live_server
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2, has_touch=True,
                              is_mobile=True)
    org = ctx.new_page()
    edit = start_session(org, base, name="Ourense open", players=PAIRS[0])
    watch = org.locator("#watch-link").input_value()
    org.goto(edit + "/tournament")
    org.locator("summary:has-text('Paste pairs')").click()
    org.fill("textarea[name=pairs]", "\n".join(", ".join(p) for p in PAIRS))
    org.locator("button:has-text('Add these pairs')").click()
    org.wait_for_selector("#stages")
    assert org.locator("#pairs ol li").count() == 80
    org.fill("input[name=groups_brackets-groups]", "20")
    with org.expect_navigation():
        org.locator("button:has-text('Save the plan')").click()
    org.wait_for_selector("#plan-0")
    # the draw: 20 groups of 4 (serpentine), round 1 at 40 tables, every pair seated once, no byes
    rows = org.locator("#plan-0 li")
    assert rows.count() == 40
    seated = org.eval_on_selector_all("#plan-0 li .team-a, #plan-0 li .team-b", "els => els.map(e => e.textContent)")
    assert sorted(seated) == sorted(" & ".join(p) for p in PAIRS)
    # group 1 = seeds 1, 40, 41, 80: its circle-method round 1 at tables 1 and 2
    first = [" & ".join(PAIRS[i]) for i in (0, 39, 40, 79)]
    assert {rows.nth(0).locator(".team-a").text_content(), rows.nth(0).locator(".team-b").text_content(),
            rows.nth(1).locator(".team-a").text_content(), rows.nth(1).locator(".team-b").text_content()} == set(first)
    button = org.locator("button:has-text('Start round 1 of Groups')")
    button.scroll_into_view_if_needed()
    org.screenshot(path=os.path.join(shots, "tournament-start-360.png"))
    box = button.bounding_box()
    assert box["height"] >= 44 and box["width"] <= 360
    button.click()
    org.wait_for_selector("text=Start the tournament?")       # asked first: the pairs and plan become fixed
    org.locator("button:has-text('Yes, do it')").click()
    org.wait_for_selector("button:has-text('Start round 2 of Groups')")
    # the 40 table cards, two an A4 sheet
    org.goto(edit + "/club/cards")
    assert org.locator(".table-card").count() == 40
    assert org.locator(".table-card h1").first.text_content().strip() == "Table 1"
    pdf = tmp_path / "cards.pdf"
    org.pdf(path=str(pdf), format="A4", prefer_css_page_size=True, print_background=True)
    out = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert int(re.search(r"Pages:\s+(\d+)", out).group(1)) == 20
    # the pairings sheet: round 1's 40 tables on one A4 page
    org.goto(edit + "/tournament/sheet")
    assert org.locator(".sheet tbody tr").count() == 40
    pdf = tmp_path / "sheet.pdf"
    org.pdf(path=str(pdf), format="A4", prefer_css_page_size=True, print_background=True)
    out = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert int(re.search(r"Pages:\s+(\d+)", out).group(1)) == 1
    subprocess.run(["pdftoppm", "-png", "-r", "60", str(pdf), os.path.join(shots, "pairings-sheet")], check=True)
    # the sala: the live tables, then the next round's seating in pages of 20, no name cut
    for w, h in ((1920, 1080), (1024, 768)):
        sctx = browser.new_context(viewport={"width": w, "height": h})
        sala = sctx.new_page()
        url = re.sub(r"^https?://[^/]+", base, watch) + "/sala"
        sala.goto(url)
        sala.wait_for_selector(".seating", state="attached")
        pages = sala.locator(".seating")
        assert pages.count() == 2
        assert sala.locator(".seating .seat").count() == 40
        for i in range(2):
            show(sala, url, f"seat{i}")
            sala.screenshot(path=os.path.join(shots, f"sala-seating-{w}x{h}-{i}.png"))
            assert no_name_cut(sala, ".seating.shown .name") == []
            assert sala.evaluate("document.documentElement.scrollHeight <= window.innerHeight")
            # every seat row inside the screen
            assert sala.eval_on_selector_all(".seating.shown .seat", f"els => els.every(e => e.getBoundingClientRect().bottom <= {h})")
        if w == 1920:
            # the group standings turn with them
            assert sala.locator(".group-standings").count() == 20
        sctx.close()
    ctx.close()


def test_a_bracket_of_64_pairs_on_the_sala(browser, live_server, tmp_path, shots):
    """One knockout of 64 pairs: its 32 ties start together; the sala draws the bracket in four pages of 8
    round-1 ties and a page of its finals, every name whole at 1920x1080 and 1024x768."""
    base = live_server
    pairs = PAIRS[:64]
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2, has_touch=True,
                              is_mobile=True)
    org = ctx.new_page()
    edit = start_session(org, base, name="Bracket night", players=pairs[0])
    watch = org.locator("#watch-link").input_value()
    org.goto(edit + "/tournament")
    org.locator("summary:has-text('Paste pairs')").click()
    org.fill("textarea[name=pairs]", "\n".join(", ".join(p) for p in pairs))
    org.locator("button:has-text('Add these pairs')").click()
    org.wait_for_selector("#stages")
    org.locator("input[name=template][value=knockout]").check()
    with org.expect_navigation():
        org.locator("button:has-text('Save the plan')").click()
    org.wait_for_selector("#plan-0")
    assert org.locator("#plan-0 li").count() == 32
    # seeds 1 and 64 meet at table 1, seeds 32 and 33 at table 2 (bracket order)
    assert org.locator("#plan-0 li").nth(0).locator(".team-a").text_content() == " & ".join(pairs[0])
    assert org.locator("#plan-0 li").nth(0).locator(".team-b").text_content() == " & ".join(pairs[63])
    org.locator("button:has-text('Start the ready ties')").click()
    org.locator("button:has-text('Yes, do it')").click()
    org.wait_for_selector("#stages:not(:has(#plan-0))")
    # the printed bracket: five A4 landscape sheets (four of eight round-1 ties, one of the finals)
    org.goto(edit + "/tournament/bracket")
    assert org.locator(".print-bracket").count() == 5
    pdf = tmp_path / "bracket.pdf"
    org.pdf(path=str(pdf), prefer_css_page_size=True, print_background=True)
    out = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert int(re.search(r"Pages:\s+(\d+)", out).group(1)) == 5
    width, height = map(float, re.search(r"Page size:\s+([\d.]+) x ([\d.]+)", out).groups())
    assert abs(width - 842) < 2 and abs(height - 595) < 2             # A4 landscape, in points
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", str(pdf), os.path.join(shots, "bracket-print")],
                   check=True)
    for w, h in ((1920, 1080), (1024, 768)):
        sctx = browser.new_context(viewport={"width": w, "height": h})
        sala = sctx.new_page()
        url = re.sub(r"^https?://[^/]+", base, watch) + "/sala"
        sala.goto(url)
        sala.wait_for_selector(".bracket-page", state="attached")
        assert sala.locator(".bracket-page").count() == 5
        assert sala.locator(".bracket-page .tie").count() == 64      # 63 ties and the third-place match
        for i in range(5):
            show(sala, url, f"br{i}")
            sala.screenshot(path=os.path.join(shots, f"sala-bracket-{w}x{h}-{i}.png"))
            assert no_name_cut(sala, ".bracket-page.shown .name") == []
            sizes = sala.eval_on_selector_all(".bracket-page.shown .tie", "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))")
            assert min(sizes) >= 12
            assert sala.eval_on_selector_all(".bracket-page.shown .tie", f"els => els.every(e => e.getBoundingClientRect().bottom <= {h})")
        sctx.close()
    ctx.close()
