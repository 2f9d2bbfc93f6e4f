"""Players' accounts: django-allauth, profiles, notification preferences, API tokens."""
