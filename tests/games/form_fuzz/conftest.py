"""The world the forms are sent into."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from knox.models import AuthToken

from accounts.models import Profile
from games import services
from games.services.imports import imported_match_create
from tests.games.factories import PASSWORD
from tests.games.form_fuzz.forms import MAT_FILE, World


@pytest.fixture
def world(db: None) -> World:
    users = {
        name: get_user_model().objects.create_user(
            name, password=PASSWORD, email=f"{name}@example.com"
        )
        for name in ("alice", "bob", "carol")
    }
    for user in users.values():
        Profile.objects.get_or_create(user=user)
    AuthToken.objects.create(users["alice"])
    match = services.challenge_accept(
        challenge_id=services.challenge_create(
            challenger=users["alice"], opponent=users["bob"], match_length=3
        ).pk,
        user=users["bob"],
    )
    challenges = [
        services.challenge_create(challenger=users["bob"], opponent=users["alice"]),
        services.challenge_create(challenger=users["alice"], opponent=users["carol"]),
        services.challenge_create(challenger=users["carol"], opponent=None),
    ]
    imported = imported_match_create(uploaded_by=users["alice"], text=MAT_FILE.read_text())
    return World(users, match.pk, [challenge.pk for challenge in challenges], imported.pk)
