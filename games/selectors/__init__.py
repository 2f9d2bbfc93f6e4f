"""Reads that pages and the API share: lists of matches, a match as a viewer sees it, and
what a player may do in it; never a write (the services may read through these)."""

from __future__ import annotations

import functools
from collections.abc import Collection
from typing import Any

from django.db.models import (
    Case,
    CharField,
    Exists,
    ForeignKey,
    OuterRef,
    Q,
    QuerySet,
    Value,
    When,
)
from django.utils.translation import gettext as _

from accounts.models import is_computer
from accounts.names import match_names
from backgammon_site.core.variants import variant_title
from games.clocks.rules import UNTIMED, TimeControl
from games.clocks.standing import Clocks
from games.engine import BAR, MatchState, format_play
from games.engine.match_ids import gnubg_ids, xgid_of
from games.models import Challenge, ChatMessage, ChatMute, Match, Player
from ratings.models import RatingChange

from .chat import chat_conversation as chat_conversation
from .chat import chat_for_player as chat_for_player
from .droppers import entries_with_timeouts as entries_with_timeouts
from .droppers import timeout_records as timeout_records
from .match_views import (
    BoardView,
    CubeView,
    DiceSeedsView,
    GameView,
    LastPlayView,
    RatingChangeView,
    ResignationView,
)
from .match_views import MatchView as MatchView
from .match_views import Viewer as Viewer
from .positions import running_position_ids as running_position_ids
from .tournaments import bracket_rounds as bracket_rounds
from .tournaments import tournament_entrants as tournament_entrants
from .tournaments import tournament_of_match as tournament_of_match
from .tournaments import tournament_with_players as tournament_with_players
from .tournaments import tournaments_listed as tournaments_listed
from .tournaments import tournaments_of_player as tournaments_of_player

MATCH_STATUSES = ("active", "finished")


def player_by_name(username: str) -> Player | None:
    """The player called ``username``, with their profile; None when there is none.

    A name no account can have (with a NUL character, which PostgreSQL refuses in a query,
    or longer than any username) is not looked up at all.
    """
    field = Player._meta.get_field(Player.USERNAME_FIELD)
    assert isinstance(field, CharField) and field.max_length is not None
    if "\x00" in username or len(username) > field.max_length:
        return None
    return Player.objects.select_related("profile").filter(username=username).first()


def matches_for_list(
    *,
    viewer: Player | None = None,
    mine: bool = False,
    status: str | None = None,
    player: str | None = None,
) -> QuerySet[Match]:
    """Matches, newest activity first; ``mine`` puts those awaiting the viewer first.

    Casual matches (untimed: pass-and-play, a guest against the computer) are listed only to
    their own players, who alone may read them (``may_read``)."""
    matches = Match.objects.select_related(
        "first_player__profile", "second_player__profile", "winner", "to_act"
    )
    if status:
        matches = matches.filter(status=status)
    if player:
        matches = matches.filter(
            Q(first_player__username=player) | Q(second_player__username=player)
        )
    if mine and viewer is not None:
        matches = matches.filter(Q(first_player=viewer) | Q(second_player=viewer))
        return matches.order_by(_awaiting_first(viewer), "-updated_at", "-pk")
    casual = Q(time_control__kind=UNTIMED)
    if viewer is not None:
        casual &= ~Q(first_player=viewer) & ~Q(second_player=viewer)
    return matches.exclude(casual).order_by("-updated_at", "-pk")


def _awaiting_first(viewer: Player) -> Any:
    from django.db.models import IntegerField

    return Case(When(to_act=viewer, then=Value(0)), default=Value(1), output_field=IntegerField())


def challenges_for(viewer: Player, direction: str | None = None) -> QuerySet[Challenge]:
    """Open challenges: to the viewer, from the viewer, or open to anyone."""
    challenges = Challenge.objects.select_related(
        "challenger__profile", "opponent__profile", "match"
    ).filter(status=Challenge.Status.OPEN)
    if direction == "incoming":
        challenges = challenges.filter(opponent=viewer)
    elif direction == "outgoing":
        challenges = challenges.filter(challenger=viewer)
    elif direction == "open":
        challenges = challenges.filter(opponent__isnull=True).exclude(challenger=viewer)
    else:
        challenges = challenges.filter(
            Q(opponent=viewer) | Q(challenger=viewer) | Q(opponent__isnull=True)
        )
    return challenges.order_by("-created_at", "-pk")


