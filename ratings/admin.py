"""Admin for the ratings app; nothing is registered yet."""
