"""The match page's answer left ahead: offered to the player waiting while the opponent may
double, shown to them alone, applied when the double comes; bad input refused."""

from __future__ import annotations

import pytest

from tests.games.factories import act, kinds_of, reload, state_of
from tests.games.services.matches import opened

pytestmark = pytest.mark.django_db


@pytest.fixture
def bob_on_roll(dice, alice, bob):
    """Alice opened with 8/5 6/5; Bob is on roll and may double."""
    match = opened(dice, alice, bob)
    dice.add(6, 6, 6, 6)  # spare dice, should a refused roll be rolled before it is refused
    return match


def page_of(client, user, match):
    client.force_login(user)
    return client.get(f"/matches/{match.pk}/").content.decode()


def test_the_waiting_player_leaves_a_take_that_answers_the_double(client, bob_on_roll, alice, bob):
    match = bob_on_roll
    assert 'data-answer-ahead="none"' in page_of(client, alice, match)
    assert "data-answer-ahead" not in page_of(client, bob, match)

    client.force_login(alice)
    answer = client.post(f"/matches/{match.pk}/answer-ahead/", {"seq": match.seq, "answer": "take"})
    assert answer.status_code == 302
    assert 'data-answer-ahead="take"' in page_of(client, alice, match)
    assert "data-answer-ahead" not in page_of(client, bob, match)  # nobody else sees it

    act(reload(match), bob, "double")
    assert "take" in kinds_of(match) and state_of(reload(match)).cube_owner == 0


@pytest.mark.parametrize(
    ("data", "status"),
    [
        ({"seq": 0, "answer": "take"}, 409),
        ({"answer": "take"}, 400),
        ({"seq": "now", "answer": "raccoon"}, 400),
    ],
)
def test_bad_answers_are_refused_and_change_nothing(client, bob_on_roll, alice, data, status):
    client.force_login(alice)
    if data.get("seq") == "now":
        data["seq"] = bob_on_roll.seq
    answer = client.post(f"/matches/{bob_on_roll.pk}/answer-ahead/", data)
    assert answer.status_code == status
    assert reload(bob_on_roll).answer_ahead is None


def test_the_player_on_roll_cannot_answer_ahead(client, bob_on_roll, bob):
    client.force_login(bob)
    answer = client.post(
        f"/matches/{bob_on_roll.pk}/answer-ahead/", {"seq": bob_on_roll.seq, "answer": "drop"}
    )
    assert answer.status_code == 400
    assert "only while your opponent may double" in answer.content.decode()
    assert reload(bob_on_roll).answer_ahead is None
