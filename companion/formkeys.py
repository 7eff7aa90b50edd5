"""A form's idempotency key is for that form only: a retry (double tap, lost reply) sends the same fields
to the same address and gets the first answer back; the same key with other fields, or on another
route, is refused ("this form was already used"), never silently taken for the first.

The web layer computes the request's fingerprint (``fingerprint``: the address and every field but the
CSRF token) when it reads the key (``web.common.request_key``) and sets it for this request (``use``);
the write path hands it to the store (``service``), which keeps it beside the key and refuses the key
with other fields (``KeyReused``).
"""
from __future__ import annotations

import hashlib
from contextvars import ContextVar

from companion.domain.errors import KeyReused  # noqa: F401 (raised by the store, answered by web/forms.py)
from companion.domain.messages import N_, define

define("formkey", {"used": N_("This form was already used (with other values, or elsewhere): nothing was "
                              "changed. Reload the page and try again.")})

IGNORED = ("csrf",)            # the one field that may change between a form and its retry
_print: ContextVar[str | None] = ContextVar("companion_form_print", default=None)


def fingerprint(path: str, form, files=None) -> str:
    """A digest of where a form was sent and what it said (repeated fields in order; uploads by name and
    size: a retry sends the same file)."""
    h = hashlib.sha256(path.encode("utf-8", "surrogatepass"))
    for name in sorted(form.keys()):
        if name in IGNORED:
            continue
        for value in form.getlist(name):
            h.update(b"\0f" + name.encode("utf-8", "surrogatepass") + b"\0" + value.encode("utf-8", "surrogatepass"))
    for name in sorted((files or {}).keys()):
        for upload in files.getlist(name):
            stream = upload.stream
            here = stream.tell()
            stream.seek(0, 2)
            size = stream.tell()
            stream.seek(here)
            h.update(b"\0u" + name.encode() + b"\0" + (upload.filename or "").encode("utf-8", "surrogatepass")
                     + b"\0" + str(size).encode())
    return h.hexdigest()[:32]


def use(value: str | None) -> None:
    """The fingerprint of the request being handled (set where its key is read)."""
    _print.set(value)


def current() -> str | None:
    return _print.get()
