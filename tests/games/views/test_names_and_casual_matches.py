"""Names people choose (display names, guests, pass-and-play seats) and casual matches: no
clock, only the ending that makes sense, and not listed for an audience."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.models import Profile
from accounts.names import player_name
from games.models import Match
from tests.accounts.mailbox import confirmation_path
from tests.games.factories import make_user, reload, start_match
from tests.games.views.test_casual_play import (
    OPENING_THEN_TURNS,
    first_legal_play,
    play_computer,
    post_act,
    start_pass_and_play,
)

pytestmark = pytest.mark.django_db


def fresh(user: object) -> object:
    return get_user_model().objects.select_related("profile").get(pk=user.pk)


def name_yourself(browser: Client, name: str) -> object:
    return browser.post(reverse("name-settings"), {"display_name": name})


# --- Display names ---


def test_a_player_chooses_a_display_name_shown_instead_of_the_username(signed_in, dice, alice, bob):
    browser = signed_in(alice)
    assert name_yourself(browser, "  Alice   Liddell ")["Location"] == reverse("name-settings")
    assert Profile.objects.get(user=alice).display_name == "Alice Liddell"
    dice.add(3, 1)
    match = start_match(alice, bob)
    page = signed_in(bob).get(reverse("match", args=[match.pk])).content.decode()
    header = page.split('class="match-header"')[1].split("</h1>")[0]
    assert "Alice Liddell" in header and "alice" not in header
    profile = Client().get(reverse("profile", args=["alice"])).content.decode()
    assert "<h1>Alice Liddell" in profile and "@alice" in profile
    watch = Client().get(reverse("watch")).content.decode()
    assert "Alice Liddell" in watch
    settings_page = browser.get(reverse("settings")).content.decode()
    assert "You are shown as Alice Liddell" in settings_page


def test_the_username_stays_the_key_of_urls_the_api_and_the_board_markup(
    signed_in, dice, alice, bob
):
    name_yourself(signed_in(alice), "Queen")
    dice.add(3, 1)
    match = start_match(alice, bob)
    api = signed_in(bob).get(f"/api/matches/{match.pk}/").json()
    assert api["players"] == ["alice", "bob"]
    page = signed_in(bob).get(reverse("match", args=[match.pk]))
    assert page.context["view"].usernames == ("alice", "bob")
    assert page.context["view"].players == ("Queen", "bob")
    assert Client().get(reverse("profile", args=["Queen"])).status_code == 404


@pytest.mark.parametrize(
    ("typed", "problem"),
    [
        ("<script>", "letters, digits"),
        ("x" * 31, "at most 30"),
        ("BOB", "another player's username"),
    ],
)
def test_a_bad_display_name_is_refused_and_changes_nothing(signed_in, alice, bob, typed, problem):
    browser = signed_in(alice)
    name_yourself(browser, "Kept")
    response = name_yourself(browser, typed)
    assert response.status_code == 400
    assert problem in response.content.decode().replace("&#x27;", "'")
    assert Profile.objects.get(user=alice).display_name == "Kept"


def test_an_empty_display_name_means_the_username(signed_in, alice):
    browser = signed_in(alice)
    name_yourself(browser, "Someone")
    name_yourself(browser, "")
    assert player_name(fresh(alice)) == "alice"


def test_the_settings_need_a_signed_in_player(client):
    response = client.post(reverse("name-settings"), {"display_name": "x"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_two_players_of_the_same_name_are_told_apart(client, dice):
    dice.add(*OPENING_THEN_TURNS)
    match = start_pass_and_play(client, name="Sam", first="Sam")
    client.post(reverse("match-hand-over", args=[match.pk]))
    page = client.get(reverse("match", args=[match.pk]))
    assert page.context["view"].players == ("Sam", "Sam (2)")


def test_guests_are_numbered_and_take_the_name_they_type(client, dice):
    dice.add(*OPENING_THEN_TURNS)
    match = play_computer(client)
    guest = match.first_player
    assert re.fullmatch(r"Guest \d+", player_name(guest))
    dice.add(*OPENING_THEN_TURNS)
    later = start_pass_and_play(client, name="Dad", first="Mum")
    assert later.first_player == guest and player_name(fresh(guest)) == "Mum"
    assert player_name(later.second_player) == "Dad"
    assert later.second_player.username.startswith("Dad-")


def test_signing_up_leaves_the_guest_name_behind(client, dice, mailoutbox):
    dice.add(*OPENING_THEN_TURNS)
    guest = play_computer(client).first_player
    client.post(
        reverse("account_signup"),
        {
            "username": "newcomer",
            "email": "newcomer@example.com",
            "password1": "newcomer-secret-pw-2026",
            "password2": "newcomer-secret-pw-2026",
        },
    )
    # Until the address is verified the session plays on as the guest, by its guest name.
    assert re.fullmatch(r"Guest \d+", player_name(fresh(guest)))
    client.post(confirmation_path(mailoutbox, "newcomer@example.com"))
    assert player_name(fresh(guest)) == "newcomer"


# --- Casual matches ---


def test_casual_matches_have_no_clock(client, dice):
    dice.add(*OPENING_THEN_TURNS)
    match = play_computer(client)
    assert match.time_control == {"kind": "untimed"} and match.deadline is None
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert "data-clocks" not in page and "days a move" not in page
    assert "No time limit" in page
    dice.add(*OPENING_THEN_TURNS)
    local = start_pass_and_play(client)
    client.post(reverse("match-hand-over", args=[local.pk]))
    post_act(client, local, "move", play=first_legal_play(local, local.first_player))
    local = reload(local)
    assert local.deadline is None and local.warn_at is None and local.seq > 1
    client.post(reverse("match-hand-over", args=[local.pk]))
    page = client.get(reverse("match", args=[local.pk])).content.decode()
    assert "data-clocks" not in page and "30 days" not in page


def test_pass_and_play_ends_without_an_offer_to_oneself(client, dice):
    dice.add(*OPENING_THEN_TURNS)
    match = start_pass_and_play(client)
    client.post(reverse("match-hand-over", args=[match.pk]))
    post_act(client, match, "move", play=first_legal_play(match, match.first_player))
    match = reload(match)
    client.post(reverse("match-hand-over", args=[match.pk]))
    page = client.get(reverse("match", args=[match.pk]))
    assert page.context["view"].ending_actions == ("abort",)
    text = page.content.decode()
    assert 'data-action="offer_end"' not in text and "End the game" in text
    refused = post_act(client, match, "offer_end")
    assert refused.status_code == 400 and reload(match).seq == match.seq
    post_act(client, match, "abort")
    assert reload(match).status == Match.Status.FINISHED


def test_casual_matches_are_listed_only_to_their_players(client, dice, signed_in, alice):
    dice.add(*OPENING_THEN_TURNS)
    guests_match = play_computer(client)
    dice.add(*OPENING_THEN_TURNS)
    members = signed_in(alice)
    members_match = start_pass_and_play(members)
    dice.add(3, 1)
    bob = make_user("bob")
    public = start_match(alice, bob)

    def listed(browser: Client, url: str) -> set[int]:
        text = browser.get(url).content.decode()
        return {int(pk) for pk in re.findall(r'href="/matches/(\d+)/"', text)}

    stranger = Client()
    for url in (reverse("watch"), "/", reverse("profile", args=["alice"])):
        shown = listed(stranger, url)
        assert guests_match.pk not in shown and members_match.pk not in shown, url
    assert public.pk in listed(stranger, reverse("watch"))
    assert members_match.pk in listed(members, reverse("profile", args=["alice"]))
    assert guests_match.pk in listed(client, "/")  # the guest's own list
    api = [row["id"] for row in stranger.get("/api/matches/").json()["results"]]
    assert api == [public.pk]


def test_the_pass_the_device_card_and_the_dice_page_name_the_players_as_typed(client, dice):
    dice.add(*OPENING_THEN_TURNS)
    match = start_pass_and_play(client, name="Robin", first="Sam")
    card = client.get(reverse("match", args=[match.pk])).content.decode()
    assert "Sam v Robin" in card and match.first_player.username not in card
    dice_page = client.get(reverse("match-dice", args=[match.pk])).content.decode()
    assert "Sam v Robin" in dice_page and match.second_player.username not in dice_page
