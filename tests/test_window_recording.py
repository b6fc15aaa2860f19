"""A game played in a real window (Xvfb, xdotool) and its recording, replayed
headless, end in the same state.

Run alone:  python -m pytest tests/test_window_recording.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from conftest import all_lines, dungeon, played_lines, replay_text
from test_soak import canonical, first_difference
from test_window import MAIN, SEED, Window, explained, pytestmark, virtual_screen

import setup_game
from replays import record_reader, replay
from saving import paths

__all__ = ["pytestmark"]  # The real-window tests' skip conditions hold here too.


def test_a_game_in_the_window_replays_headless_to_the_same_state(tmp_path: Path) -> None:
    with virtual_screen() as display, explained(tmp_path):
        play(display, tmp_path)
    files = list((tmp_path / "recordings").iterdir())
    assert len(files) == 1, files
    text = files[0].read_text()
    script = record_reader.parse(text, str(files[0]))
    assert script.seed == SEED
    lines = text.splitlines()
    assert "text >" not in lines  # `>` was not pressed; but `.` and `/` were, typed:
    for expected in ("key l", "key j", "text .", "key i", "key escape", "text /", "key return"):
        assert expected in lines, (expected, lines)
    assert any(line.startswith("move ") for line in lines), "\n".join(lines)
    assert any(line.startswith("click ") for line in lines), "\n".join(lines)

    # The game as saved when the window closed, and the recording replayed headless.
    saved = setup_game.load_game(str(tmp_path / paths.SAVE_NAME))
    assert played_lines(all_lines(saved, tmp_path)) == played_lines(lines)
    done = subprocess.run(
        [sys.executable, str(MAIN), "--replay", str(files[0]), "--headless"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == replay.summary(dungeon(saved))
    # To the last attribute.
    again = replay_text(text).engine
    assert again is not None
    again.recording_file = saved.recording_file
    before, after = canonical(saved), canonical(again)
    assert before == after, first_difference(before, after)


def play(display: str, folder: Path) -> None:
    """New game, keys, the inventory, look mode with the keys, the mouse; then close the window."""
    window = Window(display, folder, 1)
    try:
        blank = np.zeros((500, 800, 3), np.uint8)
        window.press("n", "l", "l", "j", "period", "i", "Escape")
        window.screen_after("played", blank)
        # Point at a few tiles and click one: the pointer's tile goes in the
        # recording.  (`click --window` would send a synthetic event, which
        # SDL ignores: the click goes where the pointer is.)
        for x, y in [(100, 100), (305, 205), (415, 255)]:
            window.x("xdotool", "mousemove", "--window", window.id, str(x), str(y))
            time.sleep(0.3)
        window.x("xdotool", "click", "1")
        time.sleep(0.3)
        window.press("slash", "Right", "Return", "Escape", "Escape", "k", "h")
        time.sleep(0.5)
        window.close()
        assert window.wait_exit() == 0, window.output()
    finally:
        window.stop()
