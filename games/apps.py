from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # Connect the signal receivers of the bots and of post-match analysis.
        from games import bots, match_analysis  # noqa: F401
