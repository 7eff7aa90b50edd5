"""Every example of the spec, through the command line (``companion state FILE``): the session file's
JSON examples (../shared/formats/session-v1.md) import and compute, the state example's keys are all
there, and the worked examples of ../shared/rules/*.md give the numbers their text gives."""
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.ops.cli import main

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
# ../shared is the word; the repository keeps the format in docs/ (what the README links to, what a clone
# has), identical to ../shared's wherever both are there (the test below)
COPY = ROOT / "docs" / "session-v1.md"
FORMAT = COPY
PLAYERS = ["Ane", "Bea", "Carlos", "Dani", "Eneko"]


@pytest.mark.parametrize("shared,copy", [("formats/session-v1.md", "session-v1.md"), ("design.md", "design.md"),
                                         ("rules/club.md", "club.md"),
                                         ("rules/tournament.md", "tournament.md")])
def test_the_docs_are_the_shared_texts(shared, copy):
    """What the README links to is in the repository, and says what ../shared says."""
    ours, theirs = ROOT / "docs" / copy, SHARED / shared
    assert ours.exists()
    if theirs.exists():
        assert ours.read_text() == theirs.read_text(), f"copy ../shared/{shared} to docs/{copy}"


def test_the_readme_links_only_to_what_a_clone_has():
    readme = (ROOT / "README.md").read_text()
    assert "../shared" not in readme
    for link in re.findall(r"\]\(((?!https?:)[^)#]+)", readme):
        assert (ROOT / link).exists(), link


def state_of(tmp_path, doc: dict) -> dict:
    path = tmp_path / "night.json"
    path.write_text(json.dumps(doc, ensure_ascii=False))
    result = CliRunner().invoke(main, ["state", str(path)])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def session(*games, players=PLAYERS, **extra) -> dict:
    return {"format": "companion-session/1", "name": "Example", "players": list(players), "games": list(games),
            **extra}


def json_blocks(path: Path) -> list:
    blocks = re.findall(r"```json\n(.*?)```", path.read_text(), re.S)
    out = []
    for text in blocks:
        text = text.replace("[ ... ]", "[]")      # the session example leaves its games out
        out.append(json.loads(text))
    return out


# --------------------------------------------------------------------------------------------------
# session-v1.md

def test_the_format_examples_import_and_compute(tmp_path):
    blocks = json_blocks(FORMAT)
    header = next(b for b in blocks if b.get("format") == "companion-session/1")
    games = [b for b in blocks if b.get("kind") in ("mus", "newmarket", "desmoche")]
    assert {g["kind"] for g in games} == {"mus", "newmarket", "desmoche"}
    state = state_of(tmp_path, {**header, "games": games})
    assert [g["kind"] for g in state["games"]] == [g["kind"] for g in games]
    assert state["format"] == "companion-state/1" and set(state["settle"]["net"]) == set(header["players"])
    for game in games:          # and each on its own
        assert state_of(tmp_path, {**header, "games": [game]})["games"][0]["kind"] == game["kind"]


def test_the_state_example_names_keys_the_app_computes(tmp_path):
    blocks = json_blocks(FORMAT)
    example = next(b for b in blocks if b.get("format") == "companion-state/1")
    header = next(b for b in blocks if b.get("format") == "companion-session/1")
    games = [b for b in blocks if b.get("kind") in ("mus", "newmarket", "desmoche")]
    state = state_of(tmp_path, {**header, "games": games})
    assert set(example) <= set(state)
    assert set(example["settle"]) <= set(state["settle"])
    for want, got in zip(example["games"], state["games"]):
        assert want["kind"] == got["kind"] and set(want) <= set(got), (want["kind"], set(want) - set(got))


def test_tally_hands_and_adjustments_of_the_format(tmp_path):
    mus = {"kind": "mus", "seats": PLAYERS[:4], "hands": [
        {"tally": [{"team": "A", "points": 3, "lance": "pares", "why": "duples"}, {"team": "B", "points": 1}]},
        {"adjust": {"team": "B", "points": -1, "why": "hand 1 miscounted"}},
        {"grande": [{"team": "A", "bet": 2}, {"team": "B", "fold": True}]}]}
    st = state_of(tmp_path, session(mus))["games"][0]
    assert st["score"] == {"A": 4, "B": 0}
    assert [(e["hand"], e["lance"], e["team"], e["points"]) for e in st["log"]] == [
        (1, "pares", "A", 3), (1, "tally", "B", 1), (1, "adjust", "B", -1), (2, "grande", "A", 1)]
    assert st["next_mano"] == "Carlos"      # the adjustment did not rotate the mano


