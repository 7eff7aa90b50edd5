"""A kind is one folder, for real (issue 27): a copy of the app with the test-only kind's folder
(tests/kinds/duel: rules, pages, templates, translations, random taps) dropped into companion/kinds/, and
nothing else changed, adds the game to a session, scores it, lists it, charts it, rates it and speaks it
in Spanish and Japanese."""
import filecmp
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DUEL = Path(__file__).resolve().parent / "duel"
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc")

# run in the copy: the app as a phone uses it, through Flask's test client
SCRIPT = r'''
import json, re, sys
from companion import create_app, kinds
from helpers import csrf, form_fields, new_session

app = create_app({"TESTING": True, "DATABASE": sys.argv[1], "BASE_URL": "http://table.example:8000"})
client = app.test_client()
out = {"kinds": sorted(kinds.KINDS)}
links = new_session(client, players=("Ane", "Bea", "Carlos"))
session_page = client.get(links["edit"]).get_data(as_text=True)
out["offered"] = "/duel/new" in session_page
new = client.get(links["edit"] + "/duel/new").get_data(as_text=True)
resp = client.post(links["edit"] + "/duel/new", data={**form_fields(new), "a": "Ane", "b": "Bea", "stake": "10"})
out["added"] = resp.status_code
game = resp.headers["Location"].split("?")[0]
for to in ("Ane", "Ane", "Bea", "Ane"):
    page = client.get(game).get_data(as_text=True)
    fields = form_fields(page, game + "/point")
    client.post(game + "/point", data={**{k: v for k, v in fields.items()}, "to": to})
page = client.get(game).get_data(as_text=True)
out["score"] = re.search(r'<p class="lead">([^<]*)</p>', page).group(1)
r = client.post(game + "/finish", data=form_fields(page, game + "/finish"))
out["finished"] = r.status_code
state = json.loads(client.get(links["view"] + "/state.json").get_data(as_text=True))
out["state"] = state["games"][0]
out["listed"] = "Ane 3 – 1 Bea" in client.get(links["edit"]).get_data(as_text=True)   # the game's headline
history = client.get(links["view"] + "/history").get_data(as_text=True)
out["charted"] = "<figure" in history and "<svg" in history
ratings = client.get("/ratings?kind=duel").get_data(as_text=True)
out["rated"] = all(name in ratings for name in ("Ane", "Bea")) and "Carlos" not in ratings   # the duel's two
out["es"] = "Duelo" in client.get(game, headers={"Accept-Language": "es"}).get_data(as_text=True)
out["ja"] = "決闘" in client.get(game, headers={"Accept-Language": "ja"}).get_data(as_text=True)
print(json.dumps(out, ensure_ascii=False))
'''


def _same_tree(a: Path, b: Path) -> list[str]:
    """Files that differ between two trees (added, removed or changed), as paths relative to them."""
    out = []
    cmp = filecmp.dircmp(a, b, ignore=["__pycache__"])
    stack = [(cmp, Path())]
    while stack:
        c, rel = stack.pop()
        out += [str(rel / n) for n in c.left_only + c.right_only + c.diff_files + c.funny_files]
        stack += [(sub, rel / name) for name, sub in c.subdirs.items()]
    return sorted(out)


def test_a_new_kind_is_one_folder(tmp_path):
    copy = tmp_path / "app"
    for top in ("companion", "templates", "static"):
        shutil.copytree(ROOT / top, copy / top, ignore=SKIP)
    shutil.copytree(DUEL, copy / "companion" / "kinds" / "duel", ignore=SKIP)
    # what the new kind touched: its own folder, nothing else
    for top in ("templates", "static"):
        assert _same_tree(ROOT / top, copy / top) == []
    assert _same_tree(ROOT / "companion", copy / "companion") == ["kinds/duel"]

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(copy), str(ROOT / "tests")])}
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "night.db")], cwd=copy, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert "duel" in out["kinds"]
    assert out["offered"] and out["added"] == 303 and out["finished"] == 303
    assert out["score"] == "Ane 3 – 1 Bea"
    assert out["state"]["kind"] == "duel" and out["state"]["winner"] == "Ane"
    assert out["listed"] and out["charted"] and out["rated"]
    assert out["es"] and out["ja"]
