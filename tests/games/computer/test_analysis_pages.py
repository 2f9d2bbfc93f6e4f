"""The analysis over the API and on the replay page: asked for, stored, marks shown."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games import tasks
from games.models import Match, MatchAnalysis
from tests.games.factories import act, start_match

pytestmark = pytest.mark.django_db


def opening(dice: Any, alice: Any, bob: Any) -> Match:
    """Alice opens 3-1 with a blunder; Bob answers 4-2 with the best play."""
    dice.add(3, 1)
    match = start_match(alice, bob, length=1)
    dice.add(4, 2)  # no cube in a 1-point match: the server rolls for each player at once
    match = act(match, alice, "move", play="24/21 24/23")
    dice.add(6, 5)
    return act(match, bob, "move", play="8/4 6/4")


@pytest.fixture
def match(dice: Any, alice: Any, bob: Any) -> Match:
    """The opening, then Alice, having rolled, resigns the 1-point match."""
    match = act(opening(dice, alice, bob), alice, "resign", points=1)
    return act(match, bob, "accept_resign")


def analysis_url(match: Match) -> str:
    return reverse("api-match-analysis", args=[match.pk])


def test_an_unanalysed_match_says_so(match: Match) -> None:
    response = APIClient().get(analysis_url(match))
    assert response.status_code == 404
    assert "POST" in response.json()["message"]


def test_asking_over_the_api_analyses_the_match(
    match: Match, alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client = APIClient()
    assert client.post(analysis_url(match)).status_code in (401, 403)
    client.force_authenticate(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(analysis_url(match))
    assert response.status_code == 202
    assert response.json()["status"] == "pending"
    body = APIClient().get(analysis_url(match)).json()
    assert body["status"] == "done" and body["seq"] == match.seq and body["plies"] == 1
    blunder, best = body["decisions"]
    assert blunder["player"] == "alice" and blunder["mark"] == "blunder"
    assert blunder["best"] == "8/5 6/5" and blunder["chosen"] == "24/23 24/21"
    assert best["player"] == "bob" and best["mark"] == "" and best["equity_lost"] == 0
    assert [p["player"] for p in body["players"]] == ["alice", "bob"]
    assert body["players"][0]["blunders"] == 1 and body["players"][1]["performance_rating"] == 0


def test_the_replay_marks_blunders_and_offers_the_analysis(
    match: Match, alice: Any, signed_in: Any, django_capture_on_commit_callbacks: Any
) -> None:
    browser = signed_in(alice)
    replay_url = reverse("match-replay", args=[match.pk])
    page = browser.get(replay_url).content.decode()
    assert 'data-analysis="none"' in page and 'data-action="analyse"' in page
    with django_capture_on_commit_callbacks(execute=True):
        response = browser.post(reverse("match-replay-analyse", args=[match.pk]))
    assert response.status_code == 302
    assert MatchAnalysis.objects.get(match=match).status == "done"
    blunder_seq = match.events.get(kind="move", payload__play="24/23 24/21").seq
    page = html.unescape(browser.get(replay_url, {"step": blunder_seq}).content.decode())
    assert 'data-analysis="done"' in page
    assert 'data-review="blunder"' in page and "bgsage's best: 8/5 6/5." in page
    assert page.count('data-mark="blunder"') == 1
    assert "best 8/5 6/5" in page
    # The move list marks the entry too, the one the board shows.
    assert page.count('data-move-mark="blunder"') == 1
    assert re.search(
        rf'data-step="{blunder_seq}" aria-current="step">[^<]*</a> '
        r'<span class="mark-blunder" data-move-mark="blunder">',
        page,
    )


def test_a_bots_profile_says_it_is_a_computer_opponent(client: Any) -> None:
    page = client.get(reverse("profile", args=["ExpertBot"])).content.decode()
    assert 'data-bot-level="expert"' in page and "computer opponent" in page


def test_a_match_being_played_is_neither_analysed_nor_shown(
    dice: Any, alice: Any, bob: Any, carol: Any, signed_in: Any
) -> None:
    match = opening(dice, alice, bob)
    for player in (alice, carol):
        client = APIClient()
        client.force_authenticate(player)
        response = client.post(analysis_url(match))
        assert response.status_code == 409
        assert response.json()["code"] == "match_not_finished"
        assert client.get(analysis_url(match)).status_code == 409
    MatchAnalysis.objects.create(match=match, status="done", result={"decisions": []})
    assert APIClient().get(analysis_url(match)).status_code == 409
    page = signed_in(carol).get(reverse("match-replay", args=[match.pk])).content.decode()
    assert 'data-analysis="none"' in page and 'data-action="analyse"' not in page
    assert "The analysis opens when the match has ended." in page
    response = signed_in(carol).post(reverse("match-replay-analyse", args=[match.pk]))
    assert response.status_code == 302
    assert MatchAnalysis.objects.get(match=match).result == {"decisions": []}


def test_the_analysis_task_refuses_a_match_being_played(dice: Any, alice: Any, bob: Any) -> None:
    match = opening(dice, alice, bob)
    assert tasks.analyse_match(match.pk).startswith("refused: A match is analysed once it has")
    assert not MatchAnalysis.objects.filter(match=match).exists()
    assert tasks.analyse_match(match.pk + 1000) == "no such match"


def test_a_match_analysed_or_queued_is_not_queued_again(
    match: Match,
    carol: Any,
    django_capture_on_commit_callbacks: Any,
    monkeypatch: Any,
    settings: Any,
) -> None:
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "analysis_request": "99/h/user"}
    queued: list[int] = []
    monkeypatch.setattr(
        "games.tasks.analyse_match.apply_async", lambda args, **_: queued.append(args[0])
    )
    client = APIClient()
    client.force_authenticate(carol)
    for _ in range(30):
        with django_capture_on_commit_callbacks(execute=True):
            assert client.post(analysis_url(match)).status_code == 202
    assert queued == [match.pk]
    MatchAnalysis.objects.filter(match=match).update(status="done", seq=match.seq, plies=1)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(analysis_url(match))
    assert queued == [match.pk]


def test_asking_for_analyses_is_limited_per_player(
    match: Match, alice: Any, carol: Any, settings: Any, signed_in: Any
) -> None:
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "analysis_request": "2/h/user"}
    client = APIClient()
    client.force_authenticate(carol)
    assert [client.post(analysis_url(match)).status_code for _ in range(2)] == [202, 202]
    refused = client.post(analysis_url(match))
    assert refused.status_code == 429 and refused["Retry-After"] == "3600"
    assert refused.json()["code"] == "too_many_attempts"
    assert "Try again in 1 hour" in refused.json()["message"]
    browser = signed_in(carol)
    response = browser.post(reverse("match-replay-analyse", args=[match.pk]), follow=True)
    assert "as many analyses as one player may" in response.content.decode()
    alice_client = APIClient()
    alice_client.force_authenticate(alice)
    assert alice_client.post(analysis_url(match)).status_code == 202


def test_a_backgammon_analysis_has_each_rolls_luck_beside_the_decisions(
    match: Match, alice: Any, signed_in: Any, django_capture_on_commit_callbacks: Any
) -> None:
    browser = signed_in(alice)
    with django_capture_on_commit_callbacks(execute=True):
        browser.post(reverse("match-replay-analyse", args=[match.pk]))
    body = APIClient().get(analysis_url(match)).json()
    assert body["kind"] == "decisions"
    rolls = {e.seq: e for e in match.events.filter(kind__in=("roll", "opening_roll"))}
    luck = body["luck"]
    assert [roll["seq"] for roll in luck] == sorted(rolls)
    # 3-1 makes the five point, the best opening there is; 4-2 answers with the four point.
    opening_luck, answer_luck = luck[0], luck[1]
    assert (opening_luck["player"], opening_luck["dice"]) == ("alice", "3-1")
    assert opening_luck["luck"] > 0 and answer_luck["player"] == "bob" and answer_luck["luck"] > 0
    for player in body["players"]:
        own = [roll["luck"] for roll in luck if roll["player"] == player["player"]]
        assert player["rolls"] == len(own)
        assert player["luck"] == pytest.approx(sum(own), abs=1e-3)

    page = html.unescape(browser.get(reverse("match-replay", args=[match.pk])).content.decode())
    assert "<th>Luck</th>" in page
    assert f'data-luck="{body["players"][0]["luck"]:.3f}"' in page
    step = browser.get(reverse("match-replay", args=[match.pk]), {"step": answer_luck["seq"]})
    assert f'data-luck="{answer_luck["luck"]:.3f}"' in step.content.decode()
