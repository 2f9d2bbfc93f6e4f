"""`manage.py vapid_keys`: a new VAPID key pair for web push, as environment lines."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from backgammon_site.core.vapid import key_pair_make


class Command(BaseCommand):
    help = (
        "Make a new VAPID key pair, which signs the site's web push notifications, and print "
        "it as the environment lines VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY. Keep the pair: "
        "browsers subscribed under one public key take no pushes signed by another."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        keys = key_pair_make()
        self.stdout.write(f"VAPID_PUBLIC_KEY={keys.public_key}")
        self.stdout.write(f"VAPID_PRIVATE_KEY={keys.private_key}")
