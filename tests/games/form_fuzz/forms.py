"""Every form and query string the site serves, with the values its pages offer.

A path is a template: ``{match}`` and ``{imported}`` are the world's match and imported
match, ``{challenge}`` one of its challenges, ``{new_challenge}`` one made for the request (so
that it is still open), ``{id}`` any id and ``{name}`` any player's name (the fuzzing fills
those two with what no page links to).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.apps import apps
from django.db import connection
from django.test import Client
from knox.models import AuthToken

from accounts.models import NOTIFICATION_PREFERENCES, PUSH_PREFERENCES, Delivery
from accounts.rewards import COLOURS, STYLES
from games import selectors, services
from games.clocks.words import CORRESPONDENCE_PRESETS
from games.computer.decisions import LEVELS
from games.engine import ACTIONS
from games.models import Match
from games.views.lobby import MATCH_LENGTHS
from tests.games.factories import PASSWORD
from tests.games.form_fuzz.strategies import Live

MAT_FILE = Path(__file__).parents[1] / "formats" / "data" / "gnubg_selfplay_5_point.mat"
#: The apps whose tables a refused request must leave as they were (sessions aside).
APPS = ("auth", "account", "knox", "games", "accounts", "ratings")


@dataclass
class World:
    """alice v bob in a match; challenges to alice, from alice, and open; an imported match."""

    users: dict[str, Any]
    match_id: int
    challenge_ids: list[int]
    import_id: int
    # One browser for every request: a new one loads the middleware, and WhiteNoise then
    # lists every static file.
    client: Client = field(default_factory=Client)

    def match(self) -> Match:
        return Match.objects.select_related("to_act").get(pk=self.match_id)

    def visitor(self, who: str) -> Any | None:
        """A player by name; ``to_act`` and ``waiting`` are the match's players as its turn
        stands now; None for an anonymous visitor."""
        if who in ("to_act", "waiting"):
            to_act = self.match().to_act or self.users["alice"]
            if who == "to_act":
                return to_act
            return self.users["bob" if to_act == self.users["alice"] else "alice"]
        return self.users.get(who)

    def browser(self, who: str) -> Client:
        """The browser, signed in as ``who`` in a new session (or signed out)."""
        self.client.logout()
        user = self.visitor(who)
        if user is not None:
            self.client.force_login(user)
        return self.client

    def path(self, template: str, **parts: Any) -> str:
        real = {"challenge": self.challenge_ids[0], "id": self.match_id, "name": "alice"}
        if "{new_challenge}" in template:
            real["new_challenge"] = self.new_challenge()
        return template.format(match=self.match_id, imported=self.import_id, **{**real, **parts})

    def new_challenge(self) -> int:
        """A challenge from bob to alice, open until a request answers it."""
        challenge = services.challenge_create(
            challenger=self.users["bob"], opponent=self.users["alice"]
        )
        return int(challenge.pk)


def read(value: Any, world: World) -> Any:
    """What is sent for a drawn value: a Live one as the world is now."""
    if isinstance(value, list):
        return [read(one, world) for one in value]
    return value.read(world) if isinstance(value, Live) else value


#: What a request may change without changing anything a player did: when they were last
#: seen, on the site and at a match (games/notifications/attention.py).
#: Left out of the comparison: who is where, and a wrong password's record (the login limits
#: count it: a refused sign-in that leaves it is doing its job).
PRESENCE = {
    "games.MatchPresence": None,
    "accounts.FailedLogin": None,
    "accounts.Profile": {"last_seen_at"},
}


def database() -> list[tuple[str, str]]:
    """Every row of the site's own tables (sessions and presence aside), to compare before
    and after: one query, as each table's rows read one by one cost half the test's time."""
    with connection.cursor() as cursor:
        cursor.execute(_every_row_sql())
        return sorted(cursor.fetchall())


@functools.cache
def _every_row_sql() -> str:
    quote = connection.ops.quote_name
    selects = []
    for label in APPS:
        for model in apps.get_app_config(label).get_models():
            if model._meta.label in PRESENCE and PRESENCE[model._meta.label] is None:
                continue
            left_out = PRESENCE.get(model._meta.label) or set()
            columns = [
                f"COALESCE(CAST({quote(f.column)} AS TEXT), '<null>')"
                for f in model._meta.concrete_fields
                if f.attname not in left_out
            ]
            row = " || '|' || ".join(columns)
            selects.append(
                f"SELECT '{model._meta.label}' AS label, {row} AS row"
                f" FROM {quote(model._meta.db_table)}"
            )
    return " UNION ALL ".join(selects)


@dataclass(frozen=True)
class Form:
    """A form (or a page's query string): where it goes, the values its page offers for each
    field (None: the field left out, as an unticked box is), and who may send it."""

    name: str
    method: str
    paths: tuple[str, ...]
    fields: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    visitors: tuple[str, ...] = ("alice",)
    #: Files the page offers to upload, by field name.
    files: dict[str, tuple[bytes, ...]] = field(default_factory=dict)


def _legal_plays(world: World) -> list[str]:
    match = world.match()
    return list(selectors.match_view(match, match.to_act).legal_plays) or ["24/23"]


SEQ = Live("the match's seq", lambda world: str(world.match().seq))
LEGAL_PLAY = Live("a legal play", lambda world: _legal_plays(world)[0])
OTHER_LEGAL_PLAY = Live("another legal play", lambda world: _legal_plays(world)[-1])
TOKEN = Live(
    "alice's token",
    lambda world: (
        AuthToken.objects.filter(user=world.users["alice"])
        .values_list("token_key", flat=True)
        .first()
        or ""
    ),
)

PAGES = (
    "/",
    "/next/",
    "/matches/",
    "/matches/{match}/",
    "/matches/{match}/replay/",
    "/matches/{match}/dice/",
    "/dice/",
    "/positions/",
    "/imports/",
    "/imports/{imported}/",
    "/leaderboard/",
    "/tournaments/",
    "/tournaments/new/",
    "/leagues/",
    "/leagues/new/",
    "/players/alice/",
    "/settings/",
    "/settings/api-tokens/",
    "/settings/notifications/",
    "/settings/appearance/",
    "/settings/play/",
    "/settings/vacation/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password/reset/",
)

FORMS = (
    Form(
        "act",
        "post",
        ("/matches/{match}/act/",),
        {
            "seq": (SEQ,),
            "action": ("resign", *ACTIONS),
            "play": (LEGAL_PLAY, OTHER_LEGAL_PLAY, None),
            "points": ("1", "2", "3", None),
            "message": ("Good luck", None),
        },
        ("to_act", "waiting", "carol", "anonymous"),
    ),
    Form(
        "chat",
        "post",
        ("/matches/{match}/chat/",),
        {"text": ("Hello", "<script>x</script>")},
        ("alice", "carol", "anonymous"),
    ),
    Form(
        "chat mute",
        "post",
        ("/matches/{match}/chat/mute/",),
        {"mute": ("on", "off")},
        ("alice", "carol", "anonymous"),
    ),
    Form(
        "chat report",
        "post",
        ("/matches/{match}/chat/{id}/report/",),
        {"reason": ("", "rude")},
        ("alice", "carol", "anonymous"),
    ),
    Form("hand over", "post", ("/matches/{match}/hand-over/",), visitors=("alice", "anonymous")),
    Form(
        "match page",
        "get",
        ("/matches/{match}/",),
        {
            "steps": ("24-3,13-1", "8-3,6-1", "13-6", None),
            "select": ("8", "13", "24", "6", None),
            "side": ("1", None),
        },
        ("to_act", "carol", "anonymous"),
    ),
    Form("poll", "get", ("/matches/{match}/poll/",), {"seq": (SEQ,)}, ("alice", "anonymous")),
    Form(
        "challenge",
        "post",
        ("/challenges/new/",),
        {
            "opponent": ("bob", "carol", "@Bob", "nobody", ""),
            "match_length": tuple(map(str, MATCH_LENGTHS)),
            "rated": ("on", None),
            "clock": (*(key for key, _, _ in CORRESPONDENCE_PRESETS), "days", "live"),
            "days_per_move": ("1", "0.25", "30", "31"),
            "reserve_days": ("0", "8", "60", "61"),
            "minutes": ("8", "1", "120"),
            "increment_seconds": ("10", "0"),
            "seed": ("", "lucky"),
        },
    ),
    Form(
        "answer a challenge",
        "post",
        (
            "/challenges/{new_challenge}/accept/",
            "/challenges/{challenge}/accept/",
            "/challenges/{challenge}/decline/",
            "/challenges/{challenge}/cancel/",
        ),
        {"seed": ("", "lucky")},
        ("alice", "carol"),
    ),
    Form(
        "play the computer",
        "post",
        ("/play/computer/",),
        {"match_length": ("1", "3", "5"), "level": tuple(level.name for level in LEVELS)},
        ("anonymous", "alice"),
    ),
    Form(
        "pass and play",
        "post",
        ("/play/pass-and-play/",),
        {
            "match_length": ("1", "3", "5"),
            "first_player": ("Player 1", None),
            "second_player": ("Player 2",),
        },
        ("anonymous", "alice"),
    ),
    Form("vacation", "post", ("/settings/vacation/",), {"vacation": ("on", "off")}),
    Form(
        "notification settings",
        "post",
        ("/settings/notifications/",),
        {
            **{name: tuple(Delivery.values) for name in NOTIFICATION_PREFERENCES.values()},
            **{name: ("on", None) for name in PUSH_PREFERENCES.values()},
        },
    ),
    Form(
        "appearance",
        "post",
        ("/settings/appearance/",),
        {"colour": ("", *COLOURS), "style": ("", *STYLES), "crown": ("on", None)},
    ),
    Form(
        "play settings",
        "post",
        ("/settings/play/",),
        {"auto_roll": ("on", None), "auto_play_forced": ("on", None)},
    ),
    Form(
        "API tokens",
        "post",
        ("/settings/api-tokens/revoke/", "/settings/api-tokens/new/"),
        {"token_key": (TOKEN,)},
    ),
    Form(
        "import a .mat",
        "post",
        ("/imports/",),
        {"text": (MAT_FILE.read_text(), None)},
        files={"file": (MAT_FILE.read_bytes(),)},
    ),
    Form(
        "analyse",
        "post",
        ("/matches/{match}/replay/analyse/", "/imports/{imported}/analyse/"),
        visitors=("alice", "anonymous"),
    ),
    Form(
        "sign in",
        "post",
        ("/accounts/login/",),
        {
            "login": ("alice", "alice@example.com"),
            "password": (PASSWORD,),
            "remember": ("on", None),
        },
        ("anonymous",),
    ),
    Form(
        "sign up",
        "post",
        ("/accounts/signup/",),
        {
            "username": ("dora", "alice"),
            "email": ("dora@example.com", "alice@example.com"),
            "password1": ("a long enough password 1",),
            "password2": ("a long enough password 1",),
        },
        ("anonymous",),
    ),
    Form(
        "password reset",
        "post",
        ("/accounts/password/reset/",),
        {"email": ("alice@example.com",)},
        ("anonymous",),
    ),
    Form("sign out", "post", ("/accounts/logout/",)),
    Form(
        "watch list",
        "get",
        ("/matches/",),
        {"status": ("active", "finished", None), "page": ("1", "2", None)},
        ("alice", "anonymous"),
    ),
    Form(
        "lobby",
        "get",
        ("/",),
        {"part": ("lobby", None), "opponent": ("bob", None)},
        ("alice", "anonymous"),
    ),
    Form(
        "dice statistics",
        "get",
        ("/dice/",),
        {"player": ("alice", "bob", "nobody")},
        ("alice", "anonymous"),
    ),
    Form(
        "positions",
        "get",
        ("/positions/",),
        {
            "position_id": ("4HPwATDgc/ABMA", None),
            "match_id": ("cAkAAAAAAAAA", None),
            "xgid": ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:5:10", None),
            "dice": ("31", "3-1", None),
        },
        ("anonymous",),
    ),
    Form(
        "replays",
        "get",
        ("/matches/{match}/replay/", "/imports/{imported}/"),
        {"step": ("0", "3", None), "side": ("1", None)},
        ("alice", "anonymous"),
    ),
    Form("leaderboard", "get", ("/leaderboard/",), {"page": ("1", "2")}, ("anonymous",)),
    Form(
        "create a tournament",
        "post",
        ("/tournaments/new/",),
        {
            "name": ("Spring cup",),
            "format": ("knockout", "double_elimination", "swiss", "round_robin", "ladder"),
            "rounds": ("", "3", "300"),
            "size": ("4", "8", "256"),
            "match_length": ("1", "5"),
            "days_per_move": ("1", "0.5"),
            "reserve_days": ("0", "8"),
            "rated": ("on", None),
            "min_rating": ("", "1400"),
            "max_rating": ("", "1800"),
            "start_mode": ("when_full", "at_time"),
            "starts_at": ("", "2030-01-01T12:00"),
        },
        ("alice", "anonymous"),
    ),
    Form(
        "create a league",
        "post",
        ("/leagues/new/",),
        {
            "name": ("Spring league",),
            "variant": ("backgammon", "tavli", "chess"),
            "match_length": ("1", "5"),
            "days_per_move": ("1", "0.5"),
            "reserve_days": ("0", "8"),
            "rated": ("on", None),
            "season_days": ("28", "0"),
            "division_size": ("6", "10", "11"),
            "promoted": ("0", "2", "4"),
            "starts_at": ("", "2030-01-01T12:00"),
        },
        ("alice", "anonymous"),
    ),
    Form(
        "names in paths",
        "get",
        ("/players/{name}/",),
        visitors=("alice", "anonymous"),
    ),
    Form(
        "ids in paths",
        "get",
        (
            "/matches/{id}/",
            "/matches/{id}/replay/",
            "/matches/{id}/dice/",
            "/matches/{id}/poll/",
            "/imports/{id}/",
            "/tournaments/{id}/",
            "/leagues/{id}/",
        ),
        visitors=("alice", "anonymous"),
    ),
    Form(
        "ids in posted paths",
        "post",
        (
            "/matches/{id}/act/",
            "/matches/{id}/hand-over/",
            "/matches/{id}/replay/analyse/",
            "/imports/{id}/analyse/",
            "/challenges/{id}/accept/",
            "/challenges/{id}/decline/",
            "/challenges/{id}/cancel/",
            "/tournaments/{id}/sign-up/",
            "/tournaments/{id}/withdraw/",
            "/leagues/{id}/sign-up/",
            "/leagues/{id}/withdraw/",
            "/tournaments/{id}/remove-player/",
            "/leagues/{id}/remove-player/",
        ),
    ),
    Form("any page, any query", "get", PAGES, visitors=("alice", "anonymous")),
)
