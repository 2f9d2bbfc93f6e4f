"""Ratings and their history; none is defined yet."""
