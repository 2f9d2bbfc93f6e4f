"""Chat between the two players of a match: sending, reporting, muting, and moderators hiding.

Messages belong to a match but not to its log: they are their own rows, and a moderator hides
one (it stays recorded, with who hid it) rather than deleting it.
"""

from __future__ import annotations

import unicodedata
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import limits
from backgammon_site.core.errors import ApplicationError, Forbidden, NotFound
from games.models import ChatMessage, ChatMute, ChatReport, Match, Player, Viewer
from games.signals import chat_changed

#: The longest message, in characters.
MAX_MESSAGE_LENGTH = 500
#: The longest reason a report gives, in characters.
MAX_REASON_LENGTH = 200
#: How long after a match ends its players may still talk.
TALK_AFTER_THE_END = timedelta(days=7)


def chat_limit_spend(request: HttpRequest, user: Player) -> None:
    """Count one message against the player's limit (ACCOUNT_RATE_LIMITS's ``chat_message``);
    raises TooManyAttempts once it is spent. The pages and the API call it: it needs the
    request."""
    limits.spend(
        request,
        "chat_message",
        user=user,
        refusal=_("You have sent as many messages as one player may for now."),
    )


def chat_text_clean(text: object) -> str:
    """A message as it is kept: stripped, with Windows line ends made plain; refuses an empty
    or too long text, or one with control characters other than line breaks."""
    if not isinstance(text, str):
        raise ApplicationError("A message is text.", "message")
    text = text.replace("\r\n", "\n").strip()
    if not text:
        raise ApplicationError(_("Write something to send."), "message")
    if len(text) > MAX_MESSAGE_LENGTH:
        raise ApplicationError(
            _("A message has at most %(most)s characters (this one has %(length)s).")
            % {"most": MAX_MESSAGE_LENGTH, "length": len(text)},
            "message",
        )
    if any(char != "\n" and unicodedata.category(char) == "Cc" for char in text):
        raise ApplicationError(_("A message cannot hold control characters."), "message")
    return text


def chat_send(*, match_id: int, author: Player, text: Any) -> ChatMessage:
    """``author``, a player of the match, says ``text`` to their opponent, at the match's
    current seq. A finished match takes messages for TALK_AFTER_THE_END."""
    text = chat_text_clean(text)
    match = _match(match_id)
    _require_player(match, author)
    if match.finished_at is not None and timezone.now() - match.finished_at > TALK_AFTER_THE_END:
        raise Forbidden(_("This match ended too long ago to talk in it."))
    return chat_message_add(match, author=author, text=text)


def chat_message_add(match: Match, *, author: Player, text: str) -> ChatMessage:
    """Keep ``author``'s cleaned ``text`` at the match's current seq, announced once the
    caller's transaction commits: a message sent with an action is kept in the action's
    transaction, so both are kept or neither."""
    message = ChatMessage.objects.create(match=match, author=author, text=text, seq=match.seq)
    _announce(match.pk)
    return message


def chat_report(*, message_id: int, reporter: Player, reason: Any = "") -> ChatReport:
    """The opponent of a message's author reports it to the moderators; reporting it again
    changes nothing."""
    if not isinstance(reason, str):
        raise ApplicationError("A reason is text.", "reason")
    reason = reason.strip()
    if len(reason) > MAX_REASON_LENGTH or any(unicodedata.category(c) == "Cc" for c in reason):
        raise ApplicationError(
            f"A reason has at most {MAX_REASON_LENGTH} characters, on one line.", "reason"
        )
    message = ChatMessage.objects.select_related("match").filter(pk=message_id).first()
    if message is None or message.match.player_index(reporter) is None:
        raise NotFound("No such message.")
    if message.author_id == reporter.pk:
        raise ApplicationError(_("You cannot report your own message."), "own_message")
    try:
        with transaction.atomic():
            report, _created = ChatReport.objects.get_or_create(
                message=message, reporter=reporter, defaults={"reason": reason}
            )
    except IntegrityError:
        report = ChatReport.objects.get(message=message, reporter=reporter)
    return report


def chat_mute(*, match_id: int, player: Player) -> None:
    """``player`` no longer sees what their opponent says in this match."""
    match = _match(match_id)
    _require_player(match, player)
    try:
        with transaction.atomic():
            ChatMute.objects.get_or_create(match=match, muter=player)
    except IntegrityError:
        pass


def chat_unmute(*, match_id: int, player: Player) -> None:
    """``player`` sees their opponent's messages again, those sent while muted too."""
    match = _match(match_id)
    _require_player(match, player)
    ChatMute.objects.filter(match=match, muter=player).delete()


def chat_hide(*, message_id: int, moderator: Player) -> ChatMessage:
    """A moderator hides a message from the players (it stays recorded, with who hid it and
    when) and so handles every report of it."""
    if not is_chat_moderator(moderator):
        raise Forbidden("Only moderators can hide messages.")
    now = timezone.now()
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().filter(pk=message_id).first()
        if message is None:
            raise NotFound("No such message.")
        if message.hidden_at is None:
            message.hidden_at = now
            message.hidden_by = moderator
            message.save(update_fields=["hidden_at", "hidden_by"])
            _announce(message.match_id)
        message.reports.filter(handled_at__isnull=True).update(handled_at=now, handled_by=moderator)
    return message


def is_chat_moderator(user: Viewer) -> bool:
    """Staff with the Moderators group's permission to hide messages (superusers too)."""
    return bool(user is not None and user.is_staff and user.has_perm("games.moderate_chat"))


def _announce(match_id: int) -> None:
    """Send ``chat_changed`` once the change has committed."""
    transaction.on_commit(lambda: chat_changed.send(ChatMessage, match_id=match_id))


def _match(match_id: int) -> Match:
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise NotFound("No such match.")
    return match


def _require_player(match: Match, user: Player) -> None:
    if match.player_index(user) is None:
        raise Forbidden(_("Only the two players of a match talk in it."))
