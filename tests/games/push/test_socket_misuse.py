"""What the sockets do with what no page of the site sends: a path that names no page, and a
frame of any kind (the pages never speak). Each is closed with a code and logged in one line,
without a traceback."""

from __future__ import annotations

import logging

import pytest
from channels.testing import WebsocketCommunicator

from backgammon_site.asgi import application
from tests.games.factories import make_user, script_dice, start_match
from tests.games.push.test_match_socket import SITE, run, socket

pytestmark = pytest.mark.django_db(transaction=True)


def no_traceback(caplog: pytest.LogCaptureFixture) -> bool:
    return not any(record.exc_info for record in caplog.records) and "Traceback" not in (
        caplog.text
    )


@pytest.mark.parametrize(
    "path", ["/ws/matches/abc/", "/ws/matches/", "/ws/nothing/", "/ws/lobby/extra/"]
)
def test_a_path_that_names_no_page_is_closed_as_not_found(path, caplog):
    async def scenario():
        communicator = WebsocketCommunicator(application, path, headers=SITE)
        return await communicator.connect()

    with caplog.at_level(logging.DEBUG):
        assert run(scenario) == (False, 4404)
    assert no_traceback(caplog)


@pytest.fixture
def match(monkeypatch):
    script_dice(monkeypatch, 3, 1)
    return start_match(make_user("alice"), make_user("bob"))


@pytest.mark.parametrize(
    "frame",
    [{"text_data": "{not json"}, {"bytes_data": b"\x00\xff"}, {"text_data": '{"seq": 1}'}],
    ids=["malformed", "binary", "well-formed"],
)
def test_a_frame_closes_the_socket_with_a_code_and_one_line_of_log(match, frame, caplog):
    async def scenario():
        page = socket(match.pk)
        assert (await page.connect())[0]
        assert await page.receive_json_from(timeout=5) == {"seq": match.seq}
        await page.send_to(**frame)
        closing = await page.receive_output(timeout=5)
        await page.wait()
        return closing

    with caplog.at_level(logging.DEBUG):
        assert run(scenario) == {"type": "websocket.close", "code": 4400}
    assert no_traceback(caplog)
    assert len([r for r in caplog.records if "frame" in r.getMessage()]) == 1
