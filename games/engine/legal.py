"""Every legal play of a roll.

The rules, as the generator applies them: a checker on the bar enters before anything else
moves; a point held by two or more opposing checkers is closed; landing on a lone opposing
checker hits it; both dice are played when any order allows it, else the higher die if it can
be, else the lower; a double plays as many of its four moves as possible; a checker bears off
only when all fifteen are home, from the exact point, or with a higher die from the highest
occupied point; bearing off the last checker ends the play, whatever dice are left.
"""

from __future__ import annotations

from .dice import Dice
from .play import BAR, OFF, Move, Play, make_move
from .position import Position

_NO_PLAYS: tuple[Play, ...] = (Play(),)


def legal_plays(position: Position, dice: Dice) -> tuple[Play, ...]:
    """Every distinct legal play: plays that end in the same position are one play.

    Returns an empty tuple when the roll cannot be played at all.

    >>> from .play import format_play
    >>> for play in legal_plays(Position.starting(), Dice(6, 5)):
    ...     print(format_play(play))
    24/13
    24/18 13/8
    24/18 8/3
    13/8 13/7
    13/7 8/3
    13/2
    8/3 8/2
    """
    board = list(position.points)
    outside = board[BAR] + sum(n for n in board[7:BAR] if n > 0)
    in_play = outside + sum(n for n in board[1:7] if n > 0)
    if dice.first == dice.second:
        return _plays_of_double(board, dice.first, outside, in_play)
    return _plays_of_two_dice(board, dice.high, dice.low, outside, in_play)


def _single_moves(board: list[int], die: int, outside: int) -> list[Move]:
    """The moves one die allows on ``board``; ``outside`` counts checkers not yet home."""
    if board[BAR] > 0:
        entry = board[BAR - die]
        return [make_move(BAR, die, entry == -1)] if entry >= -1 else []
    moves = []
    all_home = not outside
    higher_checker = False
    for source in range(24 if outside else 6, 0, -1):
        if board[source] <= 0:
            continue
        destination = source - die
        if destination > 0:
            landing = board[destination]
            if landing >= -1:
                moves.append(make_move(source, die, landing == -1))
        elif all_home and (destination == 0 or not higher_checker):
            moves.append(make_move(source, die))
        higher_checker = True
    return moves


def _do(board: list[int], move: Move) -> None:
    board[move.source] -= 1
    if move.hit:
        board[move.destination] = 1
        board[0] += 1
    elif move.destination:
        board[move.destination] += 1


def _undo(board: list[int], move: Move) -> None:
    board[move.source] += 1
    if move.hit:
        board[move.destination] = -1
        board[0] -= 1
    elif move.destination:
        board[move.destination] -= 1


def _comes_home(move: Move) -> int:
    return 1 if move.source > 6 >= move.destination else 0


def _plays_of_two_dice(
    board: list[int], high: int, low: int, outside: int, in_play: int
) -> tuple[Play, ...]:
    plays: dict[int, Play] = {}
    singles: dict[int, list[Move]] = {high: [], low: []}
    for first, second in ((high, low), (low, high)):
        for move in _single_moves(board, first, outside):
            if in_play == 1 and move.destination == OFF:
                plays.setdefault(_key(move), Play((move,)))
                continue
            _do(board, move)
            follow_ups = _single_moves(board, second, outside - _comes_home(move))
            _undo(board, move)
            if not follow_ups:
                singles[first].append(move)
                continue
            key = _key(move)
            for follow_up in follow_ups:
                result = key + _key(follow_up)
                if result not in plays:
                    plays[result] = Play((move, follow_up))
    if plays:
        return tuple(plays.values())
    only = singles[high] or singles[low]
    return tuple(Play((move,)) for move in only)


def _plays_of_double(board: list[int], die: int, outside: int, in_play: int) -> tuple[Play, ...]:
    # Moves of one die commute, so playing sources from the highest down reaches every
    # result exactly once: no two orders, and no duplicate positions, to weed out.
    found: list[list[Play]] = [[], [], [], [], []]
    stack: list[Move] = []

    def extend(top: int, outside: int, in_play: int) -> bool:
        moved = False
        for move in _single_moves(board, die, outside):
            if move.source > top:
                continue
            moved = True
            stack.append(move)
            if len(stack) == 4 or (in_play == 1 and move.destination == OFF):
                found[4].append(Play(tuple(stack)))
            else:
                _do(board, move)
                left = in_play - (move.destination == OFF)
                if not extend(move.source, outside - _comes_home(move), left) and not found[4]:
                    found[len(stack)].append(Play(tuple(stack)))
                _undo(board, move)
            stack.pop()
        return moved

    extend(BAR, outside, in_play)
    for count in (4, 3, 2, 1):
        if found[count]:
            return tuple(found[count])
    return ()


def _key(move: Move) -> int:
    return _KEYS[move.source * 14 + move.die * 2 + move.hit]


def checker_flow(play: Play) -> int:
    """A number that two plays share exactly when they move the player's checkers alike.

    Hits are left out: plays with the same flow differ at most in what they hit.
    """
    key = sum(_KEYS[move.source * 14 + move.die * 2 + move.hit] for move in play.moves)
    return ((key + _HALF) & _OWN) - _HALF


def flow_between(source: int, destination: int) -> int:
    """The checker flow of taking one checker from ``source`` to ``destination``."""
    return (1 << 4 * destination) - (1 << 4 * source)


# A play's key is the sum of its moves' keys: four bits a point count the player's checkers
# gained or lost, and one bit a point above them marks a hit, so two plays share a key
# exactly when they end in the same position.
_OWN = (1 << 104) - 1
_HALF = 1 << 103
_KEYS = [0] * (26 * 14)
for _source in range(1, BAR + 1):
    for _die in range(1, 7):
        for _hit in (False, True):
            _move = make_move(_source, _die, _hit)
            _KEYS[_source * 14 + _die * 2 + _hit] = flow_between(_source, _move.destination) + (
                _hit << (104 + _move.destination)
            )
