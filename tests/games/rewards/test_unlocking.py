"""A signed-in player's first win against each computer level unlocks its reward, once."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from accounts.models import Profile, Unlock
from accounts.rewards import can_earn_rewards
from games import services
from games.computer.rewards import unlock_for_match
from games.models import Match
from games.signals import match_changed
from tests.games.factories import make_user, start_match

pytestmark = pytest.mark.django_db


def bot(level: str) -> Any:
    return get_user_model().objects.get(username=f"{level.capitalize()}Bot")


@pytest.fixture
def announced(django_capture_on_commit_callbacks: Any) -> Any:
    """Run the match_changed receivers (the rewards among them) as a commit would."""

    def run(change: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return change()

    return run


def quiet_match(first: Any, second: Any) -> Match:
    """A match between ``first`` and ``second`` in which the bot does not get to move: the
    opening roll is the moderator's business here, not the test's."""
    return start_match(first, second, length=1)


def award(match: Match, winner: Any, moderator: Any) -> Match:
    return services.match_award(
        match_id=match.pk, moderator=moderator, winner=winner, reason="Test result."
    )


def unlocks_of(user: Any) -> list[str]:
    return list(Unlock.objects.filter(user=user).values_list("reward", flat=True))


@pytest.fixture
def no_bot_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bots stay still: these tests decide every result themselves."""
    from games import tasks

    monkeypatch.setattr(tasks.bot_act, "delay", lambda *args, **kwargs: None)


@pytest.mark.usefixtures("no_bot_moves")
@pytest.mark.parametrize(
    ("level", "reward"),
    [
        ("beginner", "beginner-colours"),
        ("intermediate", "intermediate-colours"),
        ("advanced", "advanced-style"),
        ("expert", "expert-crown"),
    ],
)
def test_a_win_against_a_level_unlocks_its_reward(
    alice: Any, moderator: Any, announced: Any, level: str, reward: str
) -> None:
    match = announced(lambda: quiet_match(alice, bot(level)))
    announced(lambda: award(match, alice, moderator))
    unlock = Unlock.objects.get(user=alice)
    assert unlock.reward == reward
    assert unlock.match_id == match.pk


@pytest.mark.usefixtures("no_bot_moves")
def test_the_signal_sent_twice_unlocks_once(alice: Any, moderator: Any, announced: Any) -> None:
    match = quiet_match(bot("beginner"), alice)
    announced(lambda: award(match, alice, moderator))
    match_changed.send(Match, match_id=match.pk, seq=match.seq, to_act_id=None, deadline=None)
    unlock_for_match(match.pk)
    assert unlocks_of(alice) == ["beginner-colours"]


@pytest.mark.usefixtures("no_bot_moves")
def test_a_second_win_adds_nothing(alice: Any, moderator: Any, announced: Any) -> None:
    first = quiet_match(alice, bot("beginner"))
    announced(lambda: award(first, alice, moderator))
    second = quiet_match(alice, bot("beginner"))
    announced(lambda: award(second, alice, moderator))
    assert Unlock.objects.get(user=alice).match_id == first.pk


@pytest.mark.usefixtures("no_bot_moves")
def test_a_loss_unlocks_nothing(alice: Any, moderator: Any, announced: Any) -> None:
    match = quiet_match(alice, bot("expert"))
    announced(lambda: award(match, bot("expert"), moderator))
    assert Unlock.objects.count() == 0


@pytest.mark.usefixtures("no_bot_moves")
def test_an_abort_unlocks_nothing(alice: Any, moderator: Any, announced: Any) -> None:
    match = quiet_match(alice, bot("expert"))
    announced(lambda: services.match_abort(match_id=match.pk, moderator=moderator, reason="Test."))
    assert Unlock.objects.count() == 0


@pytest.mark.usefixtures("no_bot_moves")
def test_an_unfinished_match_unlocks_nothing(alice: Any) -> None:
    match = quiet_match(alice, bot("beginner"))
    assert unlock_for_match(match.pk) is None
    assert Unlock.objects.count() == 0


def test_a_win_against_a_person_unlocks_nothing(
    alice: Any, bob: Any, moderator: Any, announced: Any
) -> None:
    match = quiet_match(alice, bob)
    announced(lambda: award(match, alice, moderator))
    assert Unlock.objects.count() == 0


@pytest.mark.usefixtures("no_bot_moves")
def test_a_suspended_account_earns_nothing(alice: Any, moderator: Any, announced: Any) -> None:
    match = quiet_match(alice, bot("beginner"))
    alice.is_active = False
    alice.save()
    announced(lambda: award(match, alice, moderator))
    assert Unlock.objects.count() == 0


def test_bots_and_people_who_may_earn(alice: Any) -> None:
    assert can_earn_rewards(alice)
    assert not can_earn_rewards(bot("beginner"))
    assert not can_earn_rewards(None)


@pytest.mark.usefixtures("no_bot_moves")
def test_the_crown_is_worn_as_soon_as_it_is_won(alice: Any, moderator: Any, announced: Any) -> None:
    match = quiet_match(alice, bot("expert"))
    announced(lambda: award(match, alice, moderator))
    assert Profile.objects.get(user=alice).wears_crown


@pytest.mark.usefixtures("no_bot_moves")
def test_colours_wait_to_be_chosen(alice: Any, moderator: Any, announced: Any) -> None:
    assert make_user("dave")  # a player with no profile yet is fine too
    match = quiet_match(alice, bot("beginner"))
    announced(lambda: award(match, alice, moderator))
    profile = Profile.objects.filter(user=alice).first()
    assert profile is None or profile.checker_colour == ""
