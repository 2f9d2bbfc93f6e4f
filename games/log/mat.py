"""A stored match as a .mat file (the format itself is in games/engine/mat.py)."""

from __future__ import annotations

from games.engine import event_from_payload
from games.engine.mat import export_mat
from games.log.integrity import RECORD_KINDS
from games.models import Match


def mat_export(match: Match) -> str:
    names = (match.first_player.get_username(), match.second_player.get_username())
    events = [
        event_from_payload(kind, payload)
        for kind, payload in match.events.order_by("seq").values_list("kind", "payload")
        if kind not in RECORD_KINDS
    ]
    return export_mat(names, match.match_length, events)
