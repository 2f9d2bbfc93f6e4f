"""pyproject.toml, requirements.txt and constraints.txt declare the same packages."""

from __future__ import annotations

import re
import tomllib

from tests.conftest import REPO_ROOT

PYPROJECT = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())
REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(?:==\s*(\S+))?")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(file_name: str) -> dict[str, str | None]:
    """Package name to its exact version (None when not pinned), from a requirements file."""
    found: dict[str, str | None] = {}
    for line in (REPO_ROOT / file_name).read_text().splitlines():
        line = line.split("#")[0].strip()
        if line and not line.startswith("-"):
            name, version = REQUIREMENT.match(line).groups()
            found[canonical(name)] = version
    return found


def names(requirements: list[str | dict[str, str]]) -> set[str]:
    return {
        canonical(REQUIREMENT.match(entry).group(1))
        for entry in requirements
        if isinstance(entry, str)
    }


def test_requirements_txt_pins_exactly_the_run_time_packages_at_the_constraints_versions():
    pinned = pins("requirements.txt")
    constraints = pins("constraints.txt")

    assert set(pinned) == names(PYPROJECT["project"]["dependencies"])
    for name, version in pinned.items():
        assert version is not None, f"{name} is not pinned in requirements.txt"
        assert constraints.get(name) == version, (name, version, constraints.get(name))


def test_constraints_txt_pins_every_tool_of_every_group():
    constraints = pins("constraints.txt")
    tools = set().union(*(names(group) for group in PYPROJECT["dependency-groups"].values()))

    assert tools <= set(constraints), tools - set(constraints)
    assert all(version is not None for version in constraints.values())
