"""The replay: a match's log stepped through event by event, said in words."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.log.integrity import fold_events
from games.models import Match
from games.views.board import draw_board
from tests.games.factories import act, events_of, make_moderator, start_match

pytestmark = pytest.mark.django_db


def page(response) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def match(dice, alice, bob) -> Match:
    """Seven events: started; opening 3-1 for Alice; she plays; Bob doubles; Alice takes;
    the server rolls Bob's 6-5 (he cannot double: Alice owns the cube); Bob plays it."""
    dice.add(3, 1)
    match = start_match(alice, bob)
    match = act(match, alice, "move", play="8/5 6/5")
    match = act(match, bob, "double")
    dice.add(6, 5)
    match = act(match, alice, "take")
    return act(match, bob, "move", play="24/18/13")


def replay(client, match, **query):
    url = reverse("match-replay", args=[match.pk])
    return client.get(url, query)


def words(fragment: str) -> str:
    """The text of an HTML fragment, its spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", fragment).split())


def now_words(text: str) -> str:
    return words(text.split("data-step-words>")[1].split("</p>")[0])


def board_description(text: str) -> str:
    return text.split('<desc id="board-desc">')[1].split("</desc>")[0]


def test_the_last_step_is_shown_by_default_to_anyone(client, match):
    response = replay(client, match)
    assert response.status_code == 200
    text = page(response)
    assert 'data-replay-step="7"' in text and 'data-replay-last="7"' in text
    assert "Step 7 of 7:" in now_words(text)
    assert "bob played 6-5: 24/13" in now_words(text)
    assert 'rel="next"' not in text and 'rel="prev"' in text
    assert '<svg class="board"' in text


def test_step_zero_is_the_board_before_anything(client, match):
    text = page(replay(client, match, step=0))
    assert "before the first event" in now_words(text)
    assert 'rel="prev"' not in text and 'rel="first"' not in text
    assert f'href="{reverse("match-replay", args=[match.pk])}?step=1"' in text
    assert "data-die=" not in text
    assert "Step 0 of 7" in text


def test_a_middle_step_shows_the_board_after_that_many_events(client, match, alice, bob):
    text = page(replay(client, match, step=2))
    assert now_words(text) == (
        "Step 2 of 7: server opening roll 3-1 (alice 3, bob 1) — alice starts, playing 3-1"
    )
    expected = fold_events(match.match_length, events_of(match)[:2])
    board = draw_board(expected.board_for(0), side=0, names=("alice", "bob"))
    assert board_description(text) == board.description
    assert text.count("data-die=") == 2  # alice's 3-1 waits to be played
    url = reverse("match-replay", args=[match.pk])
    for rel, step in (("first", 0), ("prev", 1), ("next", 3), ("last", 7)):
        assert f'href="{url}?step={step}" rel="{rel}"' in text


@pytest.mark.parametrize(
    ("step", "words"),
    [
        (
            1,
            "server match started: alice v bob, to 5 points, unrated, 1 day a move + 8 days "
            "reserve",
        ),
        (3, "alice played 3-1: 8/5 6/5"),
        (4, "bob doubled to 2"),
        (5, "alice took; the cube is at 2"),
        (6, "bob rolled 6-5"),
    ],
)
def test_each_event_in_words(client, match, step, words):
    assert now_words(page(replay(client, match, step=step))) == f"Step {step} of 7: {words}"


def test_the_score_game_and_cube_at_a_step(client, match):
    text = page(replay(client, match, step=5))
    assert "alice 0, bob 0" in text
    facts = " ".join(text.split('class="facts"')[1].split("</dl>")[0].split())
    assert "<dt>Game</dt><dd data-game>1</dd>" in facts
    assert "<dt>Cube</dt><dd>2, alice's</dd>" in facts


def test_the_log_lists_every_event_with_its_play(client, match):
    text = page(replay(client, match, step=3))
    log = text.split('<ol class="log"')[1].split("</ol>")[0]
    assert log.count("<li") == 8
    assert "8/5 6/5" in log and "24/13" in log
    assert re.search(r'<li data-step="3" aria-current="step" class="play">', log)
    url = reverse("match-replay", args=[match.pk])
    for step in range(8):
        assert f'href="{url}?step={step}"' in log


def test_out_of_range_steps_are_clamped(client, match):
    assert 'data-replay-step="7"' in page(replay(client, match, step=99))
    assert 'data-replay-step="0"' in page(replay(client, match, step=-3))


def test_a_step_that_is_not_a_number_is_not_found(client, match):
    assert replay(client, match, step="two").status_code == 404


def test_a_replay_follows_the_log_as_it_grows(client, match, bob, alice):
    assert 'data-replay-last="7"' in page(replay(client, match))
    act(match, alice, "double")
    assert 'data-replay-last="8"' in page(replay(client, match))
    assert "alice doubled to 4" in now_words(page(replay(client, match)))


def test_an_unknown_match_is_not_found(client, db):
    assert client.get(reverse("match-replay", args=[4242])).status_code == 404


def test_the_board_can_be_seen_from_the_second_players_side(client, match):
    text = page(replay(client, match, step=3, side=1))
    expected = fold_events(match.match_length, events_of(match)[:3])
    board = draw_board(
        expected.board_for(0), side=1, names=("alice", "bob"), last_play=expected.last_play
    )
    assert board_description(text) == board.description
    assert "Last play: alice rolled 3-1 and played 8/5 6/5" in board.description
    assert "Seen from bob's side" in text
    url = reverse("match-replay", args=[match.pk])
    assert f'href="{url}?step=4&side=1" rel="next"' in text
    assert f'href="{url}?step=3">See it from alice' in text


def test_a_game_won_by_a_drop_and_a_new_opening_roll(client, dice, alice, bob):
    dice.add(3, 1)
    match = start_match(alice, bob, length=3)
    match = act(match, alice, "move", play="8/5 6/5")
    match = act(match, bob, "double")
    dice.add(2, 2, 4, 5)  # game 2: a tied opening roll, then bob starts with 5-4
    match = act(match, alice, "drop")
    text = page(replay(client, match))
    log = words(text.split('<ol class="log"')[1].split("</ol>")[0])
    assert "alice dropped; bob wins game 1 (1 point)" in log
    assert "opening roll 2-2 (alice 2, bob 2): a tie, rolled again" in log
    assert "opening roll 4-5 (alice 4, bob 5) — bob starts, playing 5-4" in log
    assert "Game 2" in log
    assert "alice 0, bob 1" in text


def test_a_moderators_award_is_told_with_its_reason(client, dice, alice, bob):
    dice.add(3, 1)
    match = start_match(alice, bob)
    services.match_award(
        match_id=match.pk, moderator=make_moderator("mod"), winner=bob, reason="alice left"
    )
    award_step = match.events.get(kind="match_awarded").seq
    text = page(replay(client, match, step=award_step))
    assert "mod awarded the match to bob: alice left" in now_words(text)


def test_a_match_lost_on_time_is_told_by_whom_and_to_whom(client, dice, alice, bob, monkeypatch):
    dice.add(3, 1)
    match = start_match(alice, bob)
    later = timezone.now() + timedelta(days=30)
    monkeypatch.setattr(timezone, "now", lambda: later)
    assert services.match_timeout(match_id=match.pk, seq=match.seq).timed_out
    timeout_step = match.events.get(kind="timeout").seq
    text = page(replay(client, match, step=timeout_step))
    assert now_words(text) == (
        f"Step {timeout_step} of {timeout_step + 1}: alice ran out of time: bob wins the match, 0-0"
    )
    log = words(text.split('<ol class="log"')[1].split("</ol>")[0])
    assert "server revealed the dice's server seed: every roll can now be verified" in log


def move_entries(text: str) -> list[tuple[int, str, bool]]:
    """The move list's entries: (step, text, whether it is the current one)."""
    entries = re.findall(
        r'<a href="[^"]*\?step=(\d+)[^"]*" data-step="\1"( aria-current="step")?>([^<]*)</a>', text
    )
    return [(int(step), words, bool(current)) for step, current, words in entries]


