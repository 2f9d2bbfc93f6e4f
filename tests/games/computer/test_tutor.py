"""The tutor's judgement: a play's verdict (what it lost, its mark, the best play) kept after
the play, and the hint, given only to the player it helps when they have a roll to play."""

import pytest

from backgammon_site.core.errors import ApplicationError, Forbidden
from games import selectors, services
from games.computer.review import ERROR
from games.computer.tutor import judge_play, tutor_after_play, tutor_hint
from games.engine import MatchState, OpeningRoll
from tests.games.computer.conftest import bot
from tests.games.factories import act, reload

pytestmark = pytest.mark.django_db

#: After an opening 6-1, running both back checkers instead of making the 7 point: an error
#: at the one-point match score (bgsage at one ply: about 0.07).
RUN_BACK = "24/23 24/18"
BEST = "13/7 8/7"


def tutored_match(dice, player, *, tutored=True):
    dice.add(6, 1, 5, 2, 4, 3)  # the opening 6-1 is the player's; the computer rolls 5-2
    return services.match_start(
        first_player=player,
        second_player=bot("IntermediateBot"),
        match_length=1,
        rated=False,
        time_control={"kind": "untimed"},
        tutored=tutored,
    )


def test_a_play_is_judged_against_the_best_play():
    state = MatchState.new(1).apply(OpeningRoll((6, 1)))
    verdict = judge_play(state, 0, RUN_BACK)
    assert verdict["played"] == RUN_BACK and verdict["best"] == BEST
    assert verdict["equity_lost"] >= ERROR and verdict["mark"] in ("error", "blunder")
    assert judge_play(state, 0, BEST)["equity_lost"] == 0
    assert judge_play(state, 0, "13/7 13/12") is None  # not legal: nothing to judge
    assert judge_play(state, 1, BEST) is None  # not the player to move


def test_the_verdict_on_the_players_play_is_kept_beside_the_match(dice, alice):
    match = tutored_match(dice, alice)
    before = reload(match)
    match = act(match, alice, "move", play=RUN_BACK)
    tutor_after_play(
        match=match, actor=alice, expected_seq=before.seq, action="move", play=RUN_BACK
    )
    match = reload(match)
    verdict = match.tutor_verdict
    assert verdict["seq"] == before.seq + 1 and verdict["player"] == 0
    assert verdict["best"] == BEST and verdict["mark"] in ("error", "blunder")
    assert match.events.get(seq=before.seq + 1).payload.get("tutor") is None
    assert selectors.match_view(match, alice).tutor["played"] == RUN_BACK
    assert selectors.match_view(match, match.second_player).tutor is None


def test_no_verdict_in_a_match_without_the_tutor(dice, alice):
    match = tutored_match(dice, alice, tutored=False)
    before = reload(match)
    match = act(match, alice, "move", play=RUN_BACK)
    tutor_after_play(
        match=match, actor=alice, expected_seq=before.seq, action="move", play=RUN_BACK
    )
    assert reload(match).tutor_verdict is None


def test_the_hint_is_the_best_play_for_the_player_to_move_only(dice, alice, bob):
    match = tutored_match(dice, alice)
    assert tutor_hint(match, alice) == BEST
    for other in (match.second_player, bob, None):
        with pytest.raises(Forbidden):
            tutor_hint(match, other)
    act(match, alice, "move", play=BEST)
    with pytest.raises(ApplicationError) as refused:
        tutor_hint(reload(match), alice)
    assert refused.value.code == "no_hint"


def test_no_hint_in_a_match_without_the_tutor(dice, alice):
    match = tutored_match(dice, alice, tutored=False)
    with pytest.raises(Forbidden):
        tutor_hint(match, alice)


def test_a_play_stands_without_its_verdict_when_the_tutor_fails(dice, alice, monkeypatch):
    def broken(*args):
        raise RuntimeError("bgsage failed")

    monkeypatch.setattr("games.computer.tutor.judge_play", broken)
    match = tutored_match(dice, alice)
    seq = match.seq
    match = act(match, alice, "move", play=RUN_BACK)
    tutor_after_play(match=match, actor=alice, expected_seq=seq, action="move", play=RUN_BACK)
    match = reload(match)
    assert match.tutor_verdict is None and match.seq > seq
