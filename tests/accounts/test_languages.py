"""Which language a page is in: the signed-in player's choice on their profile, else the
footer's switch (the language cookie) or the browser's Accept-Language, else English; the API
in English whoever asks. The language setting, and the footer's switch."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.models import Profile

pytestmark = pytest.mark.django_db


def html_lang(response) -> str:
    return re.search(r'<html lang="([^"]+)"', response.content.decode()).group(1)


def choose(user, language: str) -> None:
    Profile.objects.update_or_create(user=user, defaults={"language": language})


def test_a_visitor_reads_english_unless_the_browser_asks_for_another_language(client):
    assert html_lang(client.get("/rules/")) == "en"
    response = client.get("/rules/", HTTP_ACCEPT_LANGUAGE="ru,en;q=0.5")
    assert html_lang(response) == "ru" and response["Content-Language"] == "ru"
    assert "Accept-Language" in response["Vary"]
    assert "Правила игр семейства нард" in response.content.decode()
    assert html_lang(client.get("/rules/", HTTP_ACCEPT_LANGUAGE="fr")) == "en"


def test_a_players_choice_wins_over_what_the_browser_asks(signed_in, alice):
    browser = signed_in(alice)
    assert html_lang(browser.get("/", HTTP_ACCEPT_LANGUAGE="ru")) == "ru"
    choose(alice, "el")
    page = browser.get("/", HTTP_ACCEPT_LANGUAGE="ru")
    assert html_lang(page) == "el" and "Αίθουσα" in page.content.decode()


def test_the_api_answers_in_english_whoever_asks(signed_in, alice):
    choose(alice, "ru")
    response = signed_in(alice).get(
        reverse("api-leaderboard") + "?variant=chess", HTTP_ACCEPT_LANGUAGE="ru"
    )
    assert response["Content-Language"] == "en"
    assert "There is no variant 'chess'" in response.content.decode()


def test_the_language_setting_is_saved_and_said_in_the_new_language(signed_in, alice):
    browser = signed_in(alice)
    page = browser.get(reverse("language-settings"))
    assert page.status_code == 200 and 'value="el"' in page.content.decode()
    response = browser.post(reverse("language-settings"), {"language": "el"}, follow=True)
    assert Profile.objects.get(user=alice).language == "el"
    assert "Η γλώσσα σας αποθηκεύτηκε." in response.content.decode()
    assert browser.cookies[settings.LANGUAGE_COOKIE_NAME].value == "el"
    assert html_lang(browser.get(reverse("settings"))) == "el"


def test_no_choice_gives_the_page_back_to_the_browser(signed_in, alice):
    choose(alice, "el")
    browser = signed_in(alice)
    browser.post(reverse("language-settings"), {"language": ""})
    assert Profile.objects.get(user=alice).language == ""
    assert html_lang(browser.get("/", HTTP_ACCEPT_LANGUAGE="ru")) == "ru"


def test_the_language_setting_refuses_a_language_it_does_not_offer(signed_in, alice):
    response = signed_in(alice).post(reverse("language-settings"), {"language": "fr"})
    assert response.status_code == 400
    assert (
        "Choose one of the languages offered: fr is not one of them." in response.content.decode()
    )
    assert Profile.objects.get(user=alice).language == ""


def test_the_settings_page_links_the_language_setting(signed_in, alice):
    choose(alice, "ru")
    page = signed_in(alice).get(reverse("settings")).content.decode()
    assert f'href="{reverse("language-settings")}"' in page
    assert "Язык страниц: Русский." in page


def test_the_footer_switch_sets_a_visitors_language_and_returns_to_the_page():
    visitor = Client()
    response = visitor.post(reverse("language-switch"), {"language": "el", "next": "/rules/"})
    assert response.status_code == 302 and response["Location"] == "/rules/"
    page = visitor.get("/rules/", HTTP_ACCEPT_LANGUAGE="ru")
    assert html_lang(page) == "el" and "Κανόνες της οικογένειας του τάβλι" in page.content.decode()


def test_the_footer_switch_is_a_signed_in_players_choice_too(signed_in, alice):
    browser = signed_in(alice)
    browser.post(reverse("language-switch"), {"language": "ru", "next": "/"})
    assert Profile.objects.get(user=alice).language == "ru"
    browser.post(reverse("language-switch"), {"language": "xx", "next": "/"})
    assert Profile.objects.get(user=alice).language == "ru"


def test_every_page_names_each_language_in_itself_in_its_footer(client):
    footer = client.get("/", HTTP_ACCEPT_LANGUAGE="el").content.decode().split("<footer")[1]
    for name in ("English", "Ελληνικά", "Русский"):
        assert f">{name}</button>" in footer
    assert 'value="el" lang="el" aria-current="true" disabled' in footer
