"""Importing an archive: a damaged or hostile zip is refused with a message and nothing imported (never a
500), and an archive larger than the app's request limit still imports back."""
import io
import json
import re
import zipfile

from helpers import csrf
from test_history import _import_zip, _session_count, _zip
from test_settle_page import DESMOCHE, NEEDS, session_doc


def _error(resp) -> str:
    return " ".join(re.findall(r'class="error"[^>]*>([^<]*)<', resp.get_data(as_text=True)))


def _good() -> dict:
    return session_doc(players=("Ane", "Bea", "Carlos"))


def test_damaged_compressed_data_is_refused_not_a_500(app, client):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("a.json", json.dumps(_good()))
        zf.writestr("b.json", json.dumps(_good()) * 20)
    raw = bytearray(buf.getvalue())
    start = raw.find(b"b.json") + len("b.json") + 10  # inside b.json's deflated bytes
    for i in range(start, start + 30):
        raw[i] ^= 0x55
    resp = _import_zip(client, bytes(raw))
    assert resp.status_code == 422
    assert "Refused, nothing imported." in _error(resp) and "b.json" in _error(resp)
    assert _session_count(app) == 0


def test_absurdly_nested_json_is_refused(app, client):
    resp = _import_zip(client, _zip({"a.json": "[" * 100_000 + "]" * 100_000}))
    assert resp.status_code == 422 and "a.json" in _error(resp)
    assert _session_count(app) == 0


@NEEDS["desmoche"]
def test_an_archive_larger_than_the_request_limit_imports(app, client):
    raw = _zip({f"{i}.json": session_doc(DESMOCHE, players=("Ane", "Bea", "Carlos"), name=f"Night {i}")
                for i in range(5)})
    app.config["MAX_CONTENT_LENGTH"] = len(raw) // 2  # as a few thousand nights against the 8 MB limit
    resp = _import_zip(client, raw)
    assert resp.status_code == 303 and resp.headers["Location"].endswith("imported=5")
    assert _session_count(app) == 5
    # only the archive import is allowed more: other uploads keep the app's limit
    resp = client.post("/import", data={"csrf": csrf(client), "k": "", "file": (io.BytesIO(raw), "x.json")},
                       content_type="multipart/form-data")
    assert resp.status_code == 413
