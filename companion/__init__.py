"""Companion: a phone app beside a real card table.

``create_app`` (the Flask app factory) lives in ``companion.web.app``; importing this package does not import
Flask, so that ``companion state FILE`` and the rule engines stay light.
"""
__version__ = "0.3.0"     # the one place: pyproject.toml reads it (dynamic version)


def __getattr__(name):
    if name == "create_app":
        from companion.web.app import create_app

        return create_app
    raise AttributeError(name)
