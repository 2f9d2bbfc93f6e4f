"""The variants a match is played in, as the site offers them to every app.

The list is the engine's (``games.engine.variants.MATCH_VARIANTS``: each variant, then Tavli);
here it gains the titles in the reader's language. games plays the variants and ratings keeps
one rating per player in each, so the list is read here, below both (ratings never imports
the rest of games; the engine imports nothing of the project). A model field stores a
variant's name as text, without ``choices``, and the services check it with ``variant_asked``
or ``is_variant``: a new variant of the engine needs no migration.
"""

from __future__ import annotations

from django.db import models
from django.utils.functional import Promise
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from backgammon_site.core.errors import ApplicationError
from games.engine.variants import DEFAULT_MATCH_VARIANT, MATCH_VARIANTS, MatchVariant


def _choice_label(kind: MatchVariant) -> Promise:
    """``Backgammon (Short nardi)``: the title, and the other names players know it by."""
    if not kind.also_called:
        return _(kind.title)
    others = ", ".join(["{}"] * len(kind.also_called))
    return format_lazy(
        "{} (" + others + ")", _(kind.title), *(_(name) for name in kind.also_called)
    )


Variant = models.TextChoices(
    "Variant",
    [
        (name.upper().replace("-", "_"), (name, _choice_label(kind)))
        for name, kind in MATCH_VARIANTS.items()
    ],
)
"""Every variant's name and translated title, for forms and serializers: ``Variant.choices``,
``Variant.values``."""

DEFAULT_VARIANT: str = DEFAULT_MATCH_VARIANT


def is_variant(name: object) -> bool:
    """``name`` names a variant the site plays (or Tavli)."""
    return isinstance(name, str) and name in MATCH_VARIANTS


def unknown_variant_message(name: object) -> str:
    """What a reader is told of a variant name that is none of ours."""
    return f"There is no variant {name!r}; choose one of {', '.join(MATCH_VARIANTS)}."


def variant_title(name: str) -> str:
    """A variant's name (or ``tavli``) for people, in the reader's language: Long nardi."""
    return str(_(MATCH_VARIANTS[name].title))


def variant_other_names(name: str) -> list[str]:
    """Other names of a variant (or of Tavli) in the reader's language: Short nardi."""
    return [str(_(other)) for other in MATCH_VARIANTS[name].also_called]


def variant_asked(name: str | None) -> str:
    """The variant a page or API query names (``?variant=``), backgammon when it names none;
    an ApplicationError (code ``variant``) for a name that is none of ours."""
    if name is None or name == "":
        return DEFAULT_VARIANT
    if not is_variant(name):
        raise ApplicationError(unknown_variant_message(name), "variant")
    return name
