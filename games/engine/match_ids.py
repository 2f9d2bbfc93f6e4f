"""A match state in the identifiers other programs read: GNU Backgammon's IDs and XGID."""

from __future__ import annotations

from .errors import InvalidPositionError
from .gnubg import MatchKey, match_id
from .match import MatchState
from .xgid import XgidState, xgid

_GAME_STATES = {"opening": 0, "finished": 2}


def gnubg_ids(state: MatchState) -> tuple[str, str]:
    """The Position ID (from the side of the player on roll) and the Match ID.

    >>> from .match import MatchState
    >>> gnubg_ids(MatchState.new(5))
    ('4HPwATDgc/ABMA', 'MACgAAAAAAAE')
    """
    _check_described(state)
    return state.position_for(_on_roll(state)).position_id(), match_id(match_key(state))


def match_key(state: MatchState) -> MatchKey:
    """The Match ID's fields for ``state``; gnubg's player 0 and 1 are ours."""
    on_roll = _on_roll(state)
    to_act = state.player_to_act()
    dice = state.dice
    return MatchKey(
        cube_value=state.cube_value,
        cube_owner=state.cube_owner,
        player_on_roll=on_roll,
        crawford=state.crawford,
        game_state=_GAME_STATES.get(state.phase, 1),
        turn=on_roll if to_act is None else to_act,
        doubled=state.phase == "doubled",
        resigned=state.resignation or 0,
        dice=(dice.high, dice.low) if dice is not None else (0, 0),
        match_length=state.match_length,
        # A gammon can carry the winner past the match length; the ID records at most it.
        score=(min(state.score[0], state.match_length), min(state.score[1], state.match_length)),
    )


def xgid_of(state: MatchState) -> str:
    """The XGID of ``state``, with our player 0 as XG's bottom player X."""
    _check_described(state)
    on_roll = _on_roll(state)
    dice = state.dice
    owner = {None: 0, 0: 1, 1: -1}[state.cube_owner]
    return xgid(
        XgidState(
            position=state.position,
            cube_value=state.cube_value,
            cube_owner=owner,
            turn=1 if on_roll == 0 else -1,
            dice=(dice.high, dice.low) if dice is not None else None,
            doubled=state.phase == "doubled",
            score_x=min(state.score[0], state.match_length),
            score_o=min(state.score[1], state.match_length),
            crawford_jacoby=int(state.crawford),
            match_length=state.match_length,
        )
    )


def _check_described(state: MatchState) -> None:
    """gnubg's and XG's identifiers describe the backgammon family's matches only."""
    if not state.has_gnubg_ids():
        raise InvalidPositionError(
            f"gnubg's Match ID and the XGID describe backgammon, nackgammon and hypergammon "
            f"matches, not {state.rules.title}"
        )


def _on_roll(state: MatchState) -> int:
    return 0 if state.turn is None else state.turn
