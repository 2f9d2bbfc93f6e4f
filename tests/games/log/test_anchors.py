"""Anchors (games.log.anchors): the owner who rewrites a log and recomputes its chain passes
verify_matches (issue 34, finding 2) but not `verify_matches --anchors`, nor does a match that
vanished; a forged or altered anchor file is refused."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, transaction

from accounts.guests import new_guest
from games.log.integrity import event_digest
from games.models import GENESIS_DIGEST, Match, MatchEvent
from tests.games.factories import act, start_match

pytestmark = pytest.mark.django_db

KEY = "a-test-anchor-key-of-at-least-32-characters"


@pytest.fixture(autouse=True)
def _anchor_key(settings):
    settings.LOG_ANCHOR_KEY = KEY


@pytest.fixture
def played(dice, alice, bob):
    dice.add(3, 1, 6, 5)
    return act(start_match(alice, bob, length=1), alice, "move", play="8/5 6/5")


def past_the_trigger():
    """What the tables' owner (here the tests' superuser) can do: skip the log's trigger."""
    cursor = connection.cursor()
    if connection.vendor == "postgresql":
        cursor.execute("SET LOCAL session_replication_role = replica")
    return cursor


def rewrite(match, seq, payload):
    """Issue 34's finding 2: edit event #seq, recompute the chain after it and the match's
    head, as an owner who knows the (public) digest scheme would."""
    with transaction.atomic(), past_the_trigger() as cursor:
        cursor.execute(
            "UPDATE games_matchevent SET payload = %s WHERE match_id = %s AND seq = %s",
            [json.dumps(payload), match.pk, seq],
        )
        previous = GENESIS_DIGEST
        for event in MatchEvent.objects.filter(match=match).order_by("seq"):
            previous = event_digest(
                previous,
                match_id=match.pk,
                seq=event.seq,
                kind=event.kind,
                payload=event.payload,
                actor_id=event.actor_id,
                created_at=event.created_at,
            )
            cursor.execute(
                "UPDATE games_matchevent SET digest = %s WHERE id = %s", [previous, event.pk]
            )
        cursor.execute(
            "UPDATE games_match SET head_digest = %s WHERE id = %s", [previous, match.pk]
        )


def erase(match):
    with transaction.atomic(), past_the_trigger() as cursor:
        cursor.execute("DELETE FROM games_matchevent WHERE match_id = %s", [match.pk])
        cursor.execute("DELETE FROM games_challenge WHERE match_id = %s", [match.pk])
        cursor.execute("DELETE FROM games_match WHERE id = %s", [match.pk])


def anchor(tmp_path):
    call_command("anchor_matches", "--dir", str(tmp_path))
    (path,) = tmp_path.glob("anchors-*.json")
    return path


def verify(*args):
    """verify_matches' problems: empty when it passes."""
    try:
        call_command("verify_matches", *args)
    except CommandError as error:
        return str(error)
    return ""


def test_a_sound_database_agrees_with_its_anchors(played, tmp_path, capsys):
    path = anchor(tmp_path)

    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert json.loads(path.read_text())["matches"] == [
        [played.pk, played.seq, played.head_digest, False]
    ]
    assert verify("--anchors", str(tmp_path)) == ""
    assert "1 anchor files, 0 disagreements" in capsys.readouterr().out


def test_a_rewritten_log_with_its_chain_recomputed_is_caught_by_the_anchors(
    played, tmp_path, capsys
):
    anchor(tmp_path)
    start = MatchEvent.objects.get(match=played, seq=1).payload
    rewrite(played, 1, {**start, "rated": not start["rated"]})
    Match.objects.filter(pk=played.pk).update(rated=not played.rated)

    assert verify() == ""
    problems = verify("--anchors", str(tmp_path))

    assert "1 disagreements" in problems
    assert f"match {played.pk}: its log at #{played.seq} is not the one anchored" in (
        capsys.readouterr().err
    )


def test_a_vanished_match_is_caught_but_a_purged_guests_match_is_not(
    played, dice, tmp_path, capsys
):
    dice.add(3, 1)
    guests = start_match(new_guest(), new_guest(), length=1)
    anchor(tmp_path)
    erase(played)
    erase(guests)

    assert verify() == ""
    assert "1 disagreements" in verify("--anchors", str(tmp_path))
    err = capsys.readouterr().err
    assert f"match {played.pk}: anchored in" in err and "and gone" in err
    assert f"match {guests.pk}:" not in err


def test_an_altered_or_foreign_anchor_file_is_refused(played, tmp_path, settings, capsys):
    path = anchor(tmp_path)
    signed = json.loads(path.read_text())
    signed["matches"][0][2] = "f" * 64
    path.write_text(json.dumps(signed))

    assert "1 disagreements" in verify("--anchors", str(path))
    assert "its signature is not LOG_ANCHOR_KEY's" in capsys.readouterr().err

    path.unlink()
    anchor(tmp_path)
    settings.LOG_ANCHOR_KEY = "another-key-of-at-least-32-characters-long"
    assert "1 disagreements" in verify("--anchors", str(tmp_path))


def test_without_a_key_a_directory_or_a_file_nothing_is_anchored_or_checked(
    played, tmp_path, settings
):
    settings.LOG_ANCHOR_DIR = ""
    with pytest.raises(CommandError, match="--dir DIR or LOG_ANCHOR_DIR"):
        call_command("anchor_matches")
    with pytest.raises(CommandError, match="no anchor files"):
        call_command("verify_matches", "--anchors", str(tmp_path))
    settings.LOG_ANCHOR_KEY = "short"
    with pytest.raises(CommandError, match="LOG_ANCHOR_KEY must be set"):
        call_command("anchor_matches", "--dir", str(tmp_path))
    assert not list(tmp_path.iterdir())

    settings.LOG_ANCHOR_KEY = KEY
    anchor(tmp_path)
    settings.LOG_ANCHOR_KEY = ""
    with pytest.raises(CommandError, match="LOG_ANCHOR_KEY must be set"):
        call_command("verify_matches", "--anchors", str(tmp_path))
