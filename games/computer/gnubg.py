"""GNU Backgammon's analysis of a whole match: the second opinion, and the one seam to gnubg.

gnubg (Debian's package ``gnubg``, the program /usr/games/gnubg) imports the match as the .mat
text we export, analyses it with ``analyse match`` at ``plies`` (gnubg's own count: 0 is its
network alone, 2 its usual analysis) and hands over every record of every game with its
analysis through its embedded Python (``gnubg -t -p SCRIPT``). One gnubg process analyses the
whole match, so ``GnubgRun.start`` starts it and ``GnubgRun.result`` waits for it: the caller
may do other work (bgsage's review) meanwhile. Django-free: the caller says where gnubg is.

Equities are gnubg's EMG ("equivalent to money game"): cubeful, at the match score, normalised
so that a single game won at the current cube is +1, as bgsage's are. gnubg keeps its cube
equities as match winning chances; the script converts them with gnubg's own ``mwc2eq``.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from games.computer.sage import CubeDecision
from games.engine import AcceptResignation, Dice, Event, MatchRules, Play, Position, parse_play
from games.engine.mat import move_list

Action = Literal["move", "double", "take", "drop"]

#: Runs inside gnubg: analyse the match, then write every record as gnubg's Python gives it,
#: with each cube analysis also in EMG ("nd", "dt"), and gnubg's own statistics.
_SCRIPT = """
import json
import gnubg

settings = json.loads({settings!r})
for command in settings["commands"]:
    gnubg.command(command)
match = gnubg.match(analysis=1, boards=1, statistics=1, verbose=0)
length = match["match-info"]["match-length"]
for game in match["games"]:
    info = game["info"]
    score = (info["score-X"], info["score-O"])
    crawford = 1 if info.get("crawford") else 0
    cube, owner = 1, -1
    for record in game["game"]:
        player = 0 if record.get("player") == "X" else 1
        analysis = record.get("analysis") or {{}}
        if "nd-cubeful-eq" in analysis:
            seen_by = gnubg.cubeinfo(cube, owner, player, length, score, crawford)
            analysis["nd"] = gnubg.mwc2eq(analysis["nd-cubeful-eq"], seen_by)
            analysis["dt"] = gnubg.mwc2eq(analysis["dt-cubeful-eq"], seen_by)
        if record["action"] == "take":
            cube, owner = cube * 2, player
with open(settings["output"], "w") as output:
    json.dump(match, output)
"""


class GnubgError(RuntimeError):
    """gnubg did not analyse the match: it failed, took too long, or said something else."""


@dataclass(frozen=True, slots=True)
class ScoredPlay:
    """A play gnubg weighed: its checker moves as gnubg writes them, from the mover's side
    (25 the bar, 0 off), and the cubeful equity after it."""

    moves: tuple[tuple[int, int], ...]
    equity: float

    def play(self, position: Position, dice: Dice) -> Play:
        """This play in the rules engine's terms."""
        text = " ".join(f"{_point(source)}/{_point(to)}" for source, to in self.moves)
        return parse_play(text, position, dice)


@dataclass(frozen=True, slots=True)
class GnubgRecord:
    """One of gnubg's records of a game: a roll and its play (``move``), a double, a take or a
    drop, with gnubg's analysis: the plays it weighed (best first) and which was chosen, and
    for a chance to double or a double, its cube equities for the player on roll.

    ``position_id`` is the position before it, seen by the player on roll (none for a take or
    a drop); ``marks`` are gnubg's own verdicts (``doubtful``, ``bad``, ``very bad``) on the
    checker play (``play``) and the cube decision (``cube``), at the thresholds it was given.
    """

    action: Action
    player: int
    position_id: str | None = None
    dice: tuple[int, int] | None = None
    plays: tuple[ScoredPlay, ...] = ()
    chosen: int | None = None
    cube: CubeDecision | None = None
    play_mark: str = ""
    cube_mark: str = ""


