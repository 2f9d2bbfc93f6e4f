"""Leagues: creating one, signing up for a season and withdrawing, and the seasons advancing
(closing one, with promotion and relegation, and opening the next). docs/tournaments.md
(Leagues) gives the rules.

Every change holds the league's row lock, so advancing is idempotent: a second run, from a
task delivered twice or from the minute sweep, re-reads the seasons and finds nothing to do.
A season's matches are started through ``match_start`` in the same transaction as the
season's opening, so a crash before the commit leaves neither.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from itertools import combinations
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from backgammon_site.core.errors import ApplicationError, Forbidden
from backgammon_site.core.variants import DEFAULT_VARIANT
from games.models import (
    League,
    LeagueDivision,
    LeagueEntry,
    LeagueMatch,
    LeagueSeason,
    Match,
    Player,
)
from games.models.leagues import MAX_DIVISION_SIZE, MIN_DIVISION_SIZE
from games.services.challenges import MAX_MATCH_LENGTH, challenge_rules, clean_time_control
from games.services.droppers import refuse_dropper
from games.services.league_tables import standings_of
from games.services.locks import locked_league
from games.services.matches import match_start
from games.services.tournaments import (
    can_create_tournament,
    entries_still_admitted,
    may_play,
    whole,
)
from games.signals import tournament_match_started
from ratings.selectors import ratings_in

#: A season due to start with fewer players waits a season's length, still signing up.
MIN_PLAYERS = 4
MAX_SEASON_DAYS = 365

Status = LeagueSeason.Status
Move = LeagueEntry.Move


def league_create(
    *,
    creator: Player,
    name: str,
    starts_at: datetime,
    season_days: int = 28,
    division_size: int = 8,
    promoted: int = 2,
    match_length: int = 5,
    time_control: Mapping[str, Any] | None = None,
    rated: bool = True,
    variant: str = DEFAULT_VARIANT,
) -> League:
    """Create a league whose first season signs players up until ``starts_at``. Moderators
    create leagues, and any player where tournaments are open to players."""
    if not can_create_tournament(creator):
        raise Forbidden(_("Only moderators can create leagues."))
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 100:
        raise ApplicationError(_("Give the league a name of at most 100 characters."), "name")
    challenge_rules(variant, None, None)
    if not whole(match_length) or not 1 <= match_length <= MAX_MATCH_LENGTH:
        raise ApplicationError(
            _("A match is played to 1 to %(most)d points.") % {"most": MAX_MATCH_LENGTH},
            "match_length",
        )
    if not isinstance(rated, bool):
        raise ApplicationError(_("Say whether the matches are rated: true or false."), "rated")
    if not whole(season_days) or not 1 <= season_days <= MAX_SEASON_DAYS:
        raise ApplicationError(
            _("A season lasts 1 to %(most)d days.") % {"most": MAX_SEASON_DAYS}, "season_days"
        )
    if not whole(division_size) or not MIN_DIVISION_SIZE <= division_size <= MAX_DIVISION_SIZE:
        raise ApplicationError(
            _("A division has room for %(least)d to %(most)d players.")
            % {"least": MIN_DIVISION_SIZE, "most": MAX_DIVISION_SIZE},
            "division_size",
        )
    if not whole(promoted) or not 0 <= promoted <= division_size // 3:
        raise ApplicationError(
            _("From 0 to %(most)d players go up and down from a division of %(size)d.")
            % {"most": division_size // 3, "size": division_size},
            "promoted",
        )
    if not isinstance(starts_at, datetime) or starts_at <= timezone.now():
        raise ApplicationError(_("The first season starts at a time still to come."), "starts_at")
    with transaction.atomic():
        league = League.objects.create(
            name=name.strip(),
            variant=variant,
            match_length=match_length,
            time_control=clean_time_control(time_control),
            rated=rated,
            season_days=season_days,
            division_size=division_size,
            promoted=promoted,
            created_by=creator,
        )
        LeagueSeason.objects.create(league=league, number=1, starts_at=starts_at)
    return league


def league_sign_up(*, league_id: int, player: Player) -> LeagueEntry:
    """Enter ``player`` in the league's next season."""
    if not may_play(player):
        raise Forbidden(_("Guests and computer players cannot enter leagues."))
    refuse_dropper(player)
    with transaction.atomic():
        season = _season_signing_up(locked_league(league_id), "sign up")
        entry = season.entries.filter(player=player).first()
        if entry is not None and not entry.withdrawn:
            raise ApplicationError(
                _("You are already signed up for season %(number)d.") % {"number": season.number},
                "already_entered",
            )
        if entry is None:
            return LeagueEntry.objects.create(season=season, player=player)
        entry.withdrawn = False
        entry.joined_at = timezone.now()
        entry.save(update_fields=["withdrawn", "joined_at"])
    return entry


