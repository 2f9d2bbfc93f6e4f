"""The moderators' queue of fair-play cases: open cases first, the evidence read-only with
links to the matches and their replays; moderators set the status and a note (an audit
record); staff outside the Moderators group and players see nothing of it."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games.models import AuditRecord, FairPlayCase, FairPlayMatch, Match
from tests.games.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def cases(matches: dict[str, Match], alice: Any, bob: Any) -> dict[str, FairPlayCase]:
    finished = matches["finished"]
    open_case = FairPlayCase.objects.create(player=alice, statistic=7.25, threshold=6.0)
    # The newer case, listed after the open one all the same.
    dismissed = FairPlayCase.objects.create(
        player=bob, statistic=6.5, threshold=6.0, status="dismissed"
    )
    FairPlayMatch.objects.create(
        player=alice,
        match=finished,
        case=open_case,
        rating=1500,
        decisions=30,
        errors=0,
        expected_rate=0.16,
        z=2.4,
        statistic=7.25,
        decisions_made=[
            {
                "seq": 3,
                "kind": "checker",
                "position_id": "4HPwATDgc/ABMA",
                "chosen": "8/5 6/5",
                "best": "8/5 6/5",
                "equity_lost": 0.0,
            }
        ],
    )
    return {"open": open_case, "dismissed": dismissed}


def test_a_moderator_sees_the_queue_open_cases_first_with_the_evidence(
    signed_in: Any, moderator: Any, cases: dict[str, FairPlayCase], matches: dict[str, Match]
) -> None:
    browser = signed_in(moderator)
    listing = browser.get(reverse("admin:games_fairplaycase_changelist")).content.decode()
    assert listing.index(">alice<") < listing.index(">bob<")
    page = browser.get(
        reverse("admin:games_fairplaycase_change", args=[cases["open"].pk])
    ).content.decode()
    finished = matches["finished"].pk
    assert reverse("admin:games_match_change", args=[finished]) in page
    assert f"{reverse('match-replay', args=[finished])}?step=3" in page
    assert "4HPwATDgc/ABMA" in page and "error rate 0.000, expected 0.160" in page
    assert 'name="status"' in page and 'name="note"' in page
    assert browser.get(reverse("admin:games_fairplaycase_add")).status_code == 403


def test_a_moderator_dismisses_a_case_with_a_note(
    signed_in: Any, moderator: Any, cases: dict[str, FairPlayCase], alice: Any
) -> None:
    case = cases["open"]
    response = signed_in(moderator).post(
        reverse("admin:games_fairplaycase_change", args=[case.pk]),
        {"status": "dismissed", "note": "Her book is good."},
    )
    assert response.status_code == 302
    case.refresh_from_db()
    assert (case.status, case.note, case.decided_by) == (
        "dismissed",
        "Her book is good.",
        moderator,
    )
    record = AuditRecord.objects.get(kind="fair_play_case_decided")
    assert record.modified_user == alice and record.acting_user == moderator


def test_staff_outside_the_moderators_and_players_cannot_see_the_queue(
    signed_in: Any, cases: dict[str, FairPlayCase], alice: Any
) -> None:
    staff = make_user("clerk", is_staff=True)
    changelist = reverse("admin:games_fairplaycase_changelist")
    assert signed_in(staff).get(changelist).status_code == 403
    change = reverse("admin:games_fairplaycase_change", args=[cases["open"].pk])
    assert signed_in(staff).get(change).status_code == 403
    assert signed_in(alice).get(changelist).status_code == 302