def test_a_carried_newmarket_game_needs_no_carry_in(tmp_path):
    first = {"kind": "newmarket", "rules": {"leftover": "carry"}, "seats": PLAYERS[:4], "start_chips": 20,
             "deals": [{"boodles_won": [{"card": "KC", "by": "Carlos"}], "out": "Bea",
                        "cards_left": {"Ane": 3, "Carlos": 5, "Dani": 1}}], "ended": True}
    second = {"kind": "newmarket", "seats": PLAYERS[:4], "start_chips": 20, "deals": []}
    st = state_of(tmp_path, session(first, second))
    assert st["games"][1]["pots"] == {"AH": 4, "KC": 0, "QD": 4, "JS": 4}      # the first game's piles
    assert st["settle"]["on_table"] == 12      # they lie on the second game's table: nothing is lost


# --------------------------------------------------------------------------------------------------
# rules/*.md worked examples

def _mus(hands, preset="spanish", **rules):
    return session({"kind": "mus", "rules": {"preset": preset, **rules}, "seats": PLAYERS[:4], "hands": hands})


NOBODY = {"pares_held": {}, "juego_held": {}}


def _awards(st, lance=None):
    return [(e["lance"], e["team"], e["points"]) for e in st["games"][0]["log"] if lance in (None, e["lance"])]


def test_mus_examples_1_to_4(tmp_path):
    # 1. Grande all passed, B better: B +1 (pagat: nothing)
    h = {"showdown": {"grande": "B", "chica": "A", "juego": "A", **NOBODY}}
    assert _awards(state_of(tmp_path, _mus([h])), "grande") == [("grande", "B", 1)]
    assert _awards(state_of(tmp_path, _mus([h], "pagat")), "grande") == []
    # 2. A bets 2, B raises to 7, A folds: B +2; A raises to 17, B folds: A +7
    st = state_of(tmp_path, _mus([{"grande": [{"team": "A", "bet": 2}, {"team": "B", "raise": 7},
                                              {"team": "A", "fold": True}]}], "pagat"))
    assert _awards(st)[0] == ("grande", "B", 2)
    st = state_of(tmp_path, _mus([{"grande": [{"team": "A", "bet": 2}, {"team": "B", "raise": 7},
                                              {"team": "A", "raise": 17}, {"team": "B", "fold": True}]}], "pagat"))
    assert _awards(st)[0] == ("grande", "A", 7)
    # 3. pareja + medias for A, duples for B; A bets 2, B folds: A +1 at once, A +3 at the count
    h = {"pares": [{"team": "A", "bet": 2}, {"team": "B", "fold": True}],
         "showdown": {"grande": "A", "chica": "A", "juego": "A", "pares_held": {"Ane": "pareja", "Carlos": "medias",
                                                                                "Bea": "duples"}, "juego_held": {}}}
    assert _awards(state_of(tmp_path, _mus([h])), "pares") == [("pares", "A", 1), ("pares", "A", 3)]
    # 4. Juego called at 2; A holds 31 and 33, B's best 32: A +7 (pagat +5)
    h = {"juego": [{"team": "A", "bet": 2}, {"team": "B", "call": True}],
         "showdown": {"grande": "A", "chica": "A", "pares_held": {},
                      "juego_held": {"Ane": 31, "Carlos": 33, "Bea": 32}}}
    assert _awards(state_of(tmp_path, _mus([h])), "juego") == [("juego", "A", 7)]
    assert _awards(state_of(tmp_path, _mus([h], "pagat")), "juego") == [("juego", "A", 5)]