def league_withdraw(*, league_id: int, player: Player) -> LeagueEntry:
    """Take ``player`` out of the league's next season, before it starts. A season under way
    cannot be left: its matches are played or lost on time."""
    with transaction.atomic():
        season = _season_signing_up(locked_league(league_id), "withdraw")
        entry = season.entries.filter(player=player, withdrawn=False).first()
        if entry is None:
            raise ApplicationError(
                _("You are not signed up for season %(number)d.") % {"number": season.number},
                "not_entered",
            )
        entry.withdrawn = True
        entry.save(update_fields=["withdrawn"])
    return entry


def league_advance(*, league_id: int, now: datetime | None = None) -> int:
    """Close the season running if it is over (its end date has come, or all its matches are
    done), then open the next if it is due. Returns how many changes were made (0 when there
    was nothing to do); safe to call any number of times."""
    now = now or timezone.now()
    with transaction.atomic():
        league = locked_league(league_id)
        changes = 0
        running = league.seasons.filter(status=Status.RUNNING).first()
        if running is not None:
            if not _is_over(running, now):
                return 0
            _close(running, now)
            changes += 1
        upcoming = league.seasons.filter(status=Status.SIGNING_UP).first()
        if upcoming is not None and upcoming.starts_at <= now:
            _open(league, upcoming, now)
            changes += 1
        return changes


