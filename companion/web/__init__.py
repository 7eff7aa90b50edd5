"""Blueprints: one per area (sessions, settle, history) and one per game kind, from the kind's own
package (``companion.kinds.<kind>.blueprint``)."""
from __future__ import annotations

import hashlib
from importlib import import_module
from pathlib import Path

from flask import current_app, url_for

from .. import kinds


def register(app) -> None:
    from . import assets, club, history, i18n, ratings, sessions, settle, static_files

    for module in (sessions, settle, history, assets, ratings, club):
        app.register_blueprint(module.bp)
    for name in kinds.KINDS:
        app.register_blueprint(import_module(f"companion.kinds.{name}.blueprint").bp)
    i18n.init_app(app)
    static_files.init_app(app)

    hashes: dict[str, str] = {}

    def static_url(filename: str) -> str:
        """A static file's URL carrying a hash of its content: cached for a year, never stale."""
        if filename not in hashes:
            path = Path(current_app.static_folder) / filename
            hashes[filename] = hashlib.sha256(path.read_bytes()).hexdigest()[:10]
        return url_for("static", filename=filename, v=hashes[filename])

    app.jinja_env.globals["static_url"] = static_url

    @app.before_request
    def _no_ranges():
        # static files are compressed whole; a range of the compressed body would be wrong
        from flask import request

        if request.endpoint == "static":
            request.environ.pop("HTTP_RANGE", None)

    @app.context_processor
    def form_macros():
        return {"f": current_app.jinja_env.get_template("_forms.html").module}