@dataclass(frozen=True, slots=True)
class GnubgFigures:
    """gnubg's own count for one player: the decisions it counts (unforced plays and close or
    actual cube decisions) and the equity they lost."""

    decisions: int
    equity_lost: float

    @property
    def performance_rating(self) -> float:
        """gnubg's error rate in XG's scale: mean equity lost per decision x 500."""
        return 500 * self.equity_lost / self.decisions if self.decisions else 0.0


@dataclass(frozen=True, slots=True)
class GnubgAnalysis:
    """gnubg's analysis of a match: each game's records, and its own figures for each player."""

    plies: int
    games: tuple[tuple[GnubgRecord, ...], ...]
    figures: tuple[GnubgFigures, GnubgFigures]

    def by_event(
        self, match_length: int, events: list[Event], rules: MatchRules | None = None
    ) -> dict[int, GnubgRecord]:
        """Each record under the index, among ``events`` (those whose .mat export gnubg
        analysed), of the event its line of the .mat shows: a roll and its play under the
        play (or under the roll, when nothing could be played). A roll its player resigned
        over instead of playing is in the .mat; gnubg's import keeps it in some positions and
        drops it in others. Raises GnubgError
        if gnubg's games are not the .mat's."""
        games = move_list(match_length, events, rules)
        if len(games) != len(self.games):
            raise GnubgError(f"gnubg read {len(self.games)} games, the match has {len(games)}")
        by_event: dict[int, GnubgRecord] = {}
        for game, records in zip(games, self.games, strict=True):
            cells = sorted(cell.event for line in game.lines for cell in line if cell is not None)
            if len(records) == len(cells) - 1 and isinstance(events[cells[-1]], AcceptResignation):
                cells.pop()
            if len(cells) != len(records):
                raise GnubgError(
                    f"gnubg read {len(records)} actions in game {game.number}, "
                    f"the match has {len(cells)}"
                )
            by_event.update(zip(cells, records, strict=True))
        return by_event


def commands(mat_path: Path, plies: int, error: float, blunder: float) -> list[str]:
    """What gnubg is told: analyse ``plies`` deep, mark at our thresholds, import and analyse."""
    return [
        "set threads 1",
        f"set analysis chequerplay evaluation plies {plies}",
        f"set analysis cubedecision evaluation plies {plies}",
        "set analysis chequerplay evaluation cubeful on",
        "set analysis cubedecision evaluation cubeful on",
        "set analysis luck off",
        f"set analysis threshold doubtful {error}",
        f"set analysis threshold bad {blunder}",
        f"set analysis threshold verybad {2 * blunder}",
        f'import mat "{mat_path}"',
        "analyse match",
    ]


