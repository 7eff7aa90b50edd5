"""The shape of the code, read from its imports (``ast``): no module imports itself back through another
(no cycle), and the store (SQL) imports no domain module (rules, kinds, the session file, events)."""
import ast
from pathlib import Path

import companion

ROOT = Path(companion.__file__).parent
# what knows a rule (the errors, messages and indexed lists of companion/domain are plain carriers)
DOMAIN = ("companion.kinds", "companion.service", "companion.record") + tuple(
    f"companion.domain.{m}" for m in ("settle", "money", "charts"))


def _name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_name(p): p for p in ROOT.rglob("*.py")}


def imports_of(name: str) -> set[str]:
    """Every companion module ``name`` imports, at the top or inside a function."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = package.split(".")
                pkg = pkg[:len(pkg) - node.level + 1]
                base = ".".join(pkg + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in MODULES:
                t = t.rsplit(".", 1)[0] if "." in t else ""
            if t and t != name and t.startswith("companion"):
                out.add(t)
    return out


GRAPH = {name: imports_of(name) for name in MODULES}


def _cycles() -> list[list[str]]:
    found, state, stack = [], {}, []

    def visit(n):
        state[n] = "open"
        stack.append(n)
        for m in sorted(GRAPH[n]):
            if _is_package_of(m, n):
                continue        # a package's __init__ importing its own modules is how a package is built
            if state.get(m) == "open":
                found.append(stack[stack.index(m):] + [m])
            elif m not in state:
                visit(m)
        stack.pop()
        state[n] = "done"

    for n in sorted(GRAPH):
        if n not in state:
            visit(n)
    return found


def _is_package_of(package: str, module: str) -> bool:
    return module.startswith(package + ".")


def test_no_module_imports_itself_back():
    assert _cycles() == []


def test_the_store_imports_no_domain_module():
    """SQL and rows only: its errors and their messages, nothing that knows a rule."""
    assert GRAPH["companion.storage.store"] <= {"companion.domain.errors", "companion.domain.messages", "companion.domain.indexed",
                                               "companion.storage.connection"}
    assert not {m for m in GRAPH["companion.storage.store"] if m.startswith(DOMAIN)}


def test_the_reader_sees_a_cycle_and_a_domain_import():
    """The checks themselves: an edge written into the graph is seen."""
    GRAPH["companion.record.session"].add("companion.record.events")      # events imports session
    try:
        assert any({"companion.record.session", "companion.record.events"} <= set(c) for c in _cycles())
    finally:
        GRAPH["companion.record.session"].discard("companion.record.events")
    assert imports_of("companion.service") >= {"companion.storage.store", "companion.record.events"}


# Layers point down (docs/design.md): the pure code (rules, kinds, the club and its stages, ratings' replay,
# the session file, messages, money, who may do what) imports neither the web layer, the write pipeline
# (service), the storage nor the command line. An allowance names its module, what it imports and why;
# one no longer used fails, so the list only shrinks.
PURE = ("companion.kinds", "companion.club", "companion.ratings", "companion.domain", "companion.record",
        "companion.permit")
ABOVE = ("companion.web", "companion.service", "companion.storage", "companion.ops", "companion.archive",
         "companion.formkeys")
UP_ALLOWED: dict[str, str] = {}     # empty (issue 27): the ratings' tables are kept by storage.ratings_store


def _under(module: str, prefixes: tuple) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def up_imports() -> dict[str, set[str]]:
    out = {}
    for name, targets in GRAPH.items():
        if _under(name, PURE):
            up = {t for t in targets if _under(t, ABOVE)}
            if up:
                out[name] = up
    return out


def test_the_pure_layers_import_nothing_above_them():
    found = up_imports()
    assert {m: sorted(t) for m, t in found.items() if m not in UP_ALLOWED} == {}
    assert sorted(set(UP_ALLOWED) - set(found)) == [], "an allowance no longer needed: remove it"


def test_no_kind_imports_the_web_layer():
    """A kind's routes reach the app through companion/kinds/face.py (CONTRACT.md, "The web face")."""
    assert {n: sorted(t) for n, t in GRAPH.items()
            if _under(n, ("companion.kinds",)) and any(_under(x, ("companion.web",)) for x in t)} == {}


def test_the_layer_check_sees_an_import_back_up():
    GRAPH["companion.kinds.mus.view"].add("companion.web.common")
    try:
        assert "companion.kinds.mus.view" in up_imports()
    finally:
        GRAPH["companion.kinds.mus.view"].discard("companion.web.common")
