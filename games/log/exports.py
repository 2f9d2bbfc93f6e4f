"""A stored match as a file to download: a .mat file for the variants gnubg plays (the format
itself is in games/engine/mat.py), a text record for the others (games/engine/text_record.py).
"""

from __future__ import annotations

from typing import Any

from games.engine.mat import export_mat
from games.engine.text_record import export_text_record
from games.engine.variants import match_variant_named
from games.log.records import engine_events, rules_of_log
from games.models import Match


def has_mat_file(match: Match) -> bool:
    """Whether the match can be downloaded as a .mat file: a match of a variant gnubg plays
    can (backgammon, nackgammon, hypergammon); the others are downloaded as a text record."""
    return match_variant_named(match.variant).gnubg_variation is not None


def mat_export(match: Match) -> str:
    """The match as a .mat file; ask ``has_mat_file`` first."""
    rows = _rows(match)
    return export_mat(_names(match), match.match_length, engine_events(rows), rules_of_log(rows))


def text_record_export(match: Match) -> str:
    """The match as a text record: a header with the players, the variant, the length, the
    date it started and its dice commitment (and the revealed server seed once it is over),
    then every game's rolls, plays and results."""
    rows = _rows(match)
    facts = [("Started", f"{match.created_at:%Y-%m-%d %H:%M} UTC")]
    for row in rows:
        if row.kind == "match_started":
            dice = row.payload.get("dice", {})
            facts.append(("Dice commitment", f"SHA-256 {dice.get('server_seed_commitment')}"))
            seeds = dice.get("player_seeds") or []
            facts.append(("Player seeds", ", ".join(seeds)))
        elif row.kind == "dice_revealed":
            facts.append(("Server seed (revealed)", row.payload["server_seed"]))
    return export_text_record(
        _names(match), match.match_length, engine_events(rows), rules_of_log(rows), facts
    )


def _rows(match: Match) -> list[Any]:
    return list(match.events.order_by("seq").only("kind", "payload"))


def _names(match: Match) -> tuple[str, str]:
    return (match.first_player.get_username(), match.second_player.get_username())
