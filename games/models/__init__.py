"""The games app's records, one module per subject.

Nothing here holds a rule: games/services/ is the only code that changes a match.
"""

from backgammon_site.core.variants import Variant
from games.models.analysis import ImportedMatch, MatchAnalysis
from games.models.audit import AuditRecord
from games.models.challenges import Challenge
from games.models.chat import ChatMessage, ChatMute, ChatReport
from games.models.fair_play import FairPlayCase, FairPlayMatch
from games.models.leagues import League, LeagueDivision, LeagueEntry, LeagueMatch, LeagueSeason
from games.models.matches import (
    GENESIS_DIGEST,
    AppendOnlyError,
    Match,
    MatchEvent,
    MatchEventQuerySet,
    MatchPresence,
)
from games.models.news import Notification
from games.models.players import Player, Viewer
from games.models.tournaments import BracketMatch, Tournament, TournamentEntry
from games.models.upkeep import DicePairCount, Heartbeat, IdempotencyRecord

__all__ = [
    "GENESIS_DIGEST",
    "AppendOnlyError",
    "AuditRecord",
    "BracketMatch",
    "ChatMessage",
    "ChatMute",
    "ChatReport",
    "Challenge",
    "DicePairCount",
    "FairPlayCase",
    "FairPlayMatch",
    "Heartbeat",
    "IdempotencyRecord",
    "ImportedMatch",
    "League",
    "LeagueDivision",
    "LeagueEntry",
    "LeagueMatch",
    "LeagueSeason",
    "Match",
    "MatchAnalysis",
    "MatchEvent",
    "MatchEventQuerySet",
    "MatchPresence",
    "Notification",
    "Player",
    "Tournament",
    "TournamentEntry",
    "Variant",
    "Viewer",
]
