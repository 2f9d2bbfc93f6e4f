"""The service's Celery app for the worker the integration tests start, with faults to inject.

With DIE_IN_TIMEOUT_MARKER set to a path that does not exist yet, the first timeout this worker
applies kills the worker outright (SIGKILL) after writing the timeout into its transaction and
before committing it: a crash in the middle of the task. DIE_IN_ADVANCE_MARKER does the same
to the first tournament match this worker starts while advancing a bracket, and
DIE_IN_LEAGUE_MARKER to the first league match it starts while opening a season.
"""

import os
import signal
from pathlib import Path

from backgammon_site.celery import app

__all__ = ["app"]

_marker = os.environ.get("DIE_IN_TIMEOUT_MARKER")

if _marker:
    import django

    django.setup()

    from games.services.writer import MatchWriter

    _time_out = MatchWriter.time_out

    def _time_out_then_die(log: MatchWriter) -> None:
        _time_out(log)
        marker = Path(_marker)
        if not marker.exists():
            marker.write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)

    MatchWriter.time_out = _time_out_then_die  # type: ignore[method-assign]

_advance_marker = os.environ.get("DIE_IN_ADVANCE_MARKER")

if _advance_marker:
    import django

    django.setup()

    from games.services import tournament_formats

    _start_match = tournament_formats._start_match

    def _start_match_then_die(tournament: object, row: object) -> None:
        _start_match(tournament, row)  # type: ignore[arg-type]
        marker = Path(_advance_marker)
        if not marker.exists():
            marker.write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)

    tournament_formats._start_match = _start_match_then_die  # type: ignore[assignment]

_league_marker = os.environ.get("DIE_IN_LEAGUE_MARKER")

if _league_marker:
    import django

    django.setup()

    from games.services import leagues

    _start_league_match = leagues._start_match

    def _start_league_match_then_die(*arguments: object) -> None:
        _start_league_match(*arguments)  # type: ignore[arg-type]
        marker = Path(_league_marker)
        if not marker.exists():
            marker.write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)

    leagues._start_match = _start_league_match_then_die  # type: ignore[assignment]
