"""The web server believes X-Forwarded-For only from the proxies TRUSTED_PROXY_COUNT and
TRUSTED_PROXY_ADDRESSES name (issue 34, finding 5: with TRUSTED_PROXY_COUNT=0, uvicorn took a
spoofed header from any client on 127.0.0.1 for its address, 20 guesses of 20)."""

from __future__ import annotations

import ast
import asyncio
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from uvicorn.config import Config

from games.management.web_server import web_server_command
from tests.conftest import REPO_ROOT


def forwarded_allow_ips(**env: str) -> list[str]:
    """The forwarded_allow_ips gunicorn resolves for the deployed command, in this environment
    (FORWARDED_ALLOW_IPS, gunicorn's own variable, set to trust everyone: the config wins)."""
    child_env = {**os.environ, "FORWARDED_ALLOW_IPS": "*", **env}
    printed = subprocess.run(
        [*web_server_command(port=8999, workers=1), "--print-config"],
        cwd=REPO_ROOT,
        env=child_env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert printed.returncode == 0, printed.stderr
    (line,) = [line for line in printed.stdout.splitlines() if line.startswith("forwarded_allow")]
    value: list[str] = ast.literal_eval(line.split("=", 1)[1].strip())
    return value


def client_seen(trusted: list[str], peer: str, forwarded_for: str) -> Any:
    """The client address the app gets from uvicorn (as its worker configures it from
    gunicorn's setting) for a request from ``peer`` that says X-Forwarded-For."""
    seen = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen["client"] = scope["client"][0]

    config = Config(app=app, forwarded_allow_ips=trusted, lifespan="off")
    config.load()
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/auth/token/",
        "raw_path": b"/api/auth/token/",
        "query_string": b"",
        "headers": [(b"x-forwarded-for", forwarded_for.encode())],
        "client": (peer, 50000),
        "server": ("127.0.0.1", 8000),
    }
    # In a thread of its own: a browser test of the same process may have left its event loop
    # running in this one, where asyncio.run refuses to start another.
    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(asyncio.run, config.loaded_app(scope, None, None)).result()
    return seen["client"]


@pytest.mark.slow
def test_without_trusted_proxies_a_spoofed_forwarded_for_is_not_the_address():
    trusted = forwarded_allow_ips(TRUSTED_PROXY_COUNT="0")

    assert trusted == []
    for spoofed in ("10.0.0.1", "10.0.0.2", "1.2.3.4, 10.0.0.3"):
        assert client_seen(trusted, "127.0.0.1", spoofed) == "127.0.0.1"


@pytest.mark.slow
def test_behind_a_proxy_its_forwarded_for_is_the_address_and_no_one_elses():
    trusted = forwarded_allow_ips(TRUSTED_PROXY_COUNT="1", TRUSTED_PROXY_ADDRESSES="10.9.0.5")

    assert trusted == ["10.9.0.5"]
    # The proxy appends the address it saw to whatever the client sent.
    assert client_seen(trusted, "10.9.0.5", "6.6.6.6, 203.0.113.9") == "203.0.113.9"
    # A client reaching the server around the proxy is not believed.
    assert client_seen(trusted, "127.0.0.1", "6.6.6.6") == "127.0.0.1"


@pytest.mark.slow
def test_one_proxy_on_this_machine_is_trusted_by_default():
    assert forwarded_allow_ips(TRUSTED_PROXY_COUNT="1") == ["127.0.0.1", "::1"]
