"""Tournaments: who signed up, and the pairings of a knock-out, a double elimination, a Swiss
or a round robin.

Nothing here holds a rule: games/services/tournaments.py (with tournament_formats.py, each
format's draw and advancing) is the only code that changes a tournament. Leagues, whose
seasons and divisions have nothing of a bracket, are their own records
(games/models/leagues.py).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy

from backgammon_site.core.variants import DEFAULT_VARIANT
from games.models.matches import Match

MIN_SIZE = 4
MAX_SIZE = 256


class Tournament(models.Model):
    """An event that pairs its entrants in matches, in one of four formats."""

    class Format(models.TextChoices):
        KNOCKOUT = "knockout", gettext_lazy("knock-out")
        DOUBLE_ELIMINATION = "double_elimination", gettext_lazy("double elimination")
        SWISS = "swiss", gettext_lazy("Swiss")
        ROUND_ROBIN = "round_robin", gettext_lazy("round robin")

    class StartMode(models.TextChoices):
        WHEN_FULL = "when_full", gettext_lazy("when full")
        AT_TIME = "at_time", gettext_lazy("at a set time")

    class Status(models.TextChoices):
        SIGNING_UP = "signing_up", gettext_lazy("signing up")
        RUNNING = "running", gettext_lazy("running")
        FINISHED = "finished", gettext_lazy("finished")
        CANCELLED = "cancelled", gettext_lazy("cancelled")

    name = models.CharField(max_length=100)
    format = models.CharField(max_length=24, choices=Format.choices, default=Format.KNOCKOUT)
    rounds = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="A Swiss's rounds: as chosen at creation (empty: as many as the players "
        "need, set at the start).",
    )
    variant = models.CharField(
        max_length=16,
        default=DEFAULT_VARIANT,
        help_text="Its matches are played in it; seeds and rating limits use its ratings.",
    )
    match_length = models.PositiveSmallIntegerField(default=5)
    time_control = models.JSONField(help_text="As a challenge stores it.")
    size = models.PositiveSmallIntegerField(help_text="The most players who may sign up.")
    rated = models.BooleanField(default=True)
    min_rating = models.IntegerField(null=True, blank=True)
    max_rating = models.IntegerField(null=True, blank=True)
    start_mode = models.CharField(max_length=16, choices=StartMode.choices)
    starts_at = models.DateTimeField(
        null=True, blank=True, help_text="When a tournament that starts at a time starts."
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SIGNING_UP)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournaments_created"
    )
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments_won",
    )
    second = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments_second",
    )
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="The moderator who cancelled it; empty when too few players cancelled it.",
    )
    cancel_reason = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "starts_at"], name="tournament_status_start"),
        ]
        permissions = [("create_tournament", "Can create tournaments")]

    def __str__(self) -> str:
        return self.name


class TournamentEntry(models.Model):
    """A player's place in a tournament; ``seed`` is given at the start (1 is the best)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries"
    )
    seed = models.PositiveSmallIntegerField(null=True, blank=True)
    rating = models.FloatField(
        null=True,
        blank=True,
        help_text="The player's rating in the tournament's variant when the seeds were given.",
    )
    withdrawn = models.BooleanField(default=False)
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name_plural = "tournament entries"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="tournament_entry_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"


class BracketMatch(models.Model):
    """One pairing of a tournament: round 1 is the first, slot counts from 0 down the round.
    ``first`` is the higher seed; a pairing with a bye has no ``second`` and its ``first`` is
    its winner from the start (a double elimination's losers' bracket may have a pairing with
    no player at all). ``match`` is made once both players are known. ``part`` is the bracket
    of a double elimination it is in; every other format's pairings are in the main part."""

    class Part(models.TextChoices):
        MAIN = "main", "main"
        LOSERS = "losers", "losers' bracket"
        FINAL = "final", "grand final"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="bracket")
    part = models.CharField(max_length=8, choices=Part.choices, default=Part.MAIN)
    round = models.PositiveSmallIntegerField()
    slot = models.PositiveSmallIntegerField()
    first = models.ForeignKey(
        TournamentEntry, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    second = models.ForeignKey(
        TournamentEntry, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    bye = models.BooleanField(default=False)
    match = models.OneToOneField(
        Match, on_delete=models.PROTECT, null=True, blank=True, related_name="bracket_match"
    )
    winner = models.ForeignKey(
        TournamentEntry, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["round", "slot"]
        verbose_name_plural = "bracket matches"
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "part", "round", "slot"], name="bracket_match_place"
            ),
        ]

    def __str__(self) -> str:
        part = "" if self.part == self.Part.MAIN else f" {self.get_part_display()}"
        return f"{self.tournament}{part} round {self.round} match {self.slot + 1}"
