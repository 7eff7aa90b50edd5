"""What a browser asks for at fixed root URLs to show and install the app: ``/favicon.ico`` (asked for by
every browser whatever the page links), ``/apple-touch-icon.png`` (asked for by iOS when a page is added
to the home screen) and ``/manifest.webmanifest``. The files live in ``static/`` (drawn by
``tools/make_icons.py``); they are served here because their URLs must not change: the manifest's
``start_url`` and ``scope`` are read relative to where it was fetched, and a browser remembers an
installed app by its manifest URL.

Served without touching the session: no cookie is set or read, and answering 200 keeps these requests
out of the wrong-link rate limit (which only counts 404s).
"""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, current_app, send_from_directory

bp = Blueprint("assets", __name__)

ICON_MAX_AGE = 30 * 24 * 3600   # icons change about never, but their URLs carry no version: a month
MANIFEST_MAX_AGE = 3600         # an edited manifest reaches installed apps within the hour


def _send(folder: str, name: str, mimetype: str, max_age: int):
    return send_from_directory(Path(current_app.static_folder) / folder, name, mimetype=mimetype,
                               max_age=max_age)


@bp.get("/favicon.ico")
def favicon():
    return _send("icons", "favicon.ico", "image/vnd.microsoft.icon", ICON_MAX_AGE)


@bp.get("/apple-touch-icon.png")
@bp.get("/apple-touch-icon-precomposed.png")
def apple_touch_icon():
    return _send("icons", "apple-touch-icon.png", "image/png", ICON_MAX_AGE)


@bp.get("/manifest.webmanifest")
def manifest():
    return _send(".", "manifest.webmanifest", "application/manifest+json", MANIFEST_MAX_AGE)