def players_of_match(match_id: int) -> tuple[int, ...]:
    """The user ids of a match's two players (none if there is no such match)."""
    ids = Match.objects.filter(pk=match_id).values_list("first_player_id", "second_player_id")
    return tuple(ids.first() or ())


def parties_of_challenge(challenge_id: int) -> tuple[int | None, int | None] | None:
    """A challenge's challenger and opponent ids (None for an open challenge's opponent), or
    None if there is no such challenge."""
    ids = Challenge.objects.filter(pk=challenge_id).values_list("challenger_id", "opponent_id")
    return ids.first()


def may_read(match: Match, readers: Collection[int]) -> bool:
    """Whether a visitor playing as ``readers`` (account ids) may see ``match``: anyone may
    watch a match, but a casual one only its own players (a guest's, or two at one screen):
    it is not played for an audience, and counting ids must not find it."""
    players = {match.first_player_id, match.second_player_id}
    return not is_casual(match) or not players.isdisjoint(readers)


def match_outline(match_id: int, *, readers: Collection[int]) -> Match | None:
    """How far a match has gone (its seq and deadline) and who plays it, reading only that;
    None when there is no such match or ``readers`` may not see it (``may_read``)."""
    match = (
        Match.objects.filter(pk=match_id)
        .only("seq", "deadline", "time_control", "first_player_id", "second_player_id")
        .first()
    )
    return match if match is not None and may_read(match, readers) else None


def match_with_players(
    match_id: int, *, readers: Collection[int], chat_of: int | None = None
) -> Match | None:
    """A match with its players and their profiles (their looks), in one query, for showing it;
    None when there is no such match or ``readers`` may not see it (``may_read``). With
    ``chat_of`` (a user id), also whether that user muted the chat and whether anything
    was said, for ``chat_for_player``.

    The winner and the player to act are among the two players, so they are taken from them
    rather than joined again: each join costs the ORM more to compile than PostgreSQL to run."""
    found = Match.objects.select_related("first_player__profile", "second_player__profile")
    if chat_of is not None:
        found = found.annotate(
            chat_muted=Exists(ChatMute.objects.filter(match=OuterRef("pk"), muter_id=chat_of)),
            chat_said=Exists(
                ChatMessage.objects.filter(match=OuterRef("pk"), hidden_at__isnull=True)
            ),
        )
    try:
        match = found.get(pk=match_id)
    except Match.DoesNotExist:
        return None
    if not may_read(match, readers):
        return None
    match.chat_of = chat_of  # type: ignore[attr-defined]
    players = {user.pk: user for user in (match.first_player, match.second_player)}
    for name in ("winner", "to_act"):
        field = Match._meta.get_field(name)
        assert isinstance(field, ForeignKey)
        user_id = getattr(match, field.attname)
        if user_id is None or user_id in players:
            field.set_cached_value(match, players.get(user_id))
    return match


def match_state(match: Match) -> MatchState:
    return match.folded_state()


def match_summary(match: Match) -> dict[str, Any]:
    """A line in a list of matches."""
    state = match_state(match)
    return {
        "id": match.pk,
        "seq": match.seq,
        "status": match.status,
        "players": [user.get_username() for user in match.players],
        "variant": match.variant,
        "match_length": match.match_length,
        "score": list(state.score),
        "rated": match.rated,
        "to_act": _name(match.to_act),
        "winner": _name(match.winner),
        "updated_at": match.updated_at,
    }


