"""GNU Backgammon imports our .mat files and reaches the same final score.

Runs Debian's gnubg (package ``gnubg``; the binary is /usr/games/gnubg) in tty mode:
``gnubg -t -q`` reading ``import mat FILE`` and ``show score`` on stdin, and reads the line
``The score (after N games) is: alice 4, bob 6 (match to 5 points ...)``.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse

from games.engine import fold
from games.engine.mat import export_mat
from games.engine.mat_reader import parse_mat
from tests.conftest import GNUBG, NO_GNUBG
from tests.games.factories import state_of
from tests.games.formats.matches import random_match
from tests.games.formats.played import play_match_with_cube_and_crawford

pytestmark = pytest.mark.skipif(GNUBG is None, reason=NO_GNUBG)
DATA = Path(__file__).parent / "data"
_SCORE = re.compile(
    r"The score \(after (?P<games>\d+) games?\) is: (?P<first>\S+) (?P<first_score>\d+), "
    r"(?P<second>\S+) (?P<second_score>\d+) \(match to (?P<length>\d+) points?"
)


def gnubg_scores(tmp_path: Path, texts: list[str]) -> list[dict[str, str]]:
    """What gnubg says of each .mat text after importing it: games, names, score, length."""
    commands = ["set confirm new off"]
    for number, text in enumerate(texts):
        path = tmp_path / f"match-{number}.mat"
        path.write_text(text)
        commands += [f"import mat {path}", "show score"]
    assert GNUBG is not None
    finished = subprocess.run(
        [GNUBG, "-t", "-q"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    scores = [found.groupdict() for found in _SCORE.finditer(finished.stdout)]
    assert len(scores) == len(texts), finished.stdout[-2000:] + finished.stderr[-2000:]
    return scores


@pytest.mark.slow
@pytest.mark.django_db
def test_gnubg_imports_a_5_point_match_with_doubles_and_a_crawford_game(
    tmp_path, client, dice, alice, bob
):
    match = play_match_with_cube_and_crawford(alice, bob, dice)
    state = state_of(match)
    assert any(game.crawford for game in state.games)
    assert {game.result for game in state.games} >= {"drop", "single"}
    response = client.get(reverse("api-match-export-mat", args=[match.pk]))
    assert response.status_code == 200

    (gnubg,) = gnubg_scores(tmp_path, [response.content.decode()])

    assert (gnubg["first"], gnubg["second"], gnubg["length"]) == ("alice", "bob", "5")
    assert (int(gnubg["first_score"]), int(gnubg["second_score"])) == state.score
    assert int(gnubg["games"]) == len(state.games)


@pytest.mark.slow
def test_gnubg_reaches_our_final_score_in_random_matches(tmp_path):
    matches = [(length, random_match(seed, length)) for seed in range(12) for length in (1, 5)]
    gnubg_own = parse_mat((DATA / "gnubg_selfplay_5_point.mat").read_text())
    texts = [export_mat(("alice", "bob"), length, events) for length, events in matches]
    texts.append(export_mat(gnubg_own.names, 5, gnubg_own.events))
    ours = [fold(length, events) for length, events in matches] + [gnubg_own.state]

    for state, gnubg in zip(ours, gnubg_scores(tmp_path, texts), strict=True):
        assert (int(gnubg["first_score"]), int(gnubg["second_score"])) == state.score
        assert int(gnubg["games"]) == len(state.games)
        assert int(gnubg["length"]) == state.match_length
