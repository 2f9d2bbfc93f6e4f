"""Dice anyone can verify: commitment, derivation, reveal, verification, statistics."""

import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from backgammon_site.core.errors import ApplicationError
from games import services, tasks
from games.dice import rolls, statistics
from games.dice.seed_vault import decrypt_seed
from games.dice.verification import check_dice
from games.management.commands.simulate_matches import play_out
from games.models import Challenge, DicePairCount, Match
from tests.games.factories import make_moderator, make_user

pytestmark = pytest.mark.django_db
REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def players():
    return make_user("alice"), make_user("bob")


def log_of(match):
    return list(match.events.order_by("seq").values_list("seq", "kind", "payload"))


def finished_match(players, **seeds):
    challenge = services.challenge_create(
        challenger=players[0], opponent=players[1], match_length=1, seed=seeds.get("mine")
    )
    match = services.challenge_accept(
        challenge_id=challenge.pk, user=players[1], seed=seeds.get("theirs")
    )
    return play_out(match, random.Random(5))


def test_the_first_event_commits_to_the_server_seed_before_any_roll(players):
    challenge = services.challenge_create(challenger=players[0], opponent=players[1], seed=" mine ")
    match = services.challenge_accept(challenge_id=challenge.pk, user=players[1])
    started, first_roll = log_of(match)[:2]
    assert started[1] == "match_started" and first_roll[1] == "opening_roll"
    committed = started[2]["dice"]
    server_seed = decrypt_seed(match.server_seed_ciphertext)
    assert committed["server_seed_commitment"] == hashlib.sha256(server_seed).hexdigest()
    assert committed["player_seeds"][0] == "mine"
    assert len(committed["player_seeds"][1]) == 32  # drawn for the player who gave none
    assert bytes(match.server_seed_ciphertext) != server_seed and len(server_seed) == 32


def test_every_roll_follows_from_the_seeds_and_the_finished_match_verifies(players):
    match = finished_match(players, mine="a", theirs="b")
    assert match.status == Match.Status.FINISHED
    log = log_of(match)
    assert log[-1][1] == "dice_revealed"
    check = check_dice(log)
    assert check.verifiable and check.commitment_matches and check.all_match
    assert len(check.rolls) == match.rolls_made > 5


def test_the_verifier_detects_a_changed_die_seed_or_commitment(players):
    log = log_of(finished_match(players))
    changed_die = [list(event) for event in log]
    roll_at = next(i for i, event in enumerate(changed_die) if event[1] == "roll")
    payload = dict(changed_die[roll_at][2])
    payload["dice"] = [7 - payload["dice"][0], payload["dice"][1]]
    changed_die[roll_at][2] = payload
    check = check_dice(changed_die)
    assert check.all_match is False and [r.seq for r in check.mismatches] == [log[roll_at][0]]

    changed_seed = [list(event) for event in log]
    started = json.loads(json.dumps(changed_seed[0][2]))
    started["dice"]["player_seeds"][1] = "someone else's seed"
    changed_seed[0][2] = started
    assert check_dice(changed_seed).all_match is False
    assert check_dice(changed_seed).commitment_matches is True

    changed_commitment = [list(event) for event in log]
    started = json.loads(json.dumps(changed_commitment[0][2]))
    started["dice"]["server_seed_commitment"] = "0" * 64
    changed_commitment[0][2] = started
    check = check_dice(changed_commitment)
    assert check.commitment_matches is False and check.all_match is False

    changed_server_seed = [list(event) for event in log]
    changed_server_seed[-1][2] = {"server_seed": "00" * 32}
    assert check_dice(changed_server_seed).commitment_matches is False


def test_a_running_matchs_server_seed_is_shown_nowhere(client, players):
    challenge = services.challenge_create(challenger=players[0], opponent=players[1])
    match = services.challenge_accept(challenge_id=challenge.pk, user=players[1])
    secret = decrypt_seed(match.server_seed_ciphertext).hex()
    api = APIClient()
    api.force_authenticate(players[0])
    moderator = make_moderator("mod")
    get_user_model().objects.filter(pk=moderator.pk).update(is_staff=True, is_superuser=True)
    client.force_login(get_user_model().objects.get(pk=moderator.pk))
    pages = [
        client.get(f"/matches/{match.pk}/"),
        client.get(f"/matches/{match.pk}/replay/"),
        client.get(f"/matches/{match.pk}/dice/"),
        client.get(f"/admin/games/match/{match.pk}/change/"),
        client.get("/admin/games/matchevent/"),
        api.get(f"/api/matches/{match.pk}/"),
        api.get(f"/api/matches/{match.pk}/events/"),
        api.get(f"/api/matches/{match.pk}/dice/"),
    ]
    for response in pages:
        assert response.status_code == 200, response
        assert secret not in response.content.decode()
    dice_check = api.get(f"/api/matches/{match.pk}/dice/").json()
    assert dice_check["verifiable"] is False and dice_check["server_seed"] is None


def test_the_api_and_the_page_verify_a_finished_match(client, players):
    match = finished_match(players)
    data = APIClient().get(f"/api/matches/{match.pk}/dice/").json()
    assert data["verifiable"] and data["all_match"] and data["commitment_matches"]
    assert all(roll["matches"] for roll in data["rolls"])
    html = client.get(f"/matches/{match.pk}/dice/").content.decode()
    assert 'data-verified="yes"' in html