class GnubgRun:
    """One gnubg process analysing one match: ``start`` it, then ask for its ``result``."""

    def __init__(
        self,
        process: subprocess.Popen[str] | None,
        folder: tempfile.TemporaryDirectory[str],
        plies: int,
        timeout: float,
        failure: str = "",
    ) -> None:
        self._process, self._folder = process, folder
        self._plies, self._timeout, self._failure = plies, timeout, failure

    @classmethod
    def start(
        cls,
        mat_text: str,
        *,
        program: str,
        plies: int = 2,
        error: float = 0.04,
        blunder: float = 0.08,
        timeout: float = 480,
    ) -> GnubgRun:
        """Start gnubg on a match's .mat text. gnubg reads no settings of anyone's: its home
        is a fresh folder, removed once the result is read."""
        folder = tempfile.TemporaryDirectory(prefix="gnubg-")
        home = Path(folder.name)
        (home / "match.mat").write_text(mat_text)
        settings = {
            "commands": commands(home / "match.mat", plies, error, blunder),
            "output": str(home / "analysis.json"),
        }
        (home / "analyse.py").write_text(_SCRIPT.format(settings=json.dumps(settings)))
        try:
            process = subprocess.Popen(
                [program, "--tty", "--quiet", "--no-rc", "--python", str(home / "analyse.py")],
                cwd=home,
                env={"HOME": str(home), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                errors="replace",
            )
        except OSError as failure:
            return cls(None, folder, plies, timeout, f"gnubg could not be started: {failure}")
        return cls(process, folder, plies, timeout)

    def result(self) -> GnubgAnalysis:
        """Wait for gnubg and read its analysis; raises GnubgError if there is none."""
        try:
            if self._process is None:
                raise GnubgError(self._failure)
            try:
                said, _ = self._process.communicate(timeout=self._timeout)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.communicate()
                raise GnubgError(f"gnubg took over {self._timeout:.0f} s") from None
            written = Path(self._folder.name) / "analysis.json"
            if not written.exists():
                raise GnubgError(f"gnubg wrote no analysis: {said.strip()[-500:]}")
            try:
                return read_analysis(json.loads(written.read_text()), self._plies)
            except (ValueError, KeyError, TypeError) as failure:
                raise GnubgError(f"gnubg's analysis could not be read: {failure!r}") from failure
        finally:
            self._folder.cleanup()

    def stop(self) -> None:
        """Stop gnubg without waiting for its analysis."""
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
            self._process.communicate()
        self._folder.cleanup()


def read_analysis(match: dict[str, Any], plies: int) -> GnubgAnalysis:
    """gnubg's match, as its Python gives it (players ``X``, the .mat's first, and ``O``),
    read into records; records of anything but plays, doubles, takes and drops are left out."""
    games = tuple(
        tuple(
            _record(record)
            for record in game["game"]
            if record.get("action") in ("move", "double", "take", "drop")
        )
        for game in match["games"]
    )
    return GnubgAnalysis(plies, games, (_figures(match, "X"), _figures(match, "O")))


def _record(record: dict[str, Any]) -> GnubgRecord:
    analysis = record.get("analysis") or {}
    cube = None
    if "nd" in analysis:
        cube = CubeDecision(analysis["nd"], analysis["dt"], 1.0)
    plays = tuple(
        ScoredPlay(tuple((source, to) for source, to in scored["move"]), scored["score"])
        for scored in analysis.get("moves", ())
    )
    dice = record.get("dice")
    return GnubgRecord(
        action=record["action"],
        player=0 if record.get("player") == "X" else 1,
        position_id=record.get("board"),
        dice=(dice[0], dice[1]) if dice else None,
        plays=plays,
        chosen=analysis.get("imove"),
        cube=cube,
        play_mark=analysis.get("skill", "") if record["action"] == "move" else "",
        cube_mark=analysis.get("cube-skill", "")
        if record["action"] == "move"
        else analysis.get("skill", ""),
    )


#: gnubg's statistics of the cube errors, each a total in EMG. (Its cube "error-skill" is a
#: rate per close decision, unlike the checker play's, which is a total.)
_CUBE_ERRORS = tuple(
    f"err-{kind}-skill"
    for kind in (
        "missed-double-below-cp",
        "missed-double-above-cp",
        "wrong-double-below-dp",
        "wrong-double-above-tg",
        "wrong-take",
        "wrong-drop",
    )
)


def _figures(match: dict[str, Any], side: str) -> GnubgFigures:
    decisions, lost = 0, 0.0
    for game in match["games"]:
        figures = (game.get("stats") or {}).get(side) or {}
        moves, cube = figures.get("moves", {}), figures.get("cube", {})
        decisions += moves.get("unforced-moves", 0) + cube.get("close-cube", 0)
        lost += moves.get("error-skill", 0.0) + sum(cube.get(key, 0.0) for key in _CUBE_ERRORS)
    return GnubgFigures(decisions, lost)


def _point(point: int) -> str:
    return {25: "bar", 0: "off"}.get(point, str(point))
