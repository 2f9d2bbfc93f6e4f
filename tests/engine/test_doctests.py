"""The examples in the engine's docstrings are tests too."""

import doctest
import importlib
import pkgutil

import pytest

import games.engine
from games.engine import Position, format_play, parse_play
from games.engine.gnubg import match_id, match_key_from_id
from games.engine.xgid import xgid, xgid_from_text

MODULES = [
    name
    for _, name, _ in pkgutil.iter_modules(games.engine.__path__, "games.engine.")
    if not name.endswith("__main__")
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


@pytest.mark.parametrize(
    ("reader", "writer"),
    [
        (parse_play, format_play),
        (Position.from_position_id, Position.position_id),
        (match_key_from_id, match_id),
        (xgid_from_text, xgid),
    ],
)
def test_each_notation_pair_shows_examples_both_ways(reader, writer):
    assert ">>>" in reader.__doc__
    assert ">>>" in writer.__doc__
