"""Leagues: seasons of round robins in divisions, with promotion and relegation between them.

Nothing here holds a rule: games/services/leagues.py is the only code that changes a league,
and docs/tournaments.md (Leagues) gives the rules.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy

from backgammon_site.core.variants import DEFAULT_VARIANT
from games.models.matches import Match

MIN_DIVISION_SIZE = 6
MAX_DIVISION_SIZE = 10


class League(models.Model):
    """A league's terms, the same every season; its seasons follow one another."""

    name = models.CharField(max_length=100)
    variant = models.CharField(max_length=16, default=DEFAULT_VARIANT)
    match_length = models.PositiveSmallIntegerField(default=5)
    time_control = models.JSONField(help_text="As a challenge stores it.")
    rated = models.BooleanField(default=True)
    season_days = models.PositiveSmallIntegerField(help_text="How long a season lasts.")
    division_size = models.PositiveSmallIntegerField(
        help_text="The most players in a division (6 to 10)."
    )
    promoted = models.PositiveSmallIntegerField(
        default=2, help_text="How many go up from each division, and down, after a season."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="leagues_created"
    )
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.name


class LeagueSeason(models.Model):
    """One season of a league. The next season signs players up while this one runs."""

    class Status(models.TextChoices):
        SIGNING_UP = "signing_up", gettext_lazy("signing up")
        RUNNING = "running", gettext_lazy("running")
        FINISHED = "finished", gettext_lazy("finished")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveSmallIntegerField(help_text="1 is the league's first season.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SIGNING_UP)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True, blank=True, help_text="Set at the start.")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["league", "number"]
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="league_season_once"),
        ]
        indexes = [
            models.Index(fields=["status", "starts_at"], name="league_season_start"),
            models.Index(fields=["status", "ends_at"], name="league_season_end"),
        ]

    def __str__(self) -> str:
        return f"{self.league} season {self.number}"


class LeagueDivision(models.Model):
    """A division of a season: level 1 is the top."""

    season = models.ForeignKey(LeagueSeason, on_delete=models.CASCADE, related_name="divisions")
    level = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["season", "level"]
        constraints = [
            models.UniqueConstraint(fields=["season", "level"], name="league_division_level"),
        ]

    def __str__(self) -> str:
        return f"{self.season} division {self.level}"


class LeagueEntry(models.Model):
    """A player's place in a season: signed up (or carried over from the season before), then
    given a division at the start, and a final position and move at the end."""

    class Move(models.TextChoices):
        UP = "up", gettext_lazy("promoted")
        STAY = "stay", gettext_lazy("stays")
        DOWN = "down", gettext_lazy("relegated")

    season = models.ForeignKey(LeagueSeason, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="league_entries"
    )
    division = models.ForeignKey(
        LeagueDivision, on_delete=models.PROTECT, null=True, blank=True, related_name="entries"
    )
    rating = models.FloatField(
        null=True, blank=True, help_text="The player's rating when the divisions were made."
    )
    withdrawn = models.BooleanField(default=False)
    joined_at = models.DateTimeField(default=timezone.now)
    position = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Final place in the division, 1 the top."
    )
    move = models.CharField(max_length=8, choices=Move.choices, blank=True, default="")

    class Meta:
        verbose_name_plural = "league entries"
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="league_entry_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.season}"


class LeagueMatch(models.Model):
    """One pairing of a division's round robin and its match."""

    division = models.ForeignKey(LeagueDivision, on_delete=models.CASCADE, related_name="pairings")
    first = models.ForeignKey(LeagueEntry, on_delete=models.PROTECT, related_name="+")
    second = models.ForeignKey(LeagueEntry, on_delete=models.PROTECT, related_name="+")
    match = models.OneToOneField(Match, on_delete=models.PROTECT, related_name="league_match")

    class Meta:
        verbose_name_plural = "league matches"
        constraints = [
            models.UniqueConstraint(fields=["division", "first", "second"], name="league_pair"),
        ]

    def __str__(self) -> str:
        return f"{self.division}: {self.first.player} v {self.second.player}"
