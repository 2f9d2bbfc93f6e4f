"""Which file a match is downloaded as, for the links of the match and replay pages."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import gettext as _

from games.log.exports import has_mat_file
from games.models import Match


@dataclass(frozen=True)
class MatchDownload:
    label: str
    url: str


def match_download(match: Match) -> MatchDownload:
    """The match's .mat file where gnubg plays its variant (backgammon, nackgammon,
    hypergammon), its text record otherwise."""
    if has_mat_file(match):
        return MatchDownload(_("Download .mat"), reverse("api-match-export-mat", args=[match.pk]))
    return MatchDownload(
        _("Download the record (text)"), reverse("api-match-export-text", args=[match.pk])
    )
