"""The emails of notifications: one piece of news, or a player's daily digest.

Each email has a text and an HTML body made from the same context (templates/emails/), with
the match's position in words and an absolute link to its page. Emails are written in English,
whatever language the request or task that sends them is in: their news is not translated yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from games import selectors
from games.clocks.words import time_control_words
from games.engine.variants import variant_named
from games.engine.words import resignation_words
from games.models import BracketMatch, LeagueMatch, Match, Notification
from games.notifications.news import matches_told_together
from games.selectors import MatchView

Kind = Notification.Kind


def notification_email(notification: Notification) -> EmailMultiAlternatives:
    """The email of one piece of news, to its player."""
    with translation.override(settings.LANGUAGE_CODE):
        item = news_item(notification)
        context = {"user": notification.user, "item": item, "site_url": site_url("/")}
        return _email(notification.user, item["subject"], "emails/notification", context)


def digest_email(user: Any, notifications: Sequence[Notification]) -> EmailMultiAlternatives:
    """One email with every piece of news in ``notifications``, oldest first."""
    with translation.override(settings.LANGUAGE_CODE):
        items = [news_item(notification) for notification in notifications]
        count = len(items)
        subject = (
            f"{settings.SITE_NAME}: your daily digest ({count} {'item' if count == 1 else 'items'})"
        )
        context = {"user": user, "items": items, "site_url": site_url("/")}
        return _email(user, subject, "emails/digest", context)


def _email(
    user: Any, subject: str, template: str, context: dict[str, Any]
) -> EmailMultiAlternatives:
    context = {
        **context,
        "site_name": settings.SITE_NAME,
        "settings_url": site_url(reverse("notification-settings")),
    }
    email = EmailMultiAlternatives(
        subject=subject,
        body=render_to_string(f"{template}.txt", context),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[user.email],
    )
    email.attach_alternative(render_to_string(f"{template}.html", context), "text/html")
    return email


def site_url(path: str) -> str:
    """An absolute link to ``path`` on this site, for emails."""
    return settings.SITE_URL.rstrip("/") + path


def news_item(notification: Notification) -> dict[str, Any]:
    """What an email says about one piece of news: a subject, a headline, the position in
    words and the link."""
    user = notification.user
    if notification.kind == Kind.CHALLENGE:
        return _challenge_item(notification)
    match = notification.match
    assert match is not None
    view = selectors.match_view(match, user)
    you = view.you
    opponent = view.players[1 - you] if you is not None else None
    title = f"{view.players[0]} v {view.players[1]}"
    if notification.kind == Kind.YOUR_TURN:
        subject = f"Your turn against {opponent} (match {match.pk})"
        headline = f"It is your turn in your match against {opponent}."
    elif notification.kind == Kind.TOURNAMENT_MATCH:
        event = _event_of(match)
        matches = matches_told_together(match, user)
        if len(matches) > 1:
            return _matches_started_item(notification, event, matches)
        subject = f"Your match against {opponent} in {event} has started"
        headline = (
            f"Your match against {opponent} in {event} has started "
            f"({a_match_of(match.match_length)})."
        )
    elif notification.kind == Kind.DEADLINE:
        subject = f"12 hours left for your decision against {opponent} (match {match.pk})"
        headline = f"Your match against {opponent} waits for your decision."
        if match.deadline is not None:
            headline += f" Decide by {match.deadline:%a %d %b %Y, %H:%M} UTC or lose on time."
    else:
        subject = f"Match {match.pk} finished: {title}"
        headline = _finished_headline(view)
    return {
        "kind": notification.kind,
        "subject": subject,
        "headline": headline,
        "title": title,
        "position": position_in_words(view),
        "url": site_url(reverse("match", kwargs={"match_id": match.pk})),
    }


def _matches_started_item(
    notification: Notification, event: str, matches: list[Match]
) -> dict[str, Any]:
    """One email for all of a player's matches started together (a league season's): each
    match's opponent, whose turn it is, and its link."""
    user = notification.user
    lines = []
    for match in matches:
        opponent = match.second_player if match.first_player_id == user.pk else match.first_player
        turn = "your turn" if match.to_act_id == user.pk else f"{opponent.get_username()}'s turn"
        link = site_url(reverse("match", kwargs={"match_id": match.pk}))
        lines.append(f"Against {opponent.get_username()} (match {match.pk}, {turn}): {link}")
    yours = next((m for m in matches if m.to_act_id == user.pk), matches[0])
    headline = (
        f"Your {len(matches)} matches in {event} have started "
        f"({a_match_of(matches[0].match_length)} each)."
    )
    return {
        "kind": notification.kind,
        "subject": f"Your {len(matches)} matches in {event} have started",
        "headline": headline,
        "title": event,
        "position": lines,
        "url": site_url(reverse("match", kwargs={"match_id": yours.pk})),
    }


