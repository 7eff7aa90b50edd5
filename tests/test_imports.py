"""The shape of the code, read from its imports (``ast``): no module imports itself back through another
(no cycle), and the store (SQL) imports no domain module (rules, kinds, the session file, events)."""
import ast
from pathlib import Path

import companion

ROOT = Path(companion.__file__).parent
DOMAIN = ("companion.kinds", "companion.session", "companion.events", "companion.summary", "companion.settle",
          "companion.service", "companion.money", "companion.charts", "companion.csvexport")


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
    assert GRAPH["companion.storage.store"] <= {"companion.errors", "companion.messages", "companion.indexed",
                                               "companion.storage.connection"}
    assert not {m for m in GRAPH["companion.storage.store"] if m.startswith(DOMAIN)}


def test_the_reader_sees_a_cycle_and_a_domain_import():
    """The checks themselves: an edge written into the graph is seen."""
    GRAPH["companion.session"].add("companion.events")      # events imports session
    try:
        assert any({"companion.session", "companion.events"} <= set(c) for c in _cycles())
    finally:
        GRAPH["companion.session"].discard("companion.events")
    assert imports_of("companion.service") >= {"companion.storage.store", "companion.events"}
