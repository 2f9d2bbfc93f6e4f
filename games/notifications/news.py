"""Which news each player gets: recorded once per piece of news, emailed by
games/notifications/sending.py and pushed to their devices by games/notifications/webpush.py.

News comes from the services' signals (a match changed, a challenge was made) and from the
deadline sweep (the ``deadline_near`` signal), through games/receivers.py. Each piece is a
Notification row with a key naming it, so a signal sent twice or a task run twice never makes
a second email. News due at once may wait first (games/notifications/attention.py).

A player's turn starts when the match comes to wait for their decision after somebody else's:
the seq of that decision names the turn. Their own roll and move that follow are the same
turn; a double they make, taken by the opponent, hands them a new turn.

An event's start is one piece of news per player: a league season's opening tells each player
of all their matches in one email, not one per match, and the opening turn of an event's match
is told by that news, not by a "your turn" of its own.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import Delivery, Profile, PushSubscription, profile_loaded, profile_of
from backgammon_site.core.vapid import site_vapid_keys
from games.models import (
    BracketMatch,
    Challenge,
    LeagueMatch,
    Match,
    MatchEvent,
    Notification,
    Tournament,
)
from games.notifications.attention import delay_of
from games.services.announcements import NOT_DECISIONS
from games.signals import news_to_send

Kind = Notification.Kind


def match_news(
    *,
    match_id: int,
    seq: int,
    to_act_id: int | None,
    decision: tuple[int, int | None] | None = None,
    match: Match | None = None,
) -> None:
    """Record the news of a match at ``seq``: whose turn it became, or that it finished.
    ``decision`` is ``last_decision``'s answer at ``seq``, and ``match`` the match as it stood
    at ``seq`` with its players' profiles, when the caller has them."""
    if match is None:
        match = (
            Match.objects.select_related("first_player__profile", "second_player__profile")
            .filter(pk=match_id)
            .first()
        )
    if match is None or _with_a_guest(match):
        return
    if match.status == Match.Status.FINISHED:
        finisher = _finisher_id(match)
        for player in match.players:
            if player.pk != finisher:
                _record(
                    player, Kind.MATCH_FINISHED, f"match_finished:match:{match.pk}", match=match
                )
        return
    if to_act_id is None:
        return
    since, decided_by = decision if decision is not None else last_decision(match.pk, seq)
    if decided_by == to_act_id:
        return  # the player's own roll or play: their turn started earlier
    player = match.first_player if match.first_player_id == to_act_id else match.second_player
    if player.pk != to_act_id:
        return
    if since == 0 and _told_at_the_start(player, match):
        return
    _record(player, Kind.YOUR_TURN, turn_key(match.pk, since), match=match, seq=since)


def challenge_news(*, challenge_id: int) -> None:
    """Tell the challenged player; an open challenge is nobody's news."""
    challenge = Challenge.objects.select_related("opponent").filter(pk=challenge_id).first()
    if challenge is None or challenge.opponent is None:
        return
    if challenge.status != Challenge.Status.OPEN:
        return
    _record(challenge.opponent, Kind.CHALLENGE, f"challenge:{challenge.pk}", challenge=challenge)


def tournament_match_news(*, match_id: int) -> None:
    """Tell both players that their tournament or league match has started. A player hears of
    it as they chose to hear of challenges: a tournament match is an invitation they signed up
    for. The matches of a league season, all started at its opening, and those of a round
    robin, all started at its start, are one piece of news for each player
    (``matches_told_together`` lists them), however many signals arrive."""
    match = (
        Match.objects.select_related("first_player__profile", "second_player__profile")
        .filter(pk=match_id)
        .first()
    )
    if match is None:
        return
    together = _started_together(match)
    key = (
        f"tournament_match:match:{match.pk}"
        if together is None
        else f"tournament_match:{together[0]}:{together[1]}"
    )
    for player in match.players:
        _record(player, Kind.TOURNAMENT_MATCH, key, match=match)


