"""The engine is a pure package: the standard library only, never Django, and no import cycles."""

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


def engine_imports(package: Path) -> dict[str, set[str]]:
    """Which of the package's modules each module imports, at the top or inside a function;
    not under ``if TYPE_CHECKING:``, which names a type for the checker and never runs."""
    modules = {path.stem for path in package.glob("*.py")}
    dotted = ".".join(package.relative_to(package.parents[1]).parts)
    names = {f"{dotted}.{name}": name for name in modules} | {dotted: "__init__"}
    graph: dict[str, set[str]] = {}
    for name in modules:
        found = set()
        tree = ast.parse((package / f"{name}.py").read_text())
        for block in ast.walk(tree):
            if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING":
                block.body = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level <= 1:
                base = node.module or ""
                if node.level:
                    base = f"{dotted}.{base}" if base else dotted
                # "from . import board" needs the module board; the package is loading already.
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in names else base
                    for alias in node.names
                ]
            else:
                continue
            found.update(names[target] for target in targets if target in names)
        graph[name] = found - {name}
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle's modules, as groups (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        for target in sorted(graph[name]):
            if target not in index:
                visit(target)
                low[name] = min(low[name], low[target])
            elif target in stack:
                low[name] = min(low[name], index[target])
        if low[name] == index[name]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == name:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return groups


def test_no_module_of_the_engine_imports_one_that_imports_it_back():
    graph = engine_imports(ENGINE)
    assert {"position", "play", "notation", "gnubg"} <= graph.keys()
    assert "gnubg" in graph["position"]
    assert import_cycles(graph) == []


def test_the_cycle_check_sees_an_import_inside_a_function(tmp_path):
    package = tmp_path / "games" / "engine"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("from .board import Board\n")
    (package / "board.py").write_text("def name():\n    from .ids import board_id\n")
    (package / "ids.py").write_text("from games.engine.board import Board\n")
    (package / "rules.py").write_text("from . import board\n")
    (package / "moves.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .rules import x\n"
    )
    graph = engine_imports(package)
    assert graph == {
        "__init__": {"board"},
        "board": {"ids"},
        "ids": {"board"},
        "rules": {"board"},
        "moves": set(),
    }
    assert import_cycles(graph) == [["board", "ids"]]
