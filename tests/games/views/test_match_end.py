"""The end of a match on its page: the final score, the rating changes, Rematch, Next match
and, for a guest, signing up to keep the match."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import guests
from games import services, tasks
from games.models import Challenge, Match, Notification
from ratings.models import RatingChange
from tests.games.computer.conftest import bot
from tests.games.factories import act, make_user, reload, start_match

pytestmark = pytest.mark.django_db


def finished(dice, first, second, *, rated=True, length=1, time_control=None):
    """``first`` opened with 3-1 and resigned the match's only game to ``second``."""
    dice.add(3, 1)
    match = start_match(first, second, length=length, rated=rated, time_control=time_control)
    match = act(match, first, "resign", points=length)
    match = act(match, second, "accept_resign")
    assert match.status == Match.Status.FINISHED
    return match


def page(client, match, status=200):
    response = client.get(f"/matches/{match.pk}/")
    assert response.status_code == status
    return response.content.decode()


def rematch(client, match, captured):
    with captured(execute=True):
        return client.post(f"/matches/{match.pk}/rematch/")


def test_a_finished_rated_match_shows_the_score_how_it_ended_and_both_rating_changes(
    client, dice, alice, bob
):
    match = finished(dice, alice, bob)
    changes = {c.user_id: c for c in RatingChange.objects.filter(match=match)}
    gain, loss = changes[bob.pk].difference, changes[alice.pk].difference
    assert gain > 0 > loss
    client.force_login(alice)
    html = page(client, match)
    end = html.split("data-match-end")[1].split("</section>")[0]
    assert 'data-final-score="alice">alice <strong>0</strong>' in end
    assert 'data-final-score="bob">bob <strong>1</strong>' in end
    assert "alice resigned the last game." in end
    assert f"+{gain:.1f}" in end and f"−{-loss:.1f}" in end
    assert f"now {changes[bob.pk].rating_after:.0f}" in end
    assert end.count("provisional</abbr>") == 2  # both are new players
    assert 'data-action="rematch"' in end


def test_an_unfinished_match_has_no_end_panel_and_refuses_a_rematch(
    client, dice, alice, bob, django_capture_on_commit_callbacks
):
    dice.add(3, 1)
    match = start_match(alice, bob)
    client.force_login(alice)
    assert "data-match-end" not in page(client, match)
    response = rematch(client, match, django_capture_on_commit_callbacks)
    assert response.status_code == 409
    assert "still being played" in response.content.decode()
    assert not Challenge.objects.exists()


def test_rematch_challenges_the_opponent_with_the_same_settings_and_the_seats_swapped(
    client, dice, alice, bob, django_capture_on_commit_callbacks
):
    live = {"kind": "live", "minutes": 8, "increment_seconds": 10}
    match = finished(dice, alice, bob, length=3, time_control=live)
    client.force_login(alice)
    response = rematch(client, match, django_capture_on_commit_callbacks)
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    challenge = Challenge.objects.get()
    assert (challenge.challenger, challenge.opponent) == (alice, bob)
    assert challenge.rematch_of == match and challenge.status == Challenge.Status.OPEN
    assert (challenge.match_length, challenge.rated, challenge.time_control) == (3, True, live)
    assert Notification.objects.filter(user=bob, kind="challenge", challenge=challenge).exists()

    # A second click makes no other challenge; the page says it is offered.
    again = rematch(client, match, django_capture_on_commit_callbacks)
    assert again.status_code == 302
    assert Challenge.objects.count() == 1
    html = page(client, match)
    assert "data-rematch-offered" in html and 'data-action="rematch"' not in html

    # Bob sees Alice's offer on the match page and his button accepts it: Bob, second
    # before, is the first player now.
    client.force_login(bob)
    html = page(client, match)
    assert "Accept alice's rematch" in html
    dice.add(3, 1)  # the rematch opens 3 (bob, first now) v 1
    accepted = rematch(client, match, django_capture_on_commit_callbacks)
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.ACCEPTED
    assert accepted["Location"] == f"/matches/{challenge.match_id}/"
    new = challenge.match
    assert (new.first_player, new.second_player) == (bob, alice)
    assert (new.match_length, new.rated, new.time_control) == (3, True, live)
    assert Challenge.objects.count() == 1
    assert "data-rematch-match" in page(client, match)


def test_the_second_player_offering_a_rematch_plays_first_in_it(
    client, dice, alice, bob, django_capture_on_commit_callbacks
):
    match = finished(dice, alice, bob, rated=False)
    client.force_login(bob)
    rematch(client, match, django_capture_on_commit_callbacks)
    challenge = Challenge.objects.get()
    assert challenge.challenger == bob and challenge.challenger_plays_first
    dice.add(3, 1)
    new = services.challenge_accept(challenge_id=challenge.pk, user=alice)
    assert (new.first_player, new.second_player) == (bob, alice)
    assert new.rated is False


