from django.apps import AppConfig
from django.db.models.signals import post_migrate


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from accounts.site import name_the_site

        # Sent once per app: after the accounts app's, django.contrib.sites has made its Site.
        post_migrate.connect(name_the_site, sender=self, dispatch_uid="accounts.name_the_site")
