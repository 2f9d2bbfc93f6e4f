"""A match, its append-only log, and who has its page open.

Nothing here holds a rule: games/services/ is the only code that changes a match.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from backgammon_site.core.variants import DEFAULT_VARIANT, variant_title
from games.engine import MatchState, snapshot, state_from_snapshot

GENESIS_DIGEST = "0" * 64


class Match(models.Model):
    """A match between two players; its truth is its log, and ``state`` a snapshot of it.

    ``state`` is the folded state after event ``seq``, written in the same transaction as
    the events, so reading a match costs the same however long its log is.
    """

    class Status(models.TextChoices):
        ACTIVE = "active", "active"
        FINISHED = "finished", "finished"

    first_player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="matches_as_first"
    )
    second_player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="matches_as_second"
    )
    match_length = models.PositiveSmallIntegerField()
    variant = models.CharField(max_length=16, default=DEFAULT_VARIANT, db_index=True)
    rated = models.BooleanField(default=True)
    time_control = models.JSONField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="matches_won",
    )
    to_act = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="matches_to_act",
        help_text="The player whose decision the match waits for.",
    )
    seq = models.PositiveIntegerField(default=0)
    head_digest = models.CharField(max_length=64, default=GENESIS_DIGEST)
    server_seed_ciphertext = models.BinaryField(
        default=b"",
        editable=False,
        help_text="The dice's server seed, encrypted; revealed in the log at the end.",
    )
    player_seeds = models.JSONField(default=list, help_text="Each player's dice seed (public).")
    rolls_made = models.PositiveIntegerField(default=0)
    dice_counted_seq = models.PositiveIntegerField(
        default=0,
        help_text="The seq up to which the site's dice statistics count this match's rolls: "
        "they are counted from the log after the match's transaction (games/dice/statistics.py).",
    )
    answer_ahead = models.JSONField(
        null=True,
        blank=True,
        default=None,
        help_text="An answer left ahead: {player, seq, answer}, the take or drop that player "
        "gives at once if the opponent doubles at the next seq; private to them, and "
        "forgotten as soon as the match moves on otherwise.",
    )
    tutored = models.BooleanField(
        default=False,
        help_text="The human player of this unrated match against the computer asked the "
        "tutor to judge each of their plays and to give hints.",
    )
    tutor_verdict = models.JSONField(
        null=True,
        blank=True,
        default=None,
        help_text="The tutor's verdict on the human player's last play with a choice: "
        "{player, seq, variant, position_id, dice, played, best, equity_lost, mark}. Beside "
        "the log, never in it: the log is the game's record.",
    )
    deadline = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the player to act loses on time; empty when no clock runs "
        "(the match is over, or the player's vacation pauses it).",
    )
    clocks = models.JSONField(
        default=list,
        help_text="Each player's time left in seconds beyond the current decision: "
        "the reserve (correspondence) or the clock (live).",
    )
    paused_time_left = models.FloatField(
        null=True,
        blank=True,
        help_text="Seconds the player to act had left when their vacation paused the decision.",
    )
    warn_at = models.DateTimeField(
        null=True, blank=True, help_text="When to warn the player to act of their deadline."
    )
    state = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "matches"
        indexes = [
            models.Index(fields=["status", "-updated_at"], name="match_status_updated"),
            models.Index(fields=["to_act", "status"], name="match_to_act"),
            models.Index(
                fields=["deadline"],
                name="match_deadline_due",
                condition=models.Q(status="active", deadline__isnull=False),
            ),
            models.Index(
                fields=["warn_at"],
                name="match_warning_due",
                condition=models.Q(warn_at__isnull=False),
            ),
            # The matches whose latest rolls the dice statistics have still to count.
            models.Index(
                fields=["id"],
                name="match_dice_uncounted",
                condition=models.Q(seq__gt=models.F("dice_counted_seq")),
            ),
            # A player's recently finished matches, for their record of timeouts
            # (games/selectors/droppers.py): one range per seat.
            models.Index(
                fields=["first_player", "finished_at"],
                name="match_first_finished",
                condition=models.Q(status="finished"),
            ),
            models.Index(
                fields=["second_player", "finished_at"],
                name="match_second_finished",
                condition=models.Q(status="finished"),
            ),
        ]
        permissions = [("moderate_match", "Can abort matches and award them")]

    def __str__(self) -> str:
        return f"Match {self.pk}: {self.first_player} v {self.second_player}"

    @property
    def variant_title(self) -> str:
        """The match's variant for people, in the reader's language."""
        return variant_title(self.variant)

    @property
    def players(self) -> tuple[Any, Any]:
        return self.first_player, self.second_player

    def folded_state(self) -> MatchState:
        """The state ``state`` holds, decoded once for the snapshot as loaded or written."""
        kept: tuple[Any, MatchState] | None = self.__dict__.get("_folded")
        if kept is None or kept[0] is not self.state:
            kept = (self.state, state_from_snapshot(self.state))
            self._folded = kept
        return kept[1]

    def keep_state(self, state: MatchState) -> None:
        """Write ``state`` as the snapshot (saved with the match), and keep it decoded."""
        self.state = snapshot(state)
        self._folded = (self.state, state)

    def player_index(self, user: Any) -> int | None:
        """0 or 1 for a player of this match, None for anyone else."""
        if user is None or user.pk is None:
            return None
        if user.pk == self.first_player_id:
            return 0
        if user.pk == self.second_player_id:
            return 1
        return None


class AppendOnlyError(Exception):
    """Match events are written once and never changed or removed."""


class MatchEventQuerySet(models.QuerySet["MatchEvent"]):
    def update(self, **kwargs: Any) -> int:
        raise AppendOnlyError("match events are append-only: they cannot be updated")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("match events are append-only: they cannot be deleted")


class MatchEvent(models.Model):
    """One entry of a match's log. ``actor`` is None for what the server did (dice, follow-ups).

    ``digest`` is SHA-256 over the previous event's digest and this event's canonical JSON,
    so changing any event breaks the chain from there on.
    """

    # No index of its own: the unique (match, seq) below starts with it.
    match = models.ForeignKey(
        Match, on_delete=models.PROTECT, related_name="events", db_index=False
    )
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=32)
    payload = models.JSONField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    digest = models.CharField(max_length=64)

    objects = MatchEventQuerySet.as_manager()

    class Meta:
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="match_event_seq_unique"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError("match events are append-only: they cannot be changed")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("match events are append-only: they cannot be deleted")


class MatchPresence(models.Model):
    """When a player last had a match's page open (to the minute): a "your turn" email waits,
    and is dropped if they open the match meanwhile (games/notifications/attention.py)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seen_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="one_presence_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.user} on match {self.match_id} at {self.seen_at:%Y-%m-%d %H:%M}"
