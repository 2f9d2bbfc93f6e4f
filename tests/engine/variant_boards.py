"""Hand-made boards of any variant, written as the rules are: checkers by point."""

from games.engine.board import Board
from games.engine.dice import Dice
from games.engine.variant_moves import variant_plays
from games.engine.variants import Variant


def make(
    variant: Variant,
    mine: dict[int, int],
    theirs: dict[int, int],
    *,
    pins: dict[int, str] | None = None,
    bars: tuple[int, int] = (0, 0),
) -> Board:
    """A board from the mover's side: ``mine`` and ``theirs`` as positive counts on the mover's
    points; ``pins`` gives plakoto tokens (``"1p1"``, ``"-2p1"``) for points with both colours."""
    tokens = ["0"] * 25
    for point, count in mine.items():
        tokens[point] = str(count)
    for point, count in theirs.items():
        assert tokens[point] == "0", f"both colours on {point}: use pins"
        tokens[point] = str(-count)
    for point, token in (pins or {}).items():
        tokens[point] = token
    on_board = [bars[0], bars[1]]
    for token in tokens[1:]:
        top, _, beneath = token.partition("p")
        count, under = int(top), int(beneath or 0)
        on_board[0] += count if count > 0 else under
        on_board[1] += -count if count < 0 else under
    off = [variant.checkers - n for n in on_board]
    text = f"{' '.join(tokens[1:])} | {off[0]} {off[1]} {bars[0]} {bars[1]}"
    return Board.parse(variant, text)


def plays(board: Board, first: int, second: int) -> set[str]:
    """The notations of the legal plays."""
    return {play.notation for play in variant_plays(board, Dice(first, second))}


def after(board: Board, first: int, second: int) -> dict[str, str]:
    """Each legal play's notation and the text board after it."""
    return {play.notation: play.after.text() for play in variant_plays(board, Dice(first, second))}
