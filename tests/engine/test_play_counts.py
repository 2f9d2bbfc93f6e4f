"""Counts of distinct legal plays checked against a fixed data file (like chess perft files)."""

from pathlib import Path

import pytest

from games.engine import Dice, Position, legal_plays

DATA = Path(__file__).parent / "data" / "play_counts.txt"


def cases() -> list[tuple[str, str, int]]:
    rows = []
    for line in DATA.read_text().splitlines():
        if line and not line.startswith("#"):
            position_id, dice, count = line.split()
            rows.append((position_id, dice, int(count)))
    return rows


def test_the_data_file_covers_enough_positions():
    rows = cases()
    assert len(rows) >= 500
    assert any(count == 0 for *_, count in rows)
    assert any(count > 100 for *_, count in rows)


@pytest.mark.parametrize(("position_id", "dice", "count"), cases())
def test_play_count(position_id, dice, count):
    position = Position.from_position_id(position_id)
    assert len(legal_plays(position, Dice(int(dice[0]), int(dice[1])))) == count
