"""A match as one line of a list (the lobby, the watch list, a profile), said for its viewer."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from accounts.names import match_names
from accounts.rewards import wears_crown
from games import selectors
from games.engine import MatchState
from games.models import Match, Player, Viewer
from ratings import selectors as rating_selectors


@dataclass(frozen=True)
class MatchRow:
    """What a list shows of a match. ``you`` is the player index of whoever the list is about
    (the viewer, or the player whose profile it is), None for a list of anyone's matches.
    ``ratings`` are the players' ratings today, None for a player not rated yet. ``players``
    are the names pages show, ``usernames`` what links name them by."""

    id: int
    players: tuple[str, str]
    usernames: tuple[str, str]
    score: tuple[int, int]
    match_length: int
    rated: bool
    finished: bool
    winner: int | None
    you: int | None
    your_turn: bool
    waiting: str
    updated_at: datetime
    deadline: datetime | None = None
    crowned: tuple[bool, bool] = (False, False)
    ratings: tuple[float | None, float | None] = (None, None)
    variant: str = "Backgammon"
    """The match's variant for people: Backgammon, Plakoto, Tavli, ..."""

    @property
    def opponent_rating(self) -> float | None:
        return None if self.you is None else self.ratings[1 - self.you]

    @property
    def opponent(self) -> str | None:
        return None if self.you is None else self.players[1 - self.you]

    @property
    def opponent_username(self) -> str | None:
        return None if self.you is None else self.usernames[1 - self.you]

    @property
    def opponent_crowned(self) -> bool:
        return self.you is not None and self.crowned[1 - self.you]

    @property
    def your_score(self) -> int | None:
        return None if self.you is None else self.score[self.you]

    @property
    def their_score(self) -> int | None:
        return None if self.you is None else self.score[1 - self.you]

    @property
    def result(self) -> str:
        """For a finished match seen by one of its players: won, lost or no winner (a key
        pages style by; ``result_words`` says it)."""
        if self.you is None or not self.finished:
            return ""
        if self.winner is None:
            return "no winner"
        return "won" if self.winner == self.you else "lost"

    @property
    def result_words(self) -> str:
        """``result`` in the reader's language."""
        return {
            "no winner": pgettext("match result", "no winner"),
            "won": pgettext("match result", "won"),
            "lost": pgettext("match result", "lost"),
        }.get(self.result, "")


def match_rows(
    matches: Iterable[Match], viewer: Viewer = None, *, about: Player | None = None
) -> list[MatchRow]:
    """Rows for ``matches``, which must come with their players and their profiles
    (``matches_for_list`` loads them).

    ``about`` is the player the list is about (default: the viewer); "Your turn" is said only
    to the viewer.
    """
    matches = list(matches)
    ratings = rating_selectors.ratings_for(
        (player_id, match.variant)
        for match in matches
        for player_id in (match.first_player_id, match.second_player_id)
    )

    def rating(player_id: int, variant: str) -> float | None:
        found = ratings.get((player_id, variant))
        return None if found is None else found.rating

    rows = []
    for match in matches:
        state = selectors.match_state(match)
        names = match_names(match.first_player, match.second_player)
        you = match.player_index(viewer if about is None else about)
        viewer_index = match.player_index(viewer)
        rows.append(
            MatchRow(
                id=match.pk,
                players=names,
                usernames=(match.first_player.get_username(), match.second_player.get_username()),
                score=(state.score[0], state.score[1]),
                match_length=match.match_length,
                variant=str(match.variant_title),
                rated=match.rated,
                finished=match.status == Match.Status.FINISHED,
                winner=state.winner,
                you=you,
                your_turn=viewer_index is not None and state.player_to_act() == viewer_index,
                waiting=waiting_words(state, names, viewer_index),
                updated_at=match.updated_at,
                deadline=match.deadline,
                crowned=(wears_crown(match.first_player), wears_crown(match.second_player)),
                ratings=(
                    rating(match.first_player_id, match.variant),
                    rating(match.second_player_id, match.variant),
                ),
            )
        )
    return rows


def waiting_words(state: MatchState, names: tuple[str, str], you: int | None) -> str:
    """What the match waits for: ``Your turn to roll``, ``bob to play 6-5``, ``alice won``."""
    if state.is_finished():
        if state.winner is None:
            return _("Ended without a winner")
        return _("%(player)s won") % {"player": names[state.winner]}
    to_act = state.player_to_act()
    if to_act is None:
        return _("Waiting for the opening roll")
    yours = to_act == you
    said = {"player": names[to_act], "dice": state.dice, "cube": state.cube_value * 2}
    if state.phase == "rolling" and state.can_double(to_act):
        text = _("Your turn to roll or double") if yours else _("%(player)s to roll or double")
    elif state.phase == "rolling":
        text = _("Your turn to roll") if yours else _("%(player)s to roll")
    elif state.phase == "moving":
        text = _("Your turn to play %(dice)s") if yours else _("%(player)s to play %(dice)s")
    elif state.phase == "doubled":
        text = (
            _("Your turn to take or drop the cube at %(cube)s")
            if yours
            else _("%(player)s to take or drop the cube at %(cube)s")
        )
    else:
        text = (
            _("Your turn to accept or reject a resignation")
            if yours
            else _("%(player)s to accept or reject a resignation")
        )
    return text % said
