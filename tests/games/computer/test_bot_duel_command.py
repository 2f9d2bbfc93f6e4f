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


@pytest.mark.parametrize(
    "variant",
    ["nackgammon", "hypergammon", "portes", "plakoto", "fevga", "long-nardi", "tavli"],
)
def test_a_duel_in_any_variant_plays_its_matches_to_the_end(variant):
    out = StringIO()
    call_command(
        "bot_duel",
        "beginner",
        "intermediate",
        "2",
        "--length",
        "1",
        "--variant",
        variant,
        stdout=out,
    )
    lines = out.getvalue().strip().splitlines()
    assert re.match(
        rf"Beginner against Intermediate, {TITLES[variant]}: 2 matches to 1, ", lines[0]
    )
    assert re.fullmatch(r"ppg: (-?\d+\.\d{3}) ci95: \S+ \S+", lines[-1])


TITLES = {
    "nackgammon": "Nackgammon",
    "hypergammon": "Hypergammon",
    "portes": "Portes",
    "plakoto": "Plakoto",
    "fevga": "Fevga",
    "long-nardi": "Long nardi",
    "tavli": "Tavli",
}


def test_an_unknown_variant_is_refused_with_the_names_there_are():
    with pytest.raises(
        CommandError, match="There is no variant 'chess'; choose one of backgammon,"
    ):
        call_command("bot_duel", "beginner", "expert", "1", "--variant", "chess")


def test_bot_timings_prints_each_levels_median_and_longest_move():
    out = StringIO()
    call_command("bot_timings", "--positions", "2", "--variant", "fevga", stdout=out)
    lines = out.getvalue().strip().splitlines()
    assert lines[0].split() == ["variant", "level", "median", "s", "max", "s"]
    assert [line.split()[:2] for line in lines[1:]] == [
        ["fevga", level] for level in ("beginner", "intermediate", "advanced", "expert")
    ]
    for line in lines[1:]:
        median, longest = map(float, line.split()[2:])
        assert 0 <= median <= longest
