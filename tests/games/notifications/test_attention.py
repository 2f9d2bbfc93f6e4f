"""Emails that respect attention: a live match between two players at their pages sends no
"your turn" email; a player who is away gets one per turn, after NOTIFICATION_DELAY; opening
the match meanwhile drops it. Deadline warnings go whoever is watching.

The worker is played by the test: the send tasks are queued with their countdown and run when
the test's clock reaches it, as a Celery worker would run them.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from games import tasks
from games.engine import format_play
from games.models import Match, MatchPresence, Notification
from games.notifications.attention import record_match_open
from games.notifications.news import deadline_approaching
from games.tasks import send_notification
from tests.games.factories import act, reload, start_match, state_of

pytestmark = pytest.mark.django_db

DELAY = 300


@pytest.fixture(autouse=True)
def _delay(settings: Any) -> None:
    settings.NOTIFICATION_DELAY = DELAY
    settings.NOTIFICATION_AWAY_AFTER = 300


class Worker:
    """The email tasks queued, each run once when the clock reaches its countdown."""

    def __init__(self, clock: Any) -> None:
        self.clock = clock
        self.queued: list[tuple[dt.datetime, int]] = []
        self.countdowns: list[float] = []

    def queue(self, args: tuple[int], countdown: float = 0, **options: Any) -> None:
        self.countdowns.append(countdown)
        self.queued.append((self.clock.now + dt.timedelta(seconds=countdown), args[0]))

    def run_due(self) -> list[str]:
        due = [item for item in self.queued if item[0] <= self.clock.now]
        self.queued = [item for item in self.queued if item not in due]
        return [send_notification(notification_id) for _, notification_id in due]


@pytest.fixture
def worker(clock: Any, monkeypatch: pytest.MonkeyPatch) -> Worker:
    worker = Worker(clock)
    monkeypatch.setattr(tasks.send_notification, "apply_async", worker.queue)
    return worker


def at_the_page(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def poll(client: Client, match: Match) -> None:
    """What the match page does every 4 seconds while it is open."""
    url = reverse("match-poll", kwargs={"match_id": match.pk})
    assert client.get(url, {"seq": match.seq}).status_code in (200, 204)


def open_page(client: Client, match: Match) -> None:
    assert client.get(reverse("match", kwargs={"match_id": match.pk})).status_code == 200


def play_turn(match: Match, player: Any, committed: Any) -> Match:
    """``player`` rolls and plays the first legal play, as the page would post them."""
    match = reload(match)
    seat = 0 if match.first_player_id == player.pk else 1
    while match.status == Match.Status.ACTIVE and match.to_act_id == player.pk:
        state = state_of(match)
        actions = state.legal_actions(seat)
        with committed():
            if "move" in actions:
                match = act(match, player, "move", play=format_play(state.legal_plays()[0]))
            else:
                match = act(match, player, "roll")
    return reload(match)


def turn_emails_to(user: Any) -> list[Any]:
    return [
        email
        for email in mail.outbox
        if email.to == [user.email] and email.subject.startswith("Your turn")
    ]


def turns_of(user: Any) -> int:
    return Notification.objects.filter(user=user, kind=Notification.Kind.YOUR_TURN).count()


@pytest.fixture
def live_match(
    dice: Any, alice: Any, bob: Any, clock: Any, worker: Worker, committed: Any
) -> Match:
    dice.add(3, 1).add_random(600, seed=18)
    with committed():
        match = start_match(alice, bob)
    assert match.to_act_id == alice.pk
    return match


def test_two_players_at_their_pages_get_no_turn_email(
    live_match: Match, alice: Any, bob: Any, clock: Any, worker: Worker, committed: Any
) -> None:
    pages = {alice.pk: at_the_page(alice), bob.pk: at_the_page(bob)}
    match = live_match
    for player in (alice, bob) * 10:
        for client in pages.values():
            poll(client, match)
        clock.advance(seconds=20)
        match = play_turn(match, player, committed)
        clock.advance(seconds=20)
        worker.run_due()
    clock.advance(seconds=DELAY + 60)
    for client in pages.values():
        poll(client, match)
    worker.run_due()

    assert turns_of(alice) >= 10 and turns_of(bob) >= 10
    assert worker.countdowns and set(worker.countdowns) == {DELAY}
    assert turn_emails_to(alice) == [] and turn_emails_to(bob) == []
    assert not Notification.objects.filter(status=Notification.Status.PENDING).exists()


def test_a_player_away_gets_one_email_per_turn_after_the_delay(
    live_match: Match, alice: Any, bob: Any, clock: Any, worker: Worker, committed: Any
) -> None:
    """Bob is away: he comes back when the email says it is his turn, opens the match, plays,
    and goes again. Alice sits at her page throughout."""
    alice_page, bob_page = at_the_page(alice), at_the_page(bob)
    match = live_match
    for turn in range(10):
        poll(alice_page, match)
        match = play_turn(match, alice, committed)
        emailed = len(turn_emails_to(bob))

        clock.advance(seconds=DELAY - 1)
        poll(alice_page, match)
        worker.run_due()
        assert len(turn_emails_to(bob)) == emailed, f"turn {turn}: emailed before the delay"

        clock.advance(seconds=1)
        worker.run_due()
        assert len(turn_emails_to(bob)) == emailed + 1, f"turn {turn}: no email after the delay"

        clock.advance(seconds=30)
        open_page(bob_page, match)
        match = play_turn(match, bob, committed)
        clock.advance(seconds=30)
    clock.advance(seconds=DELAY + 60)
    poll(alice_page, match)
    worker.run_due()

    assert len(turn_emails_to(bob)) == turns_of(bob) == 10
    assert turn_emails_to(alice) == []


def test_opening_the_match_during_the_delay_drops_that_turns_email(
    live_match: Match, alice: Any, bob: Any, clock: Any, worker: Worker, committed: Any
) -> None:
    match = play_turn(live_match, alice, committed)
    clock.advance(seconds=120)
    open_page(at_the_page(bob), match)
    clock.advance(seconds=DELAY)
    assert "sent" not in worker.run_due()
    assert turn_emails_to(bob) == []
    news = Notification.objects.get(user=bob, kind=Notification.Kind.YOUR_TURN)
    assert news.status == Notification.Status.SKIPPED


def test_polling_through_the_api_counts_as_having_the_match_open(
    live_match: Match, alice: Any, bob: Any, clock: Any, worker: Worker, committed: Any
) -> None:
    match = play_turn(live_match, alice, committed)
    clock.advance(seconds=200)
    bob_app = at_the_page(bob)
    url = reverse("api-match", kwargs={"match_id": match.pk})
    assert bob_app.get(url).status_code == 200
    clock.advance(seconds=DELAY)
    assert "sent" not in worker.run_due()
    assert turn_emails_to(bob) == []


def test_a_player_away_from_the_match_but_using_the_site_is_not_emailed(
    live_match: Match, alice: Any, bob: Any, clock: Any, worker: Worker, committed: Any
) -> None:
    play_turn(live_match, alice, committed)
    clock.advance(seconds=DELAY - 60)
    assert at_the_page(bob).get(reverse("home")).status_code == 200
    clock.advance(seconds=60)
    assert "sent" not in worker.run_due()
    assert turn_emails_to(bob) == []
    assert not MatchPresence.objects.filter(user=bob).exists()


def test_a_task_run_before_its_time_leaves_the_news_for_later(
    live_match: Match, alice: Any, bob: Any, clock: Any, worker: Worker, committed: Any
) -> None:
    play_turn(live_match, alice, committed)
    news = Notification.objects.get(user=bob, kind=Notification.Kind.YOUR_TURN)
    assert send_notification(news.pk) == "not yet"
    clock.advance(seconds=DELAY)
    assert send_notification(news.pk) == "sent"
    assert len(turn_emails_to(bob)) == 1


def test_a_deadline_warning_goes_to_a_player_at_the_page(
    live_match: Match, alice: Any, clock: Any, worker: Worker, committed: Any
) -> None:
    open_page(at_the_page(alice), live_match)
    with committed():
        deadline_approaching(reload(live_match))
    assert "sent" in worker.run_due()
    assert mail.outbox[-1].subject.startswith("12 hours left")


def test_presence_is_written_at_most_once_a_minute(
    live_match: Match, alice: Any, clock: Any
) -> None:
    record_match_open(alice, live_match.pk)
    first = MatchPresence.objects.get(user=alice).seen_at
    clock.advance(seconds=59)
    record_match_open(alice, live_match.pk)
    assert MatchPresence.objects.get(user=alice).seen_at == first
    clock.advance(seconds=2)
    record_match_open(alice, live_match.pk)
    assert MatchPresence.objects.get(user=alice).seen_at == clock.now


def test_a_spectator_leaves_no_presence(live_match: Match, carol: Any) -> None:
    record_match_open(carol, live_match.pk)
    open_page(at_the_page(carol), live_match)
    assert not MatchPresence.objects.exists()


@pytest.mark.parametrize("watching", [True, False])
def test_the_end_of_a_match_is_emailed_only_to_a_player_not_watching_it(
    dice: Any, alice: Any, bob: Any, clock: Any, worker: Worker, committed: Any, watching: bool
) -> None:
    dice.add(3, 1)
    with committed():
        match = start_match(alice, bob, length=1)
    with committed():
        match = act(match, alice, "resign", points=1)
    alice_page = at_the_page(alice)
    if watching:
        poll(alice_page, match)
    with committed():
        match = act(match, bob, "accept_resign")
    assert match.status == Match.Status.FINISHED
    clock.advance(seconds=DELAY - 60)
    worker.run_due()
    assert not [email for email in mail.outbox if "finished" in email.subject]
    clock.advance(seconds=60)
    worker.run_due()
    ended = [email.to for email in mail.outbox if "finished" in email.subject]
    assert ended == ([] if watching else [[alice.email]])
