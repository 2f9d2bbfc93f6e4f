"""POST /api/matches/<id>/rematch/ and the rating changes in a finished match's state."""

import pytest

from accounts import guests
from games.models import Challenge, Match, Notification
from ratings.models import RatingChange
from tests.games.api.conftest import assert_error, client_for, footprint
from tests.games.factories import act, start_match

pytestmark = pytest.mark.django_db


def finished(dice, first, second, *, rated=True):
    """``first`` opened with 3-1 and resigned a 1-point match to ``second``."""
    dice.add(3, 1)
    match = start_match(first, second, length=1, rated=rated)
    match = act(match, first, "resign", points=1)
    match = act(match, second, "accept_resign")
    assert match.status == Match.Status.FINISHED
    return match


def post_rematch(client, match, captured):
    with captured(execute=True):
        return client.post(f"/api/matches/{match.pk}/rematch/", format="json")


def test_a_finished_rated_matchs_state_has_both_rating_changes(dice, alice, bob):
    match = finished(dice, alice, bob)
    body = client_for(None).get(f"/api/matches/{match.pk}/").json()
    changes = {c.user.username: c for c in RatingChange.objects.filter(match=match)}
    assert [row["player"] for row in body["rating_changes"]] == ["alice", "bob"]
    for row in body["rating_changes"]:
        change = changes[row["player"]]
        assert row["rating_before"] == change.rating_before
        assert row["rating_after"] == change.rating_after
        assert row["difference"] == pytest.approx(change.difference)
        assert row["provisional"] is True
    assert body["rating_changes"][0]["difference"] < 0 < body["rating_changes"][1]["difference"]
    assert body["winner"] == "bob" and body["score"] == [0, 1]


def test_an_unrated_or_unfinished_match_has_no_rating_changes(dice, alice, bob, carol):
    unrated = finished(dice, alice, bob, rated=False)
    dice.add(3, 1)
    active = start_match(alice, carol, rated=True)
    for match in (unrated, active):
        assert client_for(alice).get(f"/api/matches/{match.pk}/").json()["rating_changes"] == []


def test_rematch_offers_a_challenge_with_the_seats_swapped_once(
    dice, alice, bob, django_capture_on_commit_callbacks
):
    match = finished(dice, alice, bob)
    client = client_for(alice)
    response = post_rematch(client, match, django_capture_on_commit_callbacks)
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["challenger"] == "alice" and body["opponent"] == "bob"
    assert body["status"] == "open" and body["rematch_of"] == match.pk
    assert body["challenger_plays_first"] is False
    assert (body["match_length"], body["rated"], body["time_control"]) == (
        1,
        True,
        match.time_control,
    )
    assert Notification.objects.filter(user=bob, kind="challenge").count() == 1

    again = post_rematch(client, match, django_capture_on_commit_callbacks)
    assert again.status_code == 200 and again.json()["id"] == body["id"]
    assert Challenge.objects.count() == 1
    assert Notification.objects.filter(user=bob, kind="challenge").count() == 1

    dice.add(3, 1)
    accepted = post_rematch(client_for(bob), match, django_capture_on_commit_callbacks)
    assert accepted.status_code == 200
    assert accepted.json()["id"] == body["id"] and accepted.json()["status"] == "accepted"
    new = Match.objects.get(pk=accepted.json()["match"])
    assert (new.first_player, new.second_player) == (bob, alice)
    after = post_rematch(client, match, django_capture_on_commit_callbacks)
    assert after.status_code == 200 and after.json()["match"] == new.pk
    assert Challenge.objects.count() == 1


def test_a_rematch_of_an_unfinished_match_is_a_conflict(
    dice, alice, bob, django_capture_on_commit_callbacks
):
    dice.add(3, 1)
    match = start_match(alice, bob)
    before = footprint()
    response = post_rematch(client_for(alice), match, django_capture_on_commit_callbacks)
    assert_error(response, 409, "match_not_finished")
    assert footprint() == before


@pytest.mark.parametrize("who", ["carol", "anonymous"])
def test_only_the_players_may_offer_a_rematch(
    dice, alice, bob, carol, who, django_capture_on_commit_callbacks
):
    match = finished(dice, alice, bob)
    before = footprint()
    client = client_for(carol if who == "carol" else None)
    response = post_rematch(client, match, django_capture_on_commit_callbacks)
    assert_error(response, 403 if who == "carol" else 401)
    assert footprint() == before


def test_a_guest_has_no_rematch(dice, alice, django_capture_on_commit_callbacks):
    guest = guests.new_guest("Visitor")
    match = finished(dice, guest, alice, rated=False)
    before = footprint()
    response = post_rematch(client_for(alice), match, django_capture_on_commit_callbacks)
    assert_error(response, 400, "rematch_guest")
    assert footprint() == before


def test_a_rematch_of_no_match_is_not_found(alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(alice).post("/api/matches/999/rematch/")
    assert_error(response, 404)
    assert not Challenge.objects.exists()


def test_the_rematch_endpoint_is_documented(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/matches/{match_id}/rematch/"]["post"]
    assert {"200", "201", "403", "409"} <= set(operation["responses"])
    state = schema["components"]["schemas"]["MatchState"]["properties"]
    assert "rating_changes" in state
