"""Idempotency-Key on the API's POSTs: a retry within a day gets the first answer, and the
request is carried out once (games.services.idempotency keeps the records).

A keyed view returns an ``Answer``: what it does runs in one transaction with the key's claim,
and the answer is built once that transaction has committed, with the match's (or the
challenge's, the tournament's) lock released. A view that can build its answer again without
acting defines ``answer_again`` (the match's actions do): a retry whose first request was
carried out but never answered (its process died between the commit and the answer) is then
answered from what is there now, rather than refused with 409 idempotency_answer_pending.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backgammon_site.core.errors import ApplicationError, Conflict
from games.services.idempotency import (
    IdempotencyKey,
    idempotency_answer_keep,
    idempotency_answer_missing,
    idempotency_answer_wait,
    idempotency_claim,
    idempotency_record_find,
)

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="Retrying a POST with the same key within a day returns the first answer "
    "instead of acting twice. A retry sent while the first request's answer is still being "
    "made waits for it. If it does not come within 10 s (the server answering the first "
    "request failed after carrying it out), a match's action is answered with the match as it "
    "is now; any other POST with 409 idempotency_answer_pending: the first request was "
    "carried out; read the state again.",
)


@dataclass(frozen=True)
class Answer:
    """A view's answer, built after its action's transaction has committed."""

    build: Callable[[], Response]


def idempotent(view: Callable[..., Answer]) -> Callable[..., Response]:
    """Answer a repeated POST with the same Idempotency-Key from the first answer, for a day;
    an older key is new again."""

    @functools.wraps(view)
    def wrapper(self: APIView, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = _key(request)
        if key is None:
            return view(self, request, *args, **kwargs).build()
        earlier = idempotency_record_find(key)
        if earlier is None:
            try:
                refusal: ApplicationError | None = None
                with transaction.atomic():
                    try:
                        answer = view(self, request, *args, **kwargs)
                    except ApplicationError as refused:
                        # Kept, not rolled back: what the service committed before refusing
                        # (the timeout of a player who acts too late). Not recorded either,
                        # so a retry asks again.
                        refusal = refused
                    else:
                        idempotency_claim(key)
                if refusal is not None:
                    raise refusal
            except (IntegrityError, Conflict):
                # A first request with this key committed while this one waited (for the
                # match, or for the key): answer as it does. Without one, the refusal stands.
                earlier = idempotency_record_find(key)
                if earlier is None:
                    raise
            else:
                response = answer.build()
                idempotency_answer_keep(key, status_code=response.status_code, body=response.data)
                return response
        answered = idempotency_answer_wait(key, earlier)
        if answered is None:
            answer_again = getattr(self, "answer_again", None)
            if answer_again is None:
                raise idempotency_answer_missing()
            response = answer_again(request, *args, **kwargs)
            idempotency_answer_keep(key, status_code=response.status_code, body=response.data)
            # The first request's own answer, if it was kept meanwhile; else this one.
            answered = idempotency_record_find(key)
        assert answered is not None and answered.status_code is not None
        return Response(
            answered.body, status=answered.status_code, headers={"Idempotent-Replayed": "true"}
        )

    return wrapper


def _key(request: Request) -> IdempotencyKey | None:
    """The request's key with its fingerprint; None without one (or without a signed-in
    user, whose keys they would be)."""
    key = request.headers.get("Idempotency-Key")
    if not key or not request.user.is_authenticated:
        return None
    if len(key) > 100 or not key.isprintable():
        raise ValidationError(
            {"Idempotency-Key": ["At most 100 printable characters (no control characters)."]}
        )
    body = json.dumps(request.data, sort_keys=True, default=str)
    fingerprint = hashlib.sha256(f"{request.path}\n{body}".encode()).hexdigest()
    return IdempotencyKey(user_id=request.user.pk, key=key, fingerprint=fingerprint)
