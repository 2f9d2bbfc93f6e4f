"""The rehearsal's stack on loopback: a fresh PostgreSQL database, a Redis of its own, two web
servers behind HAProxy (which ends TLS with a self-signed certificate), two Celery workers and
beat, each a process it can kill and start again, all with the production environment of
docs/deployment.md.

Every process runs in a session of its own, so a kill takes its children too (a gunicorn
master with its workers, a Celery worker with its pool), as when a machine dies.
"""

from __future__ import annotations

import contextlib
import ctypes
import ipaddress
import os
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from string import Template

from games.management.web_server import web_server_command

HAPROXY = "/usr/sbin/haproxy"
HAPROXY_TEMPLATE = Path(__file__).resolve().parents[3] / "deploy" / "haproxy.cfg"
DEPLOYMENT = HAPROXY_TEMPLATE.parents[1] / "docs" / "deployment.md"
#: The site's name on loopback: the certificate's, the only allowed host, SITE_URL's.
SITE_HOST = "localhost"
#: The brief's first port for Redis servers of our own (the machine's Redis is on 6379).
FIRST_REDIS_PORT = 6391
READY_TIMEOUT = 90.0


def web_server_argv(port: int, workers: int = 2) -> list[str]:
    """The deployed web server's command (games/management/web_server.py), quieter, and quick
    to stop: the rehearsal kills and restarts it."""
    return [
        *web_server_command(port=port, workers=workers),
        "--log-level=warning",
        "--graceful-timeout=5",
    ]


def celery_argv(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "celery", "-A", "backgammon_site", *arguments]


def missing_programs() -> list[str]:
    """What this machine lacks to run the rehearsal."""
    missing = [] if os.access(HAPROXY, os.X_OK) else [f"haproxy ({HAPROXY})"]
    if shutil.which("redis-server") is None:
        missing.append("redis-server")
    return missing


def free_port(first: int = 0) -> int:
    """A port nobody listens on: the first free one from ``first``, or any (0)."""
    port = first
    while True:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                port += 1
                continue
            return int(probe.getsockname()[1])