def match_view(match: Match, viewer: Viewer, *, for_page: bool = False) -> MatchView:
    """Everything about a match that its page shows, plus what ``viewer`` may do now.

    Players are named by username (the API's names), or ``for_page`` by the names pages show
    (accounts.names); ``usernames`` and the cube's ``owner`` stay usernames either way, for
    the board's markup."""
    state = match_state(match)
    players = match.players
    usernames = (players[0].get_username(), players[1].get_username())
    names = match_names(*players) if for_page else usernames
    board = state.board_for(0)
    points = board.points
    you = match.player_index(viewer)
    seen_by = you if you is not None else state.turn if state.turn is not None else 0
    legal_actions = state.legal_actions(you) if you is not None else ()
    ending = ending_actions(match, state, you) if you is not None else ()
    plays = tuple(legal_play_notations(state)) if "move" in legal_actions else ()
    last = state.last_play
    ids = match_ids(state)
    cube_owner = state.cube_owner
    return MatchView(
        id=match.pk,
        seq=match.seq,
        status=match.status,
        phase=state.phase,
        players=names,
        usernames=usernames,
        you=you,
        variant=state.rules.variant,
        variant_title=variant_title(state.rules.variant),
        game_variant=state.game_variant.name,
        game_variant_title=variant_title(state.game_variant.name),
        match_format=(
            Challenge.MatchFormat.BEST_OF_THREE
            if state.rules.counts_games()
            else Challenge.MatchFormat.POINTS
        ),
        cube_in_use=state.has_cube(),
        match_length=state.match_length,
        rated=match.rated,
        time_control=match.time_control,
        score=state.score,
        games_won=state.games_won(),
        game_number=state.game_number,
        crawford=state.crawford,
        post_crawford=state.is_post_crawford(),
        cube=CubeView(
            value=state.cube_value,
            owner=None if cube_owner is None else usernames[cube_owner],
            owner_name=None if cube_owner is None else names[cube_owner],
        ),
        turn=None if state.turn is None else names[state.turn],
        to_act=_name_in(match, match.to_act, names),
        dice=None if state.dice is None else (state.dice.first, state.dice.second),
        climbing=state.is_climbing(),
        board=BoardView(
            points=points[1:BAR],
            pinned=board.pinned[1:BAR],
            bar=(points[BAR], points[0]),
            off=board.borne_off(),
            waiting=board.waiting,
        ),
        board_text=state.board_for(seen_by).text(),
        board_seen_by=names[seen_by],
        pip_counts=state.pip_counts(),
        position_id=ids["position_id"],
        match_id=ids["match_id"],
        xgid=ids["xgid"],
        resignation=(
            ResignationView(by=names[state.turn], points=state.resignation)
            if state.resignation is not None and state.turn is not None
            else None
        ),
        last_play=(
            LastPlayView(
                player=names[last.player],
                dice=(last.dice.first, last.dice.second),
                play=format_play(last.play),
            )
            if last is not None
            else None
        ),
        games=tuple(
            GameView(
                number=game.number,
                winner=None if game.winner is None else names[game.winner],
                points=game.points,
                result=game.result,
                crawford=game.crawford,
            )
            for game in state.games
        ),
        winner=_name_in(match, match.winner, names),
        end_reason=state.end_reason,
        end_offered_by=None if state.end_offered_by is None else names[state.end_offered_by],
        deadline=match.deadline,
        clocks=match_clocks(match, names),
        dice_seeds=DiceSeedsView(
            player_seeds=tuple(match.player_seeds),
            revealed=match.status == Match.Status.FINISHED,
        ),
        legal_actions=tuple(legal_actions),
        ending_actions=tuple(ending),
        legal_plays=plays,
        rating_changes=rating_changes(match, names),
        tutor=tutor_verdict_for(match, you) if tutored_seat(match) == you else None,
        created_at=match.created_at,
        updated_at=match.updated_at,
    )


def tutored_seat(match: Match) -> int | None:
    """The seat of the player the tutor helps (the one who is not the computer); None when the
    match has no tutor."""
    if not match.tutored:
        return None
    return next(
        (seat for seat, player in enumerate(match.players) if not is_computer(player)), None
    )


def tutor_verdict_for(match: Match, seat: int | None) -> dict[str, Any] | None:
    """The tutor's last verdict, for the player it helps; None for anyone else, or before
    their first play with a choice."""
    verdict = match.tutor_verdict
    if seat is None or verdict is None or verdict.get("player") != seat:
        return None
    return dict(verdict)


def match_ids(state: MatchState) -> dict[str, str | None]:
    """gnubg's Position ID (from the side of the player on roll) and Match ID and XG's XGID,
    each None where the match's variant has none."""
    if state.has_gnubg_ids():
        position_id, match_id = gnubg_ids(state)
        return {"position_id": position_id, "match_id": match_id, "xgid": xgid_of(state)}
    on_roll = state.turn if state.turn is not None else 0
    return {"position_id": state.position_id(on_roll), "match_id": None, "xgid": None}


def legal_play_notations(state: MatchState) -> list[str]:
    """Every legal play of the player on roll, in notation, in any variant.

    The plays of the last few states are kept: an action lists them to see whether the play
    is forced, and its answer lists them again for the player. A state is a frozen value, so
    it is its own key."""
    return list(_kept_play_notations(state))


_kept_play_notations = functools.lru_cache(maxsize=64)(MatchState.legal_play_notations)


