"""Reports in the admin: a moderator reads the conversation, hides the reported message (it
stays recorded), and finds the accounts to suspend; no one edits or deletes a message."""

from __future__ import annotations

import pytest
from django.core import checks
from django.urls import reverse

from games import services
from games.models import ChatMessage, ChatReport
from tests.games.chat.conftest import say

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/games/chatreport/"


@pytest.fixture
def report(match, alice, bob):
    say(match, alice, "Good luck")
    rude = say(match, bob, "<script>rude</script>")
    return services.chat_report(message_id=rude.pk, reporter=alice, reason="insults")


def hide(browser, reports):
    return browser.post(
        CHANGELIST,
        {"action": "hide_reported_messages", "_selected_action": [str(r.pk) for r in reports]},
        follow=True,
    )


def test_a_moderator_reads_the_report_and_its_conversation(
    signed_in, moderator, report, alice, bob
):
    browser = signed_in(moderator)
    listing = browser.get(CHANGELIST)
    assert listing.status_code == 200 and "insults" not in listing.content.decode()
    assert "&lt;script&gt;rude&lt;/script&gt;" in listing.content.decode()
    html = browser.get(f"{CHANGELIST}{report.pk}/change/").content.decode()
    assert "Good luck" in html and "&lt;script&gt;rude&lt;/script&gt;" in html
    assert "<script>rude" not in html
    assert "insults" in html
    for user in (alice, bob):
        assert reverse("admin:auth_user_change", args=[user.pk]) in html
    assert reverse("admin:games_match_change", args=[report.message.match_id]) in html


def test_hiding_the_reported_message(signed_in, moderator, report, alice, bob):
    response = hide(signed_in(moderator), [report])
    assert response.status_code == 200
    message = ChatMessage.objects.get(pk=report.message_id)
    assert message.hidden_by == moderator and message.hidden_at is not None
    assert message.text == "<script>rude</script>"
    report.refresh_from_db()
    assert report.handled_by == moderator and report.handled_at is not None
    html = signed_in(moderator).get(f"{CHANGELIST}{report.pk}/change/").content.decode()
    assert "[hidden by mod]" in html
    page = signed_in(alice).get(f"/matches/{message.match_id}/").content.decode()
    assert "rude" not in page and "Good luck" in page


def test_the_handled_filter(signed_in, moderator, report):
    browser = signed_in(moderator)
    assert f"{report.pk}/change/" in browser.get(f"{CHANGELIST}?handled=no").content.decode()
    hide(browser, [report])
    assert f"{report.pk}/change/" not in browser.get(f"{CHANGELIST}?handled=no").content.decode()
    assert f"{report.pk}/change/" in browser.get(f"{CHANGELIST}?handled=yes").content.decode()


def test_no_one_edits_or_deletes_a_report_or_message(signed_in, moderator, report):
    browser = signed_in(moderator)
    html = browser.get(f"{CHANGELIST}{report.pk}/change/").content.decode()
    assert 'name="_save"' not in html
    assert browser.get(f"{CHANGELIST}{report.pk}/delete/").status_code == 403
    browser.post(CHANGELIST, {"action": "delete_selected", "_selected_action": [str(report.pk)]})
    assert ChatReport.objects.filter(pk=report.pk).exists()
    assert browser.get("/admin/games/chatmessage/").status_code == 404


def test_players_and_staff_without_the_permission_are_refused(signed_in, alice, report):
    assert signed_in(alice).get(CHANGELIST).status_code == 302
    staff = type(alice).objects.create_user("staffer", is_staff=True)
    assert signed_in(staff).get(CHANGELIST).status_code == 403
    assert not services.is_chat_moderator(staff)


def test_the_report_admin_passes_djangos_checks():
    assert checks.run_checks(tags=[checks.Tags.admin]) == []
