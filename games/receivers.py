"""Every signal receiver of the games app (games/apps.py imports this module once).

Each receiver decides from the signal's arguments whether there is work, then queues the
Celery task that does it, or records the news at once. The signals (games/signals.py) are sent
after the change that caused them has committed, so a receiver that fails must not undo it.
Receivers of one signal run in the order they are written here.

Tasks are queued through ``_queue``: with the broker down, the change has still committed and
its answer is still a success; the minute sweep (games/clocks/sweep.py) finds the follow-up
whose task was lost and sends its signal again.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from celery import Task
from celery.signals import worker_ready
from django.db import connections
from django.db.models.signals import post_migrate
from django.dispatch import receiver
from kombu.exceptions import OperationalError

from games import selectors, tasks
from games.clocks import sweep
from games.clocks.workers import countdowns_rearmed, kinds_served
from games.computer.analysis import Subject, analysis_request, first_analysis_due, import_subject
from games.computer.bot_accounts import bot_level_of, is_challenge_to_a_bot
from games.computer.rewards import unlock_for_match
from games.log.service_role import service_role_grant
from games.notifications.news import (
    challenge_news,
    deadline_news,
    match_news,
    tournament_match_news,
)
from games.push import (
    announce_bracket,
    announce_chat,
    announce_rematch,
    announce_seq,
    announce_to_lobbies,
)
from games.selectors import tournament_of_match
from games.services.league_tables import league_of_match
from games.signals import (
    analysis_requested,
    challenge_closed,
    challenge_created,
    chat_changed,
    computer_due,
    countdown_due,
    deadline_near,
    match_changed,
    match_imported,
    news_to_send,
    tournament_changed,
    tournament_match_started,
)

logger = logging.getLogger(__name__)


def _queue(task: Task, *args: Any, **options: Any) -> None:
    """Queue ``task``; if the broker cannot be reached, say so and leave it to the sweep."""
    try:
        task.apply_async(args, **options)
    except OperationalError as error:
        logger.warning("Broker unreachable, %s%s left to the sweep: %s", task.name, args, error)


# --- A match changed ---


@receiver(match_changed, dispatch_uid="games.push.announce_seq")
def _push_to_open_pages(sender: Any, *, match_id: int, seq: int, **kwargs: Any) -> None:
    """First, so that the pages hear of the change before a computer opponent's reply, which
    an eager task makes inside this signal."""
    announce_seq(match_id, seq)


@receiver(match_changed, dispatch_uid="games.push.announce_bracket")
def _push_to_open_brackets(
    sender: Any, *, match_id: int, finished: bool | None = None, **kwargs: Any
) -> None:
    """A tournament's match ended: its bracket's pages show the result at once, before the
    other receivers' work; the advance that follows is announced again."""
    if finished is not False:
        tournament_id = tournament_of_match(match_id)
        if tournament_id is not None:
            announce_bracket(tournament_id)


@receiver(match_changed, dispatch_uid="games.push.announce_to_lobbies")
def _push_to_the_players_lobbies(
    sender: Any,
    *,
    match_id: int,
    to_act_id: int | None,
    finished: bool | None = None,
    acted_by: int | None = None,
    players: tuple[int, int] | None = None,
    **kwargs: Any,
) -> None:
    if finished is False and to_act_id is not None and acted_by == to_act_id:
        return  # still the same player's turn: their lobby shows nothing new
    announce_to_lobbies(players if players is not None else selectors.players_of_match(match_id))


@receiver(match_changed, dispatch_uid="games.computer.analysis.analyse_finished_matches")
def _analyse_finished_matches(
    sender: Any, *, match_id: int, finished: bool | None = None, **kwargs: Any
) -> None:
    if finished is not False and first_analysis_due(match_id):
        _queue(tasks.analyse_match, match_id)


