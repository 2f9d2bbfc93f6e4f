"""Every variant has everything the site needs: a variant is one value in the engine, and the
rest of the site reads its facts from there. A variant added to the engine that lacks a piece
fails here, naming the piece (docs/variants.md, "Adding a variant")."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import translation

from backgammon_site.core.variants import Variant, is_variant
from games.computer.decisions import LEVELS, VARIANT_LEVELS, level_in
from games.computer.variant_eval import WEIGHTS
from games.engine import MatchState, snapshot, state_from_snapshot
from games.engine.__main__ import main as engine_command
from games.engine.board import Board
from games.engine.mat import has_mat_form
from games.engine.variants import MATCH_VARIANTS, VARIANTS, MatchRules
from games.engine.words import resignation_words

OTHER_LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]


def _site_names() -> list[str]:
    return list(MATCH_VARIANTS)


def test_the_sites_list_is_the_engines():
    assert Variant.values == list(MATCH_VARIANTS)
    assert all(is_variant(name) for name in MATCH_VARIANTS)
    assert not is_variant("chess") and not is_variant(None)


@pytest.mark.parametrize("name", _site_names())
@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_the_title_is_translated(name, language):
    english = MATCH_VARIANTS[name].title
    assert english, f"{name} has no title"
    # A title may be the same word in the language (Tavla in Turkish): the catalogue must
    # hold it all the same.
    catalogue = translation.trans_real.translation(language)._catalog
    assert english in catalogue and catalogue[english], (
        f"{name}'s title {english!r} has no {language} translation in locale/{language}/"
    )


@pytest.mark.parametrize("name", list(VARIANTS))
def test_the_computer_plays_it_at_every_level(name):
    variant = VARIANTS[name]
    assert variant in VARIANT_LEVELS, f"decisions.VARIANT_LEVELS has no settings for {name}"
    assert [level_in(level, variant).name for level in LEVELS] == [lv.name for lv in LEVELS]
    if not variant.hits:
        assert variant in WEIGHTS, f"variant_eval.WEIGHTS has no terms for {name}"


@pytest.mark.parametrize("name", list(VARIANTS))
def test_its_words_are_said(name):
    variant = VARIANTS[name]
    assert variant.gammon_word
    state = MatchState.new(3, MatchRules.of(name))
    for offered in state.resignation_offers():
        assert resignation_words(variant, offered).startswith("a ")


@pytest.mark.parametrize("name", list(VARIANTS))
def test_the_command_line_lists_its_plays(name, capsys):
    start = Board.starting(VARIANTS[name]).text()
    assert engine_command(["moves", "--variant", name, start, "6", "5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines and all("\t" in line for line in lines)


@pytest.mark.parametrize("name", _site_names())
def test_a_match_starts_and_is_stored(name):
    rules = MatchRules.of(name)
    state = MatchState.new(3, rules)
    assert state_from_snapshot(snapshot(state)) == state
    assert state.game_variant in rules.match_variant.games
    assert has_mat_form(rules) == (rules.match_variant.gnubg_variation is not None)


@pytest.mark.django_db
@pytest.mark.parametrize("name", _site_names())
def test_its_rules_page_and_its_place_in_the_forms(client, name):
    page = client.get(f"/rules/{name}/")
    assert page.status_code == 200, f"/rules/{name}/ answers {page.status_code}"
    assert MATCH_VARIANTS[name].title in page.content.decode()
    assert f'href="/rules/{name}/"' in client.get("/rules/").content.decode()
    home = client.get("/").content.decode()
    assert f'value="{name}"' in home, f"the home page's play form does not offer {name}"


@pytest.mark.parametrize("name", _site_names())
@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_its_other_names_are_translated(name, language):
    for other in MATCH_VARIANTS[name].also_called:
        with translation.override(language):
            assert str(translation.gettext(other)) != other, f"{other!r} has no {language} text"
