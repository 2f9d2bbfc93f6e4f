"""FIBS's rating formula, as the First Internet Backgammon Server states it (``help formula``,
quoted by Patti Beadles on rec.games.backgammon: bkgm.com's archive, article 1093; the same
text is in the Backgammon FAQ, "FIBS ratings").

Two players rated r1 and r2 play an n-point match. The underdog (the lower rating) wins with
probability 1 / (1 + 10^(D sqrt(n) / 2000)), D = |r1 - r2|. The winner gains and the loser
loses 4 K sqrt(n) P, P being the chance the result had *not* to happen (the underdog's chance
when the favourite wins, the favourite's when the underdog wins), each player's K their own:
max(1, 5 - experience / 100), experience being the sum of the lengths of the matches they
have finished before. So a player's first 400 points of matches move their rating up to five
times as fast. Every player starts at 1500 with experience 0.

Pure Python, standard library only: the service rates matches with it, and the engine-play
comparison (``ratings.engine_play``) scores it.

A 5-point match between a new player rated 1500 and an established 1600 (experience 900),
won by the new player:

>>> round(win_probability(1500, 1600, 5), 4)
0.436
>>> [round(x, 2) for x in rate(1500, 0, 1600, 5, won=True)]
[1525.22, 5]
>>> [round(x, 2) for x in rate(1600, 900, 1500, 5, won=False)]
[1594.96, 905]
"""

from __future__ import annotations

import math

NEW_RATING = 1500.0
NEW_EXPERIENCE = 0
#: Below this experience (points of finished matches) a player's rating moves faster.
BOOSTED_EXPERIENCE = 400


def win_probability(rating: float, opponent_rating: float, match_length: int) -> float:
    """The chance that the player rated ``rating`` wins an n-point match against
    ``opponent_rating`` by FIBS's formula.

    >>> win_probability(1500, 1500, 7), round(win_probability(1700, 1500, 1), 4)
    (0.5, 0.5573)
    """
    _check_length(match_length)
    difference = rating - opponent_rating
    return 1.0 / (1.0 + 10.0 ** (-difference * math.sqrt(match_length) / 2000.0))


def experience_factor(experience: float) -> float:
    """FIBS's K: 5 for a new player, down by 1 for every 100 points of finished matches, 1
    from 400 on.

    >>> experience_factor(0), experience_factor(250), experience_factor(400), experience_factor(900)
    (5.0, 2.5, 1.0, 1.0)
    """
    if experience < 0:
        raise ValueError("experience is the points of finished matches, never below 0")
    return max(1.0, 5.0 - experience / 100.0)


def rating_change(
    rating: float, experience: int, opponent_rating: float, match_length: int, *, won: bool
) -> float:
    """What an n-point match won (or lost) against ``opponent_rating`` adds to ``rating``
    (negative for a loss): 4 K sqrt(n) times the chance of the other result."""
    chance = win_probability(rating, opponent_rating, match_length)
    surprise = 1.0 - chance if won else chance
    change = 4.0 * experience_factor(experience) * math.sqrt(match_length) * surprise
    return change if won else -change


def rate(
    rating: float, experience: int, opponent_rating: float, match_length: int, *, won: bool
) -> tuple[float, int]:
    """A player's (rating, experience) after an n-point match against ``opponent_rating``
    (the opponent's rating before the match)."""
    change = rating_change(rating, experience, opponent_rating, match_length, won=won)
    return rating + change, experience + match_length


def _check_length(match_length: int) -> None:
    if match_length < 1:
        raise ValueError("a match is at least 1 point long")
