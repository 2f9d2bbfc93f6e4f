"""The import contracts in pyproject.toml really catch what they forbid.

Each test writes a skeleton of the project to a temporary folder, made from the contracts
themselves (every layer and root package, and the imports they allow by name), adds at most
one import the contracts forbid, and runs lint-imports with the project's own pyproject.toml
on it in a separate process, where the real packages cannot be imported.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp
import pytest

from tests.conftest import REPO_ROOT
from tests.engine.test_purity import import_cycles

PYPROJECT = REPO_ROOT / "pyproject.toml"
IMPORT_LINTER = tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]
CONTRACT_NAMES = {contract["id"]: contract["name"] for contract in IMPORT_LINTER["contracts"]}


def layer_modules(contract: dict) -> list[str]:
    """Every module a layers contract names, in its containers when it has some."""
    tails = [
        tail.strip().strip("()")
        for layer in contract["layers"]
        for tail in re.split(r"[|:]", layer)
    ]
    containers = contract.get("containers", [""])
    return [f"{container}.{tail}".lstrip(".") for container in containers for tail in tails]


def write_module(root: Path, module: str, source: str = "") -> None:
    """``module`` (a package, so that submodules can go under it) with ``source`` added."""
    folder = root
    for part in module.split("."):
        folder /= part
        folder.mkdir(exist_ok=True)
        (folder / "__init__.py").touch()
    with (folder / "__init__.py").open("a") as init:
        init.write(source)


def imports_of(line: str) -> tuple[str, str]:
    importer, imported = (side.strip() for side in line.split("->"))
    return importer, imported


@pytest.fixture
def skeleton(tmp_path: Path) -> Path:
    """The project as the contracts describe it, keeping every contract."""
    for package in IMPORT_LINTER["root_packages"]:
        write_module(tmp_path, package)
    for contract in IMPORT_LINTER["contracts"]:
        if contract["type"] == "layers":
            for module in layer_modules(contract):
                write_module(tmp_path, module)
        for line in contract.get("ignore_imports", []):
            importer, imported = imports_of(line)
            write_module(tmp_path, imported)
            write_module(tmp_path, importer, f"import {imported}\n")
    return tmp_path


def lint_imports(folder: Path) -> subprocess.CompletedProcess[str]:
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    code = (
        "import sys; from importlinter.cli import lint_imports; "
        f"sys.exit(lint_imports(config_filename={str(PYPROJECT)!r}, no_cache=True, "
        "no_logo=True))"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def broken_contracts(result: subprocess.CompletedProcess[str]) -> set[str]:
    assert "Could not" not in result.stdout + result.stderr, result.stdout + result.stderr
    broken = {key for key, name in CONTRACT_NAMES.items() if f"{name} BROKEN" in result.stdout}
    kept = {key for key, name in CONTRACT_NAMES.items() if f"{name} KEPT" in result.stdout}
    assert broken | kept == set(CONTRACT_NAMES), result.stdout + result.stderr
    return broken


def test_the_skeleton_of_the_project_keeps_every_contract(skeleton):
    result = lint_imports(skeleton)

    assert broken_contracts(result) == set(), result.stdout
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("importer", "statement", "broken"),
    [
        ("games.engine", "import django.db\n", {"pure-engine"}),
        (
            "games.engine",
            "def later():\n    from django.conf import settings\n    return settings\n",
            {"pure-engine"},
        ),
        ("games.engine", "import accounts\n", {"pure-engine"}),
        ("games.engine", "import games.models\n", {"pure-engine", "games-layers"}),
        ("games.models", "import games.services\n", {"games-layers"}),
        ("games.selectors", "import games.services\n", {"games-layers"}),
        ("games.views", "import games.api\n", {"games-layers"}),
        ("games.log", "import games.dice\n", {"games-layers"}),
        ("accounts", "import games.models\n", {"apps-between-wiring-and-core"}),
        ("ratings", "import accounts\n", {"apps-between-wiring-and-core"}),
        ("games.services", "import backgammon_site.urls\n", {"apps-between-wiring-and-core"}),
        ("ratings", "import backgammon_site.settings\n", {"apps-between-wiring-and-core"}),
        ("backgammon_site.core", "import games.models\n", {"apps-between-wiring-and-core"}),
        (
            "backgammon_site.core",
            "import backgammon_site.celery\n",
            {"site-wiring-and-core", "apps-between-wiring-and-core"},
        ),
        ("backgammon_site.stray", "", {"site-wiring-and-core"}),
    ],
    ids=[
        "engine-imports-django",
        "engine-imports-django-lazily",
        "engine-imports-accounts",
        "engine-imports-models",
        "models-import-services",
        "selectors-import-services",
        "views-import-api",
        "log-imports-dice",
        "accounts-import-games",
        "ratings-import-accounts",
        "services-import-the-urls",
        "ratings-import-the-settings",
        "core-imports-games",
        "core-imports-the-celery-app",
        "site-module-neither-wiring-nor-core",
    ],
)
def test_a_forbidden_import_breaks_its_contract(skeleton, importer, statement, broken):
    write_module(skeleton, importer, statement)

    result = lint_imports(skeleton)

    assert broken_contracts(result) == broken, result.stdout
    assert result.returncode == 1


def test_both_contracts_name_the_same_wiring():
    """The wiring stands over the core inside backgammon_site and over the apps outside it: a
    module added to the one list belongs in the other."""
    contracts = {contract["id"]: contract for contract in IMPORT_LINTER["contracts"]}
    site, apps = contracts["site-wiring-and-core"], contracts["apps-between-wiring-and-core"]
    inside = layer_modules({"containers": site["containers"], "layers": site["layers"][:1]})
    outside = layer_modules({"layers": apps["layers"][:1]})

    assert sorted(inside) == sorted(outside)


def test_no_module_of_the_project_imports_one_that_imports_it_back():
    """No import cycle anywhere in the project, imports inside functions included (grimp reads
    them all); migrations are left out, as Django loads them on their own, and so are imports
    under ``if TYPE_CHECKING:``, which name a type for the checker and never run."""
    graph = grimp.build_graph(
        *IMPORT_LINTER["root_packages"], cache_dir=None, exclude_type_checking_imports=True
    )
    ours = {module for module in graph.modules if ".migrations" not in module}
    imports = {module: graph.find_modules_directly_imported_by(module) & ours for module in ours}
    assert {"games.services.matches", "games.receivers", "accounts.models"} <= ours
    assert import_cycles(imports) == []
