"""Matches, their event logs and challenges; the rules engine lives in games.engine."""
