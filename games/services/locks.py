"""The rows a service changes, loaded under lock until its transaction ends, and the players'
preferences that come with a locked match."""

from __future__ import annotations

from accounts.models import Profile, profile_of
from backgammon_site.core.errors import NotFound
from games.models import Challenge, League, Match, Player, Tournament


def locked_match(match_id: int) -> Match:
    """The match, locked until the transaction ends, with its players and their profiles (the
    preferences the services follow; not locked)."""
    try:
        return (
            Match.objects.select_for_update(of=("self",))
            .select_related("first_player__profile", "second_player__profile")
            .get(pk=match_id)
        )
    except (Match.DoesNotExist, ValueError, TypeError):
        raise NotFound(f"There is no match {match_id}.") from None


def locked_challenge(challenge_id: int) -> Challenge:
    """The challenge, locked until the transaction ends."""
    try:
        return Challenge.objects.select_for_update().get(pk=challenge_id)
    except Challenge.DoesNotExist:
        raise NotFound(f"There is no challenge {challenge_id}.") from None


def locked_profile(user: Player) -> Profile:
    """The user's profile, made with the defaults if they have none, locked."""
    Profile.objects.get_or_create(user=user)
    return Profile.objects.select_for_update().get(user=user)


def preferences(player: Player) -> Profile:
    """A player's profile as loaded with their match (``locked_match``); the defaults for a
    player who has none."""
    return profile_of(player) or Profile(user=player)


def locked_tournament(tournament_id: int) -> Tournament:
    """The tournament, locked until the transaction ends: every change of a tournament, its
    entries and its bracket holds this lock."""
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError):
        raise NotFound(f"There is no tournament {tournament_id}.") from None


def locked_league(league_id: int) -> League:
    """The league, locked until the transaction ends: every change of a league, its seasons,
    entries, divisions and pairings holds this lock."""
    try:
        return League.objects.select_for_update().get(pk=league_id)
    except (League.DoesNotExist, ValueError, TypeError):
        raise NotFound(f"There is no league {league_id}.") from None