def matches_told_together(match: Match, player: Any) -> list[Match]:
    """The matches that one piece of "tournament match started" news about ``match`` tells
    ``player`` of: all of theirs in its league season or its round robin, oldest first, or the
    match alone."""
    together = _started_together(match)
    if together is None:
        return [match]
    event, event_id = together
    in_event = (
        Q(league_match__division__season_id=event_id)
        if event == "league_season"
        else Q(bracket_match__tournament_id=event_id)
    )
    return list(
        Match.objects.filter(Q(first_player=player) | Q(second_player=player), in_event)
        .select_related("first_player", "second_player")
        .order_by("pk")
    )


def _started_together(match: Match) -> tuple[str, int] | None:
    """The league season or the round robin whose matches all started at once, ``match``
    among them."""
    season_id = (
        LeagueMatch.objects.filter(match=match)
        .values_list("division__season_id", flat=True)
        .first()
    )
    if season_id is not None:
        return "league_season", season_id
    tournament_id = (
        BracketMatch.objects.filter(match=match, tournament__format=Tournament.Format.ROUND_ROBIN)
        .values_list("tournament_id", flat=True)
        .first()
    )
    return None if tournament_id is None else ("round_robin", tournament_id)


def deadline_news(*, match_id: int, seq: int) -> None:
    """Record the warning that the decision match ``match_id`` waits for at ``seq`` is nearly
    due (the sweep's deadline_near signal); nothing if the match has moved on."""
    match = Match.objects.select_related("to_act").filter(pk=match_id, seq=seq).first()
    if match is not None:
        deadline_approaching(match)


def deadline_approaching(match: Match) -> None:
    """Warn ``match.to_act`` that their decision is due.

    Called inside a transaction, the notification is recorded in it, and sent (or left for the
    digest) once it commits. Once per decision: calling it again for the same seq does nothing.
    """
    if match.to_act_id is None or match.status != Match.Status.ACTIVE or _with_a_guest(match):
        return
    _record(
        match.to_act,
        Kind.DEADLINE,
        f"deadline:match:{match.pk}:seq:{match.seq}",
        match=match,
        seq=match.seq,
    )


def _told_at_the_start(player: Any, match: Match) -> bool:
    """Whether the opening turn of ``match`` was told to ``player`` by the news of its start:
    a tournament's or a league's match, for a player who hears of those."""
    if not (
        wants_email(player, Kind.TOURNAMENT_MATCH) or wants_push(player, Kind.TOURNAMENT_MATCH)
    ):
        return False
    return (
        LeagueMatch.objects.filter(match=match).exists()
        or BracketMatch.objects.filter(match=match).exists()
    )


def _with_a_guest(match: Match) -> bool:
    """A match with a guest is news to nobody: it is played at one screen (pass-and-play) or
    by a visitor who has no email. Reads the profiles loaded with the match, if they were."""
    if all(profile_loaded(player) for player in match.players):
        return any(getattr(profile_of(player), "is_guest", False) for player in match.players)
    players = (match.first_player_id, match.second_player_id)
    return Profile.objects.filter(user_id__in=players, is_guest=True).exists()


def last_decision(match_id: int, seq: int) -> tuple[int, int | None]:
    """The seq and the actor of the last decision anyone made up to ``seq`` (0, None: none).

    Only the player the match waits for can act, so the events after it are the decided-for
    player's own or the server's (dice, forced plays) until somebody else decides. An offer to
    end the match, or its refusal, may come from either player at any time: it is no decision
    and does not start a new turn.
    """
    decisions = (
        MatchEvent.objects.filter(match_id=match_id, seq__lte=seq, actor__isnull=False)
        .exclude(kind__in=NOT_DECISIONS)
        .order_by("-seq")
        .values_list("seq", "actor_id")
        .first()
    )
    return decisions if decisions is not None else (0, None)


def turn_key(match_id: int, since: int) -> str:
    return f"your_turn:match:{match_id}:turn:{since}"


