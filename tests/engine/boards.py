"""Hypothesis strategies for boards, shared by the tests of the identifiers."""

from collections import Counter

from hypothesis import strategies as st

from games.engine import Position


@st.composite
def positions(draw):
    """0 to 15 checkers a side on points and bars, never two colours on one point."""
    mine = Counter(draw(st.lists(st.integers(1, 25), max_size=15)))
    open_to_them = [p for p in range(1, 26) if p == 25 or 25 - p not in mine]
    theirs = Counter(draw(st.lists(st.sampled_from(open_to_them), max_size=15)))
    return Position.from_checkers(dict(mine), dict(theirs))
