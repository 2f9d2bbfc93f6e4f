"""Matches, their append-only event logs, and challenges.

Nothing here holds a rule: games/services/ is the only code that changes a match.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

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
        ]
        permissions = [("moderate_match", "Can abort matches and award them")]

    def __str__(self) -> str:
        return f"Match {self.pk}: {self.first_player} v {self.second_player}"

    @property
    def players(self) -> tuple[Any, Any]:
        return self.first_player, self.second_player

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


class Challenge(models.Model):
    """An invitation to a match: to one player, or open to anyone when ``opponent`` is None."""

    class Status(models.TextChoices):
        OPEN = "open", "open"
        ACCEPTED = "accepted", "accepted"
        DECLINED = "declined", "declined"
        CANCELLED = "cancelled", "cancelled"

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent"
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="challenges_received",
    )
    match_length = models.PositiveSmallIntegerField(default=5)
    rated = models.BooleanField(default=True)
    time_control = models.JSONField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    challenger_seed = models.CharField(
        max_length=200, blank=True, help_text="The challenger's own dice seed, if they gave one."
    )
    match = models.OneToOneField(
        Match, on_delete=models.PROTECT, null=True, blank=True, related_name="challenge"
    )
    challenger_plays_first = models.BooleanField(
        default=True, help_text="The challenger takes the first player's seat and colour."
    )
    rematch_of = models.ForeignKey(
        Match,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rematches",
        help_text="The finished match this challenge offers to play again.",
    )
    created_at = models.DateTimeField(default=timezone.now)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "opponent"], name="challenge_status_opponent"),
            models.Index(fields=["status", "challenger"], name="challenge_status_challenger"),
        ]

    def __str__(self) -> str:
        return f"Challenge {self.pk}: {self.challenger} to {self.opponent or 'anyone'}"


class IdempotencyRecord(models.Model):
    """The first answer to a POST sent with an Idempotency-Key, replayed on a retry."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=100)
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of the path and body.")
    status_code = models.PositiveSmallIntegerField()
    body = models.JSONField(null=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.key}"


class DicePairCount(models.Model):
    """How often a scope (the site, or one player) rolled ``first``-``second``."""

    scope = models.CharField(max_length=40)
    first = models.PositiveSmallIntegerField()
    second = models.PositiveSmallIntegerField()
    count = models.PositiveBigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "first", "second"], name="dice_pair_once"),
        ]

    def __str__(self) -> str:
        return f"{self.scope} {self.first}-{self.second}: {self.count}"


class Notification(models.Model):
    """One piece of news for one player, recorded once and emailed at most once.

    ``key`` names the news itself (``your_turn:match:7:turn:31``), so a signal sent twice or a
    task run twice finds the row already there; ``delivery`` is the player's choice when it
    was recorded: at once, or in the next daily digest.
    """

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", "your turn"
        CHALLENGE = "challenge", "a challenge"
        DEADLINE = "deadline", "a deadline approaching"
        MATCH_FINISHED = "match_finished", "a match finished"

    class Delivery(models.TextChoices):
        IMMEDIATELY = "immediately", "at once"
        DIGEST = "digest", "daily digest"

    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        SENT = "sent", "sent"
        SKIPPED = "skipped", "skipped"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    key = models.CharField(max_length=100)
    delivery = models.CharField(max_length=16, choices=Delivery.choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    challenge = models.ForeignKey(
        Challenge, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    seq = models.PositiveIntegerField(
        null=True, blank=True, help_text="The match's seq the news is about (a turn's start)."
    )
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="notification_once"),
        ]
        indexes = [
            models.Index(fields=["status", "delivery", "user"], name="notification_pending"),
        ]

    def __str__(self) -> str:
        return f"{self.key} for {self.user}"


class ImportedMatch(models.Model):
    """A match played elsewhere, read from a .mat file and checked by the engine.

    ``events`` are its rules events as ``{"kind", "payload"}`` in MatchEvent's payload form,
    so a replay or an analysis reads them as it reads a match's log; ``mat_text`` is the file
    as uploaded.
    """

    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="imported_matches"
    )
    first_player_name = models.CharField(max_length=100)
    second_player_name = models.CharField(max_length=100)
    match_length = models.PositiveSmallIntegerField()
    mat_text = models.TextField()
    events = models.JSONField()
    score = models.JSONField(help_text="The score where the file ends: [first, second].")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["uploaded_by", "-created_at"], name="imported_match_uploader"),
        ]

    def __str__(self) -> str:
        return f"Imported match {self.pk}: {self.first_player_name} v {self.second_player_name}"

    @property
    def names(self) -> tuple[str, str]:
        return self.first_player_name, self.second_player_name


class MatchAnalysis(models.Model):
    """bgsage's review of a match's decisions (games.computer.review), up to event ``seq``.

    Of a match played here (``match``) or of one imported (``imported``), never both.
    ``result`` is ``MatchReview.to_json()`` with each decision's ``seq``: its event's seq in a
    match's log, or its step in an imported match's replay (its place among the events, from 1).
    """

    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        DONE = "done", "done"
        FAILED = "failed", "failed"

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, related_name="analysis", null=True, blank=True
    )
    imported = models.OneToOneField(
        ImportedMatch, on_delete=models.CASCADE, related_name="analysis", null=True, blank=True
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    seq = models.PositiveIntegerField(default=0, help_text="The last event analysed.")
    plies = models.PositiveSmallIntegerField(default=2)
    result = models.JSONField(default=dict, blank=True)
    requested_at = models.DateTimeField(default=timezone.now)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "match analyses"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(match__isnull=False, imported__isnull=True)
                | models.Q(match__isnull=True, imported__isnull=False),
                name="analysis_of_one_match",
            ),
        ]

    def __str__(self) -> str:
        if self.match_id is None:
            return f"Analysis of imported match {self.imported_id} ({self.status})"
        return f"Analysis of match {self.match_id} ({self.status})"


class Heartbeat(models.Model):
    """When a job that keeps the service's promises (the sweep) last finished a run:
    `manage.py health` reads it."""

    name = models.CharField(max_length=40, primary_key=True)
    at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} at {self.at:%Y-%m-%d %H:%M:%S}"


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


class ChatMessage(models.Model):
    """Something one player of a match said to the other; not part of the match's log.

    ``seq`` is the match's seq when it was sent, so the conversation reads beside the moves.
    A moderator hides a message rather than deleting it: it stays recorded, with who hid it.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    text = models.TextField(max_length=500)
    seq = models.PositiveIntegerField(help_text="The match's seq when the message was sent.")
    created_at = models.DateTimeField(default=timezone.now)
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The moderator who hid the message.",
    )

    class Meta:
        indexes = [models.Index(fields=["match", "created_at"], name="chat_message_match")]
        permissions = [("moderate_chat", "Can hide players' chat messages")]

    def __str__(self) -> str:
        return f"{self.author} in match {self.match_id}: {self.text[:40]}"


class ChatReport(models.Model):
    """A player's report of a message their opponent sent, for the moderators to handle."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_reports"
    )
    reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    handled_at = models.DateTimeField(null=True, blank=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once"),
        ]

    def __str__(self) -> str:
        return f"Report {self.pk} by {self.reporter}"


class ChatMute(models.Model):
    """A player of a match who silenced their opponent there; the opponent is not told."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    muter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "muter"], name="chat_mute_once"),
        ]

    def __str__(self) -> str:
        return f"{self.muter} muted their opponent in match {self.match_id}"
