"""Fixtures for the page tests: players, signed-in clients and scripted dice."""

from __future__ import annotations
