"""The live poll across worker processes: a changed Watch region is rendered once per version and
language and its compressed bytes shared by every watcher of every worker (two apps on one database
stand for two workers); a scoring link's region (CSRF token, form keys) is never shared; the rate
limiter counts a wrong guess once whichever worker answers it."""
import gzip
import re

import pytest
from werkzeug.test import EnvironBuilder

from companion import create_app
from companion.web import poll
from helpers import new_session
from test_mus_web import act, add_match

HX = {"HX-Request": "true"}


@pytest.fixture
def workers(database):
    """Two apps on one database: what two gunicorn workers (or two servers) are."""
    config = {"TESTING": True, "DATABASE": database, "BASE_URL": "http://table.example:8000"}
    return create_app(dict(config)), create_app(dict(config))


def renders_of(app) -> poll.Renders:
    return app.wsgi_app.renders


def version_of(client, page) -> int:
    html = client.get(page).get_data(as_text=True)
    return int(re.search(r'data-version="(\d+)"', html).group(1))


def test_a_changed_watch_region_is_rendered_once_for_every_watcher_of_every_worker(workers):
    one, two = workers
    scorer = one.test_client()
    links = new_session(scorer)
    game = add_match(scorer, links["edit"])
    watch = game.replace(links["edit"], links["view"])
    since = version_of(one.test_client(), watch)
    act(scorer, game, "pass")
    answers = []
    for app in (one, two, two, one, two, one):       # six phones, polling through either worker
        resp = app.test_client().get(f"{watch}?since={since}", headers={**HX, "Accept-Encoding": "gzip"})
        assert resp.status_code == 200 and resp.headers["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in resp.headers["Vary"] and "Set-Cookie" not in resp.headers
        answers.append(resp.get_data())
    assert renders_of(one).rendered + renders_of(two).rendered == 1
    assert len(set(answers)) == 1
    region = gzip.decompress(answers[0]).decode()
    assert region.lstrip().startswith('<section id="live"') and f'data-version="{since + 1}"' in region
    assert 'name="csrf"' not in region


def test_the_shared_region_is_what_flask_renders_for_that_watcher(workers, database):
    one, _ = workers
    scorer = one.test_client()
    links = new_session(scorer)
    game = add_match(scorer, links["edit"])
    watch = game.replace(links["edit"], links["view"])
    act(scorer, game, "pass")
    shared = one.test_client().get(f"{watch}?since=0", headers=HX).get_data()
    alone = create_app({"TESTING": True, "DATABASE": database})
    alone.wsgi_app.renders = None                     # the same app without the shared renders
    assert alone.test_client().get(f"{watch}?since=0", headers=HX).get_data() == shared


def test_each_language_has_its_own_render(workers):
    one, two = workers
    scorer = one.test_client()
    links = new_session(scorer)
    game = add_match(scorer, links["edit"])
    watch = game.replace(links["edit"], links["view"])
    act(scorer, game, "pass")
    en = one.test_client().get(f"{watch}?since=0", headers={**HX, "Accept-Language": "en"}).get_data(as_text=True)
    es = two.test_client().get(f"{watch}?since=0", headers={**HX, "Accept-Language": "es-ES,es;q=0.9"}).get_data(as_text=True)
    ja_client = one.test_client()
    ja_client.set_cookie("lang", "ja")
    ja = ja_client.get(f"{watch}?since=0", headers={**HX, "Accept-Language": "es"}).get_data(as_text=True)
    assert len({en, es, ja}) == 3
    assert renders_of(one).rendered + renders_of(two).rendered == 3
    poker = one.test_client()
    poker.set_cookie("lang", "ja")
    poker.set_cookie("vocab", "poker")
    ja_poker = poker.get(f"{watch}?since=0", headers=HX).get_data(as_text=True)
    assert ja_poker != ja                             # the poker words are their own render
    assert renders_of(one).rendered + renders_of(two).rendered == 4


def test_a_scoring_link_region_is_never_shared(workers):
    one, two = workers
    scorer = one.test_client()
    links = new_session(scorer)
    game = add_match(scorer, links["edit"])
    act(scorer, game, "pass")
    a = one.test_client().get(f"{game}?since=0", headers=HX).get_data(as_text=True)
    b = two.test_client().get(f"{game}?since=0", headers=HX).get_data(as_text=True)
    keys = [re.findall(r'name="k" value="([^"]+)"', page) for page in (a, b)]
    assert keys[0] and keys[1] and not set(keys[0]) & set(keys[1])
    assert renders_of(one).rendered + renders_of(two).rendered == 0


def test_a_write_through_one_worker_is_seen_by_the_next_poll_through_the_other(workers):
    one, two = workers
    scorer = one.test_client()
    links = new_session(scorer)
    game = add_match(scorer, links["edit"])
    watch = game.replace(links["edit"], links["view"])
    watcher = two.test_client()
    since = version_of(watcher, watch)
    assert watcher.get(f"{watch}?since={since}", headers=HX).get_data() == b""
    act(scorer, game, "pass")
    changed = watcher.get(f"{watch}?since={since}", headers=HX).get_data(as_text=True)
    assert f'data-version="{since + 1}"' in changed


def test_a_region_rendered_for_an_older_version_is_not_stored_as_the_newer(workers):
    """A write landing between the poll's lookup and the render: the poll gets the newer region, and
    nothing is stored under the version it looked up."""
    one, _ = workers
    scorer = one.test_client()
    links = new_session(scorer)
    game = add_match(scorer, links["edit"])
    watch = game.replace(links["edit"], links["view"])
    act(scorer, game, "pass")
    fast = one.wsgi_app
    version, _watching = fast.lookup(watch.split("/")[2])
    env = EnvironBuilder(path=watch, query_string=f"since={version - 1}", headers=HX).get_environ()
    act(scorer, game, "pass")                           # the write lands meanwhile
    out = fast.renders.respond(fast.app, env, lambda *a: None, version, [("since", str(version - 1))])
    assert f'data-version="{version + 1}"'.encode() in b"".join(out)
    assert fast.renders.get(f"{watch}?|en|{version}") is None


@pytest.mark.parametrize("cookie, accept", [(None, None), (None, "es-ES,es;q=0.9"), (None, "ja,en;q=0.5"),
                                            ("es", "ja"), ("xx", "fr, es;q=0.2"), (None, "fr, de")])
def test_the_poll_chooses_the_language_the_page_chooses(app, cookie, accept):
    from companion.web.i18n import lang

    headers = {"Accept-Language": accept} if accept else {}
    environ = EnvironBuilder(path="/", headers={**headers, **({"Cookie": f"lang={cookie}"} if cookie else {})}).get_environ()
    with app.test_request_context("/", headers=headers, environ_base={"HTTP_COOKIE": f"lang={cookie}"} if cookie else {}):
        assert poll.language_of(environ) == lang()


def test_a_wrong_guess_counts_once_whichever_worker_answers(workers):
    one, two = workers
    codes = []
    for i in range(122):
        app = (one, two)[i % 2]
        codes.append(app.test_client().get(f"/s/no-such-link-{i}").status_code)
    assert codes[:120] == [404] * 120 and codes[120:] == [429, 429]
