"""Match, MatchEvent (the append-only log) and Challenge; none is defined yet."""
