"""Fair-play signals: a steady player opens no case; a sudden run of near-zero error rates
opens one, with the evidence; only rated correspondence matches between people are weighed,
once each; moderators judge a case with an audit record."""

from __future__ import annotations

from typing import Any

import pytest

from backgammon_site.core.errors import Forbidden
from games import services
from games.computer import analysis
from games.models import AuditRecord, FairPlayCase, FairPlayMatch, Match, MatchAnalysis
from games.services.fair_play_statistic import (
    THRESHOLD,
    MatchErrors,
    expected_rate,
    match_score,
    rating_rate,
)
from tests.games.factories import act, start_match

pytestmark = pytest.mark.django_db

DECISIONS = 30


def finished_match(dice: Any, first: Any, second: Any, **options: Any) -> Match:
    """A 1-point match ``first`` resigned to ``second``."""
    options.setdefault("rated", True)
    dice.add(3, 1)
    match = start_match(first, second, length=1, **options)
    match = act(match, first, "resign", points=1)
    return act(match, second, "accept_resign")


def review(errors: tuple[int, int], decisions: int = DECISIONS) -> dict[str, Any]:
    """An analysis's result in which each player made ``decisions`` and ``errors[i]`` errors,
    the first player's first decision a blunder of the opening play."""
    figures = [
        {"decisions": decisions, "errors": made, "blunders": 0, "error_rate": made / decisions}
        for made in errors
    ]
    return {
        "plies": 2,
        "engines": {"bgsage": {"plies": 2}},
        "unavailable": {},
        "players": {"bgsage": figures},
        "decisions": [
            {
                "seq": 3,
                "player": 0,
                "kind": "checker",
                "chosen": "8/5 6/5",
                "disputed": False,
                "opinions": {
                    "bgsage": {
                        "best": "8/5 6/5",
                        "equity_lost": 0.0,
                        "mark": "",
                        "counts": True,
                    }
                },
            }
        ],
    }


def analysed(match: Match, errors: tuple[int, int]) -> list[FairPlayMatch]:
    MatchAnalysis.objects.update_or_create(
        match=match, defaults={"status": MatchAnalysis.Status.DONE, "result": review(errors)}
    )
    return services.fair_play_match_review(match_id=match.pk)


def play_matches(dice: Any, alice: Any, bob: Any, errors_of_alice: list[int]) -> None:
    """A match for each of ``errors_of_alice``, alice's errors in it; each player wins half."""
    for number, made in enumerate(errors_of_alice):
        if number % 2:
            analysed(finished_match(dice, bob, alice), (5, made))
        else:
            analysed(finished_match(dice, alice, bob), (made, 5))


def test_the_rating_predicts_fewer_errors_of_a_stronger_player() -> None:
    assert rating_rate(1300) > rating_rate(1500) > rating_rate(1800)
    assert expected_rate(1500, []) == pytest.approx(rating_rate(1500))
    assert expected_rate(1500, [MatchErrors(300, 3)]) < rating_rate(1500) / 2


def test_one_good_match_is_luck_and_a_run_of_them_crosses() -> None:
    history = [MatchErrors(DECISIONS, 5)] * 10
    one = match_score(MatchErrors(DECISIONS, 0), rating=1500, history=history, statistic_before=0)
    assert 0 < one.statistic < THRESHOLD and not one.crosses
    statistic, runs = 0.0, 0
    while statistic < THRESHOLD:
        score = match_score(
            MatchErrors(DECISIONS, 0), rating=1500, history=history, statistic_before=statistic
        )
        statistic, runs = score.statistic, runs + 1
    assert 2 <= runs <= 5


def test_a_steady_player_opens_no_case(dice: Any, alice: Any, bob: Any) -> None:
    play_matches(dice, alice, bob, [5, 4, 6, 5, 3, 7, 5, 4, 6, 5, 2, 5])
    assert FairPlayMatch.objects.filter(player=alice).count() == 12
    assert not FairPlayCase.objects.exists()


def test_a_sudden_run_of_near_zero_error_rates_opens_a_case_with_the_evidence(
    dice: Any, alice: Any, bob: Any
) -> None:
    play_matches(dice, alice, bob, [5, 4, 6, 5, 6, 5])
    play_matches(dice, alice, bob, [0, 1, 0, 0, 0])
    case = FairPlayCase.objects.get()
    assert case.player == alice and case.status == FairPlayCase.Status.OPEN
    assert case.statistic >= THRESHOLD == case.threshold
    evidence = list(case.matches.order_by("analysed_at", "pk"))
    assert len(evidence) >= 3
    # The run the statistic summed, from where it last stood at zero.
    assert all(row.statistic > 0 and row.expected_rate > 0.1 for row in evidence)
    assert all(row.errors <= 1 for row in evidence[-3:])
    assert any(
        row.decisions_made
        == [
            {
                "seq": 3,
                "kind": "checker",
                "position_id": "4HPwATDgc/ABMA",
                "chosen": "8/5 6/5",
                "best": "8/5 6/5",
                "equity_lost": 0.0,
            }
        ]
        for row in evidence
    )
    # One open case per player: later matches join it.
    play_matches(dice, alice, bob, [0, 0])
    assert FairPlayCase.objects.count() == 1
    assert case.matches.count() == len(evidence) + 2
    assert not FairPlayCase.objects.filter(player=bob).exists()


def test_only_rated_correspondence_matches_between_people_are_weighed_once(
    dice: Any, alice: Any, bob: Any
) -> None:
    unrated = finished_match(dice, alice, bob, rated=False)
    live = finished_match(
        dice, alice, bob, time_control={"kind": "live", "minutes": 5, "increment_seconds": 2}
    )
    assert analysed(unrated, (0, 0)) == [] and analysed(live, (0, 0)) == []
    rated = finished_match(dice, alice, bob)
    assert len(analysed(rated, (0, 0))) == 2
    assert analysed(rated, (0, 0)) == []


def test_the_analysis_weighs_the_match_once_stored(
    dice: Any, alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = finished_match(dice, alice, bob)
    result = review((2, 3))
    result["decisions"][0]["index"] = result["decisions"][0].pop("seq") - 1
    monkeypatch.setattr(analysis, "_review", lambda log, plies: result)
    analysis.analysis_run(analysis.match_subject(match.pk))
    weighed = FairPlayMatch.objects.get(player=alice, match=match)
    assert (weighed.decisions, weighed.errors) == (DECISIONS, 2)


def test_a_moderator_dismisses_a_case_with_a_note_and_an_audit_record(
    dice: Any, alice: Any, bob: Any, moderator: Any
) -> None:
    case = FairPlayCase.objects.create(player=alice, statistic=7.0, threshold=THRESHOLD)
    with pytest.raises(Forbidden):
        services.fair_play_case_decide(case_id=case.pk, moderator=bob, status="dismissed", note="")
    services.fair_play_case_decide(
        case_id=case.pk, moderator=moderator, status="dismissed", note="Plays well in a book."
    )
    case.refresh_from_db()
    assert case.status == "dismissed" and case.decided_by == moderator
    record = AuditRecord.objects.get(kind=AuditRecord.Kind.FAIR_PLAY_CASE_DECIDED)
    assert record.modified_user == alice and record.reason == "Plays well in a book."
    assert record.details == {"case": case.pk, "status_before": "open", "status": "dismissed"}
