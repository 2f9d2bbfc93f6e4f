"""docs/architecture.md's index names every module of the apps and of backgammon_site, and
nothing that is gone: a newcomer finds any file there (issue 38, item 7)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.conftest import REPO_ROOT

PACKAGES = ["games", "accounts", "ratings", "backgammon_site"]
ARCHITECTURE = REPO_ROOT / "docs" / "architecture.md"


def is_listed(path: Path) -> bool:
    """Every module but migrations and a package's ``__init__.py`` that holds only a docstring."""
    if "migrations" in path.parts:
        return False
    if path.name != "__init__.py":
        return True
    body = ast.parse(path.read_text()).body
    return any(
        not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)) for node in body
    )


def modules_in_the_tree() -> set[str]:
    return {
        path.relative_to(REPO_ROOT).as_posix()
        for package in PACKAGES
        for path in (REPO_ROOT / package).rglob("*.py")
        if is_listed(path)
    }


def modules_in_the_index() -> list[str]:
    """The index's lines: a folder in bold (``**`games/engine/`**``), then ``- `module.py`: ...``
    for each of its modules."""
    section = ARCHITECTURE.read_text().split("\n## Every module\n", 1)[1].split("\n## ", 1)[0]
    named, folder = [], ""
    for line in section.splitlines():
        if heading := re.match(r"\*\*`([\w/]+/)`\*\*", line):
            folder = heading[1]
        elif entry := re.match(r"- `([\w/]+\.py)`", line):
            named.append(folder + entry[1])
    return named


def test_the_index_names_every_module_once_and_nothing_that_is_gone():
    named = modules_in_the_index()
    tree = modules_in_the_tree()

    assert "games/engine/transitions.py" in named
    assert sorted(tree - set(named)) == [], "modules missing from docs/architecture.md"
    assert sorted(set(named) - tree) == [], "docs/architecture.md names modules that are gone"
    assert len(named) == len(set(named))
