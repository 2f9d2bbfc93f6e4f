"""The admin for moderators, one module per subject: matches and their logs (with the
moderators' abort and award), challenges, tournaments, leagues, imported matches, chat reports,
the audit record of removals from events and suspensions (with the accounts' actions that
write it), and the moderators' queue of fair-play cases.

Everything is read-only: a moderator changes a match only by aborting or awarding it, which
goes through games.services with the moderator as the actor, so the match's log records who
did it. No one, superusers included, can add, change or delete a match event from the admin.
"""

from games.admin import audit, challenges, chat, fair_play, imports, leagues, tournaments
from games.admin.matches import MatchAdmin, MatchEventAdmin, MatchEventInline

__all__ = [
    "audit",
    "MatchAdmin",
    "MatchEventAdmin",
    "MatchEventInline",
    "challenges",
    "chat",
    "fair_play",
    "imports",
    "leagues",
    "tournaments",
]
