"""The names of the variants a match is played in, shared by every app.

games plays them and ratings keeps one rating per player in each, so the list lives here,
below both (ratings never imports games).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from backgammon_site.errors import ApplicationError


class Variant(models.TextChoices):
    """The rules a match is played by: a variant of the engine's, or ``tavli`` (portes,
    plakoto and fevga in rotation)."""

    BACKGAMMON = "backgammon", _("Backgammon")
    NACKGAMMON = "nackgammon", _("Nackgammon")
    HYPERGAMMON = "hypergammon", _("Hypergammon")
    PORTES = "portes", _("Portes")
    PLAKOTO = "plakoto", _("Plakoto")
    FEVGA = "fevga", _("Fevga")
    LONG_NARDI = "long-nardi", _("Long nardi")
    TAVLI = "tavli", _("Tavli")


def unknown_variant_message(name: object) -> str:
    """What a reader is told of a variant name that is none of ours."""
    return f"There is no variant {name!r}; choose one of {', '.join(Variant.values)}."


def variant_title(name: str) -> str:
    """A variant's name (or ``tavli``) for people, in the reader's language: Long nardi."""
    return str(Variant(name).label)


def variant_asked(name: str | None) -> str:
    """The variant a page or API query names (``?variant=``), backgammon when it names none;
    an ApplicationError (code ``variant``) for a name that is none of ours."""
    if name is None or name == "":
        return Variant.BACKGAMMON.value
    if name not in Variant.values:
        raise ApplicationError(unknown_variant_message(name), "variant")
    return name
