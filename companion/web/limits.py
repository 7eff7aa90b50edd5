"""Rate limits (flask-limiter; counted in the file every worker process shares, see limit_storage): a phone guessing links or the admin
token is slowed to a crawl, a table's phones never notice. Only wrong guesses count: a 404 (no such
link) and every try of the admin token.

One budget per client across every route (a guess at ``/s/<x>/settle`` and one at ``/s/<y>/history`` spend
the same allowance: counted per route, 47 routes gave a guesser 47 times the documented rate). The client
is its real address (behind a proxy, the one it forwards: see ``companion.web.proxy``) and, where it has one,
its browser cookie: at a club's wifi (one address behind NAT) a neighbour's guesses spend the neighbour's
budget, not the organizer's. A browser cookie is free to make, so an address also has a ceiling over all
its browsers (``WRONG_LINKS_ADDRESS``). A request under a valid link (a session's scoring or Watch link, a
table's link) is never refused by these limits: it guesses nothing, whoever guesses beside it.

Uploads: each worker process parses at most ``UPLOADS_AT_ONCE`` uploaded files at once (a file's values
cost several times its size in memory while it is read); the others are told to try again in a few
seconds (503 with Retry-After, a page in the reader's language)."""
from __future__ import annotations

import hashlib
import threading
import time

from flask import current_app, g, request, session
from flask_limiter import ApplicationLimit, Limiter

from companion.domain.messages import N_, define

WRONG_LINKS = "120 per minute"          # 404s from one client (address + browser cookie, or address alone)
WRONG_LINKS_ADDRESS = "600 per minute"  # 404s from one address, all its browsers together
ADMIN_TRIES = "5 per minute"            # tries of the admin token from one client
ADMIN_TRIES_ADDRESS = "30 per minute"   # and from one address, all its browsers together
MAX_TOKEN = 64
UPLOADS_AT_ONCE = 2                     # per worker process
UPLOAD_ENDPOINTS = frozenset({"sessions.import_file", "history.import_archive"})
BUSY_RETRY = 5                          # seconds

define("limits", {
    "busy": N_("The server is reading other files right now. Wait a few seconds, then send yours again."),
})


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _link_exists(token: str) -> bool:
    from companion.storage import reads
    from companion.storage.db import get_db

    if not token or len(token) > MAX_TOKEN:
        return False
    return reads.link_exists(get_db(), token)


def under_valid_link() -> bool:
    """This request names an existing link (session or table): it is no guess."""
    if "under_link" not in g:
        token = (request.view_args or {}).get("token")
        g.under_link = isinstance(token, str) and _link_exists(token)
    return g.under_link


def address() -> str:
    return request.remote_addr or "127.0.0.1"


def limit_key() -> str:
    """The client's bucket: ``addr:<ip>:b:<digest of its browser id>`` with a browser cookie, else
    ``addr:<ip>`` (digests: the limiter's storage never holds a browser id)."""
    if "limit_key" not in g:
        browser = session.get("browser") if request.cookies else None
        g.limit_key = f"addr:{address()}" + (f":b:{_digest(browser)}" if isinstance(browser, str) else "")
    return g.limit_key


def address_key() -> str:
    return "ip:" + address()


def _exempt() -> bool:
    return request.endpoint == "static" or request.blueprint == "assets" or under_valid_link()


def _is_404(response) -> bool:
    return response.status_code == 404


def init_app(app) -> Limiter:
    from companion import registry
    from companion.web.limit_storage import uri

    app.config.setdefault("UPLOADS_AT_ONCE", UPLOADS_AT_ONCE)
    limiter = Limiter(
        limit_key, app=app, storage_uri=uri(app.config["DATABASE"]), headers_enabled=False,
        storage_options={"shared_file": registry.of(app).shared_file(app.config["DATABASE"])},
        application_limits=[
            ApplicationLimit(WRONG_LINKS, key_function=limit_key, scope="wrong-links", exempt_when=_exempt,
                             deduct_when=_is_404),
            ApplicationLimit(WRONG_LINKS_ADDRESS, key_function=address_key, scope="wrong-links-address",
                             exempt_when=_exempt, deduct_when=_is_404),
        ])
    admin = limiter.limit(ADMIN_TRIES, key_func=limit_key)(app.view_functions["sessions.admin"])
    app.view_functions["sessions.admin"] = limiter.limit(ADMIN_TRIES_ADDRESS, key_func=address_key)(admin)
    app.extensions["companion.limiter"] = limiter      # the decorated view keeps only a weak reference
    app.extensions["companion.uploads"] = threading.BoundedSemaphore(app.config["UPLOADS_AT_ONCE"])
    # first of all the hooks: before the CSRF check parses the form (reads the upload)
    app.before_request_funcs.setdefault(None, []).insert(0, take_upload_turn)
    app.teardown_request(end_upload_turn)
    return limiter


def take_upload_turn():
    """An upload waits for nobody: it is parsed now, or told to come back (503, Retry-After)."""
    if request.method != "POST" or request.endpoint not in UPLOAD_ENDPOINTS:
        return None
    turns = current_app.extensions["companion.uploads"]
    if turns.acquire(blocking=False):
        g.upload_turn = turns
        return None
    return busy()


def end_upload_turn(_exc=None):
    turns = g.pop("upload_turn", None)
    if turns is not None:
        turns.release()


def busy():
    from flask import render_template

    from companion.domain.messages import ENGLISH, msg
    from companion.web.i18n import t

    m = msg("limits.busy")
    if request.accept_mimetypes.best == "application/json":
        resp = current_app.make_response(({"error": ENGLISH(m), "status": 503}, 503))
    else:
        resp = current_app.make_response((render_template("error.html", code=503, message=t(m)), 503))
    resp.headers["Retry-After"] = str(BUSY_RETRY)
    return resp


def retry_after() -> int:
    """Seconds until the limit this request broke lets it through again (for ``Retry-After``)."""
    limiter = current_app.extensions.get("companion.limiter")
    current = limiter.current_limit if limiter is not None else None
    if current is None:
        return 60
    return max(1, int(current.reset_at - time.time()))
