from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games import bots, deadlines, match_analysis, notifications, services  # noqa: F401

        services.match_changed.connect(deadlines.countdown_on_change, dispatch_uid="countdown")