def division_sizes(players: int, most: int) -> list[int]:
    """As few divisions as hold ``players`` with at most ``most`` in each, as even as can be,
    the larger ones at the top."""
    count = max(1, -(-players // most))
    base, extra = divmod(players, count)
    return [base + 1 if level < extra else base for level in range(count)]


def _season_signing_up(league: League, what: str) -> LeagueSeason:
    season = league.seasons.filter(status=Status.SIGNING_UP).first()
    if season is None or season.starts_at <= timezone.now():
        raise ApplicationError(
            _("Too late to sign up: the season is starting; try again in a minute.")
            if what == "sign up"
            else _("Too late to withdraw: the season is starting; try again in a minute."),
            "season_started",
        )
    return season


def _is_over(season: LeagueSeason, now: datetime) -> bool:
    if season.ends_at is not None and season.ends_at <= now:
        return True
    return not LeagueMatch.objects.filter(
        division__season=season, match__status=Match.Status.ACTIVE
    ).exists()


def _close(season: LeagueSeason, now: datetime) -> None:
    """Final places, and who goes up and down: the top ``promoted`` of every division but the
    top one, the bottom ``promoted`` of every division but the lowest (at most half of a
    small division each way). The next season then starts at once."""
    season.status = Status.FINISHED
    season.finished_at = now
    season.save(update_fields=["status", "finished_at"])
    divisions = list(season.divisions.order_by("level"))
    for division in divisions:
        entries = list(division.entries.select_related("player"))
        pairings = list(division.pairings.select_related("match", "first", "second"))
        table = standings_of(entries, pairings, now)
        moving = min(season.league.promoted, len(table) // 2)
        for line in table:
            entry = line.entry
            entry.position = line.position
            if division.level > 1 and line.position <= moving:
                entry.move = Move.UP
            elif division.level < len(divisions) and line.position > len(table) - moving:
                entry.move = Move.DOWN
            else:
                entry.move = Move.STAY
        LeagueEntry.objects.bulk_update([line.entry for line in table], ["position", "move"])
    season.league.seasons.filter(status=Status.SIGNING_UP, starts_at__gt=now).update(starts_at=now)


def _open(league: League, season: LeagueSeason, now: datetime) -> None:
    entries = list(season.entries.filter(withdrawn=False).select_related("player"))
    entries = entries_still_admitted(entries)
    if len(entries) < MIN_PLAYERS:
        season.starts_at = now + timedelta(days=league.season_days)
        season.save(update_fields=["starts_at"])
        return
    ratings = ratings_in([entry.player_id for entry in entries], league.variant)
    for entry in entries:
        known = ratings.get(entry.player_id)
        entry.rating = settings.RATINGS["NEW_RATING"] if known is None else known.rating
    placed = _placement_order(league, season, entries)
    start = 0
    for level, size in enumerate(division_sizes(len(placed), league.division_size), start=1):
        division = LeagueDivision.objects.create(season=season, level=level)
        members = placed[start : start + size]
        start += size
        for entry in members:
            entry.division = division
        LeagueEntry.objects.bulk_update(members, ["division", "rating"])
        for one, other in combinations(range(len(members)), 2):
            # Alternate the seats, so everyone starts about half their matches.
            first, second = (one, other) if (one + other) % 2 else (other, one)
            _start_match(league, division, members[first], members[second])
    season.status = Status.RUNNING
    season.started_at = now
    season.ends_at = now + timedelta(days=league.season_days)
    season.save(update_fields=["status", "started_at", "ends_at"])
    following = LeagueSeason.objects.create(
        league=league, number=season.number + 1, starts_at=season.ends_at
    )
    LeagueEntry.objects.bulk_create(
        LeagueEntry(season=following, player=entry.player, joined_at=now) for entry in placed
    )


def _placement_order(
    league: League, season: LeagueSeason, entries: list[LeagueEntry]
) -> list[LeagueEntry]:
    """Everyone from the top of the top division down. A returning player goes to the level
    their last season's move gives, those who came down before those who stayed, before those
    who came up, each by their last place. A new player goes, by rating, to the highest level
    whose returning players' average rating is at most theirs (else the lowest), after its
    returning players."""
    last = {
        entry.player_id: entry
        for entry in LeagueEntry.objects.filter(
            season__league=league,
            season__number=season.number - 1,
            division__isnull=False,
        ).select_related("division")
    }
    step: dict[str, int] = {Move.UP: -1, Move.DOWN: 1}
    keys: dict[int, tuple[float, ...]] = {}
    ratings_at: dict[int, list[float]] = {}
    for entry in entries:
        before = last.get(entry.player_id)
        if before is None or before.division is None:
            continue
        level = before.division.level + step.get(before.move, 0)
        keys[entry.pk] = (level, before.division.level, before.position or 0)
        ratings_at.setdefault(level, []).append(entry.rating or 0)
    averages = sorted((level, sum(r) / len(r)) for level, r in ratings_at.items())
    lowest = averages[-1][0] if averages else 1
    for entry in entries:
        if entry.pk in keys:
            continue
        rating = entry.rating or 0
        level = next((lv for lv, average in averages if average <= rating), lowest)
        keys[entry.pk] = (level, float("inf"), -rating, entry.joined_at.timestamp())
    return sorted(entries, key=lambda entry: (*keys[entry.pk], entry.pk))


def _start_match(
    league: League, division: LeagueDivision, first: LeagueEntry, second: LeagueEntry
) -> None:
    match = match_start(
        first_player=first.player,
        second_player=second.player,
        match_length=league.match_length,
        rated=league.rated,
        time_control=league.time_control,
        rules=challenge_rules(league.variant, None, None),
    )
    LeagueMatch.objects.create(division=division, first=first, second=second, match=match)
    match_id, league_id = match.pk, league.pk
    transaction.on_commit(
        lambda: tournament_match_started.send(League, match_id=match_id, tournament_id=league_id)
    )
