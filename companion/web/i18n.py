"""Words for the reader: messages (codes with parameters) rendered in the request's language."""
from __future__ import annotations

from flask import g

from ..messages import ENGLISH, Renderer


def renderer() -> Renderer:
    r = g.get("renderer")
    if r is None:
        r = g.renderer = ENGLISH
    return r


def t(m, r: Renderer | None = None) -> str:
    """A message in the reader's words (a plain string is returned as it is)."""
    return (r or renderer())(m)


def init_app(app) -> None:
    app.jinja_env.globals["t"] = t
