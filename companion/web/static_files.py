"""The stylesheets and scripts as a phone gets them: minified and compressed once (gzip at its best level,
and brotli when the library is there), the first time each is asked for, then served from memory. A
table's wifi is slow and a first visit must stay small; the files in static/ stay readable, with their
comments. Other static files (icons) are Flask's as usual."""
from __future__ import annotations

import gzip
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from flask import Response, current_app, request

try:
    import brotli
except ImportError:             # gzip alone is enough (phones on plain http never ask for br anyway)
    brotli = None

TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}
YEAR = 365 * 24 * 3600


def minify_css(text: str) -> str:
    """Comments and layout whitespace out; nothing else changes (no string in our CSS holds a space that
    matters: ``content`` values are single characters)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"\s*([{};,>])\s*", r"\1", text)
    text = re.sub(r"([{;])\s*([\w-]+)\s*:\s*", r"\1\2:", text)   # "prop: value" inside rules only
    return text.replace(";}", "}").strip()


def minify_js(text: str) -> str:
    """Whole-line comments, indentation and blank lines out (a conservative pass: code is untouched)."""
    out = []
    for line in text.splitlines():
        s = line.strip()
        if not s or s.startswith("//"):
            continue
        out.append(s)
    return "\n".join(out) + "\n"


@dataclass
class Packed:
    plain: bytes
    gz: bytes
    br: bytes | None
    mime: str
    etag: str


def pack(path: Path) -> Packed:
    text = path.read_text(encoding="utf-8")
    ext = path.suffix
    if not path.name.endswith(".min.js"):
        text = minify_css(text) if ext == ".css" else minify_js(text)
    plain = text.encode("utf-8")
    return Packed(plain=plain, gz=gzip.compress(plain, compresslevel=9, mtime=0),
                  br=brotli.compress(plain, quality=11) if brotli else None, mime=TYPES[ext],
                  etag=hashlib.sha256(plain).hexdigest()[:16])


def init_app(app) -> None:
    """The app's static files and every blueprint's (a kind's stylesheet in its own folder), packed once."""
    _serve_packed(app, "static", lambda: app.static_folder)
    for bp in app.blueprints.values():
        if bp.has_static_folder:
            _serve_packed(app, f"{bp.name}.static", lambda bp=bp: bp.static_folder)


def _serve_packed(app, endpoint: str, folder) -> None:
    packed: dict[str, Packed] = {}
    flask_static = app.view_functions[endpoint]

    def static(filename: str):
        path = Path(folder()) / filename
        if path.suffix not in TYPES or "/" in filename or not path.is_file():
            return flask_static(filename=filename)
        if filename not in packed or current_app.debug:
            packed[filename] = pack(path)
        p = packed[filename]
        headers = {"Content-Type": p.mime, "Vary": "Accept-Encoding", "ETag": f'"{p.etag}"',
                   "Cache-Control": f"public, max-age={YEAR}, immutable" if request.args.get("v")
                   else "public, max-age=3600"}
        if request.if_none_match and p.etag in request.if_none_match:
            return Response(status=304, headers=headers)
        accept = request.headers.get("Accept-Encoding", "")
        if p.br is not None and "br" in accept:
            body, headers["Content-Encoding"] = p.br, "br"
        elif "gzip" in accept:
            body, headers["Content-Encoding"] = p.gz, "gzip"
        else:
            body = p.plain
        return Response(body, headers=headers)

    app.view_functions[endpoint] = static