def answers_http(port: int, path: str = "/healthz", tls: ssl.SSLContext | None = None) -> bool:
    """Whether ``path`` answers 200 on ``port`` (over TLS with ``tls``)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as plain:
            connection = plain if tls is None else tls.wrap_socket(plain, server_hostname=SITE_HOST)
            request = f"GET {path} HTTP/1.0\r\nHost: {SITE_HOST}\r\n\r\n"
            connection.sendall(request.encode())
            return connection.recv(12).startswith(b"HTTP/1.1 200")
    except OSError:
        return False


def production_environment() -> dict[str, str]:
    """The production environment of docs/deployment.md ("The environment"), as NAME=value
    lines."""
    section = DEPLOYMENT.read_text().split("\n## The environment\n", 1)[1]
    block = section.split("```\n", 2)[1]
    return dict(line.split("=", 1) for line in block.splitlines() if line.strip())


def self_signed_certificate(path: Path) -> None:
    """Write to ``path`` a certificate for SITE_HOST (and 127.0.0.1), valid for a day, with its
    private key after it, as HAProxy's ``crt`` reads them."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, SITE_HOST)])
    now = datetime.now(UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName(SITE_HOST), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    path.write_bytes(
        certificate.public_bytes(serialization.Encoding.PEM)
        + key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )


def answers_redis(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(7) == b"+PONG\r\n"
    except OSError:
        return False


def worker_ready(logged: str) -> bool:
    return " ready." in logged


def _die_with_parent() -> None:
    """In the child: be killed if the rehearsal itself dies (Linux), and lead a new session."""
    os.setsid()
    with contextlib.suppress(OSError):  # not Linux's C library: outlive us, then
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


@dataclass
class Service:
    """One server process, started, killed and started again by name."""

    name: str
    argv: list[str]
    log: Path
    #: True once the process serves; given the text it has logged since its start.
    ready: Callable[[str], bool]
    environment: dict[str, str] = field(default_factory=dict)
    process: subprocess.Popen[bytes] | None = None
    log_offset: int = 0

    def start(self) -> None:
        self.log_offset = self.log.stat().st_size if self.log.exists() else 0
        with self.log.open("ab") as log:
            log.write(f"--- {self.name} starting at {time.strftime('%H:%M:%S')}\n".encode())
            self.process = subprocess.Popen(
                self.argv,
                cwd=HAPROXY_TEMPLATE.parents[1],
                env=self.environment,
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=_die_with_parent,
            )

    def wait_ready(self, timeout: float = READY_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is None or self.process.poll() is not None:
                raise RuntimeError(f"{self.name} stopped:\n{self.log_tail()}")
            if self.ready(self.logged_since_start()):
                return
            time.sleep(0.2)
        raise RuntimeError(f"{self.name} not ready within {timeout:g} s:\n{self.log_tail()}")

    def logged_since_start(self) -> str:
        with self.log.open("rb") as log:
            log.seek(self.log_offset)
            return log.read().decode(errors="replace")

    def log_tail(self, characters: int = 3000) -> str:
        return self.log.read_text(errors="replace")[-characters:] if self.log.exists() else ""

    def kill(self) -> None:
        """SIGKILL to the process and all its children: no goodbye, no task handed back."""
        self._signal_group(signal.SIGKILL)
        if self.process is not None:
            self.process.wait()

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            self._signal_group(signal.SIGKILL)  # children left behind, if any
            return
        self._signal_group(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=15)
        self._signal_group(signal.SIGKILL)
        self.process.wait()

    def _signal_group(self, signum: int) -> None:
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signum)


@dataclass
class Database:
    """A PostgreSQL database of the rehearsal's own, created empty and dropped at the end."""

    server_url: str
    name: str

    @property
    def url(self) -> str:
        return urllib.parse.urlsplit(self.server_url)._replace(path=f"/{self.name}").geturl()

    def create(self) -> None:
        self._run(f'CREATE DATABASE "{self.name}"')

    def drop(self) -> None:
        self._run(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    def _run(self, statement: str) -> None:
        import psycopg

        with psycopg.connect(self.server_url, autocommit=True, connect_timeout=10) as connection:
            connection.execute(statement)


def haproxy_config(bind_port: int, plain_port: int, certificate: Path, web_ports: list[int]) -> str:
    """deploy/haproxy.cfg filled in for loopback: https on ``bind_port``, http (redirected to
    https) on ``plain_port``."""
    servers = "\n".join(
        f"    server web{number} 127.0.0.1:{port} check"
        for number, port in enumerate(web_ports, start=1)
    )
    return Template(HAPROXY_TEMPLATE.read_text()).substitute(
        bind=f"127.0.0.1:{bind_port}",
        plain_bind=f"127.0.0.1:{plain_port}",
        certificate=str(certificate),
        servers=servers,
    )


@dataclass
class Stack:
    """Every process of the rehearsal, by name: web1, web2, haproxy, urgent, background,
    beat, redis."""

    folder: Path
    database: Database
    redis_port: int
    haproxy_port: int
    plain_port: int
    web_ports: list[int]
    sweep_interval: float
    services: dict[str, Service] = field(default_factory=dict)
    secret_key: str = field(default_factory=lambda: secrets.token_urlsafe(40))

    @classmethod
    def on_loopback(cls, folder: Path, server_url: str, sweep_interval: float) -> Stack:
        name = f"bg_rehearsal_{os.getpid()}_{secrets.token_hex(3)}"
        ports: list[int] = []
        while len(ports) < 4:
            port = free_port()
            if port not in ports:
                ports.append(port)
        return cls(
            folder=folder,
            database=Database(server_url, name),
            redis_port=free_port(FIRST_REDIS_PORT),
            haproxy_port=ports[0],
            plain_port=ports[1],
            web_ports=ports[2:],
            sweep_interval=sweep_interval,
        )

    @property
    def base_url(self) -> str:
        return f"https://{SITE_HOST}:{self.haproxy_port}"

    @property
    def certificate(self) -> Path:
        return self.folder / "haproxy.pem"

    def client_tls(self) -> ssl.SSLContext:
        """What the players trust: the stack's own certificate, and nothing else."""
        return ssl.create_default_context(cafile=str(self.certificate))

    def environment(self) -> dict[str, str]:
        """The production environment of docs/deployment.md (DEBUG off, HTTPS on, behind one
        proxy) on this stack's database, Redis and address; keys made for the run; email kept in
        memory."""
        inherited = {
            name: value
            for name, value in os.environ.items()
            if not name.startswith(("PYTEST", "CELERY_", "DJANGO_", "API_THROTTLE"))
            and name not in ("DATABASE_URL", "CACHE_URL", "CHANNELS_REDIS_URL", "EMAIL_URL")
        }
        redis = f"redis://127.0.0.1:{self.redis_port}"
        production = production_environment()
        # The rehearsal's database is owned by the one role it connects as; email stays here.
        for name in ("DATABASE_SERVICE_ROLE", "EMAIL_URL", "VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY"):
            production.pop(name)
        return {
            **inherited,
            **production,
            "DJANGO_SETTINGS_MODULE": "backgammon_site.settings",
            "DJANGO_SECRET_KEY": self.secret_key,
            "DICE_SEED_KEY": os.environ.get(
                "DICE_SEED_KEY", "Y2ktb25seS1kaWNlLXNlZWQta2V5LTMyLWJ5dGVzISE="
            ),
            "DJANGO_ALLOWED_HOSTS": SITE_HOST,
            "DJANGO_VAR_DIR": str(self.folder / "var"),
            "SITE_URL": self.base_url,
            "DATABASE_URL": self.database.url,
            "CELERY_BROKER_URL": f"{redis}/0",
            "CACHE_URL": f"{redis}/1",
            "CHANNELS_REDIS_URL": f"{redis}/3",
            "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
            "SWEEP_INTERVAL": f"{self.sweep_interval:g}",
            # The clients are many players on one address, far faster than people.
            "API_THROTTLE_ANON": "10000000/minute",
            "API_THROTTLE_USER": "10000000/minute",
        }

    def define(self) -> None:
        environment = self.environment()
        (self.folder / "var").mkdir(exist_ok=True)
        self_signed_certificate(self.certificate)
        config = self.folder / "haproxy.cfg"
        config.write_text(
            haproxy_config(self.haproxy_port, self.plain_port, self.certificate, self.web_ports)
        )

        def service(name: str, argv: list[str], ready: Callable[[str], bool]) -> None:
            log = self.folder / f"{name}.log"
            self.services[name] = Service(name, argv, log, ready, environment)

        redis_port = self.redis_port
        service(
            "redis",
            [shutil.which("redis-server") or "redis-server", "--port", str(redis_port)]
            + ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
            + ["--dir", str(self.folder)],
            lambda _: answers_redis(redis_port),
        )
        for number, port in enumerate(self.web_ports, start=1):
            service(f"web{number}", web_server_argv(port), lambda _, port=port: answers_http(port))
        haproxy_port, tls = self.haproxy_port, self.client_tls
        service(
            "haproxy",
            [HAPROXY, "-db", "-f", str(config)],
            lambda _: answers_http(haproxy_port, tls=tls()),
        )
        service(
            "urgent",
            celery_argv("worker", "-Q", "urgent", "-n", "urgent@%h", "--loglevel=INFO"),
            worker_ready,
        )
        service(
            "background",
            celery_argv("worker", "-Q", "email,analysis,celery", "-n", "background@%h")
            + ["-c", "1", "--loglevel=INFO"],
            worker_ready,
        )
        service(
            "beat",
            celery_argv("beat", "-s", str(self.folder / "var" / "celerybeat-schedule"))
            + ["--loglevel=INFO"],
            lambda logged: "beat: Starting" in logged,
        )

    def start(self, *names: str) -> None:
        """Start these services together, and wait until each serves."""
        for name in names:
            self.services[name].start()
        for name in names:
            self.services[name].wait_ready()

    def stop_all(self) -> None:
        for service in reversed(list(self.services.values())):
            service.stop()
