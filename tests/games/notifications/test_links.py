"""Email links are absolute, from the one SITE_URL setting, which `manage.py serve --port N`
sets to its own address when the environment does not."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from django.core import mail
from django.core.management import call_command

from games.management.commands import serve
from tests.games.factories import act, start_match


@pytest.fixture
def serving(monkeypatch: pytest.MonkeyPatch, settings: Any) -> list[tuple[str, str, str | None]]:
    """`serve` with its workers and server replaced: what each command saw of SITE_URL.
    The setting and the environment it changes are restored afterwards."""
    settings.SITE_URL = settings.SITE_URL
    seen: list[tuple[str, str, str | None]] = []

    def command(name: str, *args: Any, **options: Any) -> None:
        seen.append((name, settings.SITE_URL, os.environ.get("SITE_URL")))

    monkeypatch.setattr(serve, "call_command", command)
    monkeypatch.setattr(serve.Worker, "start", lambda worker: None)
    monkeypatch.setattr(serve.signal, "signal", lambda *args: None)
    monkeypatch.setenv("SITE_URL", "")
    monkeypatch.delenv("SITE_URL")
    return seen


def test_serve_points_the_links_at_its_own_port(serving: list[Any]) -> None:
    call_command("serve", "--port", "8123")
    url = "http://127.0.0.1:8123"
    assert serving == [("migrate", url, url), ("runserver", url, url)]


def test_serve_keeps_a_site_url_from_the_environment(
    serving: list[Any], monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    monkeypatch.setenv("SITE_URL", "https://backgammon.example")
    settings.SITE_URL = "https://backgammon.example"
    call_command("serve", "--port", "8123")
    assert {seen[1:] for seen in serving} == {("https://backgammon.example",) * 2}


@pytest.mark.django_db
def test_every_link_of_an_email_is_absolute_and_it_names_the_site(
    dice: Any, alice: Any, bob: Any, committed: Any, settings: Any
) -> None:
    settings.SITE_NAME = "Tavla Club"
    dice.add(3, 1)
    with committed():
        match = start_match(alice, bob)
    with committed():
        act(match, alice, "move", play="8/5 6/5")
    email = mail.outbox[-1]
    ((html, _),) = email.alternatives
    links = re.findall(r'href="([^"]*)"', html)
    assert links and all(link.startswith("https://backgammon.example/") for link in links)
    assert "Tavla Club" in html and "Tavla Club, https://backgammon.example/" in email.body
    assert "https://backgammon.example/matches/" in email.body
