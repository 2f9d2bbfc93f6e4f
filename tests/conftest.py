"""Shared fixtures.

The test settings need no environment: pyproject.toml's [tool.pytest_env] gives a test-only
DJANGO_SECRET_KEY, because pytest-django imports the settings before any conftest runs.
"""

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent

RunPython = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def run_python() -> RunPython:
    """Run `python -c CODE` from the repo root, in this environment changed by `env`.

    A value of None in `env` removes that variable.
    """

    def run(code: str, env: dict[str, str | None]) -> subprocess.CompletedProcess[str]:
        child_env = dict(os.environ)
        for name, value in env.items():
            if value is None:
                child_env.pop(name, None)
            else:
                child_env[name] = value
        return subprocess.run(
            [sys.executable, "-c", code],
            cwd=REPO_ROOT,
            env=child_env,
            capture_output=True,
            text=True,
            timeout=60,
        )

    return run
