"""The engine is a pure package: the standard library only, and never Django."""

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
# The oracle and the benchmark load bgsage lazily; the rules never do.
ORACLE_USERS = {"oracle.py"}


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_the_engine_imports_no_django_and_only_the_standard_library():
    files = sorted(ENGINE.glob("*.py"))
    assert files
    for path in files:
        roots = imported_roots(path)
        assert "django" not in roots, path
        allowed = set(sys.stdlib_module_names) | {"__future__"}
        if path.name in ORACLE_USERS:
            allowed.add("bgsage")
        assert roots <= allowed, f"{path.name} imports {roots - allowed}"
