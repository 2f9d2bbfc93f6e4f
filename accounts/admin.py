"""Admin for the accounts app; nothing is registered yet."""
