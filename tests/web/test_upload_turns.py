"""Uploads wait for nobody: each worker process parses at most UPLOADS_AT_ONCE files at once, the others are
told to come back (503, Retry-After, a page in the reader's language), and nothing is changed."""
import io

import pytest

from helpers import csrf


def import_form(client, body: bytes = b"{}", **kw):
    return client.post("/import", data={"csrf": csrf(client), "file": (io.BytesIO(body), "night.json")},
                       content_type="multipart/form-data", **kw)


@pytest.mark.parametrize("language, words", [("en", "reading other files"), ("es", "leyendo otros archivos"),
                                             ("ja", "他のファイルを読み込んで")])
def test_an_upload_past_the_turns_is_told_to_wait_in_its_language(app, client, language, words):
    turns = app.extensions["companion.uploads"]
    taken = 0
    while turns.acquire(blocking=False):       # every turn busy, as when other uploads are being parsed
        taken += 1
    assert taken == app.config["UPLOADS_AT_ONCE"] >= 1
    try:
        resp = import_form(client, headers={"Accept-Language": language})
        assert resp.status_code == 503 and 1 <= int(resp.headers["Retry-After"]) <= 30
        assert words in resp.get_data(as_text=True)
        resp = import_form(client, headers={"Accept": "application/json"})
        assert resp.status_code == 503 and resp.get_json()["status"] == 503
    finally:
        for _ in range(taken):
            turns.release()
    # a turn free again: the same upload is read (and this one refused for what it is)
    resp = import_form(client)
    assert resp.status_code == 422
    assert turns.acquire(blocking=False)       # the turn was given back after the answer
    turns.release()


def test_other_requests_never_wait_for_a_turn(app, client):
    turns = app.extensions["companion.uploads"]
    while turns.acquire(blocking=False):
        pass
    assert client.get("/").status_code == 200
    assert client.get("/healthz").status_code == 200
