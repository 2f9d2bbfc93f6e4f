"""The examples in the engine's docstrings are tests too."""

import doctest
import importlib
import pkgutil

import pytest

import games.engine

MODULES = [
    name
    for _, name, _ in pkgutil.iter_modules(games.engine.__path__, "games.engine.")
    if not name.endswith("__main__")
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
