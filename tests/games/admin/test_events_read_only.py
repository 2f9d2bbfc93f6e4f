"""No path in the admin adds, changes or deletes a match event: not for moderators, not for
superusers."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import RequestFactory
from django.urls import reverse

from games.models import MatchEvent
from tests.games.factories import events_of

pytestmark = pytest.mark.django_db


@pytest.fixture(params=["moderator", "superuser"])
def browser(request, signed_in, moderator, superuser):
    return signed_in(moderator if request.param == "moderator" else superuser)


def snapshot_of_log() -> list[tuple]:
    return list(
        MatchEvent.objects.order_by("pk").values_list("pk", "seq", "kind", "payload", "digest")
    )


def test_an_event_cannot_be_changed(browser, matches):
    before = snapshot_of_log()
    event = MatchEvent.objects.order_by("pk").first()
    url = reverse("admin:games_matchevent_change", args=[event.pk])
    page = browser.get(url)
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    posted = browser.post(url, {"seq": 99, "kind": "roll", "payload": "{}", "digest": "0" * 64})
    assert posted.status_code == 403
    assert snapshot_of_log() == before


def test_an_event_cannot_be_deleted(browser, matches):
    before = snapshot_of_log()
    event = MatchEvent.objects.order_by("pk").first()
    url = reverse("admin:games_matchevent_delete", args=[event.pk])
    assert browser.get(url).status_code == 403
    assert browser.post(url, {"post": "yes"}).status_code == 403
    changelist = reverse("admin:games_matchevent_changelist")
    bulk = browser.post(
        changelist,
        {"action": "delete_selected", "_selected_action": [event.pk], "post": "yes", "index": 0},
    )
    assert bulk.status_code in (200, 302)
    assert snapshot_of_log() == before


def test_an_event_cannot_be_added(browser, matches):
    url = reverse("admin:games_matchevent_add")
    assert browser.get(url).status_code == 403
    assert browser.post(url, {"match": matches["rated"].pk, "seq": 99}).status_code == 403


def test_the_match_form_cannot_change_or_remove_events_through_its_inline(browser, matches):
    match = matches["rated"]
    before = snapshot_of_log()
    events = events_of(match)
    data = {
        "events-TOTAL_FORMS": str(len(events) + 1),
        "events-INITIAL_FORMS": str(len(events)),
        "events-MIN_NUM_FORMS": "0",
        "events-MAX_NUM_FORMS": "1000",
        "_save": "Save",
    }
    for index, event in enumerate(events):
        data |= {
            f"events-{index}-id": str(event.pk),
            f"events-{index}-match": str(match.pk),
            f"events-{index}-kind": "drop",
            f"events-{index}-DELETE": "on",
        }
    data |= {f"events-{len(events)}-kind": "roll", f"events-{len(events)}-seq": "99"}
    url = reverse("admin:games_match_change", args=[match.pk])
    assert browser.post(url, data).status_code == 403
    assert (
        browser.post(
            reverse("admin:games_match_delete", args=[match.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    assert snapshot_of_log() == before


def test_the_event_admins_say_no_to_everyone(superuser):
    request = RequestFactory().get("/admin/")
    request.user = superuser
    event_admin = admin.site._registry[MatchEvent]
    assert not event_admin.has_add_permission(request)
    assert not event_admin.has_change_permission(request)
    assert not event_admin.has_delete_permission(request)
    assert "delete_selected" not in event_admin.get_actions(request)
    from games.admin import MatchAdmin, MatchEventInline
    from games.models import Match

    inline = MatchEventInline(Match, admin.site)
    assert not inline.has_add_permission(request, None)
    assert not inline.has_change_permission(request, None)
    assert not inline.has_delete_permission(request, None)
    assert "delete_selected" not in MatchAdmin(Match, admin.site).get_actions(request)
