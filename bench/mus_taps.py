"""Mus tap count: how many taps a scorer makes to record one hand, driving the real pages through the Flask
test client (the same forms a phone gets: every button, link and toggle is read from the served HTML).

A tap is: one button that submits a form (or one link followed), one toggle set away from its default
(a radio of the declarations), one <details> opened, one rank key of the card picker (the keypad of
static/app.js; without JavaScript the same letters are typed). Hidden fields ride along for free.

Scenarios (each for the presets pagat and spanish):
  (i)   everyone passes every lance, the cards are entered (keypad, at the start of the hand);
  (ii)  the same hand without cards: declarations (who has pares / juego), then the count by team;
  (iii) one envite called in Chica (A 2, B quiero), pares and juego uncontested (only A has them).

    python bench/mus_taps.py [--out bench/RESULTS-mus.md]
"""
from __future__ import annotations

import argparse
import html
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from companion import create_app  # noqa: E402

SEATS = ("Ane", "Bea", "Carlos", "Dani")
CARDS = {"Ane": "RRSA", "Bea": "CCS7", "Carlos": "4567", "Dani": "A456"}   # both teams: pares and juego


def hidden(page: str, action: str) -> dict:
    for act, body in re.findall(r'<form[^>]*action="([^"]*)"[^>]*>(.*?)</form>', page, re.S):
        if act == action:
            return {k: html.unescape(v) for k, v in
                    re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', body)}
    raise AssertionError(f"no form posting to {action}")


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

    def button(self, move: str, toggles: dict | None = None, typed: dict | None = None, why: str = ""):
        page = self.page()
        assert f'value="{move}"' in page, f"no button {move} on the page"
        data = hidden(page, f"{self.game}/act")
        data["move"] = move
        data.update(toggles or {})
        data.update(typed or {})
        resp = self.c.post(f"{self.game}/act", data=data)
        assert resp.status_code == 303, (move, resp.status_code)
        self.url = resp.headers["Location"]
        n = 1 + len(toggles or {})
        self.taps += n
        self.log.append(f"{move}{' + ' + str(len(toggles)) + ' toggles' if toggles else ''} ({n})")

    def details(self, summary: str):
        assert summary in self.page()
        self.taps += 1
        self.log.append(f"open '{summary}' (1)")

    def keypad(self, letters: int):
        self.taps += letters
        self.log.append(f"{letters} rank keys ({letters})")

    def count(self, winners: dict):
        """The count without cards: one tap per question the page asks (a lance, or two lances in a 2x2
        grid), links first, then the button that posts the showdown."""
        while True:
            page = self.page()
            pair = re.search(r"Who had the better <strong>(\w+)</strong> and the better <strong>(\w+)</strong>",
                             page)
            one = re.search(r"Who had the better <strong>(\w+)</strong>\?", page)
            if not pair and not one:
                return
            lances = [{"punto": "juego"}.get(x, x) for x in (pair or one).groups()]
            value = "showdown:" + ":".join(f"{L}:{winners[L]}" for L in lances)
            label = " + ".join(f"{L} {winners[L]}" for L in lances)
            if f'value="{value}"' in page:
                self.button(value)
                return
            q = "[^\"]*".join(f"win_{L}={winners[L]}" for L in lances)
            m = re.search(rf'href="([^"]*{q}[^"]*)"', page)
            assert m, f"no link for {label}"
            self.url = html.unescape(m.group(1)).split("#")[0]
            self.taps += 1
            self.log.append(f"better {label} (1)")

    def state(self) -> dict:
        token = self.game.split("/")[2]
        return self.c.get(f"/s/{token}/state.json").get_json()["games"][0]


def new_phone(preset: str) -> Phone:
    app = create_app({"TESTING": True, "DATABASE": os.path.join(tempfile.mkdtemp(), "bench.db"),
                      "BASE_URL": "http://table.example:8000"})
    c = app.test_client()
    csrf = re.search(r'name="csrf" value="([^"]+)"', c.get("/").get_data(as_text=True)).group(1)
    data = {"csrf": csrf, "name": "Bench", "currency": "EUR", **{f"p{i}": p for i, p in enumerate(SEATS)}}
    edit = c.post("/new", data=data).headers["Location"]
    page = c.get(f"{edit}/mus/new").get_data(as_text=True)
    data = {**hidden(page, f"{edit}/mus/new"), "preset": preset,
            **{f"seat{i}": p for i, p in enumerate(SEATS)}}
    game = c.post(f"{edit}/mus/new", data=data).headers["Location"]
    return Phone(c, game)


def hand_i(preset):
    p = new_phone(preset)
    p.details("Cards known? Enter the four hands first")
    p.keypad(16)
    p.button("cards:start", typed={f"cards{i}": CARDS[n] for i, n in enumerate(SEATS)})
    for _ in range(4):
        p.button("pass")
    return p


def hand_ii(preset):
    p = new_phone(preset)
    p.button("pass")                                   # grande
    p.button("pass")                                   # chica
    p.button("declare", toggles={"pares0": "pareja", "pares1": "medias", "juego0": "31", "juego1": "other"})
    p.button("pass")                                   # pares
    p.button("pass")                                   # juego
    p.count({"grande": "A", "chica": "B", "pares": "B", "juego": "A"})
    return p


def hand_iii(preset):
    p = new_phone(preset)
    p.button("pass")                                   # grande
    p.button("bet:A:2")                                # chica: A envida 2
    p.button("call")                                   # B quiero
    p.button("declare", toggles={"pares0": "pareja", "juego2": "31"})
    p.count({"grande": "A", "chica": "B"})
    return p


SCENARIOS = [
    ("(i) all pass, cards entered", hand_i),
    ("(ii) all pass, no cards", hand_ii),
    ("(iii) Chica envite called, pares/juego uncontested", hand_iii),
]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="also write the table (markdown) to this file")
    args = ap.parse_args(argv)
    rows = []
    for name, fn in SCENARIOS:
        for preset in ("pagat", "spanish"):
            p = fn(preset)
            st = p.state()
            assert st["status"] == "ready" and len(st["hands"]) == 1, (name, preset, st["status"])
            rows.append((name, preset, p.taps, " · ".join(p.log), st["score"]))
    lines = ["| scenario | preset | taps | score after | the taps |", "|---|---|---:|---|---|"]
    for name, preset, taps, log, score in rows:
        lines.append(f"| {name} | {preset} | **{taps}** | A {score['A']} – {score['B']} B | {log} |")
    table = "\n".join(lines)
    print(table)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(table + "\n")


if __name__ == "__main__":
    main()