def test_a_rematch_against_the_computer_starts_at_once(
    client, dice, alice, django_capture_on_commit_callbacks
):
    beginner = bot("BeginnerBot")
    dice.add(3, 1)
    match = start_match(alice, beginner, length=1)
    with django_capture_on_commit_callbacks(execute=True):
        act(match, alice, "resign", points=3)  # the bot accepts a backgammon at once
    match = reload(match)
    assert match.status == Match.Status.FINISHED
    client.force_login(alice)
    dice.add(1, 3)  # the rematch opens 1 (the bot, first now) v 3: alice moves first
    assert rematch(client, match, django_capture_on_commit_callbacks).status_code == 302
    challenge = Challenge.objects.get()
    assert challenge.status == Challenge.Status.ACCEPTED
    assert f'href="/matches/{challenge.match_id}/" data-rematch-match' in page(client, match)
    new = challenge.match
    assert (new.first_player, new.second_player) == (beginner, alice)
    assert new.status == Match.Status.ACTIVE and new.to_act == alice


def test_someone_who_did_not_play_cannot_offer_a_rematch(
    client, dice, alice, bob, carol, django_capture_on_commit_callbacks
):
    match = finished(dice, alice, bob)
    html = page(client, match)
    assert "data-match-end" in html and 'data-action="rematch"' not in html
    response = rematch(client, match, django_capture_on_commit_callbacks)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(carol)
    assert 'data-action="rematch"' not in page(client, match)
    response = rematch(client, match, django_capture_on_commit_callbacks)
    assert response.status_code == 403
    assert not Challenge.objects.exists()


def test_next_match_shows_when_a_match_waits_for_you(client, dice, alice, bob, carol):
    match = finished(dice, alice, bob)
    client.force_login(alice)
    assert "data-next-match" not in page(client, match)
    dice.add(1, 3)  # carol opens; then it is alice's turn after carol's move
    other = start_match(alice, carol)
    act(other, carol, "move", play="8/5 6/5")
    assert reload(other).to_act == alice
    assert "data-next-match" in page(client, match)


def test_a_guest_is_asked_to_sign_up_and_has_no_rematch(
    client, dice, django_capture_on_commit_callbacks
):
    guest = guests.new_guest("Visitor")
    session = client.session
    session[guests.GUEST_KEY] = guest.pk
    session.save()
    match = finished(dice, bot("BeginnerBot"), guest, rated=False)
    html = page(client, match)
    assert "data-sign-up" in html and "Sign up to keep this match" in html
    assert 'data-action="rematch"' not in html
    response = rematch(client, match, django_capture_on_commit_callbacks)
    assert response.status_code == 400
    assert not Challenge.objects.exists()


def test_the_end_panel_says_how_the_match_ended(client, dice, alice, bob, moderator):
    dice.add(3, 1)
    awarded = start_match(alice, bob)
    services.match_award(
        match_id=awarded.pk, moderator=moderator, winner=bob, reason="alice left the site"
    )
    dice.add(3, 1)
    timed_out = start_match(alice, carol := make_user("carol2"))
    Match.objects.filter(pk=timed_out.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    assert services.match_timeout(match_id=timed_out.pk).timed_out
    client.force_login(bob)
    assert "Awarded to bob: alice left the site." in page(client, awarded)
    html = page(client, timed_out)
    assert "alice ran out of time." in html
    assert f'data-final-score="{carol.username}">{carol.username} <strong>' in html


def test_an_aborted_match_says_so_and_may_be_played_again(
    client, dice, alice, bob, django_capture_on_commit_callbacks
):
    dice.add(3, 1)
    match = act(start_match(alice, bob), alice, "abort")
    assert match.status == Match.Status.FINISHED and match.winner is None
    client.force_login(bob)
    html = page(client, match)
    assert "The match was aborted." in html and "badge" not in html.split("data-match-end")[1]
    assert rematch(client, match, django_capture_on_commit_callbacks).status_code == 302
    assert Challenge.objects.get().challenger == bob


def test_while_the_computer_has_yet_to_accept_the_page_waits_for_it(
    client, dice, alice, django_capture_on_commit_callbacks
):
    dice.add(3, 1)
    match = start_match(alice, bot("IntermediateBot"), length=1)
    with django_capture_on_commit_callbacks(execute=True):
        act(match, alice, "resign", points=3)
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=False):  # the worker has not run yet
        client.post(f"/matches/{match.pk}/rematch/")
    html = page(client, match)
    assert "data-rematch-offered" in html
    assert f'hx-get="/matches/{match.pk}/" hx-trigger="every 2s"' in html
    dice.add(1, 3)
    tasks.bot_accept_challenge(Challenge.objects.get().pk)
    html = page(client, match)
    assert "data-rematch-match" in html and "data-rematch-wait" not in html


def test_the_opponent_is_emailed_that_a_rematch_is_offered(
    client, dice, alice, bob, mailoutbox, django_capture_on_commit_callbacks
):
    match = finished(dice, alice, bob, length=3)
    client.force_login(alice)
    mailoutbox.clear()
    rematch(client, match, django_capture_on_commit_callbacks)
    [email] = [mail for mail in mailoutbox if mail.to == [bob.email]]
    assert email.subject == "alice offers you a rematch"
    assert "alice offers you a rematch: a 3-point match, rated" in email.body
