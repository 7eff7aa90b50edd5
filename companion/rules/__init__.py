"""Pure game rules: no Flask, no SQLite. Plain dicts (the session-file shapes) in, plain dicts out.

Every game kind is one module here exposing the same four functions (see CONTRACT.md beside this file):
``normalize``, ``compute``, ``apply`` and ``settlement``.
"""
