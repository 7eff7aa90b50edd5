"""The game kinds the app knows, registered by plain imports. Each is one package here (its pure rules,
its page models, its blueprint; its templates in templates/<kind>/) exposing a ``KIND`` object that
implements ``companion.kinds.base.Kind``. Nothing outside a kind's package switches on a kind's name."""
from . import desmoche, mus, newmarket

KINDS = {k.name: k for k in (mus.KIND, newmarket.KIND, desmoche.KIND)}


def get(name: str):
    return KINDS[name]
