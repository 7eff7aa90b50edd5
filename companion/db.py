import sys; from .storage import db as _m; sys.modules[__name__] = _m  # noqa: E702 (moved: companion.storage.db)
