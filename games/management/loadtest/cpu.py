"""Where the machine's processor time goes during a scenario: the server's workers, PostgreSQL,
the load generator, and what is left idle. Read from Linux's /proc; elsewhere, nothing."""

from __future__ import annotations

import os
import resource
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")
GROUPS = (("server", "gunicorn"), ("PostgreSQL", "postgres"))


@dataclass(frozen=True)
class Sample:
    at: float
    #: Processor ticks so far of each running process: (group, pid) -> ticks.
    ticks: dict[tuple[str, int], int]
    idle_ticks: int
    #: Seconds of processor time of this process's children that have ended (the clients).
    children_seconds: float


def sample() -> Sample | None:
    if not (PROC / "stat").exists():
        return None
    ticks: dict[tuple[str, int], int] = {}
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        group = next((name for name, word in GROUPS if word in command), "other")
        ticks[(group, int(entry.name))] = int(fields[11]) + int(fields[12])  # utime + stime
    idle = int((PROC / "stat").read_text().split("\n", 1)[0].split()[4])
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return Sample(time.monotonic(), ticks, idle, children.ru_utime + children.ru_stime)


def server_seconds(before: Sample | None, after: Sample | None) -> float | None:
    """Processor seconds the server's workers spent between the samples (None off Linux)."""
    if before is None or after is None:
        return None
    ticks = sum(
        count - before.ticks.get(key, 0) for key, count in after.ticks.items() if key[0] == "server"
    )
    return ticks / os.sysconf("SC_CLK_TCK")


def cores_used(before: Sample | None, after: Sample | None) -> str:
    """``server 1.61, PostgreSQL 0.18, clients 0.14, other 0.01, idle 0.04 (of 2 cores)``.

    The clients are the load generator run and waited for between the samples; a process of
    another group that ended between them is not counted."""
    if before is None or after is None or after.at <= before.at:
        return ""
    per_second = os.sysconf("SC_CLK_TCK") * (after.at - before.at)
    used: Counter[str] = Counter()
    for (group, pid), ticks in after.ticks.items():
        used[group] += ticks - before.ticks.get((group, pid), 0)
    seconds = after.at - before.at
    parts = [f"{name} {used[name] / per_second:.2f}" for name, _ in GROUPS]
    parts.append(f"clients {(after.children_seconds - before.children_seconds) / seconds:.2f}")
    parts.append(f"other {used['other'] / per_second:.2f}")
    parts.append(f"idle {(after.idle_ticks - before.idle_ticks) / per_second:.2f}")
    return f"{', '.join(parts)} (of {os.cpu_count()} cores)"
