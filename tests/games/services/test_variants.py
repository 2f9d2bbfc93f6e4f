"""Every variant through the services: a challenge asks for it, the match starts by its rules and
is played to its end, and the log replays to the same state."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from accounts.models import Profile
from backgammon_site.core.errors import ApplicationError
from games import services
from games.computer.analysis import analysis_request, match_subject
from games.engine import Dice, MatchRules, MatchState, state_from_snapshot
from games.engine.variants import VARIANTS
from games.log.integrity import log_problems
from games.log.records import match_log, rules_of_log
from games.models import Challenge, Match, MatchAnalysis, MatchEvent
from games.views.replay import replay_log
from tests.games.factories import act, events_of, reload, start_match, state_of

pytestmark = pytest.mark.django_db

#: (variant, match_format, cube, the engine's rules the match is played by)
VARIANT_MATCHES = [
    *[(name, None, None, MatchRules.of(name)) for name in VARIANTS],
    ("tavli", None, None, MatchRules.of("tavli")),
    ("tavli", "points", True, MatchRules.of("tavli", "tavli-points", True)),
    ("tavli", "best_of_three", None, MatchRules.of("tavli", "tavli-best-of-three")),
]


def accepted(challenger, opponent, **options) -> Match:
    challenge = services.challenge_create(challenger=challenger, opponent=opponent, **options)
    return services.challenge_accept(challenge_id=challenge.pk, user=opponent)


def play_to_the_end(
    match: Match,
    chooser: random.Random,
    *,
    limit: int = 4000,
    until: Callable[[MatchState], bool] = MatchState.is_finished,
) -> Match:
    """Both players act at random among what the rules allow (never resigning) until the end,
    or until the match is as ``until`` asks."""
    for _ in range(limit):
        match = reload(match)
        state = state_of(match)
        if state.is_finished() or until(state):
            return match
        player = state.player_to_act()
        assert player is not None, f"nobody to act in phase {state.phase}"
        user = match.players[player]
        actions = state.legal_actions(player)
        if "move" in actions:
            act(match, user, "move", play=chooser.choice(state.legal_play_notations()))
        elif "name_double" in actions:
            act(match, user, "name_double", number=chooser.randint(1, 6))
        elif "double" in actions and chooser.random() < 0.1:
            act(match, user, "double")
        elif "roll" in actions:
            act(match, user, "roll")
        elif "take" in actions:
            act(match, user, chooser.choice(["take", "drop"]))
        else:
            raise AssertionError(f"no way on from {state.phase} with {actions}")
    raise AssertionError(f"the match did not end in {limit} actions")


@pytest.mark.parametrize(("variant", "match_format", "cube", "rules"), VARIANT_MATCHES)
def test_a_match_of_each_variant_is_played_to_its_end(
    alice, bob, variant, match_format, cube, rules
):
    # Random play makes long games: a game of each variant, and a 3-point match (games one
    # after another, the cube, Crawford) of backgammon and of tavli in each of its formats.
    length = 3 if variant in ("backgammon", "tavli") else 1
    match = accepted(
        alice, bob, variant=variant, match_format=match_format, cube=cube, match_length=length
    )

    started = events_of(match)[0]
    assert started.kind == "match_started"
    assert MatchRules.from_payload(started.payload) == rules
    assert reload(match).variant == variant
    assert state_of(match).rules == rules

    match = play_to_the_end(match, random.Random(variant))

    state = state_of(match)
    assert match.status == Match.Status.FINISHED
    assert match.winner == match.players[state.winner]
    assert state.rules == rules
    assert log_problems(match) == []
    log = match_log(match)
    states, _ = replay_log(match.match_length, log, ("alice", "bob"))
    assert states[-1] == state
    assert rules_of_log(log) == rules


def test_a_best_of_three_tavli_match_is_three_games_long(alice, bob):
    match = accepted(alice, bob, variant="tavli", match_format="best_of_three", match_length=7)

    assert match.match_length == 3
    assert Challenge.objects.get(match=match).match_format == "best_of_three"
    assert state_of(match).rules.counts_games()


def test_the_cube_follows_the_variant_unless_the_challenge_says(alice, bob):
    def cube_of(**options):
        challenge = services.challenge_create(challenger=alice, opponent=bob, **options)
        return challenge.cube

    assert cube_of(variant="nackgammon") is True
    assert cube_of(variant="plakoto") is False
    assert cube_of(variant="tavli") is False
    assert cube_of(variant="tavli", cube=True) is True
    assert cube_of(variant="backgammon", cube=False) is False


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"variant": "chess"}, "variant"),
        ({"variant": 7}, "variant"),
        ({"variant": "portes", "match_format": "best_of_three"}, "match_format"),
        ({"variant": "tavli", "match_format": "best-of-five"}, "match_format"),
        ({"variant": "tavli", "match_format": "best_of_three", "cube": True}, "cube"),
        ({"variant": "fevga", "cube": "yes"}, "cube"),
    ],
)
def test_a_challenge_to_rules_that_are_not_is_refused_and_nothing_written(
    alice, bob, options, field
):
    with pytest.raises(ApplicationError) as refused:
        services.challenge_create(challenger=alice, opponent=bob, **options)

    assert refused.value.code == "invalid"
    assert list(refused.value.details["fields"]) == [field]
    assert refused.value.message.startswith(f"{field}: ")
    assert not Challenge.objects.exists()


def test_a_rematch_keeps_the_rules(alice, bob):
    match = accepted(alice, bob, variant="tavli", match_format="points", cube=True, match_length=1)
    match = play_to_the_end(match, random.Random(1))

    rematch, made = services.rematch_offer(match_id=match.pk, player=alice)

    assert made
    assert (rematch.variant, rematch.match_format, rematch.cube) == ("tavli", "points", True)


def test_a_plakoto_play_the_rules_refuse_says_why_and_writes_nothing(dice, alice, bob):
    dice.add(5, 3, 6, 5)
    match = reload(accepted(alice, bob, variant="plakoto", match_length=3))
    state = state_of(match)
    assert (state.phase, state.turn, state.dice) == ("moving", 0, Dice(6, 5))
    events_before = MatchEvent.objects.count()

    with pytest.raises(ApplicationError) as refused:
        act(match, alice, "move", play="13/7 13/8")

    assert refused.value.code == "illegal"
    assert "13" in refused.value.message
    assert MatchEvent.objects.count() == events_before
    dice.add(2, 1)
    assert act(match, alice, "move", play="24/18 24/19").seq > match.seq


def test_there_is_no_cube_to_double_in_plakoto(dice, alice, bob):
    Profile.objects.create(user=alice, auto_roll=False)
    dice.add(5, 3)
    match = reload(accepted(alice, bob, variant="plakoto", match_length=3))
    state = state_of(match)
    assert (state.phase, state.turn) == ("rolling", 0)
    events_before = MatchEvent.objects.count()

    with pytest.raises(ApplicationError) as refused:
        act(match, alice, "double")

    assert refused.value.code == "illegal"
    assert refused.value.message == "You cannot double: there is no cube in plakoto."
    assert MatchEvent.objects.count() == events_before


def test_a_match_in_a_variant_without_gnubg_ids_is_analysed_for_luck(
    alice, bob, django_capture_on_commit_callbacks
):
    match = accepted(alice, bob, variant="long-nardi", match_length=1)
    match = play_to_the_end(match, random.Random(2))

    with django_capture_on_commit_callbacks(execute=True):
        analysis_request(match_subject(match.pk))

    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == MatchAnalysis.Status.DONE
    assert analysis.result["kind"] == "luck" and analysis.result["decisions"] == []
    assert sum(player["rolls"] for player in analysis.result["players"]) > 10


def test_a_match_started_without_rules_is_backgammon(dice, alice, bob):
    dice.add(3, 1)
    match = start_match(alice, bob, length=1)

    assert "variant" not in events_of(match)[0].payload
    assert reload(match).variant == "backgammon"
    assert state_from_snapshot(reload(match).state).rules == MatchRules()