def _challenge_item(notification: Notification) -> dict[str, Any]:
    challenge = notification.challenge
    assert challenge is not None
    challenger = challenge.challenger.get_username()
    rated = "rated" if challenge.rated else "unrated"
    terms = (
        f"{a_match_of(challenge.match_length)}, {rated}, "
        f"{time_control_words(challenge.time_control)}"
    )
    if challenge.rematch_of_id is not None:
        subject = f"{challenger} offers you a rematch"
        headline = f"{challenger} offers you a rematch: {terms}, colours swapped."
        title = f"Rematch offered by {challenger}"
    else:
        subject = f"{challenger} challenges you to {a_match_of(challenge.match_length)}"
        headline = f"{challenger} challenges you to {terms}."
        title = f"Challenge from {challenger}"
    return {
        "kind": notification.kind,
        "subject": subject,
        "headline": headline,
        "title": title,
        "position": [],
        "url": site_url(reverse("home") + "#challenges-to-you"),
    }


def _finished_headline(view: MatchView) -> str:
    score = f"{view.score[0]}-{view.score[1]}"
    reason = f" ({view.end_reason})" if view.end_reason else ""
    if view.winner is None:
        return f"The match {view.players[0]} v {view.players[1]} ended without a winner."
    you = view.you
    if you is not None and view.winner == view.players[you]:
        return f"You won the match, {score}{reason}."
    return f"{view.winner} won the match, {score}{reason}."


def position_in_words(view: MatchView) -> list[str]:
    """The match as a player would describe it: whose turn, score, cube, pips, last play."""
    names = view.players
    lines = [
        f"{names[0]} v {names[1]}, {a_match_of(view.match_length)}, "
        f"game {view.game_number}{' (the Crawford game)' if view.crawford else ''}.",
        f"Score: {names[0]} {view.score[0]}, {names[1]} {view.score[1]}.",
    ]
    if view.status != Match.Status.FINISHED:
        lines.append(_waiting_for(view))
        cube = view.cube
        owner = f", owned by {cube.owner}" if cube.owner else " in the middle"
        lines.append(f"The cube is at {cube.value}{owner}.")
        pips = view.pip_counts
        lines.append(f"Pip counts: {names[0]} {pips[0]}, {names[1]} {pips[1]}.")
    games = view.games
    if view.status == Match.Status.FINISHED and games:
        game = games[-1]
        result = {
            "gammon": " with a gammon",
            "backgammon": " with a backgammon",
            "drop": ", the double dropped",
            "resign": " by resignation",
            "mother": " by pinning the mother",
        }
        points = f"{game.points} point" if game.points == 1 else f"{game.points} points"
        if game.winner is None:
            lines.append(f"Last game: game {game.number} was drawn.")
        else:
            lines.append(
                f"Last game: {game.winner} won game {game.number}"
                f"{result.get(game.result, '')} ({points})."
            )
    last = view.last_play
    if last is not None:
        dice = f"{max(last.dice)}-{min(last.dice)}"
        lines.append(f"Last play: {last.player} played {dice}: {last.play}.")
    return lines


def _waiting_for(view: MatchView) -> str:
    turn, to_act, phase = view.turn, view.to_act, view.phase
    if phase == "moving" and view.dice:
        dice = f"{max(view.dice)}-{min(view.dice)}"
        return f"{turn} rolled {dice} and is to play it."
    if phase == "rolling":
        double = " or double" if "double" in view.legal_actions else ""
        return f"{turn} is to roll{double}."
    if phase == "doubled":
        return f"{turn} doubled to {view.cube.value * 2}: {to_act} is to take or drop."
    if phase == "resigned" and view.resignation:
        offered = view.resignation.points
        variant = variant_named(view.game_variant)
        points = offered * view.cube.value
        value = f"{points} point" if points == 1 else f"{points} points"
        return (
            f"{turn} offers to resign {resignation_words(variant, offered)} ({value}): "
            f"{to_act} is to accept or reject."
        )
    return "The next game starts with the opening roll."


def a_match_of(length: int) -> str:
    """``a 5-point match``, ``an 11-point match``."""
    article = "an" if length in (8, 11, 18) or 80 <= length < 90 else "a"
    return f"{article} {length}-point match"


def _event_of(match: Match) -> str:
    """The knock-out or the league season a match was started for, by name."""
    bracket = BracketMatch.objects.filter(match=match).select_related("tournament").first()
    if bracket is not None:
        return bracket.tournament.name
    pairing = LeagueMatch.objects.select_related("division__season__league").get(match=match)
    season = pairing.division.season
    return f"{season.league.name} (season {season.number}, division {pairing.division.level})"
