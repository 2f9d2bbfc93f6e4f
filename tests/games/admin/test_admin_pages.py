"""The admin as a moderator sees it: every page they may read renders, the match admin's
filters, search and board; and who may not come in."""

from __future__ import annotations

import re

import pytest
from django.contrib import admin
from django.urls import reverse

from games import services
from games.models import Challenge, Match, MatchEvent
from ratings.models import PlayerRating, RatingChange
from tests.games.factories import make_user, start_match
from tests.ratings.conftest import won_by_resignation

pytestmark = pytest.mark.django_db

#: What the Moderators group may read in the admin.
MODERATED = ["games.match", "games.matchevent", "games.challenge", "ratings.ratingchange",
             "ratings.playerrating", "auth.user"]  # fmt: skip


@pytest.fixture
def everything(dice, matches, alice, bob):
    """One of each thing a moderator looks at."""
    services.challenge_create(challenger=alice, opponent=bob)
    won_by_resignation(dice, alice, bob)  # a rated match: ratings and rating changes
    return matches


def model_admin_urls(label: str) -> tuple[str, str]:
    app_label, model_name = label.split(".")
    model = next(
        m for m in admin.site._registry if m._meta.label_lower == f"{app_label}.{model_name}"
    )
    obj = model._default_manager.order_by("pk").first()
    assert obj is not None, label
    return (
        reverse(f"admin:{app_label}_{model_name}_changelist"),
        reverse(f"admin:{app_label}_{model_name}_change", args=[obj.pk]),
    )


@pytest.mark.parametrize("label", MODERATED)
def test_every_changelist_and_change_page_renders_for_a_moderator(
    signed_in, moderator, everything, label
):
    browser = signed_in(moderator)
    changelist, change = model_admin_urls(label)
    assert browser.get(changelist).status_code == 200
    assert browser.get(change).status_code == 200


def test_the_admin_index_lists_what_a_moderator_may_read(signed_in, moderator, everything):
    text = signed_in(moderator).get("/admin/").content.decode()
    for label in MODERATED:
        app_label, model_name = label.split(".")
        assert reverse(f"admin:{app_label}_{model_name}_changelist") in text
    assert reverse("admin:auth_group_changelist") not in text


@pytest.mark.parametrize("label", MODERATED)
def test_every_page_renders_for_a_superuser_too(signed_in, superuser, everything, label):
    browser = signed_in(superuser)
    changelist, change = model_admin_urls(label)
    assert browser.get(changelist).status_code == 200
    assert browser.get(change).status_code == 200


def test_players_are_refused(client, signed_in, alice, everything):
    for browser in (client, signed_in(alice)):
        for label in MODERATED:
            changelist, change = model_admin_urls(label)
            for url in ("/admin/", changelist, change):
                response = browser.get(url)
                assert response.status_code == 302, url
                assert response["Location"].startswith("/admin/login/")


def test_staff_outside_the_group_see_nothing(signed_in, everything):
    staff = make_user("clerk", is_staff=True)
    browser = signed_in(staff)
    assert browser.get("/admin/").status_code == 200
    for label in MODERATED:
        changelist, change = model_admin_urls(label)
        assert browser.get(changelist).status_code == 403
        assert browser.get(change).status_code == 403


def listed(text: str) -> set[int]:
    return {int(pk) for pk in re.findall(r'name="_selected_action" value="(\d+)"', text)}


def test_match_filters_by_status_rated_and_time_control(signed_in, moderator, matches):
    browser = signed_in(moderator)
    url = reverse("admin:games_match_changelist")
    ids = {name: match.pk for name, match in matches.items()}
    assert listed(browser.get(url).content.decode()) == set(ids.values())
    assert listed(browser.get(url, {"status__exact": "finished"}).content.decode()) == {
        ids["finished"]
    }
    assert listed(browser.get(url, {"rated__exact": "1"}).content.decode()) == {ids["rated"]}
    assert listed(browser.get(url, {"time_control": "live"}).content.decode()) == {ids["live"]}
    assert listed(browser.get(url, {"time_control": "correspondence"}).content.decode()) == {
        ids["rated"],
        ids["finished"],
    }


def test_match_search_by_player(signed_in, dice, moderator, matches):
    carol, dave = make_user("carol"), make_user("dave")
    browser = signed_in(moderator)
    url = reverse("admin:games_match_changelist")
    assert listed(browser.get(url, {"q": "carol"}).content.decode()) == set()
    dice.add(3, 1)
    other = start_match(dave, carol)
    assert listed(browser.get(url, {"q": "carol"}).content.decode()) == {other.pk}
    assert len(listed(browser.get(url, {"q": "alice"}).content.decode())) == 3


def test_the_match_page_shows_the_board_and_the_log_read_only(signed_in, moderator, matches):
    match = matches["rated"]
    text = signed_in(moderator).get(reverse("admin:games_match_change", args=[match.pk]))
    text = text.content.decode()
    assert '<svg class="board"' in text and 'data-point="24"' in text
    assert "games/board.css" in text
    log = text.split('id="events-group"')[1].split("</fieldset>")[0]
    kinds = re.findall(r'field-kind">\s*<p>(\w+)</p>', log)
    assert kinds == [event.kind for event in MatchEvent.objects.filter(match=match)]
    assert re.findall(r'field-actor">\s*<p>(?:<a [^>]*>)?(\w+)<', log).count("alice") == 1
    assert not re.search(r"<input(?![^>]*type=\"hidden\")|<textarea|<select", log)
    assert "ciphertext" not in text.lower()  # the secret seed stays out of the admin
    assert 'name="_save"' not in text


def test_rating_changes_and_challenges_are_read_only(signed_in, moderator, everything):
    browser = signed_in(moderator)
    for model in (RatingChange, PlayerRating, Challenge, Match):
        obj = model.objects.first()
        meta = model._meta
        change = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
        assert 'name="_save"' not in browser.get(change).content.decode()
        assert browser.post(change, {}).status_code == 403
        delete = reverse(f"admin:{meta.app_label}_{meta.model_name}_delete", args=[obj.pk])
        assert browser.post(delete, {"post": "yes"}).status_code == 403
        add = reverse(f"admin:{meta.app_label}_{meta.model_name}_add")
        assert browser.get(add).status_code == 403
