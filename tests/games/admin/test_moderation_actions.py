"""The admin actions "Abort match" and "Award match to...": through games.services, with the
moderator as the actor in the log, and the logs still sound afterwards."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.messages import get_messages
from django.core.management import call_command
from django.urls import reverse

from games.models import Match
from ratings.models import RatingChange
from tests.games.admin.conftest import action
from tests.games.factories import events_of, make_user, reload

pytestmark = pytest.mark.django_db


def verified() -> str:
    out = StringIO()
    call_command("verify_matches", stdout=out, stderr=StringIO())
    return out.getvalue()


def moderation_events(match: Match) -> list:
    return [e for e in events_of(match) if e.kind in ("match_aborted", "match_awarded")]


def messages_of(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def test_abort_asks_for_a_reason_first(signed_in, moderator, matches):
    browser = signed_in(moderator)
    response = action(browser, "abort_matches", [matches["rated"], matches["live"]])
    assert response.status_code == 200
    text = response.content.decode()
    assert 'name="reason"' in text and 'value="abort_matches"' in text
    assert text.count('name="_selected_action"') == 2
    assert reload(matches["rated"]).status == Match.Status.ACTIVE


def test_abort_ends_the_matches_with_the_moderator_as_actor(signed_in, moderator, matches):
    browser = signed_in(moderator)
    chosen = [matches["rated"], matches["live"]]
    seqs = {match.pk: match.seq for match in chosen}
    response = action(browser, "abort_matches", chosen, reason="both players asked")
    assert response.status_code == 200
    for match in chosen:
        match = reload(match)
        assert (match.status, match.winner) == (Match.Status.FINISHED, None)
        [event] = moderation_events(match)
        assert event.kind == "match_aborted"
        assert event.actor == moderator
        assert event.seq == seqs[match.pk] + 1
        assert event.payload["reason"] == "both players asked"
    assert not RatingChange.objects.exists()  # an abort rates nothing
    assert verified().startswith("3 matches checked, 0 with problems")
    # The match page and its replay say who did it.
    page = browser.get(reverse("match", args=[matches["rated"].pk])).content.decode()
    assert "by moderator <span data-ended-by>mod</span>" in page
    replay = browser.get(reverse("match-replay", args=[matches["rated"].pk])).content.decode()
    assert (
        '<strong>mod</strong> <span lang="en" translate="no">'
        "ended the match without a winner: both players asked</span>"
    ) in replay


def test_award_asks_which_player_and_why(signed_in, moderator, matches):
    response = action(signed_in(moderator), "award_match", [matches["rated"]])
    text = response.content.decode()
    assert response.status_code == 200
    assert 'name="winner"' in text and "alice</label>" in text and "bob</label>" in text
    assert 'name="reason"' in text


def test_award_ends_the_match_for_the_chosen_player(signed_in, moderator, matches, bob):
    browser = signed_in(moderator)
    match = matches["rated"]
    response = action(browser, "award_match", [match], winner="1", reason="alice stopped playing")
    assert "awarded to bob" in " ".join(messages_of(response))
    match = reload(match)
    assert (match.status, match.winner) == (Match.Status.FINISHED, bob)
    [event] = moderation_events(match)
    assert (event.kind, event.actor, event.payload["winner"]) == ("match_awarded", moderator, 1)
    # A rated match: both ratings move, in the same transaction.
    assert RatingChange.objects.filter(match=match).count() == 2
    assert verified().startswith("3 matches checked, 0 with problems")
    page = browser.get(reverse("match", args=[match.pk])).content.decode()
    assert "bob won the match</strong>, awarded by moderator <span data-ended-by>mod</span>" in page
    replay = browser.get(reverse("match-replay", args=[match.pk])).content.decode()
    assert (
        '<strong>mod</strong> <span lang="en" translate="no">'
        "awarded the match to bob: alice stopped playing</span>"
    ) in replay


def test_award_takes_one_match_at_a_time(signed_in, moderator, matches):
    response = action(
        signed_in(moderator), "award_match", [matches["rated"], matches["live"]], winner="0",
        reason="x",
    )  # fmt: skip
    assert "Choose one match to award." in messages_of(response)
    assert not any(moderation_events(m) for m in matches.values())


def test_a_finished_match_cannot_be_moderated(signed_in, moderator, matches):
    finished = matches["finished"]
    seq = finished.seq
    response = action(signed_in(moderator), "abort_matches", [finished], reason="too late")
    assert messages_of(response) == [f"{finished}: Cannot abort the match: the match is over."]
    assert reload(finished).seq == seq


def test_a_reason_is_required(signed_in, moderator, matches):
    response = action(signed_in(moderator), "abort_matches", [matches["rated"]], reason="  ")
    assert 'name="reason"' in response.content.decode()  # the form again
    assert reload(matches["rated"]).status == Match.Status.ACTIVE


def test_staff_without_the_permission_have_no_such_actions(signed_in, matches):
    clerk = make_user("clerk", is_staff=True)
    browser = signed_in(clerk)
    assert action(browser, "abort_matches", [matches["rated"]], reason="x").status_code == 403
    assert reload(matches["rated"]).status == Match.Status.ACTIVE
