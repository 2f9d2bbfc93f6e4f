"""Ending a match without a winner (issue 11, item 4): abort before anyone has moved, end an
unrated match by agreement, end a game against the computer at any time; rated matches, once
a player has moved, are only resigned."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from accounts.models import Profile
from backgammon_site.core.errors import Conflict, Forbidden, IllegalAction
from games import selectors, services
from games.log.exports import mat_export
from games.log.integrity import log_problems
from games.models import Match
from ratings.models import RatingChange
from tests.games.factories import act, kinds_of, reload, start_match, state_of


def begun(dice, first, second, *, rated: bool = False, length: int = 3) -> Match:
    """``first`` opened with 3-1 and played 8/5 6/5; ``second`` is on roll (and may double)."""
    dice.add(3, 1)
    match = start_match(first, second, length=length, rated=rated)
    return act(match, first, "move", play="8/5 6/5")


def allowed(match: Match, user) -> tuple[str, ...]:
    match = reload(match)
    return selectors.ending_actions(match, state_of(match), match.player_index(user))


def assert_ended_without_winner(match: Match, reason: str) -> None:
    match = reload(match)
    state = state_of(match)
    assert match.status == Match.Status.FINISHED and match.winner is None
    assert state.aborted and state.end_reason == reason
    assert match.deadline is None and match.warn_at is None and match.to_act is None
    assert not RatingChange.objects.filter(match=match).exists()
    assert log_problems(match) == []


# --- Abort before anyone has moved ---


@pytest.mark.parametrize("rated", [True, False])
@pytest.mark.parametrize("who", ["on roll", "waiting"])
def test_either_player_may_abort_before_anyone_has_moved(dice, alice, bob, rated, who):
    dice.add(3, 1)
    match = start_match(alice, bob, rated=rated)
    aborter = alice if who == "on roll" else bob
    assert "abort" in allowed(match, aborter)
    assert "offer_end" not in allowed(match, aborter)

    match = act(match, aborter, "abort")

    assert_ended_without_winner(match, "aborted")
    last = match.events.exclude(kind="dice_revealed").order_by("-seq").first()
    assert (last.kind, last.payload, last.actor_id) == (
        "abort",
        {"player": match.player_index(aborter)},
        aborter.pk,
    )
    assert kinds_of(match)[-1] == "dice_revealed"


@pytest.mark.parametrize("rated", [True, False])
def test_no_abort_once_a_player_has_moved(dice, alice, bob, rated):
    match = begun(dice, alice, bob, rated=rated)
    for player in (alice, bob):
        assert "abort" not in allowed(match, player)
    expected = "resign instead" if rated else "offer to end it"
    with pytest.raises(IllegalAction, match=expected):
        act(match, alice, "abort")
    assert reload(match).status == Match.Status.ACTIVE


def test_no_ending_a_finished_match(dice, alice, bob):
    dice.add(3, 1)
    match = act(start_match(alice, bob), alice, "abort")
    for action in ("abort", "offer_end", "accept_end"):
        with pytest.raises(IllegalAction, match="over"):
            act(reload(match), bob, action)


def test_a_stale_seq_aborts_nothing(dice, alice, bob):
    dice.add(3, 1)
    match = start_match(alice, bob)
    seen = match.seq
    match = act(match, alice, "move", play="8/5 6/5")
    with pytest.raises(Conflict):
        services.match_act(match_id=match.pk, actor=bob, expected_seq=seen, action="abort")
    assert reload(match).status == Match.Status.ACTIVE


def test_only_the_players_may_abort(dice, alice, bob, carol):
    dice.add(3, 1)
    match = start_match(alice, bob)
    with pytest.raises(Forbidden):
        act(match, carol, "abort")


# --- By agreement ---


@pytest.mark.parametrize("offerer", ["on roll", "waiting"])
def test_an_unrated_match_ends_when_one_offers_and_the_other_accepts(dice, alice, bob, offerer):
    match = begun(dice, alice, bob)  # bob is on roll
    offering, answering = (bob, alice) if offerer == "on roll" else (alice, bob)
    assert "offer_end" in allowed(match, offering)

    match = act(match, offering, "offer_end")

    assert "offer_end" not in allowed(match, offering)
    assert "accept_end" not in allowed(match, offering)
    assert {"accept_end", "decline_end"} <= set(allowed(match, answering))
    assert state_of(reload(match)).end_offered_by == match.player_index(offering)
    match = act(reload(match), answering, "accept_end")
    assert_ended_without_winner(match, "ended by agreement")
    assert kinds_of(match)[-3:] == ["offer_end", "accept_end", "dice_revealed"]


def test_an_offer_leaves_the_deadline_of_the_player_to_act_alone(dice, alice, bob):
    match = begun(dice, alice, bob)
    deadline = reload(match).deadline
    assert deadline is not None
    match = act(reload(match), alice, "offer_end")
    match = act(reload(match), bob, "decline_end")
    match = reload(match)
    assert match.deadline == deadline and match.to_act == bob
    assert state_of(match).end_offered_by is None
    assert log_problems(match) == []


def test_a_declined_offer_lets_play_go_on_and_may_be_made_again(dice, alice, bob):
    match = begun(dice, alice, bob)
    match = act(match, alice, "offer_end")
    match = act(reload(match), bob, "decline_end")
    dice.add(6, 5)
    match = act(reload(match), bob, "roll")
    assert state_of(reload(match)).phase == "moving"
    match = act(reload(match), alice, "offer_end")
    match = act(reload(match), bob, "accept_end")
    assert_ended_without_winner(match, "ended by agreement")


@pytest.mark.parametrize(
    ("steps", "actor", "action", "message"),
    [
        ([("alice", "offer_end")], "alice", "offer_end", "already offered"),
        ([("alice", "offer_end")], "bob", "offer_end", "accept or decline their offer"),
        ([("alice", "offer_end")], "alice", "accept_end", "your own offer"),
        ([("alice", "offer_end")], "alice", "decline_end", "your own offer"),
        ([], "bob", "accept_end", "no offer"),
        ([], "bob", "decline_end", "no offer"),
    ],
)
def test_offers_refused(dice, alice, bob, steps, actor, action, message):
    players = {"alice": alice, "bob": bob}
    match = begun(dice, alice, bob)
    for name, step in steps:
        match = act(reload(match), players[name], step)
    with pytest.raises(IllegalAction, match=message):
        act(reload(match), players[actor], action)


def test_a_rated_match_cannot_be_ended_by_agreement_once_begun(dice, alice, bob):
    match = begun(dice, alice, bob, rated=True)
    assert "offer_end" not in allowed(match, alice)
    with pytest.raises(IllegalAction, match="resign instead"):
        act(match, alice, "offer_end")


def test_no_offer_before_anyone_has_moved(dice, alice, bob):
    dice.add(3, 1)
    match = start_match(alice, bob)
    with pytest.raises(IllegalAction, match="abort the match instead"):
        act(match, bob, "offer_end")


def test_accepting_a_stale_offer_does_nothing(dice, alice, bob):
    match = begun(dice, alice, bob)
    match = act(match, alice, "offer_end")
    seen = reload(match).seq
    match = act(reload(match), bob, "decline_end")
    with pytest.raises(Conflict):
        services.match_act(match_id=match.pk, actor=bob, expected_seq=seen, action="accept_end")
    assert reload(match).status == Match.Status.ACTIVE


# --- Against the computer ---


def computer():
    return get_user_model().objects.get(username="BeginnerBot")


@pytest.fixture
def bot_waits(monkeypatch):
    """The bot does not act in these tests: the human ends the game on their own turn or not."""
    from games import tasks

    monkeypatch.setattr(tasks.bot_act, "delay", lambda *args, **kwargs: None)


def test_a_game_against_the_computer_may_be_ended_at_any_time(dice, alice, bot_waits):
    bot = computer()
    match = begun(dice, bot, alice)  # the bot opened; alice is on roll
    assert "abort" in allowed(match, alice)
    assert "offer_end" not in allowed(match, alice)
    with pytest.raises(IllegalAction, match="does not answer offers"):
        act(match, alice, "offer_end")
    match = act(reload(match), alice, "abort")
    assert_ended_without_winner(match, "aborted")


def test_a_rated_game_against_the_computer_is_resigned_not_ended(dice, alice, bot_waits):
    match = begun(dice, computer(), alice, rated=True)
    assert "abort" not in allowed(match, alice)
    with pytest.raises(IllegalAction, match="resign instead"):
        act(match, alice, "abort")


def test_the_computer_is_known_by_its_profile(dice, alice, bob):
    dice.add(3, 1)
    assert not selectors.against_computer(start_match(alice, bob))
    Profile.objects.update_or_create(user=bob, defaults={"bot_level": "expert"})
    dice.add(3, 1)
    assert selectors.against_computer(start_match(alice, bob))


# --- The record of an ended match ---


def test_an_ended_match_exports_to_mat_up_to_its_end(dice, alice, bob):
    match = begun(dice, alice, bob)
    match = act(match, alice, "offer_end")
    match = act(reload(match), bob, "accept_end")
    text = mat_export(reload(match))
    assert "8/5 6/5" in text
    assert "Wins" not in text


def test_the_replay_says_how_the_match_ended(dice, alice, bob, client):
    match = begun(dice, alice, bob)
    match = act(match, alice, "offer_end")
    match = act(reload(match), bob, "decline_end")
    match = act(reload(match), bob, "offer_end")
    match = act(reload(match), alice, "accept_end")
    page = client.get(f"/matches/{match.pk}/replay/").content.decode()
    assert "offered to end the match without a winner" in page
    assert "declined to end the match" in page
    assert "agreed to end the match without a winner" in page


# --- The match page ---


def test_the_match_page_offers_the_ways_to_end(dice, alice, bob, signed_in):
    dice.add(3, 1)
    match = start_match(alice, bob)
    page = signed_in(bob).get(f"/matches/{match.pk}/").content.decode()
    assert 'data-action="abort"' in page and "Abort the match" in page

    match = act(reload(match), alice, "move", play="8/5 6/5")
    page = signed_in(alice).get(f"/matches/{match.pk}/").content.decode()
    assert 'data-action="abort"' not in page and 'data-action="offer_end"' in page

    browser = signed_in(alice)
    browser.post(f"/matches/{match.pk}/act/", {"seq": reload(match).seq, "action": "offer_end"})
    page = signed_in(bob).get(f"/matches/{match.pk}/").content.decode()
    assert "alice offers to end the match without a winner" in page
    assert 'data-action="accept_end"' in page and 'data-action="decline_end"' in page
    assert 'data-action="roll"' in page

    signed_in(bob).post(
        f"/matches/{match.pk}/act/", {"seq": reload(match).seq, "action": "accept_end"}
    )
    page = signed_in(bob).get(f"/matches/{match.pk}/").content.decode()
    assert "ended without a winner" in page and "ended by agreement" in page


def test_against_the_computer_the_button_ends_the_game(dice, alice, bot_waits, signed_in):
    match = begun(dice, computer(), alice)
    page = signed_in(alice).get(f"/matches/{match.pk}/").content.decode()
    assert 'data-action="abort"' in page and "End the game" in page


def test_an_offer_is_not_a_new_turn_for_the_notifications(dice, alice, bob):
    from games.models import Notification
    from games.notifications.news import match_news

    get_user_model().objects.filter(pk=bob.pk).update(email="bob@example.com")
    match = reload(begun(dice, alice, bob))
    match_news(match_id=match.pk, seq=match.seq, to_act_id=bob.pk)
    before = Notification.objects.filter(user=bob).count()
    assert before == 1
    match = reload(act(match, alice, "offer_end"))
    match_news(match_id=match.pk, seq=match.seq, to_act_id=bob.pk)
    assert Notification.objects.filter(user=bob).count() == before
