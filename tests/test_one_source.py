"""One source for what must agree: the version (companion.__version__, which pyproject.toml reads) and the
security headers (a page from Flask and an unchanged poll answered before Flask carry the same ones)."""
import re
import tomllib
from pathlib import Path

import companion
from companion.web.security import SECURITY_HEADERS

ROOT = Path(__file__).resolve().parent.parent


def test_the_version_is_written_once():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "companion.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", companion.__version__)


def test_an_unchanged_poll_carries_every_security_header(client):
    from helpers import new_session

    links = new_session(client)
    page = client.get(links["view"])
    version = re.search(r'data-version="(\d+)"', page.get_data(as_text=True)).group(1)
    poll = client.get(f"{links['view']}?since={version}", headers={"HX-Request": "true"})
    assert poll.status_code == 200 and poll.headers.get("HX-Reswap") == "none"
    for name, value in SECURITY_HEADERS:
        assert poll.headers.get(name) == value == page.headers.get(name), name
    assert poll.headers["X-Frame-Options"] == "DENY"
