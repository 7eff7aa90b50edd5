"""Blueprints: one per area (sessions, settle, history) and one per game kind, from the kind's own
package (``companion.kinds.<kind>.blueprint``)."""
from __future__ import annotations

import hashlib
from importlib import import_module
from pathlib import Path

from flask import current_app, url_for

from companion import kinds


def register(app) -> None:
    from companion.web import assets, club, face, history, i18n, ratings, sessions, settle, static_files, tournament  # noqa: F401
    # face: installed before any kind's blueprint is imported (companion/kinds/face.py)

    for module in (sessions, settle, history, assets, ratings, club, tournament):
        app.register_blueprint(module.bp)
    for name in kinds.KINDS:
        app.register_blueprint(import_module(f"companion.kinds.{name}.blueprint").bp)
    i18n.init_app(app)
    static_files.init_app(app)

    hashes: dict[tuple, str] = {}

    def static_url(filename: str, endpoint: str = "static", folder: str | None = None) -> str:
        """A static file's URL carrying a hash of its content: cached for a year, never stale."""
        if (endpoint, filename) not in hashes:
            path = Path(folder or current_app.static_folder) / filename
            hashes[endpoint, filename] = hashlib.sha256(path.read_bytes()).hexdigest()[:10]
        return url_for(endpoint, filename=filename, v=hashes[endpoint, filename])

    def kind_stylesheets() -> list[str]:
        """The stylesheets the kind of this page names: from its own static/ folder, else the app's."""
        from flask import request

        kind = kinds.KINDS.get(request.blueprint or "")
        bp = current_app.blueprints.get(request.blueprint or "")
        out = []
        for name in getattr(kind, "stylesheets", ()):
            if bp is not None and bp.has_static_folder and (Path(bp.static_folder) / name).is_file():
                out.append(static_url(name, f"{bp.name}.static", bp.static_folder))
            else:
                out.append(static_url(name))
        return out

    app.jinja_env.globals["static_url"] = static_url
    app.jinja_env.globals["kind_stylesheets"] = kind_stylesheets

    @app.before_request
    def _no_ranges():
        # static files are compressed whole; a range of the compressed body would be wrong
        from flask import request

        if request.endpoint == "static":
            request.environ.pop("HTTP_RANGE", None)

    @app.context_processor
    def form_macros():
        return {"f": current_app.jinja_env.get_template("_forms.html").module}