def test_mus_examples_5_to_7(tmp_path):
    to_38_36 = {"grande": [{"team": "A", "bet": 37}, {"team": "B", "call": True}],
                "chica": [{"team": "A", "bet": 2}, {"team": "B", "fold": True}],
                "juego": [{"team": "B", "bet": 35}, {"team": "A", "call": True}],
                "showdown": {"grande": "A", "juego": "B", **NOBODY}}
    # 5. A 38, B 36; grande passed B better (B 37); chica called at 2, A better: A reaches 40, the rest uncounted
    h = {"chica": [{"team": "A", "bet": 2}, {"team": "B", "call": True}],
         "showdown": {"grande": "B", "chica": "A", "pares": "A", "juego": "A",
                      "pares_held": {"Ane": "duples", "Bea": "pareja"}, "juego_held": {"Ane": 31, "Bea": 33}}}
    st = state_of(tmp_path, _mus([to_38_36, h]))
    assert st["games"][0]["games"] == [{"winner": "A", "score": {"A": 40, "B": 37}, "by": "points"}]
    # 6. A 20, B 39; A bets 2, B raises to 7, A folds: B +2 -> 41, B wins at once
    to_20_39 = {"grande": [{"team": "A", "bet": 18}, {"team": "B", "call": True}],
                "chica": [{"team": "B", "bet": 39}, {"team": "A", "call": True}],
                "juego": [{"team": "A", "bet": 2}, {"team": "B", "fold": True}],
                "showdown": {"grande": "A", "chica": "B", **NOBODY}}
    h = {"grande": [{"team": "A", "bet": 2}, {"team": "B", "raise": 7}, {"team": "A", "fold": True}]}
    st = state_of(tmp_path, _mus([to_20_39, h]))
    assert st["games"][0]["games"] == [{"winner": "B", "score": {"A": 20, "B": 41}, "by": "points"}]
    # 7. Órdago at grande, called; the mano (A) and B both hold RR7A: the mano is nearer, A wins
    h = {"cards": {"Ane": "RR7A", "Bea": "RR7A", "Carlos": "C456", "Dani": "S456"},
         "grande": [{"team": "B", "ordago": True}, {"team": "A", "call": True}]}
    st = state_of(tmp_path, _mus([h]))
    assert st["games"][0]["games"] == [{"winner": "A", "score": {"A": 0, "B": 0}, "by": "ordago"}]


def test_newmarket_worked_example(tmp_path):
    game = {"kind": "newmarket", "rules": {"variant": "classic"}, "seats": PLAYERS[:4], "start_chips": 20,
            "deals": [{"boodles_won": [{"card": "KC", "by": "Carlos"}], "out": "Bea",
                       "cards_left": {"Ane": 3, "Carlos": 5, "Dani": 1}}]}
    st = state_of(tmp_path, session(game))["games"][0]
    assert st["chips"] == {"Ane": 13, "Bea": 25, "Carlos": 15, "Dani": 15}
    assert st["pots"] == {"AH": 4, "KC": 0, "QD": 4, "JS": 4}
    assert sum(st["chips"].values()) + sum(st["pots"].values()) == 80
    st = state_of(tmp_path, session({**game, "ended": True}))["games"][0]
    assert st["chips"] == {"Ane": 16, "Bea": 28, "Carlos": 18, "Dani": 18}


def test_desmoche_worked_example(tmp_path):
    game = {"kind": "desmoche", "rules": {"variant": "desmoche", "stake": 10, "bonuses": True},
            "seats": PLAYERS[:3], "hands": [{"winner": None}, {"winner": "Bea", "mico": 1, "arriba": ["Carlos"]}]}
    st = state_of(tmp_path, session(game))["games"][0]
    assert st["net"] == {"Ane": -30, "Bea": 70, "Carlos": -40} and st["pot"] == 0


def test_settle_example_the_fewest_payments(tmp_path):
    players = ["Ane", "Bea", "Carlos", "Dani", "Eneko", "Fermín"]

    def duel(winner, loser, amount):   # a two-player series of one hand, one unit worth one cent
        return {"kind": "desmoche", "rules": {"stake": amount}, "seats": [winner, loser], "unit_value": 1,
                "hands": [{"winner": winner}]}

    doc = session(duel("Carlos", "Eneko", 600), duel("Dani", "Bea", 300), duel("Dani", "Fermín", 200),
                  duel("Ane", "Eneko", 100), duel("Ane", "Fermín", 100), players=players)
    st = state_of(tmp_path, doc)["settle"]
    assert st["net"] == {"Ane": 200, "Bea": -300, "Carlos": 600, "Dani": 500, "Eneko": -700, "Fermín": -300}
    assert st["method"] == "exact" and len(st["payments"]) == 4
    assert sorted((p["from"], p["to"], p["amount"]) for p in st["payments"]) == sorted([
        ("Bea", "Carlos", 300), ("Fermín", "Carlos", 300), ("Eneko", "Ane", 200), ("Eneko", "Dani", 500)])
    banker = state_of(tmp_path, {**doc, "settle": {"banker": "Ane"}})["settle"]
    assert banker["method"] == "banker" and all("Ane" in (p["from"], p["to"]) for p in banker["payments"])


def test_a_bad_file_is_one_line_on_the_command_line(tmp_path):
    path = tmp_path / "bad.json"
    for raw in (b"\xff\xfe", b'{"a": 1, "a": 2}', b"[" * 5000, b'{"x": ' + b"9" * 5000 + b"}",
                json.dumps(session(players=["Ane", "Bea\u202e"])).encode()):
        path.write_bytes(raw)
        result = CliRunner().invoke(main, ["state", str(path)])
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert result.output.startswith("Error: ") and result.output.count("\n") == 1, result.output
