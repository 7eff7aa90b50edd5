"""Imports cost in proportion to their size: the hostile 25 KB zip (one 8 MB Desmoche file of 466,021
hands and a bad file) is refused in well under a second and 100 MB; an archive is read one file at a time
(memory does not grow with the number of files); games, hands and entries are limited, with a message."""
import io
import json
import random
import re
import resource
import time
import tracemalloc
import zipfile

import pytest

from companion import archive
from helpers import csrf
from test_history import _session_count

HOSTILE_HANDS = 466_021


def _error(resp) -> str:
    return " ".join(re.findall(r'class="error"[^>]*>([^<]*)<', resp.get_data(as_text=True)))


def _zip(files: dict) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for name, body in files.items():
            zf.writestr(name, body if isinstance(body, (bytes, str)) else json.dumps(body, ensure_ascii=False))
    return buf.getvalue()


def desmoche_doc(hands: list, name: str = "Night", players=("Ane", "Bea", "Carlos")) -> dict:
    return {"format": "companion-session/1", "name": name, "players": list(players),
            "games": [{"kind": "desmoche", "rules": {"variant": "desmoche", "stake": 10, "bonuses": True,
                                                     "color_wins": False},
                       "seats": list(players), "unit_value": 10, "hands": hands}]}


def hostile_file() -> bytes:
    """8 MB of one repeated hand: what 25 KB of zip inflate to."""
    head = json.dumps(desmoche_doc([], players=("A", "B", "C")))
    before, after = head.split('"hands": []')
    body = (before + '"hands": [' + ", ".join(['{"winner": "A"}'] * HOSTILE_HANDS) + "]" + after).encode()
    assert 7_900_000 < len(body) <= archive.MAX_FILE_BYTES
    return body


def _import(client, raw: bytes):
    return client.post("/history/import", data={"csrf": csrf(client), "k": "",
                                                "archive": (io.BytesIO(raw), "archive.zip")},
                       content_type="multipart/form-data")


def _cost(client, raw: bytes) -> tuple[float, float, object]:
    """(CPU seconds, peak traced MB, response) of one import request (two runs: tracing slows Python)."""
    before = resource.getrusage(resource.RUSAGE_SELF)
    resp = _import(client, raw)
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    tracemalloc.start()
    try:
        again = _import(client, raw)
        peak = tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()
    assert again.status_code == resp.status_code
    return cpu, peak, resp


def _small_archive() -> bytes:
    rng = random.Random(1)
    return _zip({f"{i}.json": desmoche_doc([{"winner": rng.choice(["Ane", "Bea", "Carlos"])} for _ in range(30)],
                                           name=f"Night {i}") for i in range(2)})


@pytest.mark.parametrize("copies", [1, 2])
def test_the_hostile_archive_is_refused_in_bounded_time_and_memory(app, client, copies):
    files = {f"night-{i}.json": hostile_file() for i in range(copies)}
    files["bad.json"] = b"{"
    raw = _zip(files)
    assert len(raw) < 30_000 * copies                                  # ~14 KB a copy
    _import(client, _small_archive())                                   # warm: templates, catalogs
    small_cpu, small_peak, ok = _cost(client, _small_archive())
    assert ok.status_code == 303
    cpu, peak, resp = _cost(client, raw)
    assert resp.status_code == 422
    assert "night-0.json" in _error(resp) and f"{HOSTILE_HANDS + 3:,}".replace(",", "") in _error(resp).replace(",", "")
    assert cpu < 1.0, cpu
    assert peak < 100, peak
    assert peak < 10 * max(small_peak, 1.0), (peak, small_peak)         # the size of one file, not its hands
    assert _session_count(app) == 6                                     # the small archive, three times; no more


def test_many_small_files_that_unpack_to_too_much_work_are_refused_before_parsing(app, client):
    body = json.dumps(desmoche_doc([{"winner": "Ane"}] * 4_000))
    # each file under every per-file limit (entries counted with "{"), but together far more than the zip's size allows
    files = {f"{i}.json": body.replace('{"winner": "Ane"}', '{"winner": "Ane", "x": {}}', 1) + " " * i
             for i in range(40)}
    raw = _zip(files)
    assert sum(archive.count_entries(b.encode()) for b in files.values()) > archive.budget(len(raw))
    start = time.process_time()
    resp = _import(client, raw)
    assert time.process_time() - start < 1.0
    assert resp.status_code == 422 and "more entries than its size allows" in _error(resp)
    assert _session_count(app) == 0


def test_an_archive_is_read_one_file_at_a_time(app, client):
    rng = random.Random(7)

    def files(n):
        return {f"{i}.json": desmoche_doc([{"winner": rng.choice(["Ane", "Bea", "Carlos"])} for _ in range(2_000)],
                                          name=f"Night {i}") for i in range(n)}

    few, many = _zip(files(2)), _zip(files(6))          # (6, not 12: a peak that grew with the files would be 3x)
    _import(client, _small_archive())
    _cpu, peak_few, resp = _cost(client, few)
    assert resp.status_code == 303
    _cpu, peak_many, resp = _cost(client, many)
    assert resp.status_code == 303 and resp.headers["Location"].endswith("imported=6")
    assert peak_many < 1.5 * peak_few, (peak_few, peak_many)           # three times the files, not three times the memory


def test_an_export_of_the_app_stays_far_inside_the_budget(app, client):
    rng = random.Random(3)
    docs = {f"{i}.json": desmoche_doc([{"winner": rng.choice(["Ane", "Bea", "Carlos", None])}
                                       for _ in range(3_000)], name=f"Night {i}") for i in range(3)}
    assert _import(client, _zip(docs)).status_code == 303
    exported = client.get("/history/archive.zip").get_data()
    entries = 0
    with zipfile.ZipFile(io.BytesIO(exported)) as zf:
        for info in zf.infolist():
            entries += archive.count_entries(zf.read(info))
    assert entries / len(exported) < archive.ENTRIES_PER_BYTE / 3, (entries, len(exported))
    assert _import(client, exported).status_code == 303


@pytest.mark.parametrize("doc, path, words", [
    (desmoche_doc([{"winner": "Ane"}] * (archive.MAX_HANDS_PER_GAME + 1)), "games[0].hands", "at most 5000 hands"),
    ({**desmoche_doc([]), "games": desmoche_doc([])["games"] * (archive.MAX_GAMES_PER_SESSION + 1)}, "games",
     "at most 200 games"),
    ({**desmoche_doc([]), "games": desmoche_doc([{"winner": "Bea"}] * 4_000)["games"] * 6}, "games",
     "at most 20000 hands or deals in all"),
])
def test_a_session_file_with_too_much_work_is_refused_with_its_path(app, client, doc, path, words):
    resp = client.post("/import", data={"csrf": csrf(client), "k": "",
                                        "file": (io.BytesIO(json.dumps(doc).encode()), "night.json")},
                       content_type="multipart/form-data")
    assert resp.status_code == 422
    text = _error(resp).replace(",", "").replace("\u202f", "").replace("\xa0", "")
    assert f"{path}:" in text and words in text, text
    assert _session_count(app) == 0


def test_the_hostile_file_alone_is_refused_at_once(app, client):
    start = time.process_time()
    resp = client.post("/import", data={"csrf": csrf(client), "k": "",
                                        "file": (io.BytesIO(hostile_file()), "night.json")},
                       content_type="multipart/form-data")
    assert time.process_time() - start < 1.0
    assert resp.status_code == 422 and "entries, at most" in _error(resp)
