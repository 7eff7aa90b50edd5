"""The table's language on the page (issue 29): in Spanish and in both Japanese vocabularies, on a touch phone
at 360x740 and 320x640, the club standings, the new-match preset, a Mus hand's card keys, the reference page
and the ratings fit the screen (no sideways scroll) and no header, button, label or name is broken inside a
word (a line breaks only where the language's word segmentation allows); the sala at 1920x1080 likewise.
In the poker words the card keys read K Q J (R C S in brackets). Screenshots: COMPANION_SHOTS=/tmp/shots."""
import json
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "club"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clubdata import example_doc  # noqa: E402
from widths import WIDE  # noqa: E402

PLAYERS = ("Ane", "Bea", "Carlos", "Dani")
CASES = [("es", "spanish"), ("ja", "spanish"), ("ja", "poker")]
LOCALES = {"es": "es-ES", "ja": "ja-JP"}

# every line break inside a short text (a header, a button, a label, a name) must fall on a boundary of
# Intl.Segmenter's words for the page's language; returns the texts broken elsewhere
BROKEN_WORDS = """(selector) => {
  const lang = document.documentElement.lang;
  const seg = new Intl.Segmenter(lang, {granularity: 'word'});
  const out = [];
  const shown = e => e.offsetParent !== null && getComputedStyle(e).visibility !== 'hidden';
  for (const el of document.querySelectorAll(selector)) {
    if (!shown(el)) continue;
    const text = el.textContent;
    if (!text.trim()) continue;
    const joints = new Set([0]);
    for (const s of seg.segment(text)) joints.add(s.index);
    joints.add(text.length);
    // the text nodes in order, with their offsets in textContent
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let node, offset = 0, lastTop = null;
    while ((node = walker.nextNode())) {
      const s = node.textContent;
      for (let i = 0; i < s.length; i++) {
        if (!s[i].trim()) { continue; }
        const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
        const box = [...r.getClientRects()].filter(b => b.width > 0)[0];
        if (!box) continue;
        if (lastTop !== null && box.top > lastTop + 2 && !joints.has(offset + i)) {
          const prev = text[offset + i - 1] || '';
          if (!/[\\s\\-–·、。，,:：/（）()&]/.test(prev))
            out.push(text.trim().replace(/\\s+/g, ' ').slice(0, 40) + ' @' + (offset + i));
        }
        lastTop = box.top;
      }
      offset += s.length;
    }
  }
  return out;
}"""
SHORT_TEXTS = "main th, main h1, main h2, main .btn, main button, main summary, main .label, main .sb-name, " \
              "main label.toggle > span, " \
              "main td.who, main td.fig, main td.rank, main .standings-legend > span"


def settle(page):
    page.wait_for_load_state()
    page.wait_for_selector("html:not([data-busy])", state="attached", timeout=20000)
    page.wait_for_selector("[data-arming]", state="detached", timeout=20000)   # the new controls take taps


