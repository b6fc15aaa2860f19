"""One random generator for the rules: play never draws from the `random`
module's global state, which no save and no recording holds (a replay or a
Continue would drift from the game played, without an error)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import replay_text

RECORDINGS = Path(__file__).parent / "recordings"


@pytest.mark.parametrize("name", ["death", "descent", "scroll"])
def test_play_never_draws_from_the_random_modules_global_state(name: str) -> None:
    """Whole recorded games (fights, confusion, level-ups, new floors), played
    from their seed, leave the global state as they found it."""
    random.seed(20261124)
    before = random.getstate()
    engine = replay_text((RECORDINGS / f"{name}.rec").read_text()).engine
    assert engine is not None and engine.turns > 0
    assert random.getstate() == before, "play drew from `random`: draw from `engine.rng` instead"
