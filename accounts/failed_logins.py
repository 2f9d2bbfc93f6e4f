"""Failed logins, limited so that a stranger's guesses stop the stranger, not the owner.

Every password login (allauth's form, the admin's, the API token's: accounts/logins.py) goes
through allauth's adapter (accounts/adapter.py), which asks ``refusal`` before the password is
checked and records ``failure_record`` after a wrong one. The limits
(settings.LOGIN_FAILURE_LIMITS) count failures:
- per account name and address (``key+ip``): one address guessing one account is stopped
  after a few guesses, while the owner, at another address, signs in;
- per address (``ip``): one address guessing many accounts is stopped;
- per account name (``key``): a ceiling well above what one address can reach, for guesses
  spread over many addresses.
The failures are rows in the database, which every process shares and which is up whenever a
password can be checked at all: a cache that is away does not lift the limits.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from allauth.core.internal.ratelimit import Rate, get_ip, parse_rates
from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone

from accounts.models import FailedLogin


@dataclass(frozen=True)
class Guess:
    """A password tried for an account name (its hash) from an address."""

    account: str
    address: str

    def scope(self, per: str) -> dict[str, str]:
        """The failures that a limit counted ``per`` this counts against the guess."""
        return {
            "key+ip": {"account": self.account, "address": self.address},
            "ip": {"address": self.address},
            "key": {"account": self.account},
        }[per]


def failure_limits() -> list[Rate]:
    return parse_rates(settings.LOGIN_FAILURE_LIMITS)


def guess_of(request: HttpRequest, login: str) -> Guess:
    """The guess this request makes at the account named ``login`` (a username or email)."""
    account = hashlib.sha256(login.strip().lower().encode()).hexdigest()
    return Guess(account=account, address=get_ip(request))


def refusal(guess: Guess, now: datetime | None = None) -> int | None:
    """Seconds until a guess like this one may be made, when a limit on failures is spent;
    None when it may be made now."""
    now = now or timezone.now()
    waits = []
    for rate in failure_limits():
        window = timedelta(seconds=rate.duration)
        latest = (
            FailedLogin.objects.filter(at__gt=now - window, **guess.scope(rate.per))
            .order_by("-at")
            .values_list("at", flat=True)[: rate.amount]
        )
        latest = list(latest)
        if len(latest) >= rate.amount:
            # One more guess is allowed once the oldest of the latest failures leaves the window.
            waits.append(max(1, math.ceil((latest[-1] + window - now).total_seconds())))
    return max(waits, default=None)


def failure_record(guess: Guess, now: datetime | None = None) -> None:
    """Count a wrong password, and forget the failures no limit counts any more."""
    now = now or timezone.now()
    FailedLogin.objects.create(account=guess.account, address=guess.address, at=now)
    longest = max((rate.duration for rate in failure_limits()), default=0)
    FailedLogin.objects.filter(at__lte=now - timedelta(seconds=longest)).delete()


def failures_forgiven(guess: Guess) -> None:
    """The right password was given: this address's failures at this account no longer count
    (the owner's typing errors), while the account's and the address's others still do."""
    FailedLogin.objects.filter(account=guess.account, address=guess.address).delete()
