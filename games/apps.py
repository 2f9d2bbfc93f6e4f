from django.apps import AppConfig

from games.signals import match_changed


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games.clocks import sweep
        from games.computer import analysis, bot_accounts, rewards  # noqa: F401
        from games.notifications import news  # noqa: F401

        match_changed.connect(sweep.countdown_on_change, dispatch_uid="countdown")
        match_changed.connect(rewards.unlock_on_win, dispatch_uid="games.computer.rewards.unlock")
