"""The one error type for refused input: a message code with its parameters, and where it belongs."""
from __future__ import annotations

from companion.domain.messages import Renderer, render


class RuleError(ValueError):
    """Bad input, refused whole.

    ``code`` and ``params`` name the message (``companion.domain.messages``); ``path`` says where: a JSON path
    relative to the object being checked (``hands[3].grande[2]``) when validating a session file, or an
    action's field (``cards_left.Ane``) when refusing a tap. Callers prefix the path as they go up.
    ``field``: the form field the refused part was typed in (``left_0``), named by the action itself
    (``Action.form_field``), so that the page shows the message beside it.
    """

    def __init__(self, code: str, path: str = "", *, field: str = "", **params):
        super().__init__(code)
        self.code = code
        self.path = path
        self.field = field
        self.params = params

    @property
    def msg(self) -> dict:
        return {"code": self.code, **self.params}

    @property
    def message(self) -> str:
        """In English (the session file and the command line speak English)."""
        return render(self.msg)

    def text(self, renderer: Renderer) -> str:
        return renderer(self.msg)

    def at(self, path: str) -> "RuleError":
        """The same error at another path."""
        err = type(self)(self.code, path, **self.params)
        err.field = self.field
        return err

    def named(self, field: str) -> "RuleError":
        """The same error, beside the form field ``field``."""
        err = self.at(self.path)
        err.field = field
        return err

    def prefixed(self, prefix: str) -> "RuleError":
        """The same error one level up: ``games[0]`` + ``hands[3]`` -> ``games[0].hands[3]``."""
        return self.at(join_path(prefix, self.path))

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class Stale(RuleError):
    """The phone acted on a screen that is no longer current (another phone recorded first)."""

    def __init__(self, code: str = "v.stale", path: str = "at", **params):
        super().__init__(code, path, **params)


def join_path(prefix: str, path) -> str:
    """``join_path("deals[1]", "card")`` -> ``deals[1].card``; ``("hands", 3)`` -> ``hands[3]``."""
    if isinstance(path, int):
        return f"{prefix}[{path}]"
    if not path:
        return prefix
    if not prefix:
        return path
    if path.startswith("["):
        return prefix + path
    return f"{prefix}.{path}"


class KeyReused(RuleError):
    """A form's idempotency key came back with other fields or on another route: nothing is written
    (the message is companion.formkeys')."""

    def __init__(self, path: str = "k"):
        super().__init__("formkey.used", path)


class FormError(Exception):
    """A form that cannot become an action: {field: message}, nothing is written. A message is text in the
    reader's words, or a message code the web renders (a codec that imports no web module)."""

    def __init__(self, errors: dict):
        super().__init__(", ".join(errors))
        self.errors = errors


DRAIN_BYTES = 256 * 1024 * 1024      # a body past the limit is read and dropped up to this much...
DRAIN_SECONDS = 60                   # ...for at most this long (then the connection is dropped)


def drain_body(environ) -> int:
    """Read and discard what the client still sends of a body refused as too large (413): a client that
    is still sending when the server closes gets a reset connection instead of the page saying why.
    Returns the bytes dropped. Bounded in bytes and time: a body past those gets the reset after all."""
    import time

    from companion.domain.numbers import parse_int

    stream = environ.get("wsgi.input")
    if stream is None or environ.get("companion.drained"):
        return 0
    environ["companion.drained"] = True
    try:
        length = parse_int(environ.get("CONTENT_LENGTH") or "", 0)     # the one number reader
    except ValueError:
        length = None
    left = DRAIN_BYTES if length is None else min(length, DRAIN_BYTES)
    end = time.monotonic() + DRAIN_SECONDS
    dropped = 0
    try:
        while left > 0 and time.monotonic() < end:
            chunk = stream.read(min(left, 64 * 1024))
            if not chunk:
                break
            dropped += len(chunk)
            left -= len(chunk)
    except (OSError, ValueError):
        pass
    return dropped
