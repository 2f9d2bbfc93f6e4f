"""The rehearsal's stack runs the shipped deploy/haproxy.cfg with the production environment of
docs/deployment.md (issue 34, finding 3): TLS ended by HAProxy with a certificate the players
trust, X-Forwarded-Proto set, /healthz checked, HTTPS on."""

from __future__ import annotations

import os
import ssl
import subprocess

import pytest

from games.management.rehearsal.stack import (
    HAPROXY,
    SITE_HOST,
    Stack,
    production_environment,
)


@pytest.fixture
def stack(tmp_path):
    made = Stack.on_loopback(tmp_path, "postgres://postgres@127.0.0.1:5432/postgres", 15)
    made.define()
    return made


def test_the_shipped_config_ends_tls_sets_the_scheme_and_checks_healthz(stack):
    config = (stack.folder / "haproxy.cfg").read_text()

    assert f"bind 127.0.0.1:{stack.haproxy_port} ssl crt {stack.certificate}" in config
    assert "http-request set-header X-Forwarded-Proto https" in config
    assert "http-check send meth GET uri /healthz" in config
    assert f"bind 127.0.0.1:{stack.plain_port}\n    http-request redirect scheme https" in config
    if not os.access(HAPROXY, os.X_OK):
        pytest.skip(f"checking the config needs HAProxy ({HAPROXY}; .ci/run installs it)")
    checked = subprocess.run(
        [HAPROXY, "-c", "-f", str(stack.folder / "haproxy.cfg")],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_players_trust_the_stacks_certificate_alone(stack):
    context = stack.client_tls()

    (trusted,) = context.get_ca_certs()
    assert dict(name[0] for name in trusted["subject"])["commonName"] == SITE_HOST
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
    assert stack.base_url == f"https://{SITE_HOST}:{stack.haproxy_port}"


def test_the_stack_runs_with_the_production_environment(stack):
    environment = stack.environment()
    production = production_environment()

    assert "DJANGO_HTTPS" not in environment and "DJANGO_DEBUG" not in environment
    for name in ("DJANGO_BEHIND_PROXY", "TRUSTED_PROXY_COUNT", "DJANGO_HSTS_PRELOAD"):
        assert environment[name] == production[name]
    assert environment["SITE_URL"] == stack.base_url
    assert environment["DJANGO_ALLOWED_HOSTS"] == SITE_HOST
