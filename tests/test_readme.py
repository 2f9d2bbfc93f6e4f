"""The README is an entrance: the two commands of a fresh machine, and a link to every page of
docs/ (issue 38, item 7)."""

from __future__ import annotations

from tests.conftest import REPO_ROOT

README = (REPO_ROOT / "README.md").read_text()

SERVE = (
    "python3 -m venv .venv && .venv/bin/pip install -r requirements.txt && "
    ".venv/bin/python manage.py serve"
)
TEST = (
    'python3 -m venv .venv && .venv/bin/pip install "pip>=25.1" && '
    ".venv/bin/pip install -r requirements.txt --group test && .venv/bin/python -m pytest -n 3"
)


def test_the_readme_gives_the_two_commands_of_a_fresh_machine():
    assert f"\n    {SERVE}\n" in README
    assert f"\n    {TEST}\n" in README


def test_the_readme_links_every_page_of_the_docs():
    pages = sorted(path.name for path in (REPO_ROOT / "docs").glob("*.md"))

    assert [page for page in pages if f"docs/{page}" not in README] == []
