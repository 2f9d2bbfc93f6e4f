"""The tutor on the pages: switched on from the play-the-computer form, its verdict after the
player's play with the best play drawn, and the Hint button's best play on the board."""

import re

import pytest
from django.urls import reverse

from games.models import Match
from tests.games.factories import migration_made_rows, reload

pytestmark = pytest.mark.django_db

#: The opening 6-1 is the visitor's; then the computer's and the visitor's rolls.
DICE = (6, 1, *([5, 2, 4, 3] * 10))
RUN_BACK = "24/23 24/18"
BEST = "13/7 8/7"


@pytest.fixture(autouse=True)
def computer_opponents(db):
    migration_made_rows()


def play_computer(client, **fields):
    return client.post(
        reverse("play-computer"),
        {"match_length": 1, "level": "intermediate", "tutor": "on", **fields},
    )


def started(response):
    assert response.status_code == 302, response.content.decode()
    return Match.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))


def test_the_play_the_computer_form_offers_the_tutor(client):
    html = client.get("/").content.decode()
    assert 'name="tutor"' in html and "Tutor: tell me my errors" in html
    assert re.search(r"Offered in Backgammon[^.<]*, Hypergammon, Portes, Tavla\.", html)


def test_the_tutor_is_switched_on_when_starting(client, dice):
    dice.add(*DICE)
    match = started(play_computer(client))
    assert match.tutored and not match.rated
    assert not started(play_computer(client, tutor="")).tutored


def test_the_tutor_is_refused_in_a_game_it_does_not_read(client, dice):
    response = play_computer(client, variant="plakoto")
    assert response.status_code == 400
    assert "The tutor is not offered for this game." in response.content.decode()
    assert not Match.objects.exists()


def test_after_an_error_the_page_says_so_and_draws_the_best_play(
    client, dice, django_capture_on_commit_callbacks
):
    dice.add(*DICE)
    match = started(play_computer(client))
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("match-act", args=[match.pk]),
            {"seq": match.seq, "action": "move", "play": RUN_BACK},
        )
    assert response.status_code == 302
    html = client.get(reverse("match", args=[match.pk])).content.decode()
    verdict = re.search(r'data-tutor-verdict data-mark="(\w+)"[^>]*>([^<]+)<', html)
    assert verdict is not None, html
    assert verdict[1] == "error"
    assert re.fullmatch(
        rf"Your play {RUN_BACK} lost 0\.0\d\d \(an error\); best was {BEST}\.", verdict[2]
    )
    assert f'data-best-play="{BEST}"' in html
    # The computer moved meanwhile: its play is the main board's last play, not the verdict's.
    assert reload(match).seq > match.seq + 2


def test_the_hint_draws_the_best_play_for_the_player_to_move(client, dice):
    dice.add(*DICE)
    match = started(play_computer(client))
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert 'data-action="hint"' in page and "data-best-play" not in page
    response = client.get(reverse("match", args=[match.pk]) + "?hint=1")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'data-best-play="{BEST}"' in html and "Hint: the best play is" in html


def test_no_hint_without_the_tutor(client, dice):
    dice.add(*DICE)
    match = started(play_computer(client, tutor=""))
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert 'data-action="hint"' not in page
    response = client.get(reverse("match", args=[match.pk]) + "?hint=1")
    assert response.status_code == 403
    assert "Hints are for the player the tutor helps" in response.content.decode()


def test_the_api_state_gives_the_verdict_to_the_player(
    dice, alice, signed_in, django_capture_on_commit_callbacks
):
    dice.add(*DICE)
    client = signed_in(alice)
    match = started(play_computer(client))
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/api/matches/{match.pk}/actions/",
            {"seq": match.seq, "action": "move", "play": RUN_BACK},
            content_type="application/json",
        )
    assert response.status_code == 200, response.content.decode()
    tutor = response.json()["tutor"]
    assert tutor["played"] == RUN_BACK and tutor["best"] == BEST and tutor["mark"] == "error"
    assert client.get(f"/api/matches/{match.pk}/").json()["tutor"]["seq"] == match.seq + 1
