"""companion import | export | state, offline."""
import json

from click.testing import CliRunner

from companion.ops.cli import main

DOC = {"format": "companion-session/1", "name": "Paper notes", "players": ["Ane", "Bea"], "games": []}


def test_state_prints_the_computed_state(tmp_path):
    f = tmp_path / "s.json"
    f.write_text(json.dumps(DOC))
    result = CliRunner().invoke(main, ["state", str(f)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["format"] == "companion-state/1"


def test_import_then_export(tmp_path, new_database):
    f = tmp_path / "s.json"
    f.write_text(json.dumps(DOC))
    db = new_database("c.db")
    result = CliRunner().invoke(main, ["import", "--db", db, str(f)])
    assert result.exit_code == 0, result.output
    sid = json.loads(result.output)["id"]
    result = CliRunner().invoke(main, ["export", "--db", db, str(sid)])
    assert result.exit_code == 0
    assert json.loads(result.output) == DOC
    result = CliRunner().invoke(main, ["check", "--db", db])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("ok: 1 sessions")


def test_a_bad_file_names_its_path(tmp_path):
    f = tmp_path / "bad.json"
    f.write_text(json.dumps({**DOC, "players": ["Ane", "Ane"]}))
    result = CliRunner().invoke(main, ["state", str(f)])
    assert result.exit_code != 0
    assert "players[1]: Ane is listed twice" in result.output


def test_export_of_a_missing_session(tmp_path, new_database):
    db = new_database("c.db")
    if "://" in db:
        CliRunner().invoke(main, ["check", "--db", db])      # a database server is there, with no session 42
    result = CliRunner().invoke(main, ["export", "--db", db, "42"])
    assert result.exit_code != 0 and "no session 42" in result.output


def test_state_imports_neither_flask_nor_sqlite(tmp_path):
    import subprocess
    import sys

    f = tmp_path / "s.json"
    f.write_text(json.dumps(DOC))
    code = ("import sys, json; from companion.ops.cli import main\n"
            "try:\n    main(['state', sys.argv[1]])\nexcept SystemExit:\n    pass\n"
            "print(json.dumps(sorted(m for m in ('flask', 'sqlite3', 'sqlite_utils', 'werkzeug') if m in sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code, str(f)], capture_output=True, text=True, check=True).stdout
    assert json.loads(out.strip().splitlines()[-1]) == []
