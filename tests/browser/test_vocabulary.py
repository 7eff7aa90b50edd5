"""Japanese in the seeds' words, with either Mus vocabulary, and Spanish as a Mus table speaks it (issue 20).

On a touch phone at 360x740 and 320x640: a whole Mus hand (an envite in Grande called, passes, the
declaration, the count), a Newmarket deal and a Desmoche hand with a side game. On every Japanese screen no
Spanish Mus word stands alone (only inside a parenthesised gloss), no raw code shows, no label is wider than
its button; across the Mus screens the five lance names and at least five bid words of the chosen vocabulary
appear (and none of the other vocabulary's lance words). Run with COMPANION_SHOTS=/tmp/vocab-shots to keep
the screenshots."""
import re

import pytest

from companion.kinds import glossary

PLAYERS = ("Ane", "Bea", "Carlos", "Dani")
LANCES = ("grande", "chica", "pares", "juego", "punto")
BIDS = ("envite", "raise", "quiero", "no quiero", "paso", "órdago")
RAW_CODE = re.compile(r"\b[a-z]+_[a-z]+\b")
SPANISH_ALONE = re.compile(r"(?i)(?<![\w])(" + "|".join(map(re.escape, glossary.SPANISH_WORDS)) + r")(?![\w])")


def outside_parentheses(text: str) -> str:
    """The text with every parenthesised gloss removed: "ハイ (grande)" -> "ハイ "."""
    prev = None
    while prev != text:
        prev = text
        text = re.sub(r"\([^()（）]*\)|（[^()（）]*）", " ", text)
    return text


def ready(page):
    page.wait_for_load_state("load")


def tap_and_wait(page, selector):
    """A tap that posts: wait for the answer and the page it leads to (no fixed sleeps)."""
    ready(page)
    page.wait_for_selector("html:not([data-busy])", state="attached")    # the last tap's page has settled
    page.wait_for_selector("[data-arming]", state="detached", timeout=20000)   # its controls live
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.locator(selector).first.tap()
    ready(page)
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    page.wait_for_selector("html:not([data-busy])", state="attached")
    page.wait_for_selector("[data-arming]", state="detached", timeout=20000)   # its controls live


def words_of(lang: str, vocab: str) -> dict:
    if lang == "es":
        return {k: glossary.BY_KEY[k].es for k in LANCES + BIDS if k in glossary.BY_KEY}
    field = "ja" if vocab == "spanish" else "poker"
    return {k: getattr(glossary.BY_KEY[k], field) for k in LANCES + BIDS}


def check(page, lang, vocab, width, shots, name, seen):
    page.screenshot(path=f"{shots}/vocab-{lang}-{vocab}-{width}-{name}.png", full_page=True)
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{name}: wider than the screen"
    text = page.evaluate("document.body.innerText")
    seen.append(text)
    raw = sorted(set(RAW_CODE.findall(text)))
    assert raw == [], f"{name}: raw codes on the screen: {raw}"
    # every label fits its button (nothing cut, nothing sticking out)
    wide = page.evaluate("""() => [...document.querySelectorAll('.btn, button, label.toggle')]
        .filter(b => b.offsetParent !== null && b.checkVisibility())
        .filter(b => { const r = b.getBoundingClientRect();
                       if (b.scrollWidth > b.clientWidth + 1) return true;
                       return [...b.querySelectorAll('*')].some(c => { const q = c.getBoundingClientRect();
                           return q.width && (q.left < r.left - 1 || q.right > r.right + 1); }); })
        .map(b => b.textContent.trim().slice(0, 40))""")
    assert wide == [], f"{name}: labels wider than their buttons: {wide}"
    if lang == "ja":
        latin = [k for k in ("Mus", "Newmarket", "Parlett", "Desmoche", "Conquián") if re.search(rf"\b{k}\b", text)]
        assert latin == [], f"{name}: a game's name in Latin letters on a Japanese screen: {latin}"
        alone = sorted({m.lower() for m in SPANISH_ALONE.findall(outside_parentheses(text))})
        assert alone == [], f"{name}: Spanish Mus words standing alone on a Japanese screen: {alone}"
        other = "poker" if vocab == "spanish" else "ja"
        mine = "ja" if vocab == "spanish" else "poker"
        bare = outside_parentheses(text)
        foreign = [getattr(t, other) for t in glossary.TERMS if t.game == "mus" and getattr(t, other) != getattr(t, mine)
                   and getattr(t, other) not in ("ゲーム", "ペア")   # ordinary words too ("3ゲーム先取")
                   and re.search(rf"(?<![ァ-ヶー・]){getattr(t, other)}(?![ァ-ヶー・])", bare)]
        if "mus" not in name:
            foreign = []      # スリーカード is Desmoche's tres cuerpos in both vocabularies
        assert foreign == [], f"{name}: the other vocabulary's words: {foreign}"


@pytest.mark.parametrize("width,height", [(360, 740), (320, 640)])
@pytest.mark.parametrize("locale,lang,vocab", [("ja-JP", "ja", "spanish"), ("ja-JP", "ja", "poker"),
                                               ("es-ES", "es", "spanish")])
