"""The match page rendered once per state (games/views/play_area_cache.py): a kept page is
always the page a fresh rendering gives, and a repeated GET of an unchanged page is a 304."""

import random
import re
from datetime import UTC, datetime
from unittest import mock

import pytest
from django.core.cache import cache
from django.test import Client

from games import services
from games.engine import state_from_snapshot
from games.management.commands.simulate_matches import random_action
from games.views import match as match_views
from tests.games.factories import make_user, reload, start_match

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 12, 4, 12, 0, 0, tzinfo=UTC)
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


@pytest.fixture(autouse=True)
def clocks_stopped():
    with mock.patch("games.views.play_area_cache.timezone.now", return_value=NOW):
        yield


@pytest.fixture
def players():
    return make_user("alice"), make_user("bob")


@pytest.fixture
def match(players):
    return start_match(*players)


def viewers(players):
    alice, bob = players
    signed_in = []
    for user in (alice, bob, make_user("carol")):
        client = Client()
        client.force_login(user)
        signed_in.append(client)
    return [*signed_in, Client()]  # the two players, a signed-in spectator, a visitor


def without_tokens(html):
    """The page less its CSRF tokens, masked afresh for every request."""
    return TOKEN.sub('name="csrfmiddlewaretoken" value=""', html)


def fresh(client, url, **headers):
    """The page rendered for this request alone, nothing kept or taken from the cache."""
    with mock.patch.object(match_views, "play_area_key", lambda *arguments: None):
        return client.get(url, **headers)


def same_as_fresh(client, url, **headers):
    first = client.get(url, **headers)  # rendered and kept, or taken from the cache
    again = client.get(url, **headers)
    made_now = fresh(client, url, **headers)
    assert first.status_code == again.status_code == made_now.status_code == 200
    expected = without_tokens(made_now.content.decode())
    assert without_tokens(first.content.decode()) == expected
    assert without_tokens(again.content.decode()) == expected
    return expected


def play_on(match, rng):
    state = state_from_snapshot(match.state)
    mover = state.player_to_act()
    action, extra = random_action(state, mover, rng)
    return services.match_act(
        match_id=match.pk,
        actor=match.players[mover],
        expected_seq=match.seq,
        action=action,
        **extra,
    )


@pytest.mark.slow
def test_a_kept_page_is_the_fresh_page_at_every_seq_for_every_viewer_and_language(match, players):
    rng = random.Random(4)
    clients = viewers(players)
    url = f"/matches/{match.pk}/"
    for _ in range(8):
        if match.status != match.Status.ACTIVE:
            break
        for client in clients:
            for language in ("en", "el", "ru"):
                html = same_as_fresh(client, url, HTTP_ACCEPT_LANGUAGE=language)
                assert f'data-match-seq="{match.seq}"' in html
            same_as_fresh(client, url, HTTP_HX_REQUEST="true")
            same_as_fresh(client, url + "?side=1")
        match = play_on(match, rng)


def test_the_steps_of_a_play_in_progress_are_kept_apart(match, players):
    alice, bob = players
    match = reload(match)
    state = state_from_snapshot(match.state)
    mover = match.players[state.player_to_act()]
    while "move" not in state.legal_actions(state.player_to_act()):
        match = play_on(match, random.Random(1))
        state = state_from_snapshot(match.state)
        mover = match.players[state.player_to_act()]
    client = Client()
    client.force_login(mover)
    url = f"/matches/{match.pk}/"
    whole = same_as_fresh(client, url)
    hrefs = [href.replace("&amp;", "&") for href in re.findall(r'hx-get="([^"]+)"', whole)]
    step = next(href for href in hrefs if "select=" in href)
    assert same_as_fresh(client, step) != whole


def test_no_stale_board_after_a_move(match, players):
    client = viewers(players)[2]
    url = f"/matches/{match.pk}/"
    before = client.get(url).content.decode()
    match = play_on(reload(match), random.Random(2))
    after = client.get(url).content.decode()
    assert f'data-match-seq="{match.seq}"' in after and after != before
    assert without_tokens(after) == without_tokens(fresh(client, url).content.decode())


def test_a_repeated_get_of_an_unchanged_page_is_a_304(match, players):
    client = viewers(players)[0]
    url = f"/matches/{match.pk}/"
    first = client.get(url)
    etag = first["ETag"]
    assert client.get(url)["ETag"] == etag
    assert "private" in first["Cache-Control"] and "no-cache" in first["Cache-Control"]
    assert {"Cookie", "Accept-Language"} <= {word.strip() for word in first["Vary"].split(",")}
    unchanged = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert unchanged["ETag"] == etag
    assert client.get(url, HTTP_IF_NONE_MATCH='"another"').status_code == 200


def test_the_etag_changes_with_the_seq_the_chat_and_the_language(match, players):
    alice, bob = players
    client, other_viewer = viewers(players)[:2]
    url = f"/matches/{match.pk}/"
    etag = client.get(url)["ETag"]

    in_greek = client.get(url, HTTP_ACCEPT_LANGUAGE="el")
    assert in_greek["ETag"] != etag
    assert client.get(url, HTTP_IF_NONE_MATCH=etag, HTTP_ACCEPT_LANGUAGE="el").status_code == 200

    services.chat_send(match_id=match.pk, author=bob, text="good luck")
    after_chat = client.get(url)
    assert after_chat["ETag"] != etag
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200
    etag = after_chat["ETag"]

    play_on(reload(match), random.Random(3))
    after_move = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert after_move.status_code == 200 and after_move["ETag"] != etag

    assert other_viewer.get(url)["ETag"] != after_move["ETag"]


def test_a_spectators_page_is_rendered_once_for_all_spectators(match, players):
    carol, dave = make_user("carol2"), make_user("dave")
    url = f"/matches/{match.pk}/"
    cache.clear()
    with mock.patch.object(match_views, "_play_area", wraps=match_views._play_area) as rendering:
        for user in (carol, dave):
            client = Client()
            client.force_login(user)
            assert client.get(url).status_code == 200
        assert Client().get(url).status_code == 200
    assert rendering.call_count == 1


def test_a_kept_page_shows_each_signed_in_viewer_their_own_name_and_messages(match, players):
    url = f"/matches/{match.pk}/"
    for name in ("erin", "frank"):
        client = Client()
        client.force_login(make_user(name))
        html = same_as_fresh(client, url)
        assert f'<span class="who">({name})</span>' in html
    alice, bob = players
    client = viewers(players)[0]
    services.chat_send(match_id=match.pk, author=bob, text="well played so far")
    assert "well played so far" in same_as_fresh(client, url)
