"""`companion serve --behind-proxy` with a real nginx in front (TLS on loopback), as a club would run it.

Clients come from different loopback addresses (127.0.0.2, .3, ...: all of 127/8 is this machine), so
nginx forwards a different X-Forwarded-For for each, as it would for phones on the internet.
"""
from __future__ import annotations

import http.client
import os
import re
import shutil
import signal
import ssl
import subprocess
import sys

import pytest

from servers import NGINX, free_port, nginx_conf, nginx_folders, wait_for

OPENSSL = shutil.which("openssl")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# the nginx configuration the project ships for the internet (deploy/), filled as the nginx image would
TEMPLATE = os.path.join(ROOT, "deploy", "nginx.conf.template")


def shipped_server(tmp, port: int, app_port: int) -> str:
    from string import Template

    with open(TEMPLATE) as fh:
        text = fh.read()
    return Template(text).safe_substitute(LISTEN=f"127.0.0.1:{port}", SERVER_NAME="127.0.0.1",
                                          CERT=f"{tmp}/cert.pem", KEY=f"{tmp}/key.pem", UPSTREAM=f"127.0.0.1:{app_port}")


class Phone:
    """A browser at one address: keeps its cookies, talks HTTPS to nginx (or HTTP to the app directly)."""

    def __init__(self, port: int, source: str, tls: bool = True):
        self.port, self.source, self.tls = port, source, tls
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: str | None = None, headers: dict | None = None):
        if self.tls:
            ctx = ssl.create_default_context()
            ctx.check_hostname = False
            ctx.verify_mode = ssl.CERT_NONE
            conn = http.client.HTTPSConnection("127.0.0.1", self.port, context=ctx, timeout=30,
                                               source_address=(self.source, 0))
        else:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30, source_address=(self.source, 0))
        hdrs = dict(headers or {})
        if self.cookies:
            hdrs["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if body is not None:
            hdrs["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=body, headers=hdrs)
            resp = conn.getresponse()
            text = resp.read().decode("utf-8", "replace")
        finally:
            conn.close()
        for value in resp.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        return resp, text

    def get(self, path: str, **kw):
        return self.request("GET", path, **kw)

    def new_session(self) -> dict:
        _resp, page = self.get("/")
        token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
        from urllib.parse import urlencode

        resp, _ = self.request("POST", "/new", body=urlencode({"csrf": token, "name": "Club night", "p0": "Ane",
                                                               "p1": "Bea", "k": ""}))
        assert resp.status == 303, resp.status
        edit = re.sub(r"^https?://[^/]+", "", resp.headers["Location"])
        _resp, page = self.get(edit)
        view = re.search(r'value="[^"]*(/s/[^"]+)" id="watch-link"', page).group(1)
        return {"edit": edit, "view": view}


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    """`companion serve --behind-proxy` on 127.0.0.1 and nginx terminating TLS in front of it."""
    if not NGINX or not OPENSSL:
        pytest.skip("nginx and openssl are installed by .ci/run")
    tmp = tmp_path_factory.mktemp("club")
    app_port, proxy_port = free_port(), free_port()
    subprocess.run([OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-keyout", str(tmp / "key.pem"), "-out", str(tmp / "cert.pem")], check=True, capture_output=True)
    nginx_folders(tmp)
    (tmp / "nginx.conf").write_text(nginx_conf(tmp, shipped_server(tmp, proxy_port, app_port)))
    env = {**os.environ, "COMPANION_BASE_URL": ""}
    app = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--db", str(tmp / "club.db"),
                            "--host", "127.0.0.1", "--port", str(app_port), "--behind-proxy"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    proxy = subprocess.Popen([NGINX, "-p", str(tmp), "-c", str(tmp / "nginx.conf"), "-e", str(tmp / "error.log")],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_for(lambda: Phone(app_port, "127.0.0.1", tls=False).get("/healthz")[0].status == 200, "companion", app)
        wait_for(lambda: Phone(proxy_port, "127.0.0.1").get("/healthz")[0].status == 200, "nginx", proxy)
        yield {"app": app_port, "proxy": proxy_port, "tmp": tmp}
    finally:
        for proc in (proxy, app):
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def test_https_through_the_proxy_gives_secure_cookies_and_hsts(club):
    phone = Phone(club["proxy"], "127.0.0.2")
    resp, _ = phone.get("/")
    cookies = resp.headers.get_all("Set-Cookie")
    assert cookies and all("Secure" in c for c in cookies), cookies
    assert resp.headers["Strict-Transport-Security"].startswith("max-age=")


def test_a_client_talking_to_the_app_directly_cannot_claim_https(club):
    direct = Phone(club["app"], "127.0.0.4", tls=False)       # not the trusted proxy's address
    resp, _ = direct.get("/", headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "10.9.9.9"})
    assert resp.status == 200
    assert all("Secure" not in c for c in resp.headers.get_all("Set-Cookie") or [])
    assert "Strict-Transport-Security" not in resp.headers


def test_a_strangers_guesses_never_limit_a_valid_link_or_another_client(club):
    owner = Phone(club["proxy"], "127.0.0.3")
    links = owner.new_session()
    stranger = Phone(club["proxy"], "127.0.0.5")
    codes = [stranger.get(f"/s/guess{i:04d}xxxxxxxxxxxxxxxxxxxx")[0].status for i in range(121)]
    assert codes[:120] == [404] * 120 and codes[120] == 429
    resp, _ = stranger.get("/s/guess-more-xxxxxxxxxxxxxxxxxxxxx")
    assert resp.status == 429 and 1 <= int(resp.headers["Retry-After"]) <= 60
    # a forged X-Forwarded-For does not make the stranger someone else: nginx appends the real address
    resp, _ = stranger.get("/s/guess-forged-xxxxxxxxxxxxxxxxxxx", headers={"X-Forwarded-For": "10.1.2.3"})
    assert resp.status == 429
    # the valid Watch link still opens, for the stranger too (the limit counts by link there) ...
    assert stranger.get(links["view"])[0].status == 200
    # ... and for everybody else, whose wrong guesses are still their own
    friend = Phone(club["proxy"], "127.0.0.6")
    assert friend.get(links["view"])[0].status == 200
    assert owner.get(links["edit"])[0].status == 200
    assert friend.get("/s/one-typo-xxxxxxxxxxxxxxxxxxxxxxxx")[0].status == 404


def test_behind_nginx_one_address_one_budget_yet_its_links_and_browsers_stay_open(club):
    """A club's wifi is one address: a neighbour's guesses there, spread over many routes, spend one budget
    (120, not 120 a route); the organizer's browser (its cookie), the session's links and a table's link
    at that same address go on working."""
    from companion.storage.db import connect
    from companion.web import club_links

    organizer = Phone(club["proxy"], "127.0.0.7")
    links = organizer.new_session()
    db = connect(str(club["tmp"] / "club.db"))
    sid = db.execute("SELECT id FROM sessions WHERE edit_token = ?", [links["edit"].rsplit("/", 1)[1]]).fetchone()[0]
    table = "/s/" + club_links.ensure(db, sid, ["1"])["1"]
    neighbour = Phone(club["proxy"], "127.0.0.7")          # same address, no cookie of its own yet
    routes = ["", "/settle", "/history", "/club", "/table", "/mus/0", "/newmarket/0", "/desmoche/0",
              "/session.csv", "/club/cards"]
    codes = []
    for i in range(121):
        neighbour.cookies.clear()                         # a guesser keeps no cookie
        codes.append(neighbour.get(f"/s/guess{i:04d}xxxxxxxxxxxxxxxxxxxx{routes[i % 10]}")[0].status)
    assert codes[:120] == [404] * 120 and codes[120] == 429
    neighbour.cookies.clear()
    assert neighbour.get(f"{table}/table")[0].status == 200            # a table's phone at that address
    assert organizer.get("/s/one-typo-xxxxxxxxxxxxxxxxxxxxxxxx")[0].status == 404   # its own budget
    assert organizer.get(links["edit"])[0].status == 200
    assert organizer.get(links["view"])[0].status == 200
    assert organizer.get(f"{table}/table")[0].status == 200


# ---------------------------------------------------------------------------------------------- the settings

@pytest.mark.parametrize("given, proxy", [(None, None), ("", None), ("0", None), ("false", None), (True, "127.0.0.1"),
                                          ("1", "127.0.0.1"), ("yes", "127.0.0.1"), ("10.0.0.5", "10.0.0.5"),
                                          ("*", "*")])
def test_the_proxy_option_names_the_one_address_trusted(given, proxy):
    from waitress.adjustments import Adjustments

    from companion.web.proxy import proxy_settings, trusted_proxy

    assert trusted_proxy(given) == proxy
    settings = proxy_settings(given)
    adj = Adjustments(**settings)          # waitress accepts exactly these
    assert adj.trusted_proxy == proxy
    assert adj.clear_untrusted_proxy_headers is True
    if proxy:
        assert adj.trusted_proxy_headers == {"x-forwarded-for", "x-forwarded-proto"} and adj.trusted_proxy_count == 1


def test_every_429_says_when_to_try_again(app, client):
    app.config["ADMIN_TOKEN"] = "an-admin-token-long-enough"
    codes = [client.get(f"/admin?token=guess{i}") for i in range(6)]
    assert codes[-1].status_code == 429 and 1 <= int(codes[-1].headers["Retry-After"]) <= 60
    resp = client.get("/admin?token=x", headers={"Accept": "application/json"})
    assert resp.status_code == 429 and resp.get_json()["status"] == 429 and int(resp.headers["Retry-After"]) >= 1


def test_a_watchers_404s_under_a_link_are_never_refused(app):
    """A 404 under a valid link (a game that is not there) guesses nothing: never counted, never refused."""
    owner, watcher = app.test_client(), app.test_client()
    from helpers import new_session

    links = new_session(owner)
    env = {"REMOTE_ADDR": "10.0.0.9"}
    codes = [watcher.get(f"{links['view']}/mus/{90 + i}", environ_base=env).status_code for i in range(130)]
    assert codes == [404] * 130
    assert watcher.get(links["view"], environ_base=env).status_code == 200
    assert owner.get(links["view"]).status_code == 200 and owner.get(links["edit"]).status_code == 200


def table_link(app, edit: str, label: str = "1") -> str:
    """A club table's scoring link for the session of ``edit`` (written as the club page does)."""
    from companion.storage.db import get_db
    from companion.web import club_links

    with app.app_context():
        db = get_db()
        sid = db.execute("SELECT id FROM sessions WHERE edit_token = ?", [edit.rsplit("/", 1)[1]]).fetchone()[0]
        return "/s/" + club_links.ensure(db, sid, [label])[label]


def test_one_budget_across_routes_and_a_table_link_is_a_valid_link(app):
    from helpers import new_session

    organizer = app.test_client()
    links = new_session(organizer)
    table = table_link(app, links["edit"])
    guesser = app.test_client()
    env = {"REMOTE_ADDR": "10.0.0.20"}
    routes = ["", "/settle", "/history", "/club", "/table", "/mus/0", "/newmarket/0", "/desmoche/0",
              "/session.csv", "/club/cards"]
    codes = [guesser.get(f"/s/guess{i:04d}xxxxxxxxxxxxxxxxxxxx{routes[i % 10]}", environ_base=env).status_code
             for i in range(121)]
    assert codes[:120] == [404] * 120 and codes[120] == 429      # 120 in all, not 120 a route
    # the table's phones at that address are not refused: a table link is a valid link
    assert guesser.get(f"{table}/table", environ_base=env).status_code == 200
    assert organizer.get(f"{table}/table", environ_base=env).status_code == 200
    assert guesser.get(f"{table}/mus/7", environ_base=env).status_code == 404     # under it: no guess, no 429


def test_a_browser_with_its_cookie_has_its_own_budget_and_an_address_a_ceiling(app):
    from companion.web import limits

    env = {"REMOTE_ADDR": "10.0.0.30"}
    organizer = app.test_client()
    assert organizer.get("/", environ_base=env).status_code == 200           # its browser cookie
    neighbour = app.test_client(use_cookies=False)
    codes = [neighbour.get(f"/s/guess{i:04d}xxxxxxxxxxxxxxxxxxxx", environ_base=env).status_code for i in range(121)]
    assert codes[-1] == 429
    # the organizer, at the same address, is not locked: its own typo is a 404, its pages open
    assert organizer.get("/s/one-typo-xxxxxxxxxxxxxxxxxxxxxxxx", environ_base=env).status_code == 404
    assert organizer.get("/", environ_base=env).status_code == 200
    # new cookies are free to make: all the browsers of one address share a ceiling
    ceiling = int(limits.WRONG_LINKS_ADDRESS.split()[0])
    spent = 121
    while spent < ceiling + 10:
        minted = app.test_client()
        minted.get("/", environ_base=env)
        codes = [minted.get(f"/s/mint{spent + i:05d}xxxxxxxxxxxxxxxxxxx", environ_base=env).status_code
                 for i in range(100)]
        spent += codes.count(404)
        if 429 in codes:
            break
    assert 429 in codes and spent <= ceiling + 1
