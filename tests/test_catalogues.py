"""The translation catalogues: each committed .mo says exactly what its .po says (so the service
runs without gettext installed), and the play pages are translated whole in every language.

Both checks use GNU gettext's own tools (msgfmt, msgattrib); .ci/run installs them.
"""

from __future__ import annotations

import gettext
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

LOCALE = Path(settings.BASE_DIR) / "locale"
CATALOGUES = sorted(LOCALE.glob("*/LC_MESSAGES/django.po"))

#: What a player of the play pages reads: the lobby, the match page, the replay, the
#: challenge form and casual play, the rules pages, and the language and play settings.
PLAY_PAGES = {
    "templates/base.html",
    "templates/home.html",
    "templates/games/lobby_live.html",
    "templates/games/lobby_your_matches.html",
    "templates/games/lobby_challenges.html",
    "templates/games/lobby_challenge_form.html",
    "templates/games/casual_play.html",
    "templates/games/match_table.html",
    "templates/games/_play_area.html",
    "templates/games/_match_title.html",
    "templates/games/_move_list.html",
    "templates/games/_pass_device.html",
    "templates/games/pass_device.html",
    "templates/games/chat.html",
    "templates/games/match_end.html",
    "templates/games/board.svg.html",
    "templates/games/checkers.svg.html",
    "templates/games/replay.html",
    "templates/games/rules_index.html",
    "templates/games/rules_variant.html",
    "templates/games/rules_tavli.html",
    "templates/accounts/language_settings.html",
    "templates/accounts/play_settings.html",
    "games/views/lobby.py",
    "games/views/casual.py",
    "games/views/match.py",
    "games/views/match_words.py",
    "games/views/match_rows.py",
    "games/views/turn_steps.py",
    "games/views/chat.py",
    "games/views/cube.py",
    "games/views/board_words.py",
    "games/views/last_play.py",
    "games/views/move_list.py",
    "games/views/replay.py",
    "games/views/rules.py",
    "games/clocks/words.py",
    "games/engine/variants.py",
}


def gettext_tool(name: str) -> str:
    tool = shutil.which(name)
    if tool is None:
        pytest.skip(f"GNU gettext's {name} is not installed (Debian's gettext package)")
    return tool


def test_there_are_greek_and_russian_catalogues():
    assert {path.parts[-3] for path in CATALOGUES} >= {"el", "ru"}


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda path: path.parts[-3])
def test_each_compiled_catalogue_says_what_its_po_says(po, tmp_path):
    compiled = tmp_path / "django.mo"
    subprocess.run(
        [gettext_tool("msgfmt"), "--check", "-o", str(compiled), str(po)],
        check=True,
        capture_output=True,
    )
    with compiled.open("rb") as fresh, po.with_suffix(".mo").open("rb") as committed:
        expected = gettext.GNUTranslations(fresh)._catalog  # type: ignore[attr-defined]
        shipped = gettext.GNUTranslations(committed)._catalog  # type: ignore[attr-defined]
    assert shipped == expected, (
        f"{po.with_suffix('.mo')} is out of date: run `manage.py compilemessages` and commit it"
    )


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda path: path.parts[-3])
def test_the_play_pages_are_translated_whole(po):
    untranslated = subprocess.run(
        [gettext_tool("msgattrib"), "--untranslated", "--no-obsolete", str(po)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    left = []
    for entry in untranslated.split("\n\n"):
        places = {
            place
            for line in entry.splitlines()
            if line.startswith("#: ")
            for place in line[3:].split()
        }
        if places & PLAY_PAGES:
            left.append(entry)
    assert not left, f"{po} leaves play-page words untranslated:\n\n" + "\n\n".join(left)
