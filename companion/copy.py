import sys; from .storage import copy as _m; sys.modules[__name__] = _m  # noqa: E702 (moved: companion.storage.copy)
