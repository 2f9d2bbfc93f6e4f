"""The computer's own player for plakoto, fevga, long nardi, Gul Bara, Jacquet and acey-deucey:
expectimax over the dice.

Django-free. At one ply a play is judged by the position it leaves (``variant_eval.judge``);
at two plies the best few plays at one ply are looked at again through each of the other
side's 21 rolls, the other side answering each roll with its best play at one ply, and
scored by the average over the rolls. An equity is what the chances are worth to the side
at the match's stakes (``stakes.Stakes``): a single game won at the current cube is +1.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.computer.stakes import Chances, Stakes
from games.computer.variant_eval import judge, judge_counts
from games.engine import Dice
from games.engine.board import Board
from games.engine.variant_moves import PlaySearch, VariantPlay, game_end, variant_plays

ROLLS: tuple[tuple[Dice, int], ...] = tuple(
    (Dice(high, low), 1 if high == low else 2) for high in range(1, 7) for low in range(1, high + 1)
)
"""The 21 rolls, each with how many of the 36 ways to roll it."""
DEEPER = 4
"""How many of the best plays at one ply a two-ply search looks at again."""


@dataclass(frozen=True, slots=True)
class JudgedPlay:
    """A legal play and its equity for the side that plays it."""

    play: VariantPlay
    equity: float

    @property
    def notation(self) -> str:
        return self.play.notation


def rank_plays(board: Board, dice: Dice, stakes: Stakes, *, plies: int = 1) -> list[JudgedPlay]:
    """The legal plays of ``dice`` on ``board`` (seen by the side on roll), best first; at two
    plies only the best few at one ply, judged again. Empty when nothing can be played."""
    judged = sorted(
        (JudgedPlay(play, stakes.equity(judge(play.after))) for play in variant_plays(board, dice)),
        key=lambda judged_play: -judged_play.equity,
    )
    if plies < 2 or len(judged) < 2:
        return judged
    return sorted(
        (JudgedPlay(j.play, after_replies(j.play.after, stakes)) for j in judged[:DEEPER]),
        key=lambda judged_play: -judged_play.equity,
    )


def after_replies(board: Board, stakes: Stakes) -> float:
    """The equity of the side that has just moved to ``board``, averaged over the other
    side's rolls, each answered by its best play at one ply."""
    if game_end(board) is not None:
        return stakes.equity(judge(board))
    theirs = board.flipped()
    their_stakes = stakes.flipped()
    total = 0.0
    for dice, ways in ROLLS:
        total += ways * best_equity(theirs, dice, their_stakes)
    return -total / 36


def best_equity(board: Board, dice: Dice, stakes: Stakes) -> float:
    """The equity of the best play of ``dice`` at one ply, for the side on roll; the board
    as it stands when nothing can be played."""
    variant = board.variant
    search = PlaySearch(board, dice)
    answers = search.boards_after()
    if not answers:
        return stakes.equity(judge(board))
    if variant.hits:
        return max(stakes.equity(judge(search.board_of(answer))) for answer in answers)
    return max(stakes.equity(judge_counts(variant, *answer)) for answer in answers)


def chances_on_roll(board: Board) -> Chances:
    """The chances of the side on roll, before it rolls."""
    return judge(board.flipped()).flipped()
