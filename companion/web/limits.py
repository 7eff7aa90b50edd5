"""Rate limits (flask-limiter; counted in the file every worker process shares, see limit_storage): a
phone guessing links or the admin token is slowed to a crawl, a table's phones never notice. Only wrong
guesses count: a 404 (no such link) from one address; and every try of the admin token."""
from __future__ import annotations

from flask import request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

WRONG_LINKS = "120 per minute"      # 404s from one address
ADMIN_TRIES = "5 per minute"


def init_app(app) -> Limiter:
    from .limit_storage import uri

    limiter = Limiter(get_remote_address, app=app, storage_uri=uri(app.config["DATABASE"]), default_limits=[WRONG_LINKS],
                      default_limits_deduct_when=lambda response: response.status_code == 404,
                      default_limits_exempt_when=lambda: request.endpoint == "static" or request.blueprint == "assets",
                      headers_enabled=False)
    app.view_functions["sessions.admin"] = limiter.limit(ADMIN_TRIES)(app.view_functions["sessions.admin"])
    app.extensions["companion.limiter"] = limiter      # the decorated view keeps only a weak reference
    return limiter
