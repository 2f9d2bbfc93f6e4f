"""Player profiles and notification preferences; none is defined yet."""