def _finisher_id(match: Match) -> int | None:
    """The player whose own action ended the match, who needs no email about it."""
    last = (
        MatchEvent.objects.filter(match=match)
        .exclude(kind="dice_revealed")
        .order_by("-seq")
        .values_list("actor_id", flat=True)
        .first()
    )
    return last if last in (match.first_player_id, match.second_player_id) else None


#: News that a player hears of as they chose for another kind: a tournament match is an
#: invitation they signed up for.
CHOSEN_AS = {Kind.TOURNAMENT_MATCH: Kind.CHALLENGE}


def delivery_for(user: Any, kind: str) -> str:
    """The player's choice for ``kind``; a player without a profile has the defaults."""
    profile = profile_of(user) or Profile(user=user)
    return profile.delivery_for(CHOSEN_AS.get(kind, kind))


def can_receive_email(user: Any) -> bool:
    return bool(user is not None and user.is_active and user.email)


def wants_email(user: Any, kind: str) -> bool:
    """Whether news of ``kind`` is emailed to the player, at once or in the digest."""
    return can_receive_email(user) and delivery_for(user, kind) != Delivery.OFF


def wants_push(user: Any, kind: str) -> bool:
    """Whether news of ``kind`` is pushed to the player's devices: the site can push, they
    chose it, and they have enabled a device."""
    if user is None or not user.is_active or site_vapid_keys() is None:
        return False
    profile = profile_of(user) or Profile(user=user)
    return (
        profile.pushes(CHOSEN_AS.get(kind, kind))
        and PushSubscription.objects.filter(user=user).exists()
    )


def _record(
    user: Any,
    kind: str,
    key: str,
    *,
    match: Match | None = None,
    challenge: Challenge | None = None,
    seq: int | None = None,
) -> None:
    by_email, by_push = wants_email(user, kind), wants_push(user, kind)
    if not (by_email or by_push):
        return
    # Pushed only, the news is due at once; the email task then finds no email wanted.
    delivery = delivery_for(user, kind) if by_email else Delivery.IMMEDIATELY
    notification, created = _once(
        user,
        key,
        {
            "kind": kind,
            "delivery": delivery,
            "match": match,
            "challenge": challenge,
            "seq": seq,
            "created_at": timezone.now(),
        },
    )
    if created and (delivery == Delivery.IMMEDIATELY or by_push):
        announce = partial(
            news_to_send.send,
            Notification,
            notification_id=notification.pk,
            delay=delay_of(kind).total_seconds(),
            email=delivery == Delivery.IMMEDIATELY,
            push=by_push,
        )
        transaction.on_commit(announce, robust=True)


def _once(user: Any, key: str, defaults: dict[str, Any]) -> tuple[Notification, bool]:
    """The user's notification of ``key``, and whether it was made now. Outside a transaction,
    by one INSERT that the key's unique constraint refuses the second time: news is nearly
    always new, and get_or_create's read and transaction cost four queries."""
    if transaction.get_connection().in_atomic_block:
        return Notification.objects.get_or_create(user=user, key=key, defaults=defaults)
    try:
        return Notification.objects.create(user=user, key=key, **defaults), True
    except IntegrityError:
        return Notification.objects.get(user=user, key=key), False


def is_still_news(notification: Notification) -> bool:
    """Whether the news is still true: a turn already played or a challenge already answered
    is not worth an email any more."""
    kind = notification.kind
    if kind == Kind.MATCH_FINISHED:
        return True
    if kind == Kind.TOURNAMENT_MATCH:
        return notification.match is not None and any(
            match.status == Match.Status.ACTIVE
            for match in matches_told_together(notification.match, notification.user)
        )
    if kind == Kind.CHALLENGE:
        challenge = notification.challenge
        return challenge is not None and challenge.status == Challenge.Status.OPEN
    match = notification.match
    if match is None or match.status != Match.Status.ACTIVE:
        return False
    if match.to_act_id != notification.user_id:
        return False
    if kind == Kind.DEADLINE:
        return match.seq == notification.seq
    since, _ = last_decision(match.pk, match.seq)
    return since == notification.seq
