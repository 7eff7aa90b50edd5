"""Mus tap count: how many taps a scorer makes to record one hand, driving the real pages through the Flask
test client (the same pages a phone gets: every button, link, toggle and hidden field is read from the
served HTML; nothing is posted that the page does not offer).

A tap is: one button that submits a form (also a thumb-bar button that submits a form of the page with
``form=``), one link followed, one toggle set away from its default (a radio of the declarations), one
<details> opened, one rank key of the card picker (the keypad of static/app.js; without JavaScript the
same letters are typed). Hidden fields ride along for free.

Scenarios (each for the presets pagat and spanish; 4 players, mano Ane, team A = Ane & Carlos):
  (i)   everyone passes every lance, the cards are entered (keypad, at the start of the hand);
  (ii)  everyone passes, no cards, both teams have pares and juego (Ane pareja + 31, Bea medias + other);
  (iii) everyone passes, no cards, nobody has pares or juego (Punto is played);
  (iv)  one envite called in Chica (A 2, B quiero), pares and juego uncontested (only A has them);
  (v)   a tally match: the all-pass hand of (ii), its points added per team;
  (vi)  fixing one lance's winner in a past hand (the Chica of (iv) was B's, not A's);
  (vii) the showdown with the cards entered: an órdago accepted in Grande (2 taps, not counted), then at
        the count the four hands are entered (16 rank keys) and counted;
  (viii) fixing what was held in a past hand: in (iv) Bea (team B) held pareja too, and B's was better.

    python bench/mus_taps.py [--out bench/RESULTS-mus.md]
"""
from __future__ import annotations

import argparse
import html
import os
import re
import sys
import tempfile
from urllib.parse import unquote_plus

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from companion import create_app  # noqa: E402

SEATS = ("Ane", "Bea", "Carlos", "Dani")
CARDS = {"Ane": "RRSA", "Bea": "CCS7", "Carlos": "4567", "Dani": "A456"}   # both teams: pares and juego
AIMS = {"(i)": None, "(ii)": 6, "(iii)": 6, "(iv)": 6, "(v)": 3, "(vi)": 4, "(vii)": 18, "(viii)": 5}


def forms(page: str) -> list[tuple[dict, str]]:
    """Every form of the page: (its attributes, its inner HTML)."""
    out = []
    for attrs, body in re.findall(r"<form([^>]*)>(.*?)</form>", page, re.S):
        out.append((dict(re.findall(r'([\w-]+)="([^"]*)"', attrs)), body))
    return out


