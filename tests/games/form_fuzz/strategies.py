"""Values a form field may be sent: the ones the page offers, and everything else.

Everything else is what a browser never sends but anyone can: NUL and other control
characters, digits that are not ASCII (``²`` passes ``str.isdigit`` and fails ``int``), numbers
too long for ``int``, non-finite floats, very long text, nothing at all, several values for one
name. Only text UTF-8 can encode: the test client sends bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st


class Live:
    """A value the page offers that depends on the world when it is sent (the match's seq, a
    legal play): drawn as its name, read just before sending."""

    def __init__(self, name: str, read: Callable[[Any], str]) -> None:
        self.name = name
        self.read = read

    def __repr__(self) -> str:
        return f"Live({self.name})"


class Long(str):
    """A long value, shown short in a failing example's report."""

    def __repr__(self) -> str:
        return f"{self[:1]!r} * {len(self)}"


#: Every field of every form gets each of these once (test_known_bad_values).
KNOWN_BAD = (
    "",
    "\x00",
    "\u00b2",  # superscript two: isdigit() but not int()
    "\u0663",  # Arabic-Indic three: int() reads it
    Long("9" * 5000),  # more digits than int() reads
    "1e309",  # a float too large: inf
    "-1",
    Long("x" * 70_000),  # more than a request body may hold
)

#: Other awkward values, for the fuzzing.
AWKWARD = (
    " ",
    "a\x00b",
    "\uff11",  # fullwidth one
    "0",
    "-0",
    "1.5",
    "nan",
    "inf",
    "-inf",
    "0x10",
    "true",
    "null",
    "[]",
    "'",
    '"',
    "<script>",
    "%00",
    "../",
    "\u202e",
    "\ufeff",
    "\U0001f3b2",
    Long("x" * 300),
)

#: Numbers in other scripts, and superscripts and circled digits that are digits to
#: ``str.isdigit`` only.
UNICODE_NUMBERS = st.text(alphabet=st.characters(categories=["Nd", "No"]), min_size=1, max_size=3)

#: Any text UTF-8 can encode, control characters included.
ANY_TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=40)

NUMBERS = st.one_of(
    st.integers().map(str),
    st.integers(min_value=10**18, max_value=10**40).map(str),
    st.floats().map(str),
)

NASTY = st.one_of(
    st.sampled_from(KNOWN_BAD), st.sampled_from(AWKWARD), UNICODE_NUMBERS, ANY_TEXT, NUMBERS
)


def anything(offered: tuple[Any, ...]) -> st.SearchStrategy[Any]:
    """What a field may carry: something nasty, or what the page offers; sometimes several
    values under its name; None when the field is left out."""
    present = tuple(value for value in offered if value is not None)
    one = st.one_of(NASTY, st.sampled_from(present)) if present else NASTY
    return st.one_of(NASTY, NASTY, st.lists(one, min_size=2, max_size=3), st.none())


def ids() -> st.SearchStrategy[int]:
    """An id in a path that no page links to: of nothing, or too large for the database."""
    return st.one_of(st.integers(min_value=0, max_value=2**31), st.integers(min_value=2**63))
