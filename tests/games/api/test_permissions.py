"""Who may do what, endpoint by endpoint.

Roles in a match (Alice opened, Bob is on roll): anonymous, a spectator (signed in, not
playing), the opponent (Alice, a player not to act), the player to act (Bob) and a moderator
(staff with games.moderate_match, not playing). Roles around a challenge: anonymous, the
challenger (Alice), the named opponent (Bob), another player (Carol) and a moderator.
Every refusal leaves the database as it was.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Challenge, Match, MatchEvent
from tests.games.api.conftest import assert_error, client_for, footprint, opened

pytestmark = pytest.mark.django_db

MATCH_ROLES = ["anonymous", "spectator", "opponent", "to_act", "moderator"]
CHALLENGE_ROLES = ["anonymous", "challenger", "opponent", "other", "moderator"]


@pytest.fixture
def match(dice, alice, bob) -> Match:
    return opened(dice, alice, bob)


@pytest.fixture
def match_role(alice, bob, carol, moderator):
    users = {
        "anonymous": None,
        "spectator": carol,
        "opponent": alice,
        "to_act": bob,
        "moderator": moderator,
    }
    return lambda role: client_for(users[role])


@pytest.fixture
def challenge_role(alice, bob, carol, moderator):
    users = {
        "anonymous": None,
        "challenger": alice,
        "opponent": bob,
        "other": carol,
        "moderator": moderator,
    }
    return lambda role: (client_for(users[role]), users[role])


# --- Reading matches: open to everyone ----------------------------------------------------------


@pytest.mark.parametrize("role", MATCH_ROLES)
def test_everyone_may_read_matches_and_only_the_player_to_act_sees_actions(match, match_role, role):
    client = match_role(role)

    listed = client.get("/api/matches/")
    detail = client.get(f"/api/matches/{match.pk}/")
    events = client.get(f"/api/matches/{match.pk}/events/")

    assert listed.status_code == 200
    assert [row["id"] for row in listed.json()["results"]] == [match.pk]
    assert detail.status_code == 200
    view = detail.json()
    assert view["id"] == match.pk
    assert view["to_act"] == "bob"
    assert view["you"] == {"opponent": 0, "to_act": 1}.get(role)
    if role == "to_act":
        assert view["legal_actions"] == ["roll", "double", "resign"]
    else:
        assert view["legal_actions"] == []
        assert view["legal_plays"] == []
    assert events.status_code == 200
    assert [event["seq"] for event in events.json()] == list(range(1, match.seq + 1))


@pytest.mark.parametrize("role", MATCH_ROLES)
def test_the_player_to_move_alone_sees_the_legal_plays(dice, match, match_role, role):
    dice.add(2, 1)
    roll = client_for(match.second_player).post(
        f"/api/matches/{match.pk}/actions/", {"seq": match.seq, "action": "roll"}, format="json"
    )
    assert roll.status_code == 200

    view = match_role(role).get(f"/api/matches/{match.pk}/").json()

    if role == "to_act":
        assert view["legal_actions"] == ["move", "resign"]
        assert "24/21" in view["legal_plays"]
    else:
        assert (view["legal_actions"], view["legal_plays"]) == ([], [])


# --- Acting in a match -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "status", "code"),
    [
        ("anonymous", 401, "not_authenticated"),
        ("spectator", 403, "forbidden"),
        ("moderator", 403, "forbidden"),
        ("opponent", 400, "illegal"),
        ("to_act", 200, None),
    ],
)
@pytest.mark.parametrize("action", ["roll", "double", "resign"])
def test_only_the_player_to_act_may_act(dice, match, match_role, role, status, code, action):
    body: dict[str, Any] = {"seq": match.seq, "action": action}
    if action == "resign":
        body["points"] = 1
    if action == "roll":
        dice.add(2, 1)  # see test_a_refused_roll_rolls_no_dice for who may draw them
    before = footprint()

    response = match_role(role).post(f"/api/matches/{match.pk}/actions/", body, format="json")

    if status == 200:
        assert response.status_code == 200, response.content
        assert response.json()["seq"] > match.seq
        assert Match.objects.get(pk=match.pk).seq > match.seq
        return
    assert_error(response, status, code)
    assert footprint() == before
    assert Match.objects.get(pk=match.pk).seq == match.seq
    assert MatchEvent.objects.filter(match=match).count() == match.seq


@pytest.mark.parametrize("role", ["anonymous", "spectator", "opponent", "moderator"])
def test_a_refused_roll_rolls_no_dice(dice, match, match_role, role):
    """The server rolls only for a roll it accepts: a refused roll must not draw dice."""
    dice.add(2, 1)
    before = footprint()

    response = match_role(role).post(
        f"/api/matches/{match.pk}/actions/", {"seq": match.seq, "action": "roll"}, format="json"
    )

    assert response.status_code in (400, 401, 403), response.content
    assert footprint() == before
    assert dice.rolled == [3, 1]  # the opening roll only
    assert dice.left == [2, 1]


@pytest.mark.parametrize(
    ("role", "status", "code"),
    [
        ("anonymous", 401, "not_authenticated"),
        ("spectator", 403, "forbidden"),
        ("moderator", 403, "forbidden"),
        ("opponent", 409, "stale"),
    ],
)
def test_who_may_not_act_is_refused_before_the_seq_is_checked(
    match, match_role, role, status, code
):
    """Only a player learns that the seq is stale; everyone else is refused for who they are."""
    before = footprint()

    response = match_role(role).post(
        f"/api/matches/{match.pk}/actions/", {"seq": 0, "action": "roll"}, format="json"
    )

    body = assert_error(response, status, code)
    assert ("current_seq" in body) == (code == "stale")
    assert footprint() == before


# --- Challenges ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("anonymous", 401),
        ("challenger", 200),
        ("opponent", 200),
        ("other", 200),
        ("moderator", 200),
    ],
)
def test_challenge_list_needs_a_signed_in_user(challenge_role, role, status):
    response = challenge_role(role)[0].get("/api/challenges/")

    if status == 401:
        assert_error(response, 401, "not_authenticated")
    else:
        assert response.status_code == 200
        assert response.json()["results"] == []


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("anonymous", 401),
        ("challenger", 201),
        ("opponent", 201),
        ("other", 201),
        ("moderator", 201),
    ],
)
def test_anyone_signed_in_may_post_an_open_challenge(challenge_role, role, status):
    client, user = challenge_role(role)
    before = footprint()

    response = client.post("/api/challenges/", {"opponent": None, "match_length": 3}, format="json")

    if status == 401:
        assert_error(response, 401, "not_authenticated")
        assert footprint() == before
        return
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["challenger"], body["opponent"], body["status"]) == (user.username, None, "open")
    assert Challenge.objects.get(pk=body["id"]).challenger == user


def _challenge(alice, bob, *, named: bool) -> Challenge:
    client = client_for(alice)
    response = client.post(
        "/api/challenges/",
        {"opponent": "bob" if named else None, "match_length": 3, "rated": False},
        format="json",
    )
    assert response.status_code == 201, response.content
    return Challenge.objects.get(pk=response.json()["id"])


# (named challenge?, verb, role) -> (status, code); 2xx means it happened.
CHALLENGE_MATRIX = {
    # Only the named opponent accepts; the challenger is told they cannot accept their own.
    (True, "accept", "anonymous"): (401, "not_authenticated"),
    (True, "accept", "challenger"): (400, "self_challenge"),
    (True, "accept", "opponent"): (201, None),
    (True, "accept", "other"): (403, "forbidden"),
    (True, "accept", "moderator"): (403, "forbidden"),
    # Only the named opponent declines.
    (True, "decline", "anonymous"): (401, "not_authenticated"),
    (True, "decline", "challenger"): (403, "forbidden"),
    (True, "decline", "opponent"): (200, None),
    (True, "decline", "other"): (403, "forbidden"),
    (True, "decline", "moderator"): (403, "forbidden"),
    # Only the challenger cancels.
    (True, "cancel", "anonymous"): (401, "not_authenticated"),
    (True, "cancel", "challenger"): (200, None),
    (True, "cancel", "opponent"): (403, "forbidden"),
    (True, "cancel", "other"): (403, "forbidden"),
    (True, "cancel", "moderator"): (403, "forbidden"),
    # An open challenge: anyone but the challenger accepts; nobody declines it; the
    # challenger alone cancels it.
    (False, "accept", "anonymous"): (401, "not_authenticated"),
    (False, "accept", "challenger"): (400, "self_challenge"),
    (False, "accept", "opponent"): (201, None),
    (False, "accept", "other"): (201, None),
    (False, "accept", "moderator"): (201, None),
    (False, "decline", "anonymous"): (401, "not_authenticated"),
    (False, "decline", "challenger"): (403, "forbidden"),
    (False, "decline", "opponent"): (403, "forbidden"),
    (False, "decline", "other"): (403, "forbidden"),
    (False, "decline", "moderator"): (403, "forbidden"),
    (False, "cancel", "anonymous"): (401, "not_authenticated"),
    (False, "cancel", "challenger"): (200, None),
    (False, "cancel", "opponent"): (403, "forbidden"),
    (False, "cancel", "other"): (403, "forbidden"),
    (False, "cancel", "moderator"): (403, "forbidden"),
}
AFTER = {"accept": "accepted", "decline": "declined", "cancel": "cancelled"}


@pytest.mark.parametrize(
    ("named", "verb", "role"),
    list(CHALLENGE_MATRIX),
    ids=[f"{'named' if n else 'open'}-{v}-{r}" for n, v, r in CHALLENGE_MATRIX],
)
def test_who_may_accept_decline_or_cancel_a_challenge(
    dice, alice, bob, challenge_role, named, verb, role
):
    challenge = _challenge(alice, bob, named=named)
    client, user = challenge_role(role)
    status, code = CHALLENGE_MATRIX[(named, verb, role)]
    if verb == "accept" and status == 201:
        dice.add(3, 1)
    before = footprint()

    response = client.post(f"/api/challenges/{challenge.pk}/{verb}/", format="json")

    challenge.refresh_from_db()
    if code is not None:
        assert_error(response, status, code)
        assert footprint() == before
        assert challenge.status == "open"
        return
    assert response.status_code == status, response.content
    assert challenge.status == AFTER[verb]
    if verb == "accept":
        match = Match.objects.get()
        assert response.json()["id"] == match.pk == challenge.match_id
        assert match.players == (alice, user)
        assert response.json()["you"] == 1
    else:
        assert response.json()["status"] == AFTER[verb]
        assert not Match.objects.exists()


@pytest.mark.parametrize("verb", ["accept", "decline", "cancel"])
def test_a_closed_challenge_cannot_be_answered_again(dice, alice, bob, verb):
    challenge = _challenge(alice, bob, named=True)
    cancelled = client_for(alice).post(f"/api/challenges/{challenge.pk}/cancel/")
    assert cancelled.status_code == 200
    actor = alice if verb == "cancel" else bob
    before = footprint()

    response = client_for(actor).post(f"/api/challenges/{challenge.pk}/{verb}/")

    assert_error(response, 400, "challenge_closed")
    assert footprint() == before


# --- Tokens --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "status"),
    [("anonymous", 401), ("challenger", 204), ("other", 204), ("moderator", 204)],
)
def test_token_revoke_needs_a_signed_in_user(challenge_role, role, status):
    response = challenge_role(role)[0].post("/api/auth/token/revoke/")

    if status == 401:
        assert_error(response, 401, "not_authenticated")
    else:
        assert response.status_code == 204
