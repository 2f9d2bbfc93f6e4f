"""Every page in every language: each page URL of the site (found through Django's URL
resolver, so a new page is walked without editing this test) is read signed out and signed
in, with a match, a tournament, a league, an import and a player made here, in each language
other than English; a visible English sentence left fails.

What counts as visible: the text between tags (scripts and styles aside) and the attributes a
person reads or hears. For the languages not written in Latin letters (Greek, Russian,
Persian) any Latin word outside ALLOWED_WORDS and the language's own translations (the site's,
Django's and allauth's, where a translator kept a loanword such as "email") is English left;
Turkish is written in Latin letters, so there a word counts only when it is also a word of
the catalogues' English (their msgids).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import allauth
import django
import polib
import pytest
from django.conf import settings
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from games import services
from games.engine.variants import VARIANTS
from games.models import Match
from games.services.imports import imported_match_create
from tests.games.factories import act, make_moderator, make_user, start_match, win_by_award

pytestmark = pytest.mark.django_db

LANGUAGES = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
LOCALE = Path(settings.BASE_DIR) / "locale"

#: Paths that are no page of the site's own: the API and its documentation (English by
#: design, docs/translations.md), the Django admin (moderators' tool, Django's words), the
#: service worker (JavaScript).
NOT_PAGES = ("/api/", "/admin/", "/sw.js")

#: Words every language shows as they are: the site's name, programs and their file formats,
#: analysis terms, the languages' own names in the footer's switch, the players made here.
ALLOWED_WORDS = {
    # the players, the events, the import and the award's reason ("test") made below
    "alice", "bob", "carol", "dora", "Kupa", "Lig", "gnubg", "root", "test", "bgsage",
    # programs, formats, terms of the analysis and of the notation
    "Backgammon", "GNU", "XGID", "PR", "UTC", "ID", "mat", "eXtreme", "Gammon", "Jellyfish",
    "off", "bar", "Glicko", "API", "REST", "SHA", "JSON", "VAPID", "Crawford", "email",
    # languages named in their own words in the footer's switch
    "English",
}  # fmt: skip

ALLOWED = {word.lower() for word in ALLOWED_WORDS}

#: Names made of words: gnubg's identifiers.
ALLOWED_NAMES = re.compile(r"\b(Position ID|Match ID)\b")

#: A position's or a match's identifier (``cAmgAAAAAAAE``), not a word.
IDENTIFIER = re.compile(r"^\w+[A-Z]")

#: Attributes a person reads (or hears from a screen reader).
READ_ATTRIBUTES = {"title", "alt", "placeholder", "aria-label", "data-label"}

LATIN_WORD = re.compile(r"(?<![\w/.@-])[A-Za-z][A-Za-z'’]+(?![\w/@]|\.\w)")


#: Elements whose text is no words: scripts, styles, code to type, keys to press.
LITERAL_ELEMENTS = {"script", "style", "template", "code", "kbd"}

VOID_ELEMENTS = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                 "source", "track", "wbr"}  # fmt: skip


class VisibleText(HTMLParser):
    """The text a person reads on a page in its language: text nodes and the attributes read
    aloud (a submit input's value too), outside scripts, styles, code and keys, outside what
    is marked as no words to translate (``translate="no"``: the replay's log, the move list's
    .mat notation) and outside what is marked as in another language (``lang``: the footer's
    switch names each language in itself)."""

    def __init__(self, language: str) -> None:
        super().__init__(convert_charrefs=True)
        self.language = language
        self.texts: list[str] = []
        self.open: list[tuple[str, bool]] = []

    def hidden(self) -> bool:
        return bool(self.open) and self.open[-1][1]

    def read_attributes(self, tag: str, attrs: dict[str, str | None]) -> None:
        for name, value in attrs.items():
            if value and (
                name in READ_ATTRIBUTES
                or (tag == "input" and name == "value" and attrs.get("type") == "submit")
            ):
                self.texts.append(value)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        hidden = (
            self.hidden()
            or tag in LITERAL_ELEMENTS
            or named.get("translate") == "no"
            or named.get("lang", self.language) != self.language
        )
        if not hidden:
            self.read_attributes(tag, named)
        if tag not in VOID_ELEMENTS:
            self.open.append((tag, hidden))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self.hidden():
            self.read_attributes(tag, dict(attrs))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.open) - 1, -1, -1):
            if self.open[depth][0] == tag:
                del self.open[depth:]
                return

    def handle_data(self, data: str) -> None:
        if not self.hidden() and data.strip():
            self.texts.append(" ".join(data.split()))


def visible_texts(html: str, language: str) -> list[str]:
    parser = VisibleText(language)
    parser.feed(html)
    return parser.texts


def english_vocabulary() -> set[str]:
    words: set[str] = set()
    for entry in polib.pofile(str(LOCALE / "el" / "LC_MESSAGES" / "django.po")):
        for text in (entry.msgid, entry.msgid_plural):
            words.update(w.lower() for w in LATIN_WORD.findall(re.sub(r"%\(\w+\)s", "", text)))
    return words


def translated_vocabulary(language: str) -> set[str]:
    """The words of ``language``'s translations: the site's, Django's and allauth's."""
    words: set[str] = set()
    for texts in catalogue_translations(language):
        words.update(w.lower() for w in LATIN_WORD.findall(texts))
    return words


def catalogue_translations(language: str) -> Iterator[str]:
    for entry in polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po")):
        yield entry.msgstr
        yield from entry.msgstr_plural.values()
    for package in (django, allauth):
        mo = Path(package.__file__).parent / "locale" / language / "LC_MESSAGES" / "django.mo"
        if mo.exists():
            for entry in polib.mofile(str(mo)):
                yield entry.msgstr
                yield from entry.msgstr_plural.values()


def english_words(text: str, language: str, english: set[str], native: set[str]) -> list[str]:
    words = [
        word
        for word in LATIN_WORD.findall(ALLOWED_NAMES.sub("", text))
        if word.lower() not in ALLOWED and not IDENTIFIER.match(word)
    ]
    words = [w for w in words if w.lower() not in native]
    if language == "tr":
        return [w for w in words if w.lower() in english]
    return words


def page_routes(patterns: list[Any] | None = None, prefix: str = "") -> Iterator[str]:
    """Every route of the site, as a pattern string (``matches/<id:match_id>/``)."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from page_routes(entry.url_patterns, route)
        elif isinstance(entry, URLPattern):
            yield route


PARAMETER = re.compile(r"<(?:(\w+):)?(\w+)>")


def paths_of(route: str, values: dict[str, list[str]]) -> list[str]:
    """The paths ``route`` stands for with the objects made here (none when one of its
    parameters has no object)."""
    if route.startswith("^") or "(?P" in route:
        return []
    paths = ["/" + route]
    for match in PARAMETER.finditer(route):
        name = match.group(2)
        if name not in values:
            return []
        paths = [path.replace(match.group(0), value) for path in paths for value in values[name]]
    return paths


@pytest.fixture
def site(dice: Any) -> dict[str, Any]:
    """A moderator who plays, a match waiting for her opponent, one waiting for her play and
    one finished, a running knock-out, a league with a season under way, an import; the
    values each URL parameter takes."""
    alice = make_moderator("alice")
    bob, carol, dora = make_user("bob"), make_user("carol"), make_user("dora")
    dice.add(*[3, 1] * 20)  # every opening roll below: the first player opens
    playing = act(start_match(alice, bob), alice, "move", play="8/5 6/5")
    services.chat_send(match_id=playing.pk, author=alice, text="🎲 6-6!")
    to_play = start_match(alice, dora)  # alice's turn to play her opening 3-1
    win_by_award(dice, alice, carol, alice)
    finished = Match.objects.exclude(pk=playing.pk).get(winner=alice)
    challenge = services.challenge_create(challenger=bob, opponent=alice)
    time_control = {"kind": "correspondence", "days_per_move": 1, "reserve_days": 0}
    tournament = services.tournament_create(
        creator=alice,
        name="Kupa",
        size=4,
        start_mode="when_full",
        match_length=3,
        time_control=time_control,
    )
    for player in (alice, bob, carol, dora):
        services.tournament_sign_up(tournament_id=tournament.pk, player=player)
    league = services.league_create(
        creator=alice,
        name="Lig",
        starts_at=timezone.now() + timedelta(hours=1),
        season_days=30,
        division_size=6,
        match_length=1,
        time_control=time_control,
    )
    for player in (alice, bob, carol, dora):
        services.league_sign_up(league_id=league.pk, player=player)
    season = league.seasons.get()
    services.league_advance(league_id=league.pk, now=season.starts_at)
    mat = (Path(__file__).parent / "games/formats/data/gnubg_selfplay_5_point.mat").read_text()
    imported = imported_match_create(uploaded_by=alice, text=mat[: mat.index(" Game 2")])
    values = {
        "match_id": [str(playing.pk), str(to_play.pk), str(finished.pk)],
        "tournament_id": [str(tournament.pk)],
        "league_id": [str(league.pk)],
        "number": ["1"],
        "import_id": [str(imported.pk)],
        "username": ["alice", "bob"],
        "variant": [*VARIANTS, "tavli"],
        "challenge_id": [str(challenge.pk)],
    }
    return {"alice": alice, "values": values}


def walked_pages(
    browser: Client, language: str, values: dict[str, list[str]]
) -> Iterator[tuple[str, str]]:
    for route in page_routes():
        for path in paths_of(route, values):
            if path.startswith(NOT_PAGES):
                continue
            response = browser.get(path, HTTP_ACCEPT_LANGUAGE=language)
            if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
                continue
            yield path, response.content.decode()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_is_in_the_language(language: str, site: dict[str, Any]) -> None:
    english, native = english_vocabulary(), translated_vocabulary(language)
    signed_in = Client()
    signed_in.force_login(site["alice"])
    left: list[str] = []
    walked = set()
    for who, browser in (("signed out", Client()), ("signed in", signed_in)):
        for path, html in walked_pages(browser, language, site["values"]):
            walked.add(path)
            assert "<html" not in html or f'<html lang="{language}"' in html, path
            for text in visible_texts(html, language):
                words = english_words(text, language, english, native)
                if words:
                    left.append(f"{path} ({who}): {text!r}")
    assert len(walked) >= 40, sorted(walked)
    assert not left, f"{len(left)} English texts left:\n" + "\n".join(dict.fromkeys(left))


@pytest.mark.parametrize("language", ["fa", "tr"])
def test_an_english_sentence_is_found_and_marked_words_are_not(language: str) -> None:
    english, native = english_vocabulary(), translated_vocabulary(language)
    html = (
        '<p>Your turn to roll</p><p lang="en" translate="no">played 3-1: 8/5 6/5</p>'
        "<p><code>Authorization: Token</code> 24/18 gnubg cAmgAAAAAAAE</p>"
        '<input type="submit" value="Send the challenge">'
    )
    found = [
        text
        for text in visible_texts(html, language)
        if english_words(text, language, english, native)
    ]
    assert found == ["Your turn to roll", "Send the challenge"]
