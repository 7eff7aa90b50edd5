import sys; from .storage import live as _m; sys.modules[__name__] = _m  # noqa: E702 (moved: companion.storage.live)
