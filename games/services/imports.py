"""Matches played elsewhere: .mat files read, checked by the engine and kept for replay.

An import never touches a match played here; it is a record of its own (ImportedMatch).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from backgammon_site.core.errors import ApplicationError
from games.engine import Event, MatchRules, MatchState, fold
from games.engine.mat import export_mat
from games.engine.mat_reader import MatFileError, parse_mat
from games.log.records import engine_events, imported_log
from games.models import ImportedMatch, Player
from games.signals import match_imported

#: The largest .mat file accepted: a 25-point match is about 60 kB.
MAX_MAT_CHARACTERS = 1_000_000
MAX_NAME_LENGTH = 100


def mat_text_from_bytes(data: bytes) -> str:
    """An uploaded file's text: UTF-8 (with or without a byte-order mark), else Windows-1252,
    which older programs write."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def imported_match_create(*, uploaded_by: Player, text: str) -> ImportedMatch:
    """Read ``text`` as a .mat file and keep the match it records.

    A file the engine cannot read or whose match breaks the rules raises ApplicationError
    (code ``invalid_mat``, with the ``line`` at fault when there is one); nothing is kept.
    A match kept is analysed in the background once this commits.
    """
    if len(text) > MAX_MAT_CHARACTERS:
        raise ApplicationError(
            _("A .mat file can be at most %(count)s characters long.")
            % {"count": f"{MAX_MAT_CHARACTERS:,}"},
            "mat_too_long",
        )
    if "\x00" in text:
        raise ApplicationError(_("This is not a .mat file: it holds binary data."), "invalid_mat")
    try:
        record = parse_mat(text)
    except MatFileError as error:
        details = {} if error.line_number is None else {"line": error.line_number}
        raise ApplicationError(
            _("Cannot import this file: %(error)s") % {"error": error}, "invalid_mat", **details
        ) from None
    if record.state.rules != MatchRules():
        # The imported log is folded as backgammon's (ImportedMatch keeps no variant).
        raise ApplicationError(
            _("Only backgammon matches can be imported; this file is a %(rules)s match.")
            % {"rules": record.state.rules.title},
            "invalid_mat",
        )
    if any(len(name) > MAX_NAME_LENGTH for name in record.names):
        raise ApplicationError(
            _("A player's name can be at most %(count)d characters long.")
            % {"count": MAX_NAME_LENGTH},
            "invalid_mat",
        )
    with transaction.atomic():
        imported = ImportedMatch.objects.create(
            uploaded_by=uploaded_by,
            first_player_name=record.names[0],
            second_player_name=record.names[1],
            match_length=record.match_length,
            mat_text=text,
            events=[{"kind": event.kind, "payload": event.to_payload()} for event in record.events],
            score=list(record.state.score),
        )
        transaction.on_commit(lambda: match_imported.send(ImportedMatch, import_id=imported.pk))
    return imported


def imported_events(imported: ImportedMatch) -> list[Event]:
    """The imported match's rules events, first to last."""
    return list(engine_events(imported_log(imported)))


def imported_state(imported: ImportedMatch) -> MatchState:
    """Where the imported match stands at the end of its file."""
    return fold(imported.match_length, imported_events(imported))


def imported_mat(imported: ImportedMatch) -> str:
    """The imported match written out again as a .mat file, as this site writes them."""
    return export_mat(imported.names, imported.match_length, imported_events(imported))