def match_clocks(match: Match, names: tuple[str, str]) -> Clocks:
    """Both players' time, each named by ``names``. The clock of the player to act runs until
    ``deadline``; the others' time left is as it stood when their last decision ended."""
    control = TimeControl.of(match.time_control)
    running = match.player_index(match.to_act) if match.deadline is not None else None
    first, second = list(match.clocks) or control.starting_clocks()
    return Clocks(
        kind="live" if control.live else UNTIMED if control.untimed else "correspondence",
        per_move_seconds=control.per_move.total_seconds(),
        increment_seconds=control.increment.total_seconds(),
        time_left_seconds=(first, second),
        running=None if running is None else names[running],
        paused_time_left_seconds=match.paused_time_left,
    )


def _name(user: Player | None) -> str | None:
    return None if user is None else user.get_username()


def _name_in(match: Match, user: Player | None, names: tuple[str, str]) -> str | None:
    """``user``, a player of ``match`` or None, by the name ``names`` gives their seat."""
    seat = None if user is None else match.player_index(user)
    return None if seat is None else names[seat]


def ending_actions(match: Match, state: MatchState, player: int) -> tuple[str, ...]:
    """The ending actions (abort, offer_end, accept_end, decline_end) ``player`` may take now,
    whoever is to act: abort or offer to end as this match allows (``why_ending_refused``),
    and the answers to an offer that stands."""
    allowed = tuple(
        action
        for action in ("abort", "offer_end")
        if why_ending_refused(match, state, action) is None
        and not (action == "offer_end" and state.end_offered_by is not None)
    )
    return allowed + state.end_answers(player)


def why_ending_refused(match: Match, state: MatchState, action: str) -> str | None:
    """Why a player may not ``abort`` or ``offer_end`` the match now; None when they may.

    Before anyone has moved, either player may abort any match. After that an unrated match
    against the computer may be ended (aborted) at any time, an unrated match between people
    by agreement, and a rated match not at all: it is resigned.
    """
    if state.is_finished():
        return _("The match is over.")
    if action == "abort" and not state.has_begun():
        return None
    if is_casual(match):
        # One person at the table, or a guest and the computer: nobody to ask.
        return None if action == "abort" else _("Nobody to ask in casual play: end the match.")
    if action == "offer_end" and not state.has_begun():
        return _("Nobody has moved yet: abort the match instead.")
    if match.rated:
        return _("A rated match cannot be ended once a player has moved: resign instead.")
    computer = against_computer(match)
    if action == "abort" and not computer:
        return _("Once a player has moved, the match ends only by agreement: offer to end it.")
    if action == "offer_end" and computer:
        return _("The computer does not answer offers: end the game instead.")
    return None  # the rules refuse a second offer, saying why


def is_casual(match: Match) -> bool:
    """A match of casual play (pass-and-play, or the computer from the home page): untimed,
    unrated, shown only to its players, and ended at any time by either of them."""
    return match.time_control.get("kind") == UNTIMED


def against_computer(match: Match) -> bool:
    """One of the players is a computer opponent (asked once per Match instance)."""
    known: bool | None = getattr(match, "_against_computer", None)
    if known is None:
        known = any(is_computer(player) for player in match.players)
        match._against_computer = known  # type: ignore[attr-defined]
    return known


def rating_changes(
    match: Match, names: tuple[str, str] | None = None
) -> tuple[RatingChangeView, ...]:
    """What a rated, finished match did to each player's rating, in seat order (each player
    named by ``names``, else their username); empty until the match has been rated."""
    if not match.rated or match.status != Match.Status.FINISHED:
        return ()
    changes = {change.user_id: change for change in RatingChange.objects.filter(match=match)}
    if len(changes) != 2:
        return ()
    return tuple(
        RatingChangeView(
            player=player.get_username() if names is None else names[seat],
            rating_before=changes[player.pk].rating_before,
            rating_after=changes[player.pk].rating_after,
            difference=changes[player.pk].difference,
            provisional=changes[player.pk].is_provisional,
        )
        for seat, player in enumerate(match.players)
    )


def rematches(match: Match) -> list[Challenge]:
    """The rematches of a finished match that stand: offers still open (at most one from each
    player) and the one accepted, with its new match."""
    return list(
        Challenge.objects.filter(
            rematch_of=match, status__in=(Challenge.Status.OPEN, Challenge.Status.ACCEPTED)
        ).order_by("-created_at", "-pk")
    )


def next_match_waiting(player: Player) -> Match | None:
    """The active match that has waited longest for ``player`` to act, if any."""
    return (
        Match.objects.filter(to_act=player, status=Match.Status.ACTIVE)
        .order_by("updated_at", "pk")
        .only("pk")
        .first()
    )
