"""The family's generator against the oracles there are: backgammon's own generator, bgsage for
the set-up variants; and the canonical notation's promise that one board has one spelling."""

import pytest

from games.engine import variant_moves
from games.engine.legal import legal_plays
from games.engine.notation import parse_play
from games.engine.selfplay import variant_self_play_pairs
from games.engine.variant_moves import variant_plays
from games.engine.variants import BACKGAMMON, HYPERGAMMON, NACKGAMMON, VARIANTS


def test_backgammon_through_the_family_generator_reaches_the_same_boards_as_legal_plays():
    for board, dice in variant_self_play_pairs(BACKGAMMON, 200, seed=3):
        position = board.to_position()
        ours = {play.after.points for play in variant_plays(board, dice)}
        theirs = {position.apply(play).points for play in legal_plays(position, dice)}
        assert ours == theirs, (board.text(), dice)


def test_backgammon_reads_the_family_notation_as_the_same_play():
    # legal_plays may split one checker's path differently ("9/6 6/2" where this writes "9/2");
    # the notation still names the same play.
    for board, dice in variant_self_play_pairs(BACKGAMMON, 100, seed=4):
        position = board.to_position()
        for play in variant_plays(board, dice):
            parsed = parse_play(play.notation, position, dice)
            assert position.apply(parsed).points == play.after.points, play.notation


class _EveryOrder(variant_moves.PlaySearch):
    """The generator without its memory of visited boards: it walks every order of moves."""

    def _extend(self, state, left, moves, dice):
        total = len(self.dice.moves())
        if self._in_play(state) == 0:
            self.ends.append((total, tuple(moves), tuple(dice), state))
            return
        moved = False
        for die in sorted(set(left), reverse=True):
            rest = list(left)
            rest.remove(die)
            for step in self.single_moves(state, die):
                moved = True
                moves.append(step)
                dice.append(die)
                self._extend(self.after_move(state, step), tuple(rest), moves, dice)
                moves.pop()
                dice.pop()
        if not moved:
            self.ends.append((total - len(left), tuple(moves), tuple(dice), state))


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_order_of_moves_that_reaches_a_board_spells_it_the_same(name):
    for board, dice in variant_self_play_pairs(VARIANTS[name], 60, seed=5):
        search = _EveryOrder(board, dice)
        expected = {play.after.points + play.after.pinned: play for play in search.plays()}
        most = max((used for used, *_ in search.ends), default=0)
        for used, moves, _, state in search.ends:
            if used != most or not moves:
                continue
            play = expected.get(state[0] + state[1])
            if play is None:  # the larger-die rule dropped it
                continue
            assert search._notation(moves, play.after) == play.notation, (board.text(), dice)


@pytest.mark.slow
@pytest.mark.parametrize("variant", [NACKGAMMON, HYPERGAMMON])
def test_the_set_up_variants_agree_with_bgsage_on_self_play(variant):
    pytest.importorskip("bgsage", reason="bgsage is the oracle; it is in requirements.txt")
    from games.engine.oracle import variant_disagreements

    pairs = variant_self_play_pairs(variant, 3000, seed=7)
    assert sum(1 for board, _ in pairs if board.points[25]) > 100
    found = variant_disagreements(pairs)
    assert found == [], f"{len(found)} disagreements, first: {found[:1]}"
