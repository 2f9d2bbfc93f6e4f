"""Ending a match without a winner: a player's abort, and an end both players agree to.

The rules engine records these whenever the match is not over; when a player may abort, or
offer to end, is the service's to decide (tests/games/services/test_ending.py).
"""

import pytest

from games.engine import (
    Abort,
    AcceptEnd,
    DeclineEnd,
    OfferEnd,
    OpeningRoll,
    PlayMade,
    Resign,
    snapshot,
    state_from_snapshot,
)
from games.engine.errors import IllegalActionError
from games.engine.match import ABORTED, ENDED_BY_AGREEMENT, MatchState, fold


def begun(*events) -> MatchState:
    """Player 0 opened with 3-1 (8/5 6/5); player 1 is on roll."""
    return fold(3, [OpeningRoll((3, 1)), PlayMade(0, "8/5 6/5"), *events])


def test_a_match_has_begun_once_a_player_has_moved():
    assert not MatchState.new(3).has_begun()
    assert not fold(3, [OpeningRoll((3, 1))]).has_begun()
    assert not fold(3, [OpeningRoll((3, 1)), Resign(0, 1)]).has_begun()
    assert begun().has_begun()


def test_an_abort_ends_the_match_without_a_winner_keeping_the_score():
    state = begun(Abort(1))
    assert state.is_finished() and state.aborted
    assert state.winner is None and state.end_reason == ABORTED
    assert state.score == (0, 0) and state.player_to_act() is None


def test_nothing_follows_an_abort():
    with pytest.raises(IllegalActionError, match="the match is over"):
        begun(Abort(0), Abort(1))
    with pytest.raises(IllegalActionError, match="the match is over"):
        begun(Abort(0), OfferEnd(1))


def test_an_accepted_offer_ends_the_match_without_a_winner():
    offered = begun(OfferEnd(0))
    assert offered.end_offered_by == 0 and offered.phase == "rolling"
    assert offered.legal_actions(1) == ("roll", "double", "resign")
    assert offered.end_answers(1) == ("accept_end", "decline_end")
    assert offered.end_answers(0) == offered.legal_actions(0) == ()
    state = offered.apply(AcceptEnd(1))
    assert state.is_finished() and state.winner is None and state.aborted
    assert state.end_reason == ENDED_BY_AGREEMENT and state.end_offered_by is None


def test_an_offer_may_be_answered_by_the_player_not_on_turn():
    offered = begun(OfferEnd(1))
    assert offered.end_answers(0) == ("accept_end", "decline_end")
    assert offered.apply(AcceptEnd(0)).is_finished()


def test_a_declined_offer_leaves_play_where_it_was():
    before = begun()
    assert begun(OfferEnd(0), DeclineEnd(1)) == before


def test_an_offer_stands_while_play_goes_on():
    state = begun(OfferEnd(1), Resign(1, 1))
    assert state.end_offered_by == 1 and state.phase == "resigned"


@pytest.mark.parametrize(
    ("events", "message"),
    [
        ([OfferEnd(0), OfferEnd(0)], "already offered"),
        ([OfferEnd(0), OfferEnd(1)], "accept or decline their offer"),
        ([OfferEnd(0), AcceptEnd(0)], "your own offer"),
        ([OfferEnd(0), DeclineEnd(0)], "your own offer"),
        ([AcceptEnd(1)], "no offer to end the match to accept"),
        ([DeclineEnd(1)], "no offer to end the match to decline"),
    ],
)
def test_offers_refused(events, message):
    with pytest.raises(IllegalActionError, match=message):
        begun(*events)


def test_an_offer_survives_the_snapshot_and_old_snapshots_still_read():
    offered = begun(OfferEnd(0))
    assert state_from_snapshot(snapshot(offered)) == offered
    plain = snapshot(begun())
    assert "end_offered_by" not in plain
    assert state_from_snapshot(plain) == begun()