def hidden_of(body: str) -> dict:
    return {k: html.unescape(v) for k, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', body)}


class Phone:
    """A scorer on the game page, counting taps."""

    def __init__(self, client, game_url):
        self.c = client
        self.game = game_url
        self.url = game_url
        self.taps = 0
        self.log: list[str] = []

    def page(self) -> str:
        return self.c.get(self.url).get_data(as_text=True)

    def _post(self, action: str, data: dict, what: str, n: int):
        resp = self.c.post(action, data=data)
        assert resp.status_code == 303, (what, resp.status_code, re.findall(
            r'class="(?:error|thumb-note)"[^>]*>([^<]*)', resp.get_data(as_text=True)))
        self.url = resp.headers["Location"]
        self.taps += n
        self.log.append(f"{what} ({n})")

    def button(self, move: str, toggles: dict | None = None, typed: dict | None = None):
        """Tap the button with this ``move``: the fields of the form it submits (its own, or the one its
        ``form=`` names), plus the toggles set and the text typed."""
        page = self.page()
        m = re.search(rf'<button[^>]*value="{re.escape(move)}"[^>]*>', page)
        assert m, f"no button {move} on the page"
        target = re.search(r'form="([^"]+)"', m.group(0))
        for attrs, body in forms(page):
            if (target and attrs.get("id") == target.group(1)) or (not target and f'name="move" value="{move}"' in body):
                data = {**hidden_of(body), "move": move, **(toggles or {}), **(typed or {})}
                n = 1 + len(toggles or {})
                label = move + (f" + {len(toggles)} toggles" if toggles else "")
                return self._post(html.unescape(attrs["action"]), data, label, n)
        raise AssertionError(f"no form for {move}")

    def link(self, pattern: str, what: str):
        """Follow the first link whose text or address matches ``pattern``."""
        page = self.page()
        for href, text in re.findall(r'<a[^>]*href="([^"]+)"[^>]*>(.*?)</a>', page, re.S):
            if re.search(pattern, text) or re.search(pattern, unquote_plus(html.unescape(href))):
                self.url = html.unescape(href)
                self.taps += 1
                self.log.append(f"{what} (1)")
                return
        raise AssertionError(f"no link {pattern}")

    def get_form(self, marker: str, toggles: dict, what: str):
        """Submit the GET form holding ``marker`` (a hidden field, e.g. name="edit" value="held") with its
        checked radios as they are, the toggles set (one tap each) and its button (one tap)."""
        page = self.page()
        for attrs, body in forms(page):
            if marker in body and attrs.get("method") == "get":
                data = hidden_of(body)
                for name, value in re.findall(r'<input type="radio" name="([^"]+)" value="([^"]*)"[^>]*checked', body):
                    data[name] = html.unescape(value)
                data.update(toggles)
                resp = self.c.get(html.unescape(attrs["action"]), query_string=data)
                assert resp.status_code == 303, (what, resp.status_code, re.findall(
                    r'class="error"[^>]*>([^<]*)', resp.get_data(as_text=True)))
                self.url = resp.headers["Location"]          # the page with the changed draft
                self.taps += 1 + len(toggles)
                self.log.append(f"{what} + {len(toggles)} toggles ({1 + len(toggles)})")
                return
        raise AssertionError(f"no GET form with {marker}")

    def details(self, summary: str):
        assert summary in self.page()
        self.taps += 1
        self.log.append(f"open '{summary}' (1)")

    def keypad(self, letters: int):
        self.taps += letters
        self.log.append(f"{letters} rank keys ({letters})")

    def count(self, winners: dict):
        """The count without cards: one tap per question the thumb bar asks (one lance, or two in a 2x2
        grid): links first, then the button that posts the showdown."""
        while True:
            page = self.page()
            q = re.search(r"who had the better (\w+)(?: and (\w+))?\?", page)
            if not q or "<strong>The count</strong>" not in page:
                return
            lances = [{"punto": "juego"}.get(x, x) for x in q.groups() if x]
            value = "showdown:" + ":".join(f"{L}:{winners[L]}" for L in lances)
            if f'value="{value}"' in page:
                return self.button(value)
            self.link("[^\"]*".join(f"win_{L}={winners[L]}" for L in lances), f"better {' + '.join(lances)}")

    def state(self) -> dict:
        token = self.game.split("/")[2]
        return self.c.get(f"/s/{token}/state.json").get_json()["games"][0]

    def hands(self) -> list:
        token = self.game.split("/")[2]
        return self.c.get(f"/s/{token}/session.json").get_json()["games"][0]["hands"]


def new_phone(preset: str, scoring: str = "bids") -> Phone:
    app = create_app({"TESTING": True, "DATABASE": os.path.join(tempfile.mkdtemp(), "bench.db"),
                      "BASE_URL": "http://table.example:8000"})
    c = app.test_client()
    csrf = re.search(r'name="csrf" value="([^"]+)"', c.get("/").get_data(as_text=True)).group(1)
    data = {"csrf": csrf, "name": "Bench", "currency": "EUR", **{f"p{i}": p for i, p in enumerate(SEATS)}}
    edit = c.post("/new", data=data).headers["Location"]
    page = c.get(f"{edit}/mus/new").get_data(as_text=True)
    body = next(b for a, b in forms(page) if a.get("action") == f"{edit}/mus/new")
    data = {**hidden_of(body), "preset": preset, "scoring": scoring, **{f"seat{i}": p for i, p in enumerate(SEATS)}}
    game = c.post(f"{edit}/mus/new", data=data).headers["Location"]
    return Phone(c, game)


def rest_grid(p: Phone, winners: dict) -> str:
    """The "everyone passes" count button for these winners of Grande and Chica (whichever it asks)."""
    page = p.page()
    for value in re.findall(r'value="(rest[^"]*)"', page):
        parts = value.split(":")
        if all(winners.get(L) == t for L, t in zip(parts[1::2], parts[2::2])):
            return value
    raise AssertionError("no count button")


def hand_i(preset):
    p = new_phone(preset)
    p.details("Cards known? Enter the four hands first")
    p.keypad(16)
    p.button("cards:start", typed={f"cards{i}": CARDS[n] for i, n in enumerate(SEATS)})
    p.button("rest")                                  # Paso en todo: the cards decide everything
    return p


def hand_ii(preset):
    p = new_phone(preset)
    p.link("Paso en todo", "Paso en todo…")
    held = {"pares0": "pareja", "pares1": "medias", "juego0": "31", "juego1": "other"}
    p.button(rest_grid(p, {"grande": "A", "chica": "B"}), toggles=held)
    return p


def hand_iii(preset):
    p = new_phone(preset)
    p.link("Paso en todo", "Paso en todo…")
    p.button(rest_grid(p, {"grande": "A", "chica": "B"}), toggles={"win_juego": "B"})   # punto: B
    return p


def hand_iv(preset):
    p = new_phone(preset)
    p.button("pass")                                   # grande
    p.button("bet:A:2:call")                           # chica: A envida 2, B quiero (one tap)
    p.button("declare", toggles={"pares0": "pareja", "juego2": "31"})
    p.count({"grande": "A", "chica": "A"})
    return p


def hand_v(preset):
    p = new_phone(preset, scoring="tally")
    ref = hand_ii(preset).state()["score"]             # the same hand, counted by the table
    for team in ("A", "B"):
        if ref[team]:
            p.link(rf"tally=.*\[\"{team}\",{ref[team]},null\]\]$", f"+{ref[team]} {team}")
    p.button("tally")
    assert p.state()["score"] == ref, (p.state()["score"], ref)
    return p


def hand_vi(preset):
    p = hand_iv(preset)
    p.taps, p.log = 0, []
    before = p.state()["score"]
    p.url = p.game
    p.link(r"Fix hand 1", "Fix hand 1")
    p.link(r'draft=.*"chica":"B"', "Better chica: B")
    p.button("save")
    after = p.state()["score"]
    assert after != before, "the fix changed nothing"
    return p


def hand_vii(preset):
    p = new_phone(preset)
    p.button("ordago:A")                               # grande: A órdago, B quiero: the count decides
    p.button("call")
    assert "Or enter the four hands" in p.page(), "not at the count"
    p.taps, p.log = 0, []                              # counted from the showdown screen
    p.details("Or enter the four hands")
    p.keypad(16)
    p.button("cards:showdown", typed={f"cards{i}": CARDS[n] for i, n in enumerate(SEATS)})
    return p


def hand_viii(preset):
    p = hand_iv(preset)
    p.taps, p.log = 0, []
    before = p.hands()[0]
    p.url = p.game
    p.link(r"Fix hand 1", "Fix hand 1")
    p.get_form('name="edit" value="held"', {"pares1": "pareja", "win_pares": "B"}, "Use what was held")
    p.button("save")
    after = p.hands()[0]
    assert after != before and after["showdown"]["pares"] == "B", after
    return p


SCENARIOS = [
    ("(i) all pass, cards entered", hand_i),
    ("(ii) all pass, no cards, both teams pares + juego", hand_ii),
    ("(iii) all pass, no cards, nobody pares or juego", hand_iii),
    ("(iv) Chica envite called, pares/juego uncontested", hand_iv),
    ("(v) tally match: the hand of (ii)", hand_v),
    ("(vi) fix one lance's winner in a past hand", hand_vi),
    ("(vii) the count (showdown) with the cards entered", hand_vii),
    ("(viii) fix what was held (pares) in a past hand", hand_viii),
]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="also write the table (markdown) to this file")
    args = ap.parse_args(argv)
    rows = []
    for name, fn in SCENARIOS:
        for preset in ("pagat", "spanish"):
            p = fn(preset)
            st, hands = p.state(), p.hands()
            assert len(hands) == 1 and "open" not in hands[0], (name, preset, hands)
            aim = AIMS[name.split()[0]]
            rows.append((name, preset, p.taps, aim, " · ".join(p.log), st["score"]))
    lines = ["| scenario | preset | taps | aim | score after | the taps |", "|---|---|---:|---:|---|---|"]
    for name, preset, taps, aim, log, score in rows:
        lines.append(f"| {name} | {preset} | **{taps}** | {'≤ ' + str(aim) if aim else '–'} | "
                     f"A {score['A']} – {score['B']} B | {log} |")
    table = "\n".join(lines)
    print(table)
    over = [(n, p, t, a) for n, p, t, a, _l, _s in rows if a and t > a]
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(table + "\n")
    if over:
        print("OVER THE AIM:", over)
        sys.exit(1)


if __name__ == "__main__":
    main()
