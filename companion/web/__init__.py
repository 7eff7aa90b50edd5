"""Blueprints, one per area. Game blueprints are found by kind: ``companion.web.<kind>``."""
from __future__ import annotations

import hashlib
from importlib import import_module
from pathlib import Path

from flask import current_app, url_for

from .. import kinds
from ..compress import gzip_response

OPTIONAL_AREAS = ("settle", "history")


def _optional(name: str):
    try:
        return import_module(f"companion.web.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"companion.web.{name}":
            raise
        return None


def register(app) -> None:
    from . import sessions

    app.register_blueprint(sessions.bp)
    for name in (*OPTIONAL_AREAS, *kinds.KINDS):
        module = _optional(name)
        if module is not None:
            app.register_blueprint(module.bp)
    app.after_request(gzip_response)

    hashes: dict[str, str] = {}

    def static_url(filename: str) -> str:
        """A static file's URL carrying a hash of its content: cached for a year, never stale."""
        if filename not in hashes:
            path = Path(current_app.static_folder) / filename
            hashes[filename] = hashlib.sha256(path.read_bytes()).hexdigest()[:10]
        return url_for("static", filename=filename, v=hashes[filename])

    app.jinja_env.globals["static_url"] = static_url

    @app.context_processor
    def form_macros():
        return {"f": current_app.jinja_env.get_template("_forms.html").module,
                "has_area": lambda name: name in current_app.blueprints}