def check(page, width, shots, name):
    settle(page)
    page.screenshot(path=f"{shots}/table-language-{name}.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{name}: wider than the screen"
    broken = page.evaluate(BROKEN_WORDS, SHORT_TEXTS)
    assert broken == [], f"{name}: broken inside a word: {broken}"
    wide = page.evaluate(WIDE)
    assert wide == [], f"{name}: {wide}"


def phone(browser, live_server, lang, vocab, width):
    ctx = browser.new_context(viewport={"width": width, "height": 740 if width == 360 else 640},
                              device_scale_factor=2, has_touch=True, is_mobile=True, locale=LOCALES[lang])
    if vocab == "poker":
        ctx.add_cookies([{"name": "vocab", "value": "poker", "url": live_server}])
    return ctx


def import_club_night(ctx, live_server) -> str:
    page = ctx.new_page()
    page.goto(live_server + "/")
    token = page.locator("input[name=csrf]").first.get_attribute("value")
    resp = ctx.request.post(live_server + "/import", max_redirects=0, multipart={
        "csrf": token, "k": "", "file": {"name": "night.json", "mimeType": "application/json",
                                         "buffer": json.dumps(example_doc()).encode()}})
    assert resp.status == 303, resp.text()[:300]
    page.close()
    return live_server + resp.headers["location"]


@pytest.mark.parametrize("width", [360, 320])
@pytest.mark.parametrize("lang,vocab", CASES)
def test_the_club_and_mus_screens_fit_and_keep_words_whole(browser, live_server, shots, lang, vocab, width):
    tag = f"{lang}-{vocab}-{width}"
    ctx = phone(browser, live_server, lang, vocab, width)
    edit = import_club_night(ctx, live_server)
    page = ctx.new_page()
    page.goto(edit + "/club")
    check(page, width, shots, f"{tag}-club")
    assert page.locator(".standings tbody tr").count() == 4
    ranks = page.locator(".standings td.rank").all_inner_texts()
    assert ranks[0] == {"es": "1.º", "ja": "1位"}[lang]
    assert all("=" not in r for r in ranks)
    page.goto(edit)             # the session page's club card: the compact standings
    check(page, width, shots, f"{tag}-session")
    page.goto(edit + "/club")
    figures = page.locator(".standings").inner_text()
    assert "-" not in figures.replace("G-E-P", "").replace("勝-分-負", "").split("\n", 1)[1].replace("-", "", 0) \
        or "−" in figures      # the differences' minus is U+2212, as the scores'

    # a new session of four: the new-match preset, then a hand's cards with the keypad
    page.goto(live_server + "/")
    page.fill("input[name=name]", "Noche")
    for i, p in enumerate(PLAYERS):
        page.fill(f"input[name=p{i}]", p)
    page.tap("form[action$='/new'] button.primary")
    page.wait_for_url("**/s/**")
    session = page.url.split("?")[0]
    page.goto(session + "/mus/new")
    check(page, width, shots, f"{tag}-mus-new")
    page.locator("input[name=preset][value=spanish]").check()
    page.tap("form[action$='/mus/new'] button[type=submit]")
    page.wait_for_url("**/mus/0*")
    game = page.url.split("?")[0]
    for step in ("ordago:A", "call"):      # an órdago called: the cards decide, the keypad opens
        settle(page)
        with page.expect_response(lambda r: r.request.method == "POST"):
            page.tap(f"#thumb button[value='{step}']")
    settle(page)
    page.locator("details.mus-cards > summary").tap()
    page.wait_for_selector("[data-keypad]:not([hidden])")
    keys = page.locator("[data-keypad] .btn[data-card]:not([data-card=back])").all_inner_texts()
    keys = [k.replace("\n", "") for k in keys]
    if vocab == "poker":
        assert keys[:3] == ["K(R)", "Q(C)", "J(S)"], keys
        assert "K Q J" in page.locator("main").inner_text()
        assert page.locator("input[data-cards]").first.get_attribute("placeholder") == "KK43"
    else:
        assert keys[:3] == ["R", "C", "S"], keys
    check(page, width, shots, f"{tag}-mus-cards")
    page.goto(game + "/reference")
    check(page, width, shots, f"{tag}-mus-reference")
    if vocab == "poker":
        assert "K Q J（R C S）" in page.locator("main").inner_text()
    page.goto(live_server + "/ratings")
    check(page, width, shots, f"{tag}-ratings")
    ctx.close()


@pytest.mark.parametrize("lang,vocab", CASES)
def test_the_sala_headers_stand_apart_and_whole(browser, live_server, shots, lang, vocab):
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, locale=LOCALES[lang])
    if vocab == "poker":
        ctx.add_cookies([{"name": "vocab", "value": "poker", "url": live_server}])
    edit = import_club_night(ctx, live_server)
    page = ctx.new_page()
    page.goto(edit + "/club")
    page.goto(live_server + page.locator("a[href$='/sala']").first.get_attribute("href"))
    page.wait_for_selector(".sala-standings .standings")
    page.screenshot(path=f"{shots}/table-language-{lang}-{vocab}-sala-1920.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1920
    # each header inside its own column, on one line
    heads = page.evaluate("""() => [...document.querySelectorAll('.sala-standings th')].map(th => {
        const r = document.createRange(); r.selectNodeContents(th); const t = r.getBoundingClientRect();
        const b = th.getBoundingClientRect(); return [th.textContent.trim(), t.left >= b.left - 1 && t.right <= b.right + 1,
        r.getClientRects().length]; })""")
    assert all(inside and lines == 1 for _, inside, lines in heads), heads
    broken = page.evaluate(BROKEN_WORDS, ".sala-standings th, .sala-standings td.rank")
    assert broken == []
    ctx.close()


def test_the_checker_sees_a_word_broken_in_two(browser):
    ctx = browser.new_context(viewport={"width": 320, "height": 640})
    page = ctx.new_page()
    page.set_content('<html lang="ja"><body><main><table><tr><th style="width:2em;word-break:break-all">プレイヤー</th>'
                     '<th style="width:3em;word-break:keep-all">試合数 勝ち点</th></tr></table>'
                     '<p lang="es"><span class="btn" style="display:inline-block;width:1.5em;word-break:break-all">'
                     'Tanteo</span></p></main></body></html>')
    broken = page.evaluate(BROKEN_WORDS, "main th, main .btn")
    assert {b.split(" @")[0] for b in broken} == {"プレイヤー", "Tanteo"}, broken   # 試合数 勝ち点: at the space
    ctx.close()
