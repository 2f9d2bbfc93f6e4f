"""manage.py fair_play_measure: a tiny run plays, reviews and weighs bot matches, and the
figures it wrote are read back instead of playing again."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

from django.core.management import call_command

from games.computer.fair_play_trials import PlayedMatch, first_case


def test_a_tiny_run_prints_the_false_alarms_and_the_detections(tmp_path: Path) -> None:
    records = tmp_path / "records.csv"
    options = {"players": 5, "run": 1, "history": 1, "cheating_run": 1, "records": records}
    out = StringIO()
    call_command("fair_play_measure", matches=3, cheating=3, stdout=out, **options)
    printed = out.getvalue()
    assert "Played and reviewed 6 matches" in printed
    assert re.search(r"false alarms, beginner: \d+ of 5 players of 1 matches", printed)
    assert re.search(
        r"detection \(100% of matches the Expert's\), beginner: \d+ of 5 players within 1 ", printed
    )
    again = StringIO()
    call_command("fair_play_measure", stdout=again, **options)
    assert "Read 12 sides" in again.getvalue()
    assert again.getvalue().splitlines()[1:] == printed.splitlines()[1:]


def test_a_run_of_expert_play_is_caught_and_honest_play_is_not() -> None:
    honest = [PlayedMatch("intermediate", False, 30, 10)] * 20
    assert first_case(honest, 1500) is None
    cheating = [PlayedMatch("intermediate", True, 30, 0)] * 5
    assert first_case(honest + cheating, 1500) in range(21, 26)
