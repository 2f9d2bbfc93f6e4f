"""A play resolved once (``MatchState.resolve_play``) is applied as found: the notation is not
read again, unless the event meets another board or roll, where it is read as written."""

import pytest

from games.engine import Dice, MatchRules, MatchState, transitions
from games.engine.events import OpeningRoll, PlayMade, Roll


def _not_again(*args, **kwargs):
    raise AssertionError("the notation was read again")


@pytest.mark.parametrize("variant", ["backgammon", "plakoto"])
def test_a_resolved_play_is_applied_without_reading_it_again(variant, monkeypatch):
    opened = MatchState.new(1, MatchRules.of(variant)).apply(OpeningRoll((6, 5)))
    if opened.phase == "rolling":  # the higher die rolls again
        opened = opened.apply(Roll(opened.turn, Dice(6, 5)))
    text = opened.legal_play_notations()[0]
    event = opened.resolve_play(opened.turn, text)
    expected = opened.apply(PlayMade(opened.turn, text))
    monkeypatch.setattr(transitions, "parse_play", _not_again)
    monkeypatch.setattr(transitions, "find_play", _not_again)

    assert opened.apply(event) == expected
    assert event == PlayMade(opened.turn, text) and event.resolved is not None


def test_a_resolved_play_meeting_another_roll_is_read_as_written():
    first = MatchState.new(1).apply(OpeningRoll((3, 1)))
    event = first.resolve_play(0, "8/5 6/5")
    other = MatchState.new(1).apply(OpeningRoll((4, 1)))  # 8/4 is not a play of 4-1

    assert other.dice == Dice(4, 1)
    with pytest.raises(ValueError, match="not a legal play"):
        other.apply(event)
