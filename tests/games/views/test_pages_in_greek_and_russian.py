"""The play pages in the players' languages: a player who chose Greek reads the lobby, the match
page and the replay in Greek; a visitor whose browser asks for Russian reads the rules in
Russian. Notation, usernames and the board's markup stay as they are."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from accounts.models import Profile
from tests.games.factories import act, make_user, start_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def greek_alice(dice):
    alice = make_user("alice")
    Profile.objects.update_or_create(user=alice, defaults={"language": "el"})
    return alice


@pytest.fixture
def match(dice, greek_alice):
    dice.add(3, 1)
    match = start_match(greek_alice, make_user("bob"))
    return act(match, greek_alice, "move", play="8/5 6/5")


def page(browser, url: str) -> str:
    response = browser.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    return response.content.decode()


def test_the_lobby_in_greek(signed_in, greek_alice, match):
    html = page(signed_in(greek_alice), reverse("home"))
    for words in (
        '<html lang="el">',
        "Αίθουσα",
        "Οι αγώνες σας",
        "Ο/Η bob ρίχνει ή διπλασιάζει",
        "Πρόκληση σε παίκτη",
        "Αποστολή πρόκλησης",
        "1 ημέρα ανά κίνηση + 8 ημέρες αποθέματος",
        "Παίξτε με τον υπολογιστή",
        "Αρχάριος",
    ):
        assert words in html, words
    assert "Your matches" not in html and "Send the challenge" not in html
    # Django's own words for the time left, which its Greek catalogue leaves untranslated.
    said = html.replace("\xa0", " ")
    assert "(απομένουν 1 εβδομάδα, 1 ημέρα)" in said and " week" not in said


def test_the_match_page_in_greek(signed_in, greek_alice, match):
    html = page(signed_in(greek_alice), reverse("match", args=[match.pk]))
    for words in (
        "αγώνας 5 πόντων",
        "Μέτρημα πιπς",
        "Κύβος",
        "Τελευταία κίνηση",
        "8/5 6/5",
        "Κινήσεις",
        "Συνομιλία με τον/την bob",
        "Πρόταση λήξης του αγώνα χωρίς νικητή",
        'data-action="offer_end"',
        "Ταμπλό τάβλι",
    ):
        assert words in html, words
    assert "Pip counts" not in html and "Last play" not in html


def test_the_replay_in_greek(signed_in, greek_alice, match):
    html = page(signed_in(greek_alice), reverse("match-replay", args=[match.pk]))
    for words in ("Επανάληψη: alice – bob", "Βήμα", "Ανάλυση", "Το ημερολόγιο", "Προηγούμενο"):
        assert words in html, words
    assert "8/5 6/5" in html
    assert "The log" not in html and "Previous" not in html


def test_the_rules_in_russian_for_a_browser_that_asks(client):
    html = client.get("/rules/long-nardi/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    for words in (
        '<html lang="ru">',
        "Длинные нарды",
        "У каждого игрока 15 шашек.",
        "голов",
        "марс",
        "Выброс шашек",
    ):
        assert words in html, words
    tavli = client.get("/rules/tavli/", HTTP_ACCEPT_LANGUAGE="el").content.decode()
    for words in ("Τάβλι", "Πόρτες", "Πλακωτό", "Φεύγα", "Δύο νίκες στις τρεις"):
        assert words in tavli, words


def test_russian_says_numbers_with_the_right_plural(signed_in, dice):
    ivan = make_user("ivan")
    Profile.objects.update_or_create(user=ivan, defaults={"language": "ru"})
    dice.add(3, 1)
    match = start_match(ivan, make_user("olga"), length=3)
    html = page(signed_in(ivan), reverse("match", args=[match.pk]))
    assert "матч до 3 очков" in html
    assert "1 день на ход + 8 дней запаса" in html


#: An attribute whose number was written with a decimal comma, as Greek and Russian write one.
LOCALISED_NUMBER = re.compile(r'\s[\w:-]+="-?\d+,\d[^"]*"')


@pytest.mark.parametrize("language", ["el", "ru"])
def test_the_boards_measures_stay_numbers_in_every_language(
    signed_in, match, greek_alice, language
):
    Profile.objects.filter(user=greek_alice).update(language=language)
    browser = signed_in(greek_alice)
    for url in (
        reverse("match", args=[match.pk]),
        reverse("match-replay", args=[match.pk]),
        "/rules/plakoto/",
        reverse("profile", args=["alice"]),
    ):
        html = page(browser, url)
        assert 'class="board"' in html or url.startswith("/players/"), url
        assert not LOCALISED_NUMBER.findall(html), (url, LOCALISED_NUMBER.findall(html)[:3])
