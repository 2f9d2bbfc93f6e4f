"""The floors the load test measures the service against, served only by its own gunicorn
(``games.management.loadtest.urls``): never a URL of the service itself.

- the bare page: a trivial template through the whole middleware stack, nobody signed in, no
  query;
- the signed-in page: the same template for a player signed in by their session cookie, so the
  session, the user, their profile (the language) and their presence are read as on any page;
- the floor write: an API POST with a token (under /api/, answered as the API is) that locks
  one row and inserts one, the least any action through Django REST framework costs.
"""

from __future__ import annotations

import uuid

from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import Profile
from games.models import IdempotencyRecord

#: The keys of the rows the floor write inserts (``plan.Plan.clean_up`` deletes them).
FLOOR_KEY_PREFIX = "loadtest-floor-"


def bare_page(request: HttpRequest) -> HttpResponse:
    """A trivial template through the whole middleware stack, and no query."""
    return render(request, "loadtest/bare.html", {"title": "Bare page"})


def signed_in_page(request: HttpRequest) -> HttpResponse:
    """The bare page for the player the session names: what any page of theirs costs first."""
    name = request.user.get_username() if request.user.is_authenticated else "nobody"
    return render(request, "loadtest/bare.html", {"title": f"Signed in: {name}"})


class FloorWrite(APIView):
    """A signed-in POST that holds the player's profile locked while it inserts one row.

    The row is an idempotency record under a key of its own, the row an action sent with an
    Idempotency-Key adds: the daily purge forgets it as any other, and the load test deletes
    its own when it ends."""

    permission_classes = [IsAuthenticated]

    def post(self, request: Request) -> Response:
        with transaction.atomic():
            Profile.objects.select_for_update().get(user_id=request.user.pk)
            IdempotencyRecord.objects.create(
                user_id=request.user.pk,
                key=FLOOR_KEY_PREFIX + uuid.uuid4().hex,
                fingerprint="",
                status_code=status.HTTP_201_CREATED,
                body=None,
            )
        return Response({"written": True}, status=status.HTTP_201_CREATED)
