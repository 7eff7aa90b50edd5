"""gzip for text responses: waitress does not compress, and phones at a table are often on poor wifi."""
from __future__ import annotations

import gzip

from flask import request

COMPRESSIBLE = ("text/html", "text/css", "application/javascript", "text/javascript", "application/json",
                "image/svg+xml", "text/csv", "text/plain")
MIN_SIZE = 600


def gzip_response(response):
    if (response.status_code < 200 or response.status_code >= 300 or "Content-Encoding" in response.headers
            or response.mimetype not in COMPRESSIBLE or "gzip" not in request.headers.get("Accept-Encoding", "")):
        return response
    response.direct_passthrough = False  # static files: read them to compress
    data = response.get_data()
    if len(data) < MIN_SIZE:
        return response
    response.set_data(gzip.compress(data, compresslevel=6, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    response.headers["Content-Length"] = str(len(response.get_data()))
    response.vary.add("Accept-Encoding")
    return response
