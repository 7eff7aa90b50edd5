import sys; from .storage import postgres as _m; sys.modules[__name__] = _m  # noqa: E702 (moved: companion.storage.postgres)