@receiver(match_changed, dispatch_uid="games.computer.bot_accounts.act_when_a_bot_is_to_act")
def _act_when_a_bot_is_to_act(
    sender: Any,
    *,
    match_id: int,
    seq: int,
    to_act_id: int | None,
    bot_to_act: bool | None = None,
    **kwargs: Any,
) -> None:
    if bot_to_act is not False and bot_level_of(to_act_id) is not None:
        _queue(tasks.bot_act, match_id, seq)


@receiver(match_changed, dispatch_uid="notifications.match_changed")
def _record_match_news(
    sender: Any,
    *,
    match_id: int,
    seq: int,
    to_act_id: int | None,
    finished: bool | None = None,
    acted_by: int | None = None,
    decided_at: int | None = None,
    committed: Any | None = None,
    **kwargs: Any,
) -> None:
    if finished is False and (to_act_id is None or acted_by == to_act_id):
        return  # still the same player's turn (they rolled, say): no news
    decision = None if decided_at is None else (decided_at, acted_by)
    try:
        match_news(
            match_id=match_id, seq=seq, to_act_id=to_act_id, decision=decision, match=committed
        )
    except Exception:
        logger.exception("Could not record the news of match %s at seq %s", match_id, seq)


@receiver(match_changed, dispatch_uid="countdown")
def _count_down_a_near_deadline(
    sender: Any, *, match_id: int, seq: int, deadline: datetime | None, **kwargs: Any
) -> None:
    if deadline is not None and sweep.needs_countdown(deadline):
        sweep.start_countdown(match_id, seq, deadline)


@receiver(match_changed, dispatch_uid="accounts.rewards.unlock_on_win")
def _unlock_rewards(
    sender: Any, *, match_id: int, finished: bool | None = None, **kwargs: Any
) -> None:
    if finished is not False:
        unlock_for_match(match_id)


@receiver(match_changed, dispatch_uid="games.tournaments.advance_after_a_match")
def _advance_tournaments(
    sender: Any, *, match_id: int, finished: bool | None = None, **kwargs: Any
) -> None:
    if finished is not False:
        tournament_id = tournament_of_match(match_id)
        if tournament_id is not None:
            _queue(tasks.tournament_advance, tournament_id)
            return
        league_id = league_of_match(match_id)
        if league_id is not None:
            _queue(tasks.league_advance, league_id)


@receiver(tournament_changed, dispatch_uid="games.push.announce_tournament")
def _push_tournament_to_open_pages(sender: Any, *, tournament_id: int, **kwargs: Any) -> None:
    announce_bracket(tournament_id)


# --- A tournament's match started ---


@receiver(tournament_match_started, dispatch_uid="notifications.tournament_match_started")
def _record_tournament_match_news(sender: Any, *, match_id: int, **kwargs: Any) -> None:
    try:
        tournament_match_news(match_id=match_id)
    except Exception:
        logger.exception("Could not record the news of tournament match %s", match_id)


# --- A challenge was made ---


@receiver(challenge_created, dispatch_uid="games.computer.bot_accounts.accept_challenges_to_bots")
def _accept_challenges_to_bots(sender: Any, *, challenge_id: int, **kwargs: Any) -> None:
    if is_challenge_to_a_bot(challenge_id):
        _queue(tasks.bot_accept_challenge, challenge_id)


@receiver(challenge_created, dispatch_uid="notifications.challenge_created")
def _record_challenge_news(sender: Any, *, challenge_id: int, **kwargs: Any) -> None:
    try:
        challenge_news(challenge_id=challenge_id)
    except Exception:
        logger.exception("Could not record the news of challenge %s", challenge_id)


@receiver(challenge_created, dispatch_uid="games.push.challenge_created")
def _push_new_challenge_to_lobbies(sender: Any, *, challenge_id: int, **kwargs: Any) -> None:
    parties = selectors.parties_of_challenge(challenge_id)
    if parties is not None:
        announce_to_lobbies(parties, everyone=parties[1] is None)


