"""How often one address or one player may do a thing: django-allauth's rate limits, with one
setting for all of them, ``ACCOUNT_RATE_LIMITS`` (see settings).

Beside allauth's own actions (``signup``, ``reset_password``, ...) the site adds
``guest_play``, the casual matches started by visitors who have not signed in, counted per
address, and ``casual_play``, those started by a signed-in player. allauth keeps each count as
the times of the attempts within the window, in the cache, so the limits hold across processes
only when the cache is shared (CACHE_URL). Failed logins are counted apart, in the database
(accounts/failed_logins.py).
"""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

from allauth.core import ratelimit
from allauth.core.internal.ratelimit import get_rates
from django.http import HttpRequest
from django.utils import timezone
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _

from backgammon_site.core.errors import TooManyAttempts

#: allauth reads ACCOUNT_RATE_LIMITS as the settings of this app.
RATE_LIMITED_APP = "allauth.account"


__all__ = ["TooManyAttempts", "in_words", "longest_window", "refused", "refused_for", "spend"]


def spend(request: HttpRequest, action: str, *, refusal: str, user: Any = None) -> None:
    """Count one ``action`` against every limit set for it, by this request's address or by
    ``user``; if one of them is already spent, count nothing and raise TooManyAttempts with
    ``refusal`` and when to try again."""
    if not ratelimit.consume(request, action=action, user=user):
        raise refused(action, refusal)


def refused(action: str, refusal: str) -> TooManyAttempts:
    """The refusal of an ``action`` whose limit is spent, telling when to try again."""
    return refused_for(refusal, longest_window(action))


def refused_for(refusal: str, retry_after: int) -> TooManyAttempts:
    """A refusal telling to try again in ``retry_after`` seconds."""
    return TooManyAttempts(
        _("%(refusal)s Try again in %(time)s.")
        % {"refusal": refusal, "time": in_words(retry_after)},
        retry_after,
    )


def longest_window(action: str) -> int:
    """Seconds after which every attempt counted now against ``action`` has expired."""
    rates = get_rates(app=RATE_LIMITED_APP, action=action)
    return math.ceil(max((rate.duration for rate in rates), default=0))


def in_words(seconds: int) -> str:
    """``300`` -> "5 minutes", ``3600`` -> "1 hour"."""
    return timeuntil(timezone.now() + timedelta(seconds=seconds + 1)).replace("\xa0", " ")
