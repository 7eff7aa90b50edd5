"""Beyond one machine: two `companion serve` on one PostgreSQL database, behind Debian's nginx on loopback.
A phone scores through one server; a phone watching through the other sees every tap by its live poll;
a balancer that alternates between them gives every request the same answer."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request

import pytest

from taps import at_rest, live_version, wait_recorded
from test_every_tap import new_match, _touch
from servers import NGINX, free_port, nginx_conf, nginx_folders, wait_for

SERVERS = """
    upstream both {{ server 127.0.0.1:{a}; server 127.0.0.1:{b}; }}
    map $http_upgrade $c {{ default ""; }}
    server {{ listen 127.0.0.1:{pa}; location / {{ proxy_pass http://127.0.0.1:{a}; {headers} }} }}
    server {{ listen 127.0.0.1:{pb}; location / {{ proxy_pass http://127.0.0.1:{b}; {headers} }} }}
    server {{ listen 127.0.0.1:{pboth}; location / {{ proxy_pass http://both; {headers} }} }}"""
HEADERS = ("proxy_http_version 1.1; proxy_set_header Connection $c; proxy_set_header Host $host;"
           " proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;"
           " proxy_set_header X-Forwarded-Proto $scheme;")


def _up(port: int) -> bool:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as resp:
        return resp.status == 200


@pytest.fixture(scope="module")
def city(pg_cluster, tmp_path_factory):
    if not NGINX:
        pytest.fail("nginx is installed by .ci/run")
    tmp = tmp_path_factory.mktemp("city")
    url = pg_cluster.new_schema()
    a, b, pa, pb, pboth = (free_port() for _ in range(5))
    nginx_folders(tmp)
    (tmp / "nginx.conf").write_text(nginx_conf(tmp, SERVERS.format(a=a, b=b, pa=pa, pb=pb, pboth=pboth,
                                                                    headers=HEADERS)))
    env = {**os.environ, "COMPANION_BASE_URL": "", "COMPANION_DB": url}
    servers = [subprocess.Popen([sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port),
                                 "--workers", "1", "--behind-proxy"], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, env=env, start_new_session=True)
               for port in (a, b)]
    proxy = subprocess.Popen([NGINX, "-p", str(tmp), "-c", str(tmp / "nginx.conf"), "-e", str(tmp / "error.log")],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for port, proc in ((a, servers[0]), (b, servers[1])):
            wait_for(lambda: _up(port), "companion", proc)
        for port in (pa, pb, pboth):
            wait_for(lambda: _up(port), "nginx", proxy)
        yield {"a": f"http://127.0.0.1:{pa}", "b": f"http://127.0.0.1:{pb}", "both": f"http://127.0.0.1:{pboth}"}
    finally:
        proxy.send_signal(signal.SIGTERM)
        for proc in servers:
            os.killpg(proc.pid, signal.SIGTERM)
        for proc in (proxy, *servers):
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        pg_cluster.drop(url)


def _json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=30) as resp:
        return json.loads(resp.read())


def test_scored_through_one_server_watched_through_the_other(browser, city, shots):
    scorer = _touch(browser).new_page()
    edit, game = new_match(scorer, city["a"], scoring="tally")
    scorer.goto(edit)
    view = scorer.input_value("#watch-link").split("/s/", 1)[1].split("/", 1)[0]
    scorer.goto(game)
    at_rest(scorer)
    watch = f"{city['b']}/s/{view}/mus/0"
    watcher = _touch(browser).new_page()
    watcher.goto(watch)
    at_rest(watcher)
    for points, team in ((5, "A"), (2, "B")):
        before = live_version(scorer)
        scorer.tap(f"#thumb .mus-{team.lower()} a[data-tally-add='{team}:{points}']")
        scorer.tap("#thumb button[value=tally]")
        wait_recorded(scorer, before)
        now = live_version(scorer)
        # the watcher on the other server: its live poll brings the new version (no reload)
        watcher.wait_for_function(f"() => Number(document.querySelector('[data-version]').dataset.version) >= {now}",
                                  timeout=20000)
    watcher.screenshot(path=f"{shots}/two-servers-watcher.png", full_page=True)
    # what the other server reads is what the scorer wrote: two hands, A 5 and B 2
    session_path = watch.split("/mus/")[0] + "/session.json"
    hands = _json(session_path)["games"][0]["hands"]
    assert [[(a["team"], a["points"]) for a in h["tally"]] for h in hands] == [[("A", 5)], [("B", 2)]]
    # through the balancer, alternating between the servers: every answer the same
    both = city["both"] + session_path.split(city["b"], 1)[1]
    assert all(_json(both) == _json(session_path) for _ in range(6))
