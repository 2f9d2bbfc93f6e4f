"""manage.py bot_duel: its last line is the figure and its interval."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def test_a_short_duel_prints_ppg_with_its_interval_last():
    out = StringIO()
    call_command("bot_duel", "beginner", "intermediate", "3", "--length", "1", stdout=out)
    last = out.getvalue().strip().splitlines()[-1]
    found = re.fullmatch(r"ppg: (-?\d+\.\d{3}) ci95: (-?\d+\.\d{3}) (-?\d+\.\d{3})", last)
    assert found, last
    ppg, low, high = map(float, found.groups())
    assert low <= ppg <= high


def test_an_unknown_level_is_refused():
    with pytest.raises(CommandError, match="no bot level"):
        call_command("bot_duel", "beginner", "grandmaster", "3")
