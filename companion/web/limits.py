"""Rate limits (flask-limiter; counted in the file every worker process shares, see limit_storage): a phone guessing links or the admin
token is slowed to a crawl, a table's phones never notice. Only wrong guesses count: a 404 (no such
link) from one address; and every try of the admin token.

Who is counted: the client's real address (behind a proxy, the one it forwards: see ``companion.proxy``);
on a capability route whose link exists, that link from that address. So a stranger's wrong guesses, even
from the same address (a club's wifi, a carrier's NAT), never stop a valid link, and a watcher's 404s
under a link (a game that is not there) never stop it for the others."""
from __future__ import annotations

import hashlib
import time

from flask import current_app, g, request
from flask_limiter import Limiter

WRONG_LINKS = "120 per minute"      # 404s from one address (or under one valid link)
ADMIN_TRIES = "5 per minute"
MAX_TOKEN = 64


def _link_exists(token: str) -> bool:
    from ..storage import reads
    from ..storage.db import get_db

    if not token or len(token) > MAX_TOKEN:
        return False
    return reads.link_exists(get_db(), token)


def limit_key() -> str:
    """The bucket of this request: ``link:<digest>:<ip>`` under an existing session link, else ``addr:<ip>``."""
    if "limit_key" not in g:
        address = request.remote_addr or "127.0.0.1"
        token = (request.view_args or {}).get("token")
        if isinstance(token, str) and _link_exists(token):
            # a digest: the limiter's storage never holds a capability
            g.limit_key = f"link:{hashlib.sha256(token.encode()).hexdigest()[:32]}:{address}"
        else:
            g.limit_key = "addr:" + address
    return g.limit_key


def init_app(app) -> Limiter:
    from .limit_storage import uri

    limiter = Limiter(limit_key, app=app, storage_uri=uri(app.config["DATABASE"]), default_limits=[WRONG_LINKS],
                      default_limits_deduct_when=lambda response: response.status_code == 404,
                      default_limits_exempt_when=lambda: request.endpoint == "static" or request.blueprint == "assets",
                      headers_enabled=False)
    app.view_functions["sessions.admin"] = limiter.limit(ADMIN_TRIES)(app.view_functions["sessions.admin"])
    app.extensions["companion.limiter"] = limiter      # the decorated view keeps only a weak reference
    return limiter


def retry_after() -> int:
    """Seconds until the limit this request broke lets it through again (for ``Retry-After``)."""
    limiter = current_app.extensions.get("companion.limiter")
    current = limiter.current_limit if limiter is not None else None
    if current is None:
        return 60
    return max(1, int(current.reset_at - time.time()))
