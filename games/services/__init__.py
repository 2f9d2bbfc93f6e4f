"""The only code that changes a match or a challenge: one function per action.

Every change of a match runs in one transaction holding the match row's lock: it checks that
the caller saw the current seq, validates through the rules engine, appends the events
(with whatever the server does next: dice, opening rolls, forced plays), writes the snapshot,
and announces the change once the transaction has committed.

Callers use the names listed here (``from games import services``). The actions live in
challenges, matches, moderation, directors (removing a player from an event), suspensions,
vacations, imports, tournaments (knock-outs) and leagues
(seasons of round robins), tutor (who may have the tutor; its verdicts kept) and
answers_ahead (a take or drop left for the coming double), fair_play (each analysed rated
correspondence match weighed, and the moderators' cases it opens),
whose matches are started through ``match_start``; below them,
``writer`` appends a match's events and saves them, ``turns`` makes a player's action into its
event and plays the server's part (``turns.next_roll`` rolls every die), ``deadlines`` runs
the clocks, ``announcements`` tells the rest of the site, and ``locks`` loads the rows a
service changes. ``chat`` is the players' conversation, kept beside the match's log, never in
it.
"""

from games.engine import ACTIONS
from games.services.answers_ahead import answer_ahead_leave, answer_left_for, may_answer_ahead
from games.services.challenges import (
    DEFAULT_TIME_CONTROL,
    MAX_MATCH_LENGTH,
    challenge_accept,
    challenge_cancel,
    challenge_create,
    challenge_decline,
    clean_time_control,
    rematch_offer,
)
from games.services.chat import (
    MAX_MESSAGE_LENGTH,
    chat_hide,
    chat_limit_spend,
    chat_mute,
    chat_report,
    chat_send,
    chat_text_clean,
    chat_unmute,
    is_chat_moderator,
)
from games.services.directors import event_entry_remove, may_direct, removable_players
from games.services.droppers import (
    TimeoutRecord,
    dropper_refusal,
    is_dropper,
    timeout_record,
)
from games.services.fair_play import (
    fair_play_case_decide,
    fair_play_match_review,
    may_judge_fair_play,
)
from games.services.leagues import (
    league_advance,
    league_create,
    league_sign_up,
    league_withdraw,
)
from games.services.matches import (
    ENDING_ACTIONS,
    TimeCheck,
    match_act,
    match_start,
    match_timeout,
    match_warn_of_deadline,
)
from games.services.moderation import (
    can_cancel_tournament,
    match_abort,
    match_award,
    tournament_cancel,
)
from games.services.suspensions import account_reactivate, account_suspend, may_suspend
from games.services.tournaments import (
    can_create_tournament,
    tournament_advance,
    tournament_create,
    tournament_sign_up,
    tournament_start,
    tournament_withdraw,
)
from games.services.tutor import tutor_offered, tutor_refusal, tutor_verdict_keep
from games.services.vacations import vacation_end, vacation_start

__all__ = [
    "answer_ahead_leave",
    "answer_left_for",
    "may_answer_ahead",
    "account_reactivate",
    "account_suspend",
    "event_entry_remove",
    "fair_play_case_decide",
    "fair_play_match_review",
    "may_judge_fair_play",
    "may_direct",
    "may_suspend",
    "removable_players",
    "league_advance",
    "league_create",
    "league_sign_up",
    "league_withdraw",
    "ACTIONS",
    "DEFAULT_TIME_CONTROL",
    "ENDING_ACTIONS",
    "MAX_MATCH_LENGTH",
    "MAX_MESSAGE_LENGTH",
    "TimeCheck",
    "TimeoutRecord",
    "can_cancel_tournament",
    "can_create_tournament",
    "challenge_accept",
    "challenge_cancel",
    "challenge_create",
    "challenge_decline",
    "chat_hide",
    "chat_limit_spend",
    "chat_mute",
    "chat_report",
    "chat_send",
    "chat_text_clean",
    "chat_unmute",
    "clean_time_control",
    "dropper_refusal",
    "is_chat_moderator",
    "is_dropper",
    "match_abort",
    "match_act",
    "match_award",
    "match_start",
    "match_timeout",
    "match_warn_of_deadline",
    "rematch_offer",
    "timeout_record",
    "tournament_advance",
    "tournament_cancel",
    "tournament_create",
    "tournament_sign_up",
    "tournament_start",
    "tournament_withdraw",
    "tutor_offered",
    "tutor_refusal",
    "tutor_verdict_keep",
    "vacation_end",
    "vacation_start",
]
