"""The match as a viewer sees it (selectors.MatchView): one frozen value that the API state
serializes field for field and the match page renders."""

from __future__ import annotations

import dataclasses

import pytest
from django.contrib.auth.models import AnonymousUser

from games import selectors
from games.api.matches import state_data
from games.api.serializers import MatchStateSerializer
from tests.games.api.conftest import client_for, detail


def test_the_api_state_is_the_match_view_field_for_field(match, bob):
    view = selectors.match_view(match, bob)
    names = {field.name for field in dataclasses.fields(selectors.MatchView)}

    assert set(MatchStateSerializer().fields) <= names
    assert client_for(bob).get(detail(match)).json() == state_data(view)
    assert view.legal_actions == ("roll", "double", "resign") and view.you == 1


def test_a_visitor_who_is_not_signed_in_sees_the_match_from_the_side_on_roll(match):
    view = selectors.match_view(match, AnonymousUser())

    assert view.you is None and view.legal_actions == view.legal_plays == ()
    assert view.board_seen_by == "bob" and view.usernames == ("alice", "bob")
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.seq = 0  # type: ignore[misc]
