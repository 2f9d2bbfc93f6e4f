"""The service's own name and address in django.contrib.sites' Site, which allauth's emails
and pages show (instead of the "example.com" Django creates)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings


def name_the_site(using: str = "default", **kwargs: Any) -> None:
    """Give Site SITE_ID the domain of SITE_URL and the name SITE_NAME (after every migrate)."""
    from django.contrib.sites.models import Site

    Site.objects.using(using).update_or_create(
        pk=settings.SITE_ID,
        defaults={"domain": urlsplit(settings.SITE_URL).netloc, "name": settings.SITE_NAME},
    )
    Site.objects.clear_cache()
