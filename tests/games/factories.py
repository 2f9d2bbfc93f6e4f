"""Users, scripted dice and matches for the games tests: plain functions, no factory library.

The server derives every roll from the match's seeds (games.services.turns.next_roll);
ScriptedDice stands in for it so a test decides every number the server rolls, and fails loudly
when it rolls one more.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone

from games import services
from games.engine import MatchState, state_from_snapshot
from games.models import Match, MatchEvent
from games.services import turns

#: The password of the players the fixtures make (tests/conftest.py).
PASSWORD = "correct horse battery staple"


def make_user(name: str, *, password: str | None = None, **fields: Any) -> Any:
    """A player called ``name`` (no profile: the defaults apply).

    Without a ``password`` the player cannot sign in with one; without an ``email`` they get
    no email.
    """
    return get_user_model().objects.create_user(username=name, password=password, **fields)


def migration_made_rows() -> None:
    """Make again what the data migrations made: the computer players, and the "Moderators"
    group with the permissions each migration gave it. A transactional test
    (transaction=True) empties every table when it ends, those rows included."""
    from django.apps import apps
    from django.contrib.auth.models import Permission

    importlib.import_module("accounts.migrations.0005_computer_opponents").create_bots(apps, None)
    group, _ = Group.objects.get_or_create(name="Moderators")
    granted = list(importlib.import_module("ratings.migrations.0002_moderators_group").PERMISSIONS)
    for module in (
        "games.migrations.0016_chat",
        "games.migrations.0018_tournaments",
        "games.migrations.0023_leagues",
        "games.migrations.0026_audit_record",
        "games.migrations.0033_fair_play",
    ):
        granted += [("games", codename) for codename in importlib.import_module(module).PERMISSIONS]
    for app_label, codename in granted:
        group.permissions.add(
            Permission.objects.get(content_type__app_label=app_label, codename=codename)
        )


def make_moderator(name: str, **fields: Any) -> Any:
    """A moderator as the site makes one: staff, in the "Moderators" group that
    ratings/migrations/0002 creates. Read back so that the permission cache is fresh."""
    if not Group.objects.filter(name="Moderators").exists():
        migration_made_rows()
    user = make_user(name, is_staff=True, **fields)
    user.groups.add(Group.objects.get(name="Moderators"))
    return get_user_model().objects.get(pk=user.pk)


class DiceExhausted(AssertionError):
    """The server rolled a die the test did not script."""


class ScriptedDice:
    """Dice the server rolls in order: ``dice.add(3, 1)`` scripts a 3 and then a 1."""

    def __init__(self) -> None:
        self.queue: list[int] = []
        self.rolled: list[int] = []

    def add(self, *faces: int) -> ScriptedDice:
        for face in faces:
            assert 1 <= face <= 6, face
        self.queue.extend(faces)
        return self

    def add_random(self, count: int, seed: int | str) -> ScriptedDice:
        """``count`` dice from a seeded generator: a long script, the same on every run."""
        rng = random.Random(seed)
        return self.add(*(rng.randint(1, 6) for _ in range(count)))

    def __call__(self) -> int:
        if not self.queue:
            raise DiceExhausted(f"the server rolled more dice than scripted (after {self.rolled})")
        face = self.queue.pop(0)
        self.rolled.append(face)
        return face

    @property
    def left(self) -> list[int]:
        return list(self.queue)


def script_dice(monkeypatch: Any, *faces: int) -> ScriptedDice:
    """Replace the server's dice with a script (the fixture ``dice`` in each test module)."""
    dice = ScriptedDice().add(*faces)
    monkeypatch.setattr(turns, "next_roll", lambda match: (dice(), dice()))
    return dice


def start_match(
    first: Any,
    second: Any,
    *,
    length: int = 5,
    rated: bool = False,
    time_control: dict[str, Any] | None = None,
) -> Match:
    """A match started through the service; script its opening roll first."""
    return services.match_start(
        first_player=first,
        second_player=second,
        match_length=length,
        rated=rated,
        time_control=time_control or dict(services.DEFAULT_TIME_CONTROL),
    )


def act(match: Match, user: Any, action: str, **options: Any) -> Match:
    """``user`` takes ``action`` at the seq the match is at now."""
    return services.match_act(
        match_id=match.pk, actor=user, expected_seq=match.seq, action=action, **options
    )


def state_of(match: Match) -> MatchState:
    return state_from_snapshot(match.state)


def events_of(match: Match) -> list[MatchEvent]:
    return list(MatchEvent.objects.filter(match=match).order_by("seq"))


def kinds_of(match: Match, events: Iterable[MatchEvent] | None = None) -> list[str]:
    return [event.kind for event in (events_of(match) if events is None else events)]


def reload(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def lose_on_time(dice: Any, player: Any, opponent: Any, *, days_ago: float = 0) -> Match:
    """A match ``player`` lost on time ``days_ago`` days ago."""
    dice.add(3, 1)  # the first player, ``player``, opens and is to move
    match = start_match(player, opponent)
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.match_timeout(match_id=match.pk).timed_out
    match.refresh_from_db()
    assert match.winner == opponent
    finished_at = timezone.now() - timedelta(days=days_ago)
    Match.objects.filter(pk=match.pk).update(finished_at=finished_at)
    return match


def win_by_award(
    dice: Any, player: Any, opponent: Any, moderator: Any, *, days_ago: float = 0
) -> None:
    """A match awarded to ``player`` ``days_ago`` days ago."""
    dice.add(3, 1)
    match = start_match(player, opponent)
    services.match_award(match_id=match.pk, moderator=moderator, winner=player, reason="test")
    finished_at = timezone.now() - timedelta(days=days_ago)
    Match.objects.filter(pk=match.pk).update(finished_at=finished_at)
