"""A stored match as a .mat file (the format itself is in games/engine/mat.py)."""

from __future__ import annotations

from games.engine.mat import export_mat
from games.log.records import engine_events
from games.models import Match


def mat_export(match: Match) -> str:
    names = (match.first_player.get_username(), match.second_player.get_username())
    rows = match.events.order_by("seq").only("kind", "payload")
    return export_mat(names, match.match_length, engine_events(rows))
