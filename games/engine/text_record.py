"""A match as a text record people read: the file of the variants the .mat format cannot hold
(portes, plakoto, fevga, long nardi, Tavli), and of any match for whoever wants words.

A header (players, variant, length, then facts the caller knows, such as the date and the dice
commitment), then each game under its own heading, with its variant and the score before it:
every roll, play (in the variant's notation, from the mover's side) and cube action, one a
line, as ``words.event_words`` says them, the game's result on its last line. The match's end
closes the record.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .events import Event, OpeningRoll, PlayMade, Roll
from .match import MatchState
from .variants import MatchRules
from .words import event_words, points

#: The width of the player column of each line.
NAME_WIDTH = 12


def export_text_record(
    names: tuple[str, str],
    match_length: int,
    events: Iterable[Event],
    rules: MatchRules | None = None,
    facts: Sequence[tuple[str, str]] = (),
) -> str:
    """The text record of a match by ``rules`` whose rules events are ``events``, first to
    last; ``facts`` are more ``(label, value)`` lines for the header.

    >>> from .dice import Dice
    >>> events = [OpeningRoll((5, 3)), Roll(0, Dice(6, 2)), PlayMade(0, "24/18 24/22")]
    >>> print(export_text_record(("ann", "bob"), 1, events, MatchRules.of("plakoto")))
    Plakoto match
    Players: ann (first), bob (second)
    Variant: Plakoto
    Length: 1 point
    <BLANKLINE>
    Game 1: Plakoto, ann 0, bob 0
                  opening roll 5-3 (ann 5, bob 3) — ann starts and rolls
      ann         rolled 6-2
      ann         played 6-2: 24/18 24/22
    <BLANKLINE>
    The match is under way: ann 0, bob 0.
    <BLANKLINE>
    """
    rules = MatchRules() if rules is None else rules
    length = "best of three games" if rules.counts_games() else points(match_length)
    lines = [
        f"{rules.title} match",
        f"Players: {names[0]} (first), {names[1]} (second)",
        f"Variant: {_variant_words(rules)}",
        f"Length: {length}",
        *(f"{label}: {value}" for label, value in facts),
    ]
    state = MatchState.new(match_length, rules)
    game_open = False
    for event in events:
        before, state = state, state.apply(event)
        if not game_open and isinstance(event, OpeningRoll | Roll | PlayMade):
            lines += ["", _game_heading(before, names)]
            game_open = True
        said = event_words(event, before, state, names)
        who = "" if said.player is None else names[said.player]
        lines.append(f"  {who:<{NAME_WIDTH}}{said.words}".rstrip())
        if len(state.games) > len(before.games) or state.is_finished():
            game_open = False
    lines += ["", _ending(state, names), ""]
    return "\n".join(lines)


def _variant_words(rules: MatchRules) -> str:
    cube = "with the doubling cube" if rules.cube else "no doubling cube"
    kind = rules.match_variant
    if kind.rotates():
        games = ", ".join(game.title.lower() for game in kind.games[:-1])
        return f"{kind.title} ({games} and {kind.games[-1].title.lower()} in turn), {cube}"
    return f"{rules.title}, {cube}" if rules.cube else rules.title


def _game_heading(state: MatchState, names: tuple[str, str]) -> str:
    score = state.score
    return (
        f"Game {state.game_number}: {state.game_variant.title}, "
        f"{names[0]} {score[0]}, {names[1]} {score[1]}"
    )


def _ending(state: MatchState, names: tuple[str, str]) -> str:
    score = f"{names[0]} {state.score[0]}, {names[1]} {state.score[1]}"
    if not state.is_finished():
        return f"The match is under way: {score}."
    if state.winner is None:
        return f"The match ended without a winner: {score}."
    return f"{names[state.winner]} won the match: {score}."
