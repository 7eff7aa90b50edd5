"""The Flask app factory."""
from __future__ import annotations

import logging
import os
import sys
from datetime import timedelta
from pathlib import Path

from flask import Flask, render_template, request
from flask_compress import Compress


COMPRESSIBLE = ["text/html", "text/css", "application/javascript", "text/javascript", "application/json",
                "image/svg+xml", "text/csv", "text/plain", "application/manifest+json"]


def _resource_dir(name: str) -> str:
    """templates/ and static/ live at the top of the source tree; an installed wheel carries them
    under <prefix>/share/companion/."""
    here = Path(__file__).resolve().parents[2] / name
    if here.is_dir():
        return str(here)
    return str(Path(sys.prefix) / "share" / "companion" / name)


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(__name__, template_folder=_resource_dir("templates"), static_folder=_resource_dir("static"))
    app.config.from_mapping(
        DATABASE=os.environ.get("COMPANION_DB", "companion.db"),
        BASE_URL=os.environ.get("COMPANION_BASE_URL") or None,
        ADMIN_TOKEN=os.environ.get("COMPANION_ADMIN_TOKEN") or None,
        BEHIND_PROXY=os.environ.get("COMPANION_BEHIND_PROXY") or None,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_NAME="companion",
        PERMANENT_SESSION_LIFETIME=timedelta(days=400),
        SESSION_REFRESH_EACH_REQUEST=False,  # a poll every 2 s must not re-sign the cookie each time
        MAX_CONTENT_LENGTH=8 * 1024 * 1024,
        POLL_SECONDS=2,
        SEND_FILE_MAX_AGE_DEFAULT=timedelta(days=365),  # static files carry their version in the name
        COMPRESS_MIMETYPES=COMPRESSIBLE,
        COMPRESS_ALGORITHM=["br", "gzip"],
        COMPRESS_ALGORITHM_STREAMING=["br", "gzip"],
        COMPRESS_MIN_SIZE=600,
    )
    if test_config:
        app.config.update(test_config)

    from companion.web import faults
    from companion.web import logredact
    from companion.web import proxy
    from companion.web import security
    from companion.storage import db
    from companion.web import forms, limits, poll

    app.config.setdefault("SECRET_KEY", None)
    secret = db.init_db(app.config["DATABASE"])
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret  # kept in the database: cookies survive a restart
    app.teardown_appcontext(db.close_db)
    app.before_request(security.check_csrf)
    faults.install(app)     # a read-only or full disk: a 503 page saying so, nothing changed
    forms.answer_reused_keys(app)   # a form's key reused with other fields: 422, never silently dropped
    app.after_request(security.add_headers)
    app.jinja_env.globals["csrf_token"] = security.csrf_token
    app.jinja_env.globals["form_key"] = security.form_key

    from companion.web import register

    register(app)
    limits.init_app(app)
    Compress(app)
    logredact.install(app.logger, logging.getLogger("waitress"))
    app.session_interface = security.SessionInterface()
    trusted = proxy.trusted_proxy(app.config.get("BEHIND_PROXY"))
    if trusted:
        # one reverse proxy in front: trust what it says of the client's address and scheme
        app.wsgi_app = proxy.wrap(app.wsgi_app, trusted)
    # an unchanged live poll is answered before Flask opens the cookie: one indexed lookup; a changed
    # Watch region is rendered once per version for every worker process
    poll.install(app)

    @app.errorhandler(400)
    @app.errorhandler(403)
    @app.errorhandler(404)
    @app.errorhandler(405)
    @app.errorhandler(413)
    @app.errorhandler(429)
    @app.errorhandler(500)
    def error_page(err):
        from companion.domain.messages import ENGLISH, CATALOG, msg
        from companion.web.i18n import t

        code = getattr(err, "code", 500) or 500
        if code == 413:     # read what is still coming: the client then reads this page, not a reset
            from companion.domain.errors import drain_body

            drain_body(request.environ)
        m = msg(f"error.{code}") if f"error.{code}" in CATALOG else None
        if code == 400:
            described = getattr(err, "description", "") or ""
            m = msg(described) if described in CATALOG else msg("error.400") if not described else described
        if request.path.endswith(".json") or request.accept_mimetypes.best == "application/json":
            resp = app.make_response(({"error": ENGLISH(m) if m else "", "status": code}, code))  # data stays English
            if code == 429:
                resp.headers["Retry-After"] = str(limits.retry_after())
            return resp
        message = t(m) if m else ""
        resp = app.make_response((render_template("error.html", code=code, message=message), code))
        if code == 429:
            resp.headers["Retry-After"] = str(limits.retry_after())
        return resp

    @app.route("/healthz")
    def healthz():
        return "ok"

    return app


from companion.domain.messages import N_, define  # noqa: E402

define("error", {
    "400": N_("That request was not understood."),
    "403": N_("This is a watch-only link: it cannot change anything."),
    "404": N_("Nothing here. The link may be mistyped, or a scoring link may have been replaced."),
    "405": N_("That cannot be done from here."),
    "413": N_("That file is too large."),
    "429": N_("Too many wrong tries from this address: wait a minute, then try again."),
    "500": N_("Something went wrong on the server. Nothing was changed."),
    "csrf": N_("This form has expired (security check failed). Reload the page and try again."),
})
