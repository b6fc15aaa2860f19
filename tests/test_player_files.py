"""The suite leaves a player's files alone: every test runs in a folder of its own.

A player runs the tests from the folder they play in, where `savegame.sav`
is.  Tests that die in the game delete the save, and tests that quit write
one; before conftest's `in_tmp` ran every test in a temporary folder, the
suite destroyed the player's game.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

from saving import paths

# The test files that save, continue, die and quit through the real loop.
SAVING_TESTS = ("test_menu.py", "test_main_loop.py", "test_e2e.py")


def test_each_test_runs_in_a_folder_of_its_own(in_tmp: Path) -> None:
    assert Path.cwd() == in_tmp
    assert paths.save_path().resolve() == in_tmp / paths.SAVE_NAME
    assert list(in_tmp.iterdir()) == []


def test_a_players_save_survives_the_tests_that_save_and_die(tmp_path: Path) -> None:
    player_folder = tmp_path / "player"
    player_folder.mkdir()
    sentinel = b"the player's game, not to be touched"
    for name in (paths.SAVE_NAME, paths.SAVE_NAME + ".bak"):
        (player_folder / name).write_bytes(sentinel)

    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    # pytest-benchmark, where installed, makes a .benchmarks folder here as
    # pytest starts, before any test: not the suite's doing.
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:benchmark", "-x",
         *(str(ROOT / "tests" / name) for name in SAVING_TESTS)],
        cwd=player_folder, env=env, capture_output=True, text=True, timeout=600,
    )

    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert " passed" in result.stdout
    assert sorted(p.name for p in player_folder.iterdir()) == [
        paths.SAVE_NAME, paths.SAVE_NAME + ".bak"
    ]
    for name in (paths.SAVE_NAME, paths.SAVE_NAME + ".bak"):
        assert (player_folder / name).read_bytes() == sentinel
