"""Casual play: a guest's match against the computer, signing up afterwards, pass-and-play, and
the removal of idle guests."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.guests import GUEST_KEY
from accounts.models import Profile
from accounts.names import player_name
from games import selectors
from games.log.records import began_between_guests
from games.models import Match, MatchEvent
from games.services.guests import idle_guests_purge
from tests.accounts.mailbox import confirmation_path
from tests.games.factories import events_of, make_user, reload, start_match

pytestmark = pytest.mark.django_db

User = get_user_model()
#: Enough dice for the opening roll (3-1: the first player starts) and a few turns after it.
OPENING_THEN_TURNS = (3, 1, *([6, 5, 4, 2] * 10))


def play_computer(client, length=1, level="beginner"):
    response = client.post(reverse("play-computer"), {"match_length": length, "level": level})
    assert response.status_code == 302, response.content.decode()
    return Match.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))


def first_legal_play(match, player):
    return selectors.match_view(match, player).legal_plays[0]


def post_act(client, match, action, **fields):
    return client.post(
        reverse("match-act", args=[match.pk]), {"seq": match.seq, "action": action, **fields}
    )


def test_the_home_page_offers_casual_play_to_a_visitor(client):
    html = client.get("/").content.decode()
    assert 'action="/play/computer/"' in html and 'action="/play/pass-and-play/"' in html
    for level in ("Beginner", "Intermediate", "Advanced", "Expert"):
        assert f">{level}</option>" in html


def test_a_visitor_plays_the_computer_as_a_guest_in_an_unrated_match(
    client, dice, django_capture_on_commit_callbacks
):
    dice.add(*OPENING_THEN_TURNS)
    match = play_computer(client, length=3, level="advanced")
    guest = match.first_player
    assert client.session[GUEST_KEY] == guest.pk
    assert Profile.objects.get(user=guest).is_guest and not guest.has_usable_password()
    assert match.second_player.username == "AdvancedBot"
    assert match.match_length == 3 and match.rated is False
    assert match.time_control == {"kind": "untimed"}
    assert events_of(match)[0].kind == "match_started"

    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert 'data-action="move"' in page
    seq = match.seq
    with django_capture_on_commit_callbacks(execute=True):
        response = post_act(client, match, "move", play=first_legal_play(match, guest))
    assert response.status_code == 302
    match = reload(match)
    # The computer answered at once (tests run its task in place): it is the guest's turn again.
    assert match.seq > seq + 2 and match.to_act_id == guest.pk
    assert MatchEvent.objects.filter(match=match, actor=match.second_player).exists()
    home = client.get("/").content.decode()
    assert guest.username.startswith("guest-") and guest.username not in home
    assert player_name(guest) in home and re.fullmatch(r"Guest \d+", player_name(guest))


def test_only_the_guests_own_session_acts_for_the_guest(client, dice, carol):
    dice.add(*OPENING_THEN_TURNS)
    match = play_computer(client)
    play = first_legal_play(match, match.first_player)

    # Not theirs to see either (tests/games/views/test_private_matches.py): as no match.
    stranger = Client()
    assert post_act(stranger, match, "move", play=play).status_code == 404
    assert stranger.get(reverse("match", args=[match.pk])).status_code == 404

    signed_in = Client()
    signed_in.force_login(carol)
    response = post_act(signed_in, match, "move", play=play)
    assert response.status_code == 404
    assert reload(match).seq == match.seq


def test_the_visitor_chooses_among_one_three_and_five_points_and_the_four_levels(client):
    for length, level, refusal in (
        (7, "beginner", "Choose a match of 1, 3 or 5 points."),
        (1, "grandmaster", "Choose one of the levels offered."),
    ):
        response = client.post(reverse("play-computer"), {"match_length": length, "level": level})
        assert response.status_code == 400 and refusal in response.content.decode()
    assert not Match.objects.exists()
    assert client.get(reverse("play-computer")).status_code == 405


def test_signing_up_makes_the_guest_the_new_account_with_its_matches(client, dice, mailoutbox):
    dice.add(*OPENING_THEN_TURNS)
    match = play_computer(client)
    post_act(client, match, "move", play=first_legal_play(match, match.first_player))
    guest_id = match.first_player_id
    log_before = [(e.seq, e.actor_id, e.digest) for e in events_of(match)]
    users_before = User.objects.count()

    response = client.post(
        "/accounts/signup/",
        {
            "username": "newcomer",
            "email": "newcomer@example.com",
            "password1": "newcomer-secret-pw-2026",
            "password2": "newcomer-secret-pw-2026",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    assert User.objects.count() == users_before
    account = User.objects.get(username="newcomer")
    assert account.pk == guest_id and account.has_usable_password()
    # Until the address is verified the session plays on as the guest.
    assert client.session[GUEST_KEY] == guest_id
    assert client.get(reverse("match", args=[match.pk])).context["you"] == 0

    confirmed = client.post(confirmation_path(mailoutbox, "newcomer@example.com"))
    assert confirmed.status_code == 302
    assert client.session["_auth_user_id"] == str(account.pk)
    assert not Profile.objects.get(user=account).is_guest
    assert GUEST_KEY not in client.session
    assert reload(match).first_player_id == account.pk
    assert [(e.seq, e.actor_id, e.digest) for e in events_of(match)] == log_before
    assert client.get(reverse("match", args=[match.pk])).context["you"] == 0
    profile = client.get(reverse("profile", args=["newcomer"])).content.decode()
    assert f'href="/matches/{match.pk}/"' in profile


def test_signing_up_without_a_guest_creates_a_new_account(client):
    users_before = User.objects.count()
    client.post(
        "/accounts/signup/",
        {
            "username": "fresh",
            "email": "fresh@example.com",
            "password1": "fresh-secret-pw-2026",
            "password2": "fresh-secret-pw-2026",
        },
    )
    assert User.objects.count() == users_before + 1


def start_pass_and_play(client, name="Player 2", length=1, first="Player 1"):
    response = client.post(
        reverse("pass-and-play"),
        {"match_length": length, "first_player": first, "second_player": name},
    )
    assert response.status_code == 302
    return Match.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))


def test_pass_and_play_hands_the_device_over_between_turns(client, dice):
    dice.add(*OPENING_THEN_TURNS)
    match = start_pass_and_play(client, name="Robin <b>", first="Sam")
    first, second = match.players
    assert first.username.startswith("Sam-") and client.session[GUEST_KEY] == first.pk
    assert second.username.startswith("Robin-b-") and match.rated is False
    assert (player_name(first), player_name(second)) == ("Sam", "Robin b")
    assert Profile.objects.get(user=second).is_guest
    url = reverse("match", args=[match.pk])

    page = client.get(url).content.decode()
    assert "Pass the device to <strong>Sam</strong>" in page
    assert 'data-action="move"' not in page
    client.post(reverse("match-hand-over", args=[match.pk]))
    page = client.get(url).content.decode()
    assert 'data-action="move"' in page and "Pass the device" not in page

    post_act(client, match, "move", play=first_legal_play(match, first))
    match = reload(match)
    assert match.to_act_id == second.pk
    page = client.get(url).content.decode()
    assert "Pass the device to <strong>Robin b</strong>" in page
    client.post(reverse("match-hand-over", args=[match.pk]))
    response = post_act(client, match, "move", play=first_legal_play(match, second))
    assert response.status_code == 302
    match = reload(match)
    assert match.to_act_id == first.pk
    actors = {e.actor_id for e in events_of(match) if e.kind == "move"}
    assert actors == {first.pk, second.pk}


def test_the_board_turns_to_the_player_to_act(client, dice):
    dice.add(*OPENING_THEN_TURNS)
    match = start_pass_and_play(client)
    client.post(reverse("match-hand-over", args=[match.pk]))
    response = client.get(reverse("match", args=[match.pk]))
    assert response.context["side"] == 0
    post_act(client, match, "move", play=first_legal_play(match, match.first_player))
    client.post(reverse("match-hand-over", args=[match.pk]))
    response = client.get(reverse("match", args=[match.pk]))
    assert response.context["side"] == 1


def test_only_the_session_that_owns_both_seats_acts_for_either(client, dice, alice):
    dice.add(*OPENING_THEN_TURNS)
    client.force_login(alice)
    match = start_pass_and_play(client)
    assert match.first_player_id == alice.pk
    other = Client()
    other.force_login(alice)
    # Alice elsewhere plays her own seat, but not the local seat of the other browser.
    client.post(reverse("match-hand-over", args=[match.pk]))
    post_act(client, match, "move", play=first_legal_play(match, alice))
    match = reload(match)
    response = post_act(other, match, "move", play=first_legal_play(match, match.second_player))
    assert response.status_code == 400 and reload(match).seq == match.seq
    assert "Pass the device" not in other.get(reverse("match", args=[match.pk])).content.decode()


def test_hand_over_means_nothing_to_others(client, dice):
    dice.add(*OPENING_THEN_TURNS)
    match = start_pass_and_play(client)
    stranger = Client()
    stranger.post(reverse("match-hand-over", args=[match.pk]))
    assert "handed_to_" not in "".join(stranger.session.keys())


# --- Removing idle guests ---


def age(user, match=None, days=31):
    long_ago = timezone.now() - timedelta(days=days)
    User.objects.filter(pk=user.pk).update(date_joined=long_ago)
    if match is not None:
        Match.objects.filter(pk=match.pk).update(updated_at=long_ago)


def guest_match(client_or_none=None):
    client = client_or_none or Client()
    return play_computer(client)


def test_guests_idle_for_30_days_go_with_their_matches(dice):
    dice.add(*OPENING_THEN_TURNS * 3)
    idle = guest_match()
    recent = guest_match()
    age(idle.first_player, idle)
    age(recent.first_player, recent, days=29)
    bot = idle.second_player

    assert idle_guests_purge() == (1, 1)
    assert not Match.objects.filter(pk=idle.pk).exists()
    assert not MatchEvent.objects.filter(match_id=idle.pk).exists()
    assert not User.objects.filter(pk=idle.first_player_id).exists()
    assert Match.objects.filter(pk=recent.pk).exists()
    assert User.objects.filter(pk=bot.pk).exists()


def test_a_guests_match_without_the_record_of_its_players_is_kept_with_its_guests(
    dice, monkeypatch
):
    """A match begun before its first event recorded what its players were stays, and so do
    its guests: the purge goes by that record (on PostgreSQL the database insists on it)."""
    dice.add(*OPENING_THEN_TURNS * 2)
    monkeypatch.setattr("games.services.matches.player_kind", lambda user: None)
    unrecorded = guest_match()
    monkeypatch.undo()
    recorded = guest_match()
    age(unrecorded.first_player, unrecorded)
    age(recorded.first_player, recorded)

    assert idle_guests_purge() == (1, 1)
    assert Match.objects.filter(pk=unrecorded.pk).exists()
    assert User.objects.filter(pk=unrecorded.first_player_id).exists()
    assert not Match.objects.filter(pk=recorded.pk).exists()


@pytest.mark.parametrize(
    ("kinds", "purgeable"),
    [
        (["guest", "guest"], True),
        (["computer", "guest"], True),
        (["guest", "signed_up"], False),
        (["computer", "computer"], False),
        (["guest"], False),
        (None, False),
    ],
)
def test_the_purge_goes_by_the_players_the_match_began_with(kinds, purgeable):
    started = {"player_ids": [1, 2], **({} if kinds is None else {"player_kinds": kinds})}
    assert began_between_guests(started) is purgeable


def test_a_guest_seat_in_a_signed_up_players_match_is_kept(dice, alice):
    dice.add(*OPENING_THEN_TURNS)
    browser = Client()
    browser.force_login(alice)
    match = start_pass_and_play(browser)
    age(match.second_player, match, days=60)
    assert idle_guests_purge() == (0, 0)
    assert Match.objects.filter(pk=match.pk).exists()


def test_signed_up_players_are_never_purged(dice):
    dice.add(*OPENING_THEN_TURNS)
    old = make_user("old")
    age(old)
    assert idle_guests_purge() == (0, 0)
    assert User.objects.filter(pk=old.pk).exists()


def test_the_purge_command_and_its_daily_schedule(dice, settings, capsys):
    dice.add(*OPENING_THEN_TURNS * 2)
    match = guest_match()
    age(match.first_player, match)
    call_command("purge_guests", "--dry-run")
    assert "1 guests would be removed" in capsys.readouterr().out
    call_command("purge_guests")
    assert "Removed 1 guests and 1 matches" in capsys.readouterr().out
    assert settings.CELERY_BEAT_SCHEDULE["purge-idle-guests"]["task"] == (
        "games.tasks.purge_guests"
    )


def test_match_events_still_refuse_deletion_elsewhere(dice, alice, bob):
    from games.models import AppendOnlyError

    dice.add(*OPENING_THEN_TURNS)
    match = start_match(alice, bob, length=1)
    with pytest.raises(AppendOnlyError):
        MatchEvent.objects.filter(match=match).delete()


def test_on_postgresql_the_database_refuses_deletion_outside_the_purge(dice, alice, bob):
    from django.db import DatabaseError, connection, transaction

    if connection.vendor != "postgresql":
        pytest.skip("the append-only trigger exists on PostgreSQL only")
    dice.add(*OPENING_THEN_TURNS)
    match = start_match(alice, bob, length=1)
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM games_matchevent WHERE match_id = %s", [match.pk])
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL games.purge = 'guest-matches'")
        cursor.execute("UPDATE games_matchevent SET kind = 'x' WHERE match_id = %s", [match.pk])
    assert MatchEvent.objects.filter(match=match).count() == len(events_of(match)) > 0


def test_a_signed_in_player_gets_no_news_of_a_pass_and_play_match(
    client, dice, alice, django_capture_on_commit_callbacks
):
    from games.models import Notification

    dice.add(*OPENING_THEN_TURNS)
    User.objects.filter(pk=alice.pk).update(email="alice@example.com")
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        match = start_pass_and_play(client)
        client.post(reverse("match-hand-over", args=[match.pk]))
        post_act(client, match, "move", play=first_legal_play(match, alice))
        match = reload(match)
        client.post(reverse("match-hand-over", args=[match.pk]))
        post_act(client, match, "move", play=first_legal_play(match, match.second_player))
    assert reload(match).to_act_id == alice.pk
    assert not Notification.objects.exists()


def test_the_lobby_offers_casual_play_and_the_interstitial_answers_htmx(client, dice, alice):
    dice.add(*OPENING_THEN_TURNS)
    client.force_login(alice)
    html = client.get("/").content.decode()
    assert 'action="/play/computer/"' in html and 'id="pass-first-player"' not in html
    match = start_pass_and_play(client)
    response = client.get(reverse("match", args=[match.pk]), headers={"HX-Request": "true"})
    fragment = response.content.decode()
    assert fragment.lstrip().startswith('<section id="play-area" class="pass-device"')
    assert "<html" not in fragment
