"""What a match state says about the play on roll in every variant, whether it keeps its board
as a Position (the hitting games) or as a Board (plakoto, fevga, long nardi): the legal plays
in notation, a play's canonical notation, and the play put together checker by checker."""

import pytest

from games.engine import (
    Board,
    Dice,
    IllegalActionError,
    IllegalPlayError,
    MatchRules,
    MatchState,
    format_play,
    legal_plays,
    variant_named,
)
from games.engine.events import OpeningRoll, Roll
from tests.engine.matches import player_1_on_roll
from tests.engine.test_variant_match import board_of, moving, points_text


def opened(rules: MatchRules, roll: tuple[int, int]) -> MatchState:
    """A new match of ``rules`` after its opening roll: the higher die's player moves."""
    return MatchState.new(3, rules).apply(OpeningRoll(roll))


def on_roll(name: str) -> MatchState:
    """Player 0 to play 6-5 from the start of a ``name`` match."""
    rules = MatchRules.of(name)
    if variant_named(name).hits:
        return opened(rules, (6, 5))
    return moving(rules, Board.starting(variant_named(name)), Dice(6, 5))


def plakoto_with_a_blot_on_18() -> MatchState:
    board = board_of("plakoto", points_text({1: "-14", 18: "-1", 24: "15"}))
    return moving(MatchRules.of("plakoto"), board, Dice(6, 1))


def plakoto_with_a_pinned_checker_on_13() -> MatchState:
    board = board_of("plakoto", points_text({1: "-14", 13: "-1p1", 24: "14"}))
    return moving(MatchRules.of("plakoto"), board, Dice(6, 1))


# --- The legal plays in notation ----------------------------------------------------------


def test_the_notations_of_a_backgammon_roll_are_its_legal_plays():
    state = opened(MatchRules.of("backgammon"), (3, 1))
    expected = {format_play(play) for play in legal_plays(state.position_for(0), Dice(3, 1))}
    notations = state.legal_play_notations()
    assert len(notations) == 16 and set(notations) == expected and "8/5 6/5" in notations


def test_the_notations_of_player_1s_roll_are_seen_from_their_side():
    state = player_1_on_roll(3, Roll(1, Dice(6, 4)))
    theirs = {format_play(play) for play in legal_plays(state.position_for(1), Dice(6, 4))}
    mine = {format_play(play) for play in legal_plays(state.position_for(0), Dice(6, 4))}
    assert set(state.legal_play_notations()) == theirs != mine


def test_the_notations_of_a_plakoto_roll_mark_the_pin():
    assert plakoto_with_a_blot_on_18().legal_play_notations() == ("24/23 24/18*", "24/17")


def test_the_notations_of_a_fevga_start_run_one_checker():
    assert on_roll("fevga").legal_play_notations() == ("24/13",)


@pytest.mark.parametrize("rules", [MatchRules.of("backgammon"), MatchRules.of("plakoto")])
def test_no_notations_before_the_dice_are_rolled(rules):
    assert MatchState.new(3, rules).legal_play_notations() == ()


# --- A play's canonical notation -----------------------------------------------------------


def test_a_backgammon_play_in_any_spelling_is_written_canonically():
    state = opened(MatchRules.of("backgammon"), (3, 1))
    assert state.canonical_play(0, "6/5, 8/5") == "8/5 6/5"


def test_a_backgammon_play_the_roll_does_not_allow_is_refused_with_the_reason():
    state = opened(MatchRules.of("backgammon"), (3, 1))
    with pytest.raises(IllegalPlayError, match="you have no checker on the bar"):
        state.canonical_play(0, "bar/22")


def test_a_plakoto_play_is_written_with_its_pin():
    assert plakoto_with_a_blot_on_18().canonical_play(0, "24/18, 24/23") == "24/23 24/18*"


def test_a_fevga_play_written_by_its_stops_is_written_as_one_path():
    assert on_roll("fevga").canonical_play(0, "24/18/13") == "24/13"


def test_moving_a_pinned_checker_is_refused_in_the_rules_own_words():
    with pytest.raises(IllegalPlayError, match="pinned: a pinned checker cannot move"):
        plakoto_with_a_pinned_checker_on_13().canonical_play(0, "13/7 13/12")


@pytest.mark.parametrize("name", ["backgammon", "fevga"])
def test_only_the_player_on_roll_has_a_play_to_write(name):
    with pytest.raises(IllegalActionError, match="your opponent's turn"):
        on_roll(name).canonical_play(1, "24/13")


# --- The play put together checker by checker ---------------------------------------------


@pytest.mark.parametrize("name", ["backgammon", "hypergammon", "plakoto", "fevga"])
def test_a_turn_begins_on_the_movers_board_of_the_games_variant(name):
    state = on_roll(name)
    turn = state.turn_begun(0)
    assert turn.board == state.board_for(0) and turn.board.variant.name == name
    assert turn.board.borne_off() == (0, 0) and turn.moves == ()


def test_a_backgammon_turn_shows_the_board_after_each_checker():
    turn = on_roll("backgammon").turn_begun(0)
    assert sorted(turn.movable_points()) == [8, 13, 24]
    turn = turn.with_move(turn.move_to(24, 18))
    assert turn.board.points[24] == 1 and turn.board.points[18] == 1
    assert sorted(turn.destinations(18)) == [13]


def test_player_1s_turn_begins_from_their_side():
    state = player_1_on_roll(3, Roll(1, Dice(6, 4)))
    assert state.turn_begun(1).board == state.board_for(1) != state.board_for(0)


def test_a_plakoto_turn_pins_and_leaves_a_pinned_checker_where_it_is():
    turn = plakoto_with_a_blot_on_18().turn_begun(0)
    turn = turn.with_move(turn.move_to(24, 18))
    assert turn.board.text().split()[17] == "1p1"
    assert sorted(plakoto_with_a_pinned_checker_on_13().turn_begun(0).movable_points()) == [24]


def test_a_fevga_turn_runs_the_first_checker_on():
    turn = on_roll("fevga").turn_begun(0)
    turn = turn.with_move(turn.move_to(24, 18))
    assert sorted(turn.destinations(18)) == [13] and turn.board.mine(18) == 1


@pytest.mark.parametrize("rules", [MatchRules.of("backgammon"), MatchRules.of("plakoto")])
def test_no_turn_begins_before_the_dice_are_rolled(rules):
    with pytest.raises(IllegalActionError, match="starts with the opening roll"):
        MatchState.new(3, rules).turn_begun(0)
