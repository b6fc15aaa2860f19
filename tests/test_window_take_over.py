"""Taking over a replay in a real window (Xvfb, xdotool): the game played on is the
player's own, saved where Continue finds it, and the replayed game's end leaves no trace.

Needs what tests/test_window.py needs; skipped without it.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import numpy as np
import pytest
from conftest import after_header, all_lines, played_lines
from numpy.typing import NDArray
from test_window import TOOLS, Window, explained, virtual_screen, wait_for

import setup_game
from replays import record_reader
from saving import paths

RECORDINGS = Path(__file__).parent / "recordings"

pytestmark = pytest.mark.skipif(
    any(shutil.which(tool) is None for tool in TOOLS),
    reason="needs Xvfb, xdotool and ImageMagick (apt-get install xvfb xdotool imagemagick)",
)


def test_a_replay_played_on_in_the_window_is_a_game_continue_finds(tmp_path: Path) -> None:
    # A few events of a recording: its replay is over before the window is found still
    # (a replay changes the screen with each event), so the first key asks.
    lines = (RECORDINGS / "scroll.rec").read_text().splitlines()
    header = len(lines) - len(after_header(lines))
    rec = tmp_path / "scroll.rec"
    rec.write_text("\n".join(lines[: header + 5]) + "\n")
    folder = tmp_path / "data"
    folder.mkdir()
    with virtual_screen() as display, explained(folder):
        window = Window(display, folder, 1, arguments=("--replay", str(rec)))
        try:
            over = window.screenshot("over")
            window.press("l")  # Asks first: the key itself does nothing.
            asked = window.screen_after("asked", over)
            assert not (folder / paths.SAVE_NAME).exists()
            window.press("y")
            window.screen_after("taken over", asked)
            window.press("space", "l", "Escape")  # The notice closed, a step, then save and quit?
            window.press_to_quit("y")
            assert window.wait_exit() == 0, window.output()
            assert "Game saved." in window.output()
        finally:
            window.stop()
    engine = setup_game.load_game(folder / paths.SAVE_NAME)
    assert engine.game_world.seed == record_reader.read(rec).seed
    assert played_lines(all_lines(engine, folder))[-3:] == ["key l", "key escape", "resume"]
    assert engine.recording_file is not None
    assert (folder / "recordings" / engine.recording_file).exists()


def test_a_window_replay_ending_in_death_goes_to_the_players_menu(tmp_path: Path) -> None:
    """The recording's Enter on its game-over screen: the player's own menu, no error;
    its `n` starts the player's own game."""
    rec = tmp_path / "death.rec"
    rec.write_text((RECORDINGS / "death.rec").read_text() + "key return\n")
    folder = tmp_path / "data"
    folder.mkdir()
    with virtual_screen() as display, explained(folder):
        window = Window(display, folder, 1, arguments=("--replay", str(rec)))
        try:
            window.press(*["plus"] * 8)  # At its fastest.
            menu = wait_for("the replay to end", lambda: settled(window), timeout=60)
            window.press("n")
            game = window.screen_after("new game", menu)
            window.press("Escape")
            window.screen_after("save and quit?", game)
            window.press_to_quit("y")
            assert window.wait_exit() == 0, window.output()
        finally:
            window.stop()
    assert "Traceback" not in (folder / "run1.err").read_text()
    engine = setup_game.load_game(folder / paths.SAVE_NAME)
    assert played_lines(all_lines(engine, folder))[-2:] == ["key escape", "resume"]  # A new game: nothing of the replay's.
    assert engine.game_world.seed != record_reader.read(rec).seed or len(engine.recording) < 10


def settled(window: Window) -> NDArray[np.uint8] | None:
    """The screen, once it has not changed for a second."""
    before = window.screenshot("settling", keep=False)
    time.sleep(1.0)
    after = window.screenshot("settling", keep=False)
    return after if np.array_equal(before, after) else None