def test_a_night_in_the_tables_words(browser, live_server, shots, locale, lang, vocab, width, height):
    ctx = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=2, has_touch=True,
                              is_mobile=True, locale=locale)
    page = ctx.new_page()
    seen: list[str] = []
    page.goto(live_server + "/")
    ready(page)
    assert page.locator(".lang-menu > summary").inner_text().strip() == {"ja": "日本語", "es": "Español"}[lang]
    if lang == "ja":
        # the vocabulary is chosen in the language menu and kept by this browser
        page.locator(".lang-menu > summary").tap()
        with page.expect_navigation():
            page.locator(f".lang-list a[data-vocab={vocab}]").tap()
        ready(page)
        assert page.locator(f".lang-list a[data-vocab={vocab}][aria-current]").count() == 1
    page.fill("input[name=name]", "Noche")
    for i, p in enumerate(PLAYERS):
        page.fill(f"input[name=p{i}]", p)
    page.locator("form[action$='/new'] button.primary").tap()
    page.wait_for_url("**/s/**")
    edit = page.url.split("?")[0]

    # Mus: Grande, A envida 2 and B says quiero; Chica passed; the rest passed with pares declared; counted
    page.goto(edit + "/mus/new")
    ready(page)
    page.locator("input[name=preset][value=spanish]").check()
    page.locator("form[action$='/mus/new'] button[type=submit]").tap()
    page.wait_for_url("**/mus/0*")
    game = page.url.split("?")[0]
    ready(page)
    check(page, lang, vocab, width, shots, "01-mus-grande", seen)
    tap_and_wait(page, "#thumb button[value='bet:A:2']")
    check(page, lang, vocab, width, shots, "02-mus-answer", seen)
    tap_and_wait(page, "#thumb button[value=call]")
    check(page, lang, vocab, width, shots, "03-mus-chica", seen)
    tap_and_wait(page, "#thumb button[value=pass]")
    check(page, lang, vocab, width, shots, "04-mus-after-chica", seen)
    page.goto(game + "?rest=1")
    ready(page)
    check(page, lang, vocab, width, shots, "05-mus-declare", seen)
    page.locator("label:has(input[name=pares0][value=pareja])").first.tap()
    page.locator("label:has(input[name=win_juego][value=B])").tap()      # nobody has juego: B wins punto
    tap_and_wait(page, "#thumb button[name=move]")
    check(page, lang, vocab, width, shots, "06-mus-counted", seen)
    assert page.locator("[name=pares0]").count() == 0, "the hand was not counted"
    page.goto(game + "/reference")
    ready(page)
    check(page, lang, vocab, width, shots, "08-mus-reference", seen)
    mus_text = "\n".join(seen)
    words = words_of(lang, vocab)
    for lance in LANCES:
        assert words[lance] in mus_text, f"the lance {lance} ({words[lance]}) is not on the Mus screens"
    bids = {words[b] for b in BIDS if words.get(b) and words[b] in mus_text}
    if lang == "ja":
        assert len(bids) >= 5, f"bid words on the Mus screens: {sorted(bids)}"
    if lang == "es":
        assert re.search(r"\bes mano \w+", mus_text), "the player who is mano: «es mano Koldo»"

    # Newmarket (Parlett): a Queen taken, then who went out
    page.goto(edit + "/newmarket/new")
    ready(page)
    page.locator("label:has(input[name=variant][value=parlett])").tap()
    page.locator("form[action$='/newmarket/new'] button.primary").tap()
    page.wait_for_url("**/newmarket/1*")
    ready(page)
    check(page, lang, vocab, width, shots, "09-newmarket", seen)
    tap_and_wait(page, "#thumb form[action$='/start'] button")
    page.locator("#thumb label:has(input[name=card][value=QH])").tap()
    tap_and_wait(page, "#thumb .who button[value=Dani]")
    check(page, lang, vocab, width, shots, "10-newmarket-deal", seen)

    # Desmoche with a side game (corazón negro): Carlos wins the hand, Bea the side game
    page.goto(edit + "/desmoche/new")
    ready(page)
    page.fill("input[name=stake]", "10")
    page.locator("label:has(input[name=side_on_corazon_negro])").tap()
    page.fill("input[name=side_corazon_negro]", "2")
    check(page, lang, vocab, width, shots, "11-desmoche-new", seen)
    page.locator("form[action$='/desmoche/new'] button.primary").tap()
    page.wait_for_url("**/desmoche/2*")
    ready(page)
    for p in PLAYERS:       # everyone joins (those ticked already stay ticked)
        if not page.locator(f"input[name=side_corazon_negro_joined][value={p}]").is_checked():
            page.locator(f"label:has(input[name=side_corazon_negro_joined][value={p}])").tap()
    page.locator("label:has(input[name=side_corazon_negro_winner][value='p:Bea'])").tap()
    page.locator("#thumb label:has(input[name=winner][value='p:Carlos'])").tap()
    tap_and_wait(page, "#thumb button[type=submit]")
    check(page, lang, vocab, width, shots, "12-desmoche-hand", seen)
    assert page.locator(".has-error, [aria-invalid=true]").count() == 0, "the Desmoche hand was refused"
    assert page.locator("input[name=side_corazon_negro_joined]:checked").count() in (0, 4)   # next hand's form
    body = page.locator("body").inner_text()
    page.goto(edit)         # the session page lists the three games by name
    ready(page)
    check(page, lang, vocab, width, shots, "13-session", seen)
    if lang == "ja":
        assert "コラソン・ネグロ" in body and "デスモッシュ" in "\n".join(seen)
    else:
        assert "Corazón negro" in body or "corazón negro" in body
    ctx.close()
