"""Admin for the games app; nothing is registered yet."""
