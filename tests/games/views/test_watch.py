"""The watch list: ongoing matches for anyone, newest activity first, 20 a page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.models import Match
from tests.games.factories import make_moderator, make_user, start_match

pytestmark = pytest.mark.django_db


def listed(response) -> list[int]:
    return [int(pk) for pk in re.findall(r'data-match="(\d+)"', response.content.decode())]


def matches(count: int) -> list[Match]:
    """``count`` matches, each between two new players, the later ones more recently active."""
    made = []
    for i in range(count):
        match = start_match(make_user(f"first{i}"), make_user(f"second{i}"))
        made.append(match)
    base = made[0].updated_at
    for i, match in enumerate(made):
        Match.objects.filter(pk=match.pk).update(updated_at=base + timedelta(minutes=i))
    return made


def test_anyone_sees_ongoing_matches_newest_first(client):
    first, second = matches(2)
    response = client.get(reverse("watch"))
    assert response.status_code == 200
    assert listed(response) == [second.pk, first.pk]
    text = response.content.decode()
    assert f'href="{reverse("match", args=[first.pk])}"' in text
    assert f'href="{reverse("match-replay", args=[first.pk])}"' in text
    assert "first0 v second0" in text


def test_signed_in_players_see_it_too(client):
    viewer = make_user("viewer")
    (match,) = matches(1)
    client.force_login(viewer)
    assert listed(client.get(reverse("watch"))) == [match.pk]


def test_finished_matches_are_listed_apart(client):
    ongoing, ended = matches(2)
    services.match_award(
        match_id=ended.pk,
        moderator=make_moderator("mod"),
        winner=ended.first_player,
        reason="the opponent left",
    )
    assert listed(client.get(reverse("watch"))) == [ongoing.pk]
    response = client.get(reverse("watch") + "?status=finished")
    assert listed(response) == [ended.pk]
    text = response.content.decode()
    assert "first1 won" in text and "Finished matches" in text


def test_twenty_a_page(client):
    made = matches(21)
    newest_first = [match.pk for match in reversed(made)]
    first_page = client.get(reverse("watch"))
    assert listed(first_page) == newest_first[:20]
    assert "Page 1 of 2" in first_page.content.decode()
    assert 'href="?page=2"' in first_page.content.decode()
    assert listed(client.get(reverse("watch") + "?page=2")) == newest_first[20:]
    # A page past the end shows the last one; nonsense shows the first.
    assert listed(client.get(reverse("watch") + "?page=9")) == newest_first[20:]
    assert listed(client.get(reverse("watch") + "?page=x")) == newest_first[:20]


def test_nothing_to_watch_says_so(client):
    assert "No match is being played right now." in client.get(reverse("watch")).content.decode()


def test_the_watch_list_costs_the_same_with_ten_matches_as_with_one(
    client, django_assert_max_num_queries
):
    matches(1)
    with CaptureQueriesContext(connection) as one:
        client.get(reverse("watch"))
    matches_more = [start_match(make_user(f"more{i}"), make_user(f"other{i}")) for i in range(9)]
    assert len(matches_more) == 9
    with django_assert_max_num_queries(len(one)):
        assert len(listed(client.get(reverse("watch")))) == 10
