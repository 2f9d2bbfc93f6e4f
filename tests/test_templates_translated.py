"""Every word a template shows a person is marked for translation.

Each template under templates/ is split by Django's template Lexer; what lies inside
{% blocktranslate %}, {% comment %} and {# #}, and every variable and tag, is set aside, and
the HTML left is read by Python's HTML parser. A text node, or an attribute people read
(title, alt, placeholder, aria-label, data-label), with a letter in it that is not on the
small allow-list below is a string left unmarked.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.template.base import Lexer, TokenType

TEMPLATES = Path(settings.BASE_DIR) / "templates"

#: Words a page shows in every language: the site's name, analysis programs' terms, UTC.
ALLOWED_WORDS = {"Backgammon", "XGID", "PR", "UTC"}

#: Templates that are no page: the service worker is JavaScript, whose words come from the
#: pushes themselves (games/notifications/webpush.py).
NOT_PAGES = {"games/sw.js"}

#: Blocks that fill an attribute, not text: Django admin's body class.
ATTRIBUTE_BLOCKS = {"bodyclass"}

#: Attributes a person reads (or hears from a screen reader).
READ_ATTRIBUTES = {"title", "alt", "placeholder", "aria-label", "data-label"}

#: What stands for a variable or a tag: no letter, so it never counts as words.
SLOT = "\ue000"

LETTER = re.compile(r"[^\W\d_]")
ALLOWED = re.compile(r"\b(" + "|".join(sorted(ALLOWED_WORDS)) + r")\b")


def skeleton(source: str) -> str:
    """The template with every variable and tag a SLOT, and comments, the insides of
    {% blocktranslate %} and attribute blocks gone, keeping its line breaks so that lines
    still count right."""
    parts: list[str] = []
    closing: str | None = None
    for token in Lexer(source).tokenize():
        kept_lines = "\n" * token.contents.count("\n")
        if closing is not None:
            if token.token_type is TokenType.BLOCK and token.contents.split()[0] == closing:
                closing = None
            parts.append(kept_lines)
            continue
        if token.token_type is TokenType.TEXT:
            parts.append(token.contents)
        elif token.token_type in (TokenType.BLOCK, TokenType.VAR):
            name = token.contents.split()[0]
            if token.token_type is TokenType.BLOCK and name in ("blocktranslate", "comment"):
                closing = f"end{name}"
            elif name == "block" and token.contents.split()[1] in ATTRIBUTE_BLOCKS:
                closing = "endblock"
            # A tag that writes an element's name (<{% if %}a{% else %}button{% endif %}>)
            # stands for a name, so that the element stays markup.
            in_tag_name = bool(parts) and parts[-1].endswith(("<", "</"))
            parts.append(("x" if in_tag_name else "") + SLOT + kept_lines)
        else:
            parts.append(kept_lines)
    return "".join(parts)


class UnmarkedText(HTMLParser):
    """Collects (line, text) of each unmarked text node and read attribute."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.open.append(tag)
        for name, value in attrs:
            if name in READ_ATTRIBUTES and value:
                self.check(f"{name}={value!r}", value)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.open:
            del self.open[len(self.open) - 1 - self.open[::-1].index(tag) :]

    def handle_data(self, data: str) -> None:
        if self.open and self.open[-1] in ("script", "style"):
            return
        self.check(data.strip(), data)

    def check(self, shown: str, text: str) -> None:
        if LETTER.search(ALLOWED.sub("", text.replace(SLOT, " "))):
            self.found.append((self.getpos()[0], shown.replace(SLOT, "{…}")))


def unmarked(source: str, *, plain_text: bool = False) -> list[tuple[int, str]]:
    """The words of a template left unmarked, with their lines."""
    text = skeleton(source)
    if plain_text:
        return [
            (number, line.strip().replace(SLOT, "{…}"))
            for number, line in enumerate(text.splitlines(), start=1)
            if LETTER.search(ALLOWED.sub("", line.replace(SLOT, " ")))
        ]
    parser = UnmarkedText()
    parser.feed(text)
    parser.close()
    return parser.found


def page_templates() -> list[str]:
    return sorted(
        str(path.relative_to(TEMPLATES))
        for path in TEMPLATES.rglob("*")
        if path.is_file() and str(path.relative_to(TEMPLATES)) not in NOT_PAGES
    )


@pytest.mark.parametrize("name", page_templates())
def test_every_word_of_the_template_is_marked_for_translation(name):
    path = TEMPLATES / name
    found = unmarked(path.read_text(), plain_text=path.suffix == ".txt")
    assert not found, f"{name} shows words not marked for translation:\n" + "\n".join(
        f"  line {line}: {text}" for line, text in found
    )


def test_the_check_finds_a_sentence_left_unmarked():
    template = (
        '{% load i18n %}<p title="Shown on hover">{% translate "Marked" %} {{ name }}</p>\n'
        "{% blocktranslate trimmed %}Also <em>marked</em>{% endblocktranslate %}\n"
        "{# a comment #}{% comment %}Another{% endcomment %}<h1>Backgammon</h1>\n"
        "<script>const ignored = 'code';</script><p>Left unmarked</p>"
    )
    assert unmarked(template) == [(1, "title='Shown on hover'"), (4, "Left unmarked")]
    assert unmarked("<{% if link %}a{% else %}button{% endif %} class='x'>{{ label }}</a>") == []


def test_plain_text_templates_are_read_line_by_line():
    assert unmarked("{{ url }}\nHello {{ name }},\n{% translate 'Bye' %}", plain_text=True) == [
        (2, "Hello {…},")
    ]
