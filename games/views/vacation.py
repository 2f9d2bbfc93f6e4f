"""The vacation page: see the days left, switch it on or off."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Profile
from accounts.vacation import VacationAllowance, days_available, vacation_ends_at
from backgammon_site.core.errors import ApplicationError
from games import services
from games.models import Match
from games.views.signed_in import SignedInRequest


@login_required
def vacation(request: SignedInRequest) -> HttpResponse:
    """Vacation: see the days left, switch it on or off."""
    if request.method == "POST":
        try:
            if request.POST.get("vacation") == "on":
                services.vacation_start(user=request.user)
                messages.success(request, _("You are on vacation: your deadlines are paused."))
            elif request.POST.get("vacation") == "off":
                services.vacation_end(user=request.user)
                messages.success(request, _("Welcome back: your deadlines run again."))
            else:
                messages.error(request, _("Say whether vacation is to be on or off."))
                return _page(request, status=400)
        except ApplicationError as error:
            messages.error(request, error.message)
        return redirect("vacation")
    return _page(request)


def _page(request: SignedInRequest, status: int = 200) -> HttpResponse:
    profile, _created = Profile.objects.get_or_create(user=request.user)
    context = {
        "profile": profile,
        "days": days_available(profile, timezone.now()),
        "ends_at": vacation_ends_at(profile),
        "paused_matches": Match.objects.filter(
            to_act=request.user, status=Match.Status.ACTIVE, paused_time_left__isnull=False
        ).count(),
        "earn_days": VacationAllowance.EARN_DAYS,
        "cap": VacationAllowance.CAP,
    }
    return render(request, "games/vacation.html", context, status=status)