def test_the_replay_reads_as_the_move_list_with_the_shown_entry_current(client, match):
    moves = [(3, "31: 8/5 6/5"), (4, "Doubles => 2"), (5, "Takes"), (7, "65: 24/18 18/13")]
    on_match_page = move_entries(page(client.get(reverse("match", args=[match.pk]))))
    assert [(step, words) for step, words, _ in on_match_page] == moves
    for step, current in ((0, None), (2, None), (3, 3), (4, 4), (6, 5), (7, 7)):
        entries = move_entries(page(replay(client, match, step=step)))
        assert [(at, words) for at, words, _ in entries] == moves
        assert [at for at, _, is_current in entries if is_current] == ([current] if current else [])


def test_the_move_list_keeps_the_side_the_board_is_seen_from(client, match):
    text = page(replay(client, match, step=3, side=1))
    url = reverse("match-replay", args=[match.pk])
    assert f'<a href="{url}?step=4&side=1" data-step="4">Doubles => 2</a>' in text


def test_each_game_starts_at_its_opening_roll_and_the_keys_lead_there(client, dice, alice, bob):
    dice.add(3, 1)
    match = start_match(alice, bob, length=3)
    match = act(match, alice, "move", play="8/5 6/5")
    match = act(match, bob, "double")
    dice.add(2, 2, 4, 5)  # game 2: a tied opening roll (step 6), then bob starts with 5-4
    match = act(match, alice, "drop")
    url = reverse("match-replay", args=[match.pk])
    text = page(replay(client, match, step=3))
    assert f'<a href="{url}?step=2" data-game-start="2">Game 1</a>' in text
    assert f'<a href="{url}?step=6" data-game-start="6">Game 2</a>' in text
    earlier = 'data-game-step="earlier" aria-keyshortcuts="ArrowUp">↑ Start of game 1<'
    later = 'data-game-step="later" aria-keyshortcuts="ArrowDown">↓ Start of game 2<'
    assert f'href="{url}?step=2" {earlier}' in text
    assert f'href="{url}?step=6" {later}' in text
    at_start = page(replay(client, match, step=6))
    assert 'data-game-step="later"' not in at_start
    assert re.search(rf'href="{url}\?step=2" data-game-step="earlier"', at_start)
    for rel, key in (
        ("first", "Home"),
        ("prev", "ArrowLeft"),
        ("next", "ArrowRight"),
        ("last", "End"),
    ):
        assert re.search(rf'rel="{rel}" aria-keyshortcuts="{key}"', at_start)
