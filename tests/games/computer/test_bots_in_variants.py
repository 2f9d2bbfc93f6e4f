"""The computer in every variant, in the service: a guest starts a game from the home page
and the bot answers, through the services and its Celery tasks (run in place by the tests),
with legal plays until the match ends; the bot accepts a challenge in any variant."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.urls import reverse

from games import selectors, services
from games.models import Challenge, Match, MatchAnalysis
from tests.games.computer.conftest import bot
from tests.games.factories import events_of, reload, state_of

pytestmark = pytest.mark.django_db

MATCHES = (
    "plakoto",
    "fevga",
    "long-nardi",
    "portes",
    "nackgammon",
    "hypergammon",
    "tavli",
    "gul-bara",
    "jacquet",
)


def play_the_guests_part(match: Match, guest: Any, capture: Any, rng: random.Random) -> Match:
    """The guest takes a random legal play, rolls, takes and accepts until the match ends;
    each of its actions lets the computer answer (the tasks run when the action commits)."""
    for _ in range(2000):
        match = reload(match)
        if match.status != Match.Status.ACTIVE:
            return match
        assert match.to_act_id == guest.pk, "the computer left the match waiting"
        view = selectors.match_view(match, guest)
        actions = view.legal_actions
        options: dict[str, Any] = {}
        if "move" in actions:
            action, options["play"] = "move", rng.choice(view.legal_plays)
        else:
            action = next(a for a in ("roll", "take", "accept_resign") if a in actions)
        with capture(execute=True):
            services.match_act(
                match_id=match.pk, actor=guest, expected_seq=match.seq, action=action, **options
            )
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("variant", MATCHES)
def test_a_guest_plays_the_computer_from_the_home_page_to_the_end(
    client: Any, variant: str, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("play-computer"),
            {"match_length": 1, "level": "beginner", "variant": variant},
        )
    assert response.status_code == 302
    match = Match.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))
    assert (match.variant, match.second_player.username) == (variant, "BeginnerBot")
    guest = match.first_player

    match = play_the_guests_part(match, guest, django_capture_on_commit_callbacks, random.Random(1))

    assert match.status == Match.Status.FINISHED and match.winner_id in (
        guest.pk,
        bot("BeginnerBot").pk,
    )
    computer = bot("BeginnerBot")
    computer_plays = [e for e in events_of(match) if e.kind == "move" and e.actor_id == computer.pk]
    assert computer_plays, "the computer never played"
    assert state_of(match).rules.variant == variant


def test_the_home_page_offers_every_game_against_the_computer(client: Any) -> None:
    html = client.get("/").content.decode()
    for value, label in (("plakoto", "Plakoto"), ("long-nardi", "Long nardi"), ("tavli", "Tavli")):
        assert f'<option value="{value}">{label}</option>' in html


def test_an_unknown_game_is_refused_and_nothing_starts(client: Any) -> None:
    response = client.post(
        reverse("play-computer"), {"match_length": 1, "level": "beginner", "variant": "chess"}
    )
    assert response.status_code == 400
    assert "Choose a game from the list." in response.content.decode()
    assert not Match.objects.exists()


def test_the_computer_accepts_a_challenge_in_any_variant(
    alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        challenge = services.challenge_create(
            challenger=alice, opponent=bot("ExpertBot"), variant="long-nardi", match_length=3
        )
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.ACCEPTED
    match = Match.objects.get(pk=challenge.match_id)
    assert match.variant == "long-nardi"
    assert match.status == Match.Status.ACTIVE


@pytest.mark.slow
def test_a_finished_plakoto_match_has_each_rolls_luck(
    client: Any, django_capture_on_commit_callbacks: Any, analyses: None
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("play-computer"), {"match_length": 1, "level": "expert", "variant": "plakoto"}
        )
    match = Match.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))
    match = play_the_guests_part(
        match, match.first_player, django_capture_on_commit_callbacks, random.Random(2)
    )

    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == MatchAnalysis.Status.DONE and analysis.result["kind"] == "luck"
    rolls = [e.seq for e in events_of(match) if e.kind in ("roll", "opening_roll")]
    luck = analysis.result["luck"]
    assert luck and {roll["seq"] for roll in luck} <= set(rolls)
    totals = [player["luck"] for player in analysis.result["players"]]
    for index in (0, 1):
        own = sum(roll["luck"] for roll in luck if roll["player"] == index)
        assert totals[index] == pytest.approx(own, abs=1e-3)

    page = client.get(reverse("match-replay", args=[match.pk])).content.decode()
    assert 'aria-label="Luck by player"' in page
    first = luck[0]
    step = client.get(reverse("match-replay", args=[match.pk]), {"step": first["seq"]})
    shown = re.search(r'<p class="replay-review" data-luck="(-?[0-9.]+)"', step.content.decode())
    assert shown and float(shown[1]) == pytest.approx(first["luck"], abs=6e-4)


def test_a_signed_in_player_starts_a_fevga_match_against_the_computer(
    client: Any, alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("play-computer"), {"match_length": 3, "level": "advanced", "variant": "fevga"}
        )
    match = Match.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))
    assert (match.first_player, match.second_player.username) == (alice, "AdvancedBot")
    assert (match.variant, match.match_length, match.rated) == ("fevga", 3, False)
    assert reload(match).to_act == alice  # the computer played its part at once
