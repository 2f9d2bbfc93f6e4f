"""Matches written in the Jellyfish .mat format."""

from games.engine import Dice
from games.engine.events import Double, Drop, OpeningRoll, PlayMade, Roll, Take
from games.engine.mat import MoveList, export_mat, move_list


def test_a_game_with_cube_actions_and_a_drop():
    events = [
        OpeningRoll((3, 1)),
        PlayMade(0, "8/5 6/5"),
        Roll(1, Dice(5, 2)),
        PlayMade(1, "13/11 13/8"),
        Double(0),
        Take(1),
        Roll(0, Dice(6, 4)),
        PlayMade(0, "24/18 13/9"),
        Double(1),
        Drop(0),
    ]
    assert export_mat(("alice", "bob"), 3, events) == (
        " 3 point match\n"
        "\n"
        " Game 1\n"
        " alice : 0                      bob : 0\n"
        "  1) 31: 8/5 6/5                 52: 13/8 13/11\n"
        "  2)  Doubles => 2                Takes\n"
        "  3) 64: 24/18 13/9               Doubles => 4\n"
        "  4)  Drops                       Wins 2 points\n"
        "\n"
    )


def test_when_the_second_player_opens_the_first_column_is_left_empty():
    events = [OpeningRoll((1, 4)), PlayMade(1, "13/9 24/23")]
    text = export_mat(("alice", "bob"), 5, events)
    assert "  1)                             41: " in text


def test_each_game_of_the_move_list_starts_at_its_first_opening_roll():
    events = [
        OpeningRoll((3, 1)),
        PlayMade(0, "8/5 6/5"),
        Double(1),
        Drop(0),
        OpeningRoll((2, 2)),
        OpeningRoll((4, 5)),
        PlayMade(1, "13/8 24/20"),
    ]
    games = move_list(3, events)
    assert [(game.number, game.start, game.winner) for game in games] == [(1, 0, 1), (2, 4, None)]
    assert [cell.event for line in games[1].lines for cell in line if cell] == [6]


def test_a_move_list_extended_event_by_event_is_the_list_of_all_its_events():
    events = [
        OpeningRoll((3, 1)),
        PlayMade(0, "8/5 6/5"),
        Roll(1, Dice(5, 2)),
        PlayMade(1, "13/11 13/8"),
        Double(0),
        Drop(1),
        OpeningRoll((2, 2)),
        OpeningRoll((4, 5)),
        PlayMade(1, "13/8 24/20"),
        Roll(0, Dice(6, 4)),
        PlayMade(0, "24/18 13/9"),
    ]
    whole = move_list(3, events)
    for split in range(len(events) + 1):
        start = MoveList.new(3).extended(events[:split])
        extended = start.extended(events[split:])
        assert list(extended.games()) == whole
        assert (start.length, extended.length) == (split, len(events))
