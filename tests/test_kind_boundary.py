"""A kind is one folder: its name appears nowhere else in the app's code, templates or static files (the
app asks the kind), and CONTRACT.md lists exactly what the ``Kind`` Protocol says a kind provides."""
import re
import typing
from pathlib import Path

import pytest

from companion import kinds
from companion.kinds.base import ClubMatch, Kind, RatedPairs

ROOT = Path(__file__).resolve().parent.parent
SCANNED = [ROOT / "companion", ROOT / "templates", ROOT / "static"]
CODE = {".py", ".html", ".css", ".js"}
VENDORED = {"htmx-2.0.11.min.js"}


_GLOSSARY = ("the app's words shared by several games (partida, bote, pareja; kitty's seed): their English and "
             "seed columns name the games they cite (docs/glossary.md); each game's own words are in its folder")
# Files inside companion/kinds/ but outside one kind's folder (the app's code outside kinds/ names none): each file and the kinds it may
# name, with why. Anything else asks the kind. An allowance no longer used fails (test below), so the list
# only shrinks. (Added when the club night, ratings and glossary branches met the one-folder kinds.)
ALLOWED: dict[str, tuple[set[str], str]] = {
    "companion/kinds/glossary.py": ({"mus", "newmarket", "desmoche"}, _GLOSSARY),
    "companion/kinds/newmarket/glossary.py": ({"desmoche"}, _GLOSSARY),
}


def mentions(name: str, allowed: dict | None = None) -> list[str]:
    """Lines outside the kind's own package that name it (as a word: ``mus.css``, ``mus_game`` count),
    except in the files ``allowed`` lets name it."""
    word = re.compile(rf"(?<![a-z]){re.escape(name)}(?![a-z])", re.I)
    own = ROOT / "companion" / "kinds" / name
    out = []
    for top in SCANNED:
        for path in sorted(top.rglob("*")):
            if path.suffix not in CODE or path.name in VENDORED or own in path.parents:
                continue
            if name in (allowed or {}).get(path.relative_to(ROOT).as_posix(), (set(), ""))[0]:
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if word.search(line):
                    out.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    return out


@pytest.mark.parametrize("name", sorted(kinds.KINDS))
def test_nothing_outside_a_kind_names_it(name):
    assert mentions(name, ALLOWED) == []


def test_every_allowance_is_still_needed():
    """An allowance a file no longer uses is dropped (it would let a new mention in unseen)."""
    unused = []
    for path, (names, _why) in ALLOWED.items():
        for name in names:
            if not any(m.startswith(f"{path}:") for m in mentions(name)):
                unused.append((path, name))
    assert unused == []


def test_the_scan_sees_a_name(tmp_path, monkeypatch):
    """The check itself: a kind's name written in a shared module is found."""
    (tmp_path / "companion").mkdir()
    (tmp_path / "companion" / "extra.py").write_text("CSS = {'mus': 'mus.css'}\n")
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    monkeypatch.setattr(__import__(__name__), "SCANNED", [tmp_path / "companion"])
    assert mentions("mus") == ["companion/extra.py:1: CSS = {'mus': 'mus.css'}"]


def contract_names(what: str = "KIND") -> set[str]:
    """What CONTRACT.md's "What `<what>` provides" block lists: attributes and methods by name."""
    text = (ROOT / "companion" / "kinds" / "CONTRACT.md").read_text(encoding="utf-8")
    block = text.split(f"## What `{what}` provides", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    names = set()
    for line in block.splitlines():
        code = line.split("#", 1)[0]
        for part in code.split(";"):
            m = re.match(r"\s*([a-z_]+)\s*[:(]", part) or re.match(r"\s*([a-z_]+)\s*$", part)
            if m:
                names.add(m.group(1))
    return names


def protocol_names(protocol: type = Kind) -> set[str]:
    methods = {n for n, v in vars(protocol).items() if callable(v) and not n.startswith("_")}
    return set(typing.get_type_hints(protocol)) | methods


def test_the_contract_and_the_protocol_say_the_same():
    assert contract_names() == protocol_names()
    assert contract_names("club_match") == protocol_names(ClubMatch)
    assert contract_names("rated_pairs") == protocol_names(RatedPairs)


def test_one_kind_plays_the_club_matches():
    """The club asks the registry for it (kinds.club_kind), so exactly one kind may answer."""
    assert [k.name for k in kinds.KINDS.values() if k.club_match is not None] == [kinds.club_kind().name]


@pytest.mark.parametrize("name", sorted(kinds.KINDS))
def test_every_kind_provides_the_protocol(name):
    kind = kinds.KINDS[name]
    assert {n for n in protocol_names() if not hasattr(kind, n)} == set()
    assert kind.name == name == type(kind).__module__.split(".")[2]


@pytest.mark.parametrize("name", sorted(kinds.KINDS))
def test_every_kind_has_the_pages_the_app_links_to(app, name):
    """The app links to a kind's game page and its new-game form by these endpoints (CONTRACT.md)."""
    assert {f"{name}.game", f"{name}.new"} <= set(app.view_functions)
    assert app.blueprints[name].template_folder == "templates"


def test_a_kinds_stylesheet_comes_from_its_folder_packed(client):
    """The Mus page links the stylesheet its kind names, served from the kind's static folder, minified
    and compressed like the app's."""
    from helpers import csrf, new_session

    links = new_session(client)
    resp = client.post(f"{links['edit']}/mus/new", data={"csrf": csrf(client), "seat0": "Ane", "seat1": "Bea",
                                                          "seat2": "Carlos", "seat3": "Dani", "preset": "pagat"})
    page = client.get(resp.headers["Location"]).get_data(as_text=True)
    href = re.search(r'<link rel="stylesheet" href="(/kinds/mus/mus\.css\?v=[0-9a-f]+)">', page).group(1)
    css = client.get(href, headers={"Accept-Encoding": "gzip"})
    assert css.status_code == 200 and css.headers["Content-Encoding"] == "gzip"
    assert css.headers["Content-Type"].startswith("text/css") and "immutable" in css.headers["Cache-Control"]