def test_seeds_come_from_the_api_and_bad_seeds_are_refused(players):
    api = APIClient()
    api.force_authenticate(players[0])
    created = api.post(
        "/api/challenges/", {"opponent": "bob", "seed": "lucky 7"}, format="json"
    ).json()
    api.force_authenticate(players[1])
    state = api.post(f"/api/challenges/{created['id']}/accept/", {"seed": "mine"}, format="json")
    assert state.status_code == 201
    assert state.json()["dice_seeds"]["player_seeds"] == ["lucky 7", "mine"]
    api.force_authenticate(players[0])
    refused = api.post("/api/challenges/", {"opponent": "bob", "seed": "x" * 201}, format="json")
    assert refused.status_code == 400
    with pytest.raises(ApplicationError, match="at most 200"):
        services.challenge_create(challenger=players[0], opponent=players[1], seed="x" * 201)


def test_the_lobby_forms_take_seeds(client, players):
    client.force_login(players[0])
    client.post(
        "/challenges/new/",
        {"opponent": "bob", "match_length": 3, "rated": "on", "clock": "1+8", "seed": "form seed"},
    )
    challenge = Challenge.objects.get()
    assert challenge.challenger_seed == "form seed"
    client.force_login(players[1])
    client.post(f"/challenges/{challenge.pk}/accept/", {"seed": "accepted seed"})
    match = Match.objects.get()
    assert match.player_seeds == ["form seed", "accepted seed"]


def test_statistics_count_every_roll_of_the_logs(client, players):
    match = finished_match(players)
    assert not DicePairCount.objects.exists()  # not in the match's transactions

    assert statistics.count_logged_rolls() == match.rolls_made
    report = statistics.report()
    assert (
        report.rolls
        == match.rolls_made
        == sum(DicePairCount.objects.filter(scope="site").values_list("count", flat=True))
    )
    assert sum(report.faces.values()) == 2 * report.rolls
    alice_rolls = statistics.report(statistics.scope_of(players[0].pk)).rolls
    bob_rolls = statistics.report(statistics.scope_of(players[1].pk)).rolls
    openings = sum(1 for _, kind, _ in log_of(match) if kind == "opening_roll")
    assert alice_rolls + bob_rolls + openings == report.rolls
    html = client.get("/dice/").content.decode()
    assert f"<strong>{report.rolls}</strong> rolls" in html and "p = " in html
    assert client.get("/dice/?player=alice").status_code == 200
    assert client.get("/dice/?player=nobody").status_code == 404


def test_a_roll_is_counted_once_by_the_count_after_it(players, dice):
    dice.add(3, 1)
    match = services.match_start(
        first_player=players[0],
        second_player=players[1],
        match_length=3,
        rated=False,
        time_control=services.DEFAULT_TIME_CONTROL,
    )
    assert statistics.count_logged_rolls() == 1
    assert statistics.count_logged_rolls() == 0
    match = services.match_act(
        match_id=match.pk, actor=players[0], expected_seq=match.seq, action="move", play="8/5 6/5"
    )
    dice.add(6, 6)
    services.match_act(match_id=match.pk, actor=players[1], expected_seq=match.seq, action="roll")

    assert statistics.count_logged_rolls(batch=1) == 1
    assert statistics.count_logged_rolls() == 0
    assert statistics.report().pairs[(3, 1)] == statistics.report().pairs[(6, 6)] == 1
    bob = statistics.report(statistics.scope_of(players[1].pk))
    assert bob.rolls == bob.pairs[(6, 6)] == 1
    assert statistics.report(statistics.scope_of(players[0].pk)).rolls == 0
    assert Match.objects.get(pk=match.pk).dice_counted_seq == match.seq + 1


def test_the_counts_wait_for_each_batch_of_matches(players, dice):
    for _ in range(3):
        dice.add(5, 2)
        services.match_start(
            first_player=players[0],
            second_player=players[1],
            match_length=1,
            rated=False,
            time_control=services.DEFAULT_TIME_CONTROL,
        )

    assert statistics.count_logged_rolls(batch=2) == 3
    assert statistics.report().pairs[(5, 2)] == 3


def test_the_example_script_verifies_a_match_over_http(live_server, players):
    match = finished_match(players)
    result = subprocess.run(
        [sys.executable, str(REPO / "examples" / "verify_dice.py"), live_server.url, str(match.pk)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "OK" in result.stdout


def test_the_derivation_is_stable():
    # A fixed vector, so that the scheme in docs/dice.md cannot drift unnoticed.
    assert rolls.roll(bytes(32), ("alice", "bob"), 0) == (3, 2)
    assert rolls.commitment(bytes(32)) == hashlib.sha256(bytes(32)).hexdigest()


def test_the_dice_page_names_a_few_mismatches_and_counts_the_rest(client, dice, players):
    """Dice the seeds do not give (scripted here, as a server that cheated would roll them)."""
    alice, bob = players
    dice.add(3, 1)
    match = services.challenge_accept(
        challenge_id=services.challenge_create(challenger=alice, opponent=bob, match_length=1).pk,
        user=bob,
    )
    dice.add_random(400, seed=3)
    match = play_out(match, random.Random(5))
    check = check_dice(log_of(match))
    assert len(check.mismatches) > 3
    page = client.get(f"/matches/{match.pk}/dice/").content.decode()
    assert 'data-verified="no"' in page
    assert page.count("the seeds give") == 3
    assert f"{len(check.mismatches)} of the {len(check.rolls)} rolls differ in all" in page
    assert page.count("<strong>mismatch</strong>") == len(check.mismatches)


def test_a_task_counts_the_rolls_every_minute(players, settings):
    entry = settings.CELERY_BEAT_SCHEDULE["count-dice"]
    assert entry["task"] == "games.tasks.count_dice" and entry["schedule"] <= 60
    assert settings.CELERY_TASK_ROUTES["games.tasks.count_dice"] == {"queue": "urgent"}
    match = finished_match(players)

    tasks.count_dice()

    assert statistics.report().rolls == match.rolls_made
