"""The engine's command line against the independent oracle on random reachable positions.

The engine answering is the one in this checkout (or ORACLE_ENGINE_CWD, for a branch checked
out elsewhere). tests/oracles/compare.py runs the same comparison on 50,000 pairs.
"""

import os
from pathlib import Path

import pytest

from tests.oracles.compare import REPO_ROOT, compare
from tests.oracles.variants_oracle import PLAY_STYLES, VARIANTS

ENGINE_CWD = Path(os.environ.get("ORACLE_ENGINE_CWD", REPO_ROOT))


@pytest.mark.slow
@pytest.mark.parametrize("style", PLAY_STYLES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_engine_and_oracle_list_the_same_plays(variant, style):
    found = compare(variant, 1000, seed=11, engine_cwd=ENGINE_CWD, style=style)
    assert found == [], f"{len(found)} disagreements, first:\n{found[0].describe()}"
