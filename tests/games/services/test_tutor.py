"""Who may have the tutor (an unrated match against the computer, in a game it reads), and
where its verdicts are kept (beside the match, never in its log)."""

import pytest
from django.contrib.auth import get_user_model

from backgammon_site.core.errors import ApplicationError, Forbidden
from games import selectors, services
from games.engine import MatchRules
from games.models import Match
from tests.games.factories import events_of, migration_made_rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def computer(db):
    migration_made_rows()
    return get_user_model().objects.get(username="IntermediateBot")


def start(first, second, *, rated=False, rules=None, tutored=True):
    return services.match_start(
        first_player=first,
        second_player=second,
        match_length=1,
        rated=rated,
        time_control={"kind": "untimed"},
        rules=rules,
        tutored=tutored,
    )


def test_an_unrated_match_against_the_computer_may_have_the_tutor(dice, alice, computer):
    dice.add(6, 1)
    match = start(alice, computer)
    assert match.tutored and match.tutor_verdict is None
    assert selectors.tutored_seat(match) == 0
    assert all("tutor" not in event.payload for event in events_of(match))


@pytest.mark.parametrize(
    ("rated", "against_computer", "variant", "refusal"),
    [
        (True, True, "backgammon", "only in unrated matches"),
        (False, False, "backgammon", "between a player and the computer"),
        (False, True, "plakoto", "not offered for this game"),
        (False, True, "tavli", "not offered for this game"),
    ],
)
def test_the_tutor_is_refused_anywhere_else_and_nothing_is_started(
    dice, alice, bob, computer, rated, against_computer, variant, refusal
):
    dice.add(6, 1)
    opponent = computer if against_computer else bob
    with pytest.raises(ApplicationError) as refused:
        start(alice, opponent, rated=rated, rules=MatchRules.of(variant))
    assert refused.value.code == "tutor" and refusal in refused.value.message
    assert not Match.objects.exists()


@pytest.mark.parametrize("variant", ["backgammon", "nackgammon", "hypergammon", "portes"])
def test_the_tutor_reads_the_games_bgsage_reads(variant):
    assert services.tutor_offered(MatchRules.of(variant))


def test_a_verdict_is_kept_for_the_player_the_tutor_helps_only(dice, alice, computer):
    dice.add(6, 1)
    match = start(alice, computer)
    verdict = {"played": "24/23 24/18", "best": "13/7 8/7", "equity_lost": 0.071}
    with pytest.raises(Forbidden):
        services.tutor_verdict_keep(match_id=match.pk, player=computer, seq=3, verdict=verdict)
    services.tutor_verdict_keep(match_id=match.pk, player=alice, seq=3, verdict=verdict)
    match.refresh_from_db()
    assert match.tutor_verdict == {**verdict, "player": 0, "seq": 3}
    assert selectors.tutor_verdict_for(match, 0)["best"] == "13/7 8/7"
    assert selectors.tutor_verdict_for(match, 1) is None
    # An older verdict arriving late does not replace a newer one.
    services.tutor_verdict_keep(match_id=match.pk, player=alice, seq=2, verdict={"x": 1})
    match.refresh_from_db()
    assert match.tutor_verdict["seq"] == 3


def test_a_match_without_the_tutor_keeps_no_verdict(dice, alice, computer):
    dice.add(6, 1)
    match = start(alice, computer, tutored=False)
    with pytest.raises(Forbidden):
        services.tutor_verdict_keep(match_id=match.pk, player=alice, seq=3, verdict={})