@receiver(challenge_created, dispatch_uid="games.push.rematch_offered")
@receiver(challenge_closed, dispatch_uid="games.push.rematch_answered")
def _push_rematch_to_the_finished_match(
    sender: Any, *, rematch_of: int | None = None, **kwargs: Any
) -> None:
    if rematch_of is not None:
        announce_rematch(rematch_of)


@receiver(challenge_closed, dispatch_uid="games.push.challenge_closed")
def _push_closed_challenge_to_lobbies(
    sender: Any, *, challenge_id: int, open_to_anyone: bool = False, **kwargs: Any
) -> None:
    parties = selectors.parties_of_challenge(challenge_id)
    if parties is not None:
        announce_to_lobbies(parties, everyone=open_to_anyone)


# --- Chat ---


@receiver(chat_changed, dispatch_uid="games.push.announce_chat")
def _push_chat_to_open_pages(sender: Any, *, match_id: int, **kwargs: Any) -> None:
    announce_chat(match_id)


# --- Time ---


@receiver(deadline_near, dispatch_uid="notifications.deadline_near")
def _record_deadline_news(sender: Any, *, match_id: int, seq: int, **kwargs: Any) -> None:
    try:
        deadline_news(match_id=match_id, seq=seq)
    except Exception:
        logger.exception("Could not record the deadline warning of match %s", match_id)


@receiver(countdown_due, dispatch_uid="games.receivers.enforce_deadline")
def _enforce_deadline(
    sender: Any, *, match_id: int, seq: int, deadline: datetime, **kwargs: Any
) -> None:
    _queue(tasks.enforce_deadline, match_id, seq, eta=deadline)


@receiver(computer_due, dispatch_uid="games.receivers.remind_the_computer")
def _remind_the_computer(
    sender: Any,
    *,
    match_id: int | None = None,
    seq: int | None = None,
    challenge_id: int | None = None,
    **kwargs: Any,
) -> None:
    if challenge_id is not None:
        _queue(tasks.bot_accept_challenge, challenge_id)
    else:
        _queue(tasks.bot_act, match_id, seq)


# --- News to email and push, matches to analyse ---


@receiver(news_to_send, dispatch_uid="games.receivers.send_notification")
def _send_news(
    sender: Any, *, notification_id: int, delay: float = 0, email: bool = True, **kwargs: Any
) -> None:
    if email:
        _queue(tasks.send_notification, notification_id, countdown=delay)


@receiver(news_to_send, dispatch_uid="games.receivers.push_notification")
def _push_news(
    sender: Any, *, notification_id: int, delay: float = 0, push: bool = True, **kwargs: Any
) -> None:
    if push:
        _queue(tasks.push_notification, notification_id, countdown=delay)


@receiver(analysis_requested, dispatch_uid="games.receivers.analyse")
def _analyse(sender: Any, *, subject: Subject, **kwargs: Any) -> None:
    task = tasks.analyse_match if subject.field == "match" else tasks.analyse_import
    _queue(task, subject.pk)


@receiver(match_imported, dispatch_uid="games.receivers.analyse_imported")
def _analyse_imported(sender: Any, *, import_id: int, **kwargs: Any) -> None:
    analysis_request(import_subject(import_id))


# --- The database was migrated ---


@receiver(post_migrate, dispatch_uid="games.log.service_role.grant_after_migrate")
def _grant_the_service_role(sender: Any, *, using: str, **kwargs: Any) -> None:
    """Every table, new ones too, gets the service role's grants (post_migrate fires per app)."""
    if sender.name == "games":
        service_role_grant(connections[using])


# --- A worker started ---


@worker_ready.connect(dispatch_uid="games.receivers.rearm_countdowns")
def _rearm_countdowns(sender: Any, **kwargs: Any) -> None:
    """A worker serving the urgent queue started (perhaps in place of one that died with the
    live clocks' countdowns): every near deadline gets its countdown again."""
    if "urgent" in kinds_served(sender.app.amqp.queues):
        logger.info("Worker started: %d countdown(s) queued again", countdowns_rearmed())
