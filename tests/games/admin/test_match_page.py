"""The admin's match page as a moderator reads it: the time control and clocks in words, the
digests shortened, and abort and award as buttons that ask for a confirmation first."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Match, MatchEvent
from tests.games.factories import events_of, make_user, reload, start_match

pytestmark = pytest.mark.django_db


def moderation_events(match: Match) -> list[MatchEvent]:
    return [e for e in events_of(match) if e.kind in ("match_aborted", "match_awarded")]


def page(browser, match: Match) -> str:
    response = browser.get(reverse("admin:games_match_change", args=[match.pk]))
    assert response.status_code == 200
    return response.content.decode()


def field(text: str, name: str) -> str:
    """The shown value of a read-only field of the match page, tags removed."""
    found = re.search(
        rf'(?:fieldBox|form-row) field-{name}">(?:(?!field-).)*?<div class="readonly">(.*?)</div>',
        text,
        re.S,
    )
    assert found, name
    return re.sub(r"<[^>]+>", "", found.group(1)).strip()


def test_the_time_control_and_clocks_read_as_words(signed_in, dice, moderator, alice, bob):
    dice.add(3, 1)
    match = start_match(
        alice, bob, time_control={"kind": "correspondence", "days_per_move": 3, "reserve_days": 10}
    )
    text = page(signed_in(moderator), match)
    assert field(text, "time_control_text") == "3 days a move + 10 days reserve"
    clocks = field(text, "clocks_text")
    # alice is on roll: 3 days + 10 days of reserve, less the moments the test took.
    assert re.fullmatch(
        r"alice: 12 days 23 hours left to decide \(reserve 10 days\); bob: reserve 10 days",
        clocks,
    ), clocks
    assert "691200" not in text and "864000" not in text
    assert '"kind"' not in text  # no raw JSON


def test_a_live_match_reads_as_minutes(signed_in, moderator, matches):
    text = page(signed_in(moderator), matches["live"])
    assert field(text, "time_control_text") == "Live: 5 minutes + 2 seconds a move"
    assert re.fullmatch(r"bob: 5:00 left; alice: 4:5\d left to decide", field(text, "clocks_text"))


def test_digests_are_shortened_with_the_whole_in_the_title(signed_in, moderator, matches):
    match = matches["rated"]
    text = page(signed_in(moderator), match)
    for event in MatchEvent.objects.filter(match=match):
        assert f'<code title="{event.digest}">{event.digest[:12]}…</code>' in text
        assert f">{event.digest}<" not in text
    assert f'<code title="{match.head_digest}">{match.head_digest[:12]}…</code>' in text


def test_the_page_offers_abort_and_award_to_moderators_of_an_active_match(
    signed_in, superuser, moderator, matches
):
    abort = reverse("admin:games_match_abort", args=[matches["rated"].pk])
    award = reverse("admin:games_match_award", args=[matches["rated"].pk])
    text = page(signed_in(moderator), matches["rated"])
    assert f'href="{abort}"' in text and f'href="{award}"' in text
    finished = page(signed_in(moderator), matches["finished"])
    assert "data-moderation" not in finished


def test_the_abort_button_asks_for_a_reason_then_aborts(signed_in, moderator, matches):
    match = matches["rated"]
    browser = signed_in(moderator)
    url = reverse("admin:games_match_abort", args=[match.pk])
    confirmation = browser.get(url)
    assert confirmation.status_code == 200
    assert 'name="reason"' in confirmation.content.decode()
    assert reload(match).status == Match.Status.ACTIVE  # asking changed nothing

    refused = browser.post(url, {"reason": "   "})
    assert refused.status_code == 200
    assert "This field is required" in refused.content.decode()
    assert reload(match).seq == match.seq

    done = browser.post(url, {"reason": "both players asked"})
    assert done["Location"] == reverse("admin:games_match_change", args=[match.pk])
    match = reload(match)
    assert (match.status, match.winner) == (Match.Status.FINISHED, None)
    [event] = moderation_events(match)
    assert (event.kind, event.actor, event.payload["reason"]) == (
        "match_aborted",
        moderator,
        "both players asked",
    )


def test_the_award_button_asks_for_the_winner_then_awards(signed_in, moderator, matches, bob):
    match = matches["rated"]
    browser = signed_in(moderator)
    url = reverse("admin:games_match_award", args=[match.pk])
    text = browser.get(url).content.decode()
    assert 'name="winner"' in text and "alice" in text and "bob" in text
    assert browser.post(url, {"winner": "7", "reason": "x"}).status_code == 200
    assert reload(match).status == Match.Status.ACTIVE
    browser.post(url, {"winner": "1", "reason": "alice left"})
    match = reload(match)
    assert (match.status, match.winner) == (Match.Status.FINISHED, bob)
    [event] = moderation_events(match)
    assert (event.kind, event.actor) == ("match_awarded", moderator)


def test_a_finished_match_cannot_be_aborted_again(signed_in, moderator, matches):
    match = matches["finished"]
    browser = signed_in(moderator)
    url = reverse("admin:games_match_abort", args=[match.pk])
    response = browser.post(url, {"reason": "again"}, follow=True)
    assert reload(match).seq == match.seq
    assert "over" in response.content.decode().lower()


def test_only_moderators_may_use_the_buttons(signed_in, alice, matches):
    match = matches["rated"]
    clerk = make_user("clerk", is_staff=True)
    for browser in (signed_in(alice), signed_in(clerk)):
        for name in ("abort", "award"):
            url = reverse(f"admin:games_match_{name}", args=[match.pk])
            assert browser.get(url).status_code in (302, 403)
            assert browser.post(url, {"reason": "x", "winner": "0"}).status_code in (302, 403)
    assert reload(match).seq == match.seq


def test_an_unknown_match_is_not_found(signed_in, moderator, db):
    url = reverse("admin:games_match_abort", args=[999999])
    assert signed_in(moderator).get(url).status_code == 404
