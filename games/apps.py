from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from django.urls import register_converter

        from backgammon_site.core.converters import RecordId
        from games import receivers  # noqa: F401

        register_converter(RecordId, "id")
