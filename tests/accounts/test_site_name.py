"""The service's own name and address where allauth shows the site's: django.contrib.sites'
Site follows SITE_URL and SITE_NAME after every migrate, and no email says "example.com"."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.sites.models import Site
from django.db.models.signals import post_migrate
from django.test import Client

from tests.accounts.test_signup_enumeration import mail_to, sign_up

pytestmark = pytest.mark.django_db


def test_the_site_has_the_services_name_and_address() -> None:
    site = Site.objects.get_current()
    assert site.name == settings.SITE_NAME == "Backgammon"
    assert site.domain == urlsplit(settings.SITE_URL).netloc


def test_a_migrate_names_the_site_from_the_settings(settings: Any) -> None:
    settings.SITE_URL = "https://play.backgammon.test"
    settings.SITE_NAME = "Tavla Club"
    accounts = apps.get_app_config("accounts")
    post_migrate.send(
        sender=accounts, app_config=accounts, verbosity=0, interactive=False, using="default"
    )
    site = Site.objects.get_current()
    assert (site.domain, site.name) == ("play.backgammon.test", "Tavla Club")


def test_the_sign_up_confirmation_names_the_service(mailoutbox: list[Any]) -> None:
    sign_up(Client(), "newcomer", "newcomer@mail.test")
    (message,) = mail_to(mailoutbox, "newcomer@mail.test")
    assert "example.com" not in message.subject + message.body
    assert message.subject.startswith("[Backgammon] ")
    assert urlsplit(settings.SITE_URL).netloc in message.body
