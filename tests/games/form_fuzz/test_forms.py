"""Every HTML form and query string of the site, fuzzed as schemathesis fuzzes the API.

Each form of forms.FORMS (the match page's buttons, the challenge forms, casual play, the
settings pages, the .mat upload, allauth's sign-in, sign-up and password reset, the filters of
the list pages, the names and ids in paths) is sent what its page offers mixed with what no
browser sends (strategies.py), as a signed-in player and anonymously where the page allows it.
First every field of every form gets each of a few values known to be bad, the rest of the form
as the page offers it; then hypothesis draws whole forms. Every answer must be below 500, and an
answer that is not a redirect (a refusal, or a form shown again with its errors) must have
changed nothing in the database.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlencode

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.games.form_fuzz.forms import FORMS, Form, World, database, read
from tests.games.form_fuzz.strategies import KNOWN_BAD, NASTY, anything, ids

EXAMPLES_PER_FORM = 15
#: Ids no page links to: of nothing, beyond a 32-bit and a 64-bit integer, too long for int().
KNOWN_BAD_IDS = (0, 2**31, 2**63, 10**30, "9" * 5000)
#: A NUL in a field of a list of values.
WITH_NUL = ["", "\x00"]

FORM_IDS = [form.name for form in FORMS]


def send(
    world: World,
    form: Form,
    *,
    who: str,
    path: str,
    values: dict[str, Any],
    multipart: bool = True,
    said: str = "",
) -> None:
    """Send ``values`` (None: left out) as ``who``; check the answer and the database."""
    fields = {name: read(value, world) for name, value in values.items() if value is not None}
    client = world.browser(who)
    before = database()
    # On PostgreSQL an error would break the test's transaction for every later query.
    try:
        with transaction.atomic():
            if form.method == "get":
                response = client.get(path, fields)
            elif multipart:
                response = client.post(path, fields)
            else:
                body = urlencode(fields, doseq=True)
                response = client.post(path, body, content_type="application/x-www-form-urlencoded")
    except Exception as error:
        raise AssertionError(
            f"{said}: {form.method.upper()} {path[:200]} raised {error!r}"
        ) from error
    status = response.status_code
    assert status < 500, f"{said}: {status} from {path[:200]}"
    if not 300 <= status < 400:
        assert database() == before, f"{said}: {status} from {path[:200]} changed the database"


def uploads(form: Form, contents: dict[str, bytes | None]) -> dict[str, Any]:
    return {
        name: SimpleUploadedFile("match.mat", content)
        for name, content in contents.items()
        if content is not None
    }


@pytest.mark.parametrize("form", FORMS, ids=FORM_IDS)
def test_known_bad_values(form: Form, world: World) -> None:
    who = form.visitors[0]
    offered = {name: values[0] for name, values in form.fields.items()}
    offered_files = {name: files[0] for name, files in form.files.items()}
    for template in form.paths:
        if "{id}" in template:
            for bad_id in KNOWN_BAD_IDS:
                path = world.path(template, id=bad_id)
                send(world, form, who=who, path=path, values=offered, said=f"id {bad_id!r}")
        elif "{name}" in template:
            for bad in KNOWN_BAD:
                path = world.path(template, name=quote(bad, safe=""))
                send(world, form, who=who, path=path, values=offered, said=f"name {bad!r}")
    # A path is made for each request: an open challenge answered is no longer open.
    for name in form.fields:
        for bad in (*KNOWN_BAD, WITH_NUL, None):
            values = {**offered, name: bad, **uploads(form, offered_files)}
            path = world.path(form.paths[0])
            send(world, form, who=who, path=path, values=values, said=f"{name}={bad!r}")
    for name in form.files:
        for bad in (b"\x00\xff\xfe", *(value.encode() for value in KNOWN_BAD)):
            values = {**offered, **uploads(form, {**offered_files, name: bad})}
            path = world.path(form.paths[0])
            send(
                world, form, who=who, path=path, values=values, said=f"{name} holding {bad[:20]!r}"
            )


@pytest.mark.parametrize("form", FORMS, ids=FORM_IDS)
@given(data=st.data())
@settings(
    max_examples=EXAMPLES_PER_FORM,
    deadline=None,
    database=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
def test_fuzzed_forms(form: Form, world: World, data: Any) -> None:
    who = data.draw(st.sampled_from(form.visitors), label="visitor")
    template = data.draw(st.sampled_from(form.paths), label="path")
    path = world.path(
        template,
        challenge=data.draw(st.sampled_from(world.challenge_ids), label="challenge"),
        id=data.draw(ids(), label="id") if "{id}" in template else 0,
        name=quote(data.draw(NASTY, label="name"), safe="") if "{name}" in template else "",
    )
    # Most examples spoil one field and send the rest as the page offers it, so that the
    # spoiled one gets past the others' checks; some spoil everything.
    names = list(form.fields)
    spoiled = data.draw(st.sampled_from([*names, "every field"]), label="spoiled") if names else ""
    values: dict[str, Any] = {}
    for name, offered in form.fields.items():
        spoil = spoiled in (name, "every field")
        values[name] = data.draw(
            anything(offered) if spoil else st.sampled_from(offered), label=name
        )
    unknown = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12)
    values.update(data.draw(st.dictionaries(unknown, NASTY, max_size=2), label="unknown fields"))
    for name, files in form.files.items():
        content = data.draw(
            st.one_of(
                st.none(),
                st.sampled_from(files),
                st.binary(max_size=200),
                NASTY.map(str.encode),
            ),
            label=name,
        )
        values.update(uploads(form, {name: content}))
    multipart = bool(form.files) or data.draw(st.booleans(), label="multipart")
    send(world, form, who=who, path=path, values=values, multipart=multipart, said="drawn")
