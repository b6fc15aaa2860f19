"""`--continue`: the saved game at once, as C on the main menu loads it.

The browser server's node that takes over a game from a dead node passes it, so that the
player's page goes on with the same game; a player may pass it too.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from terminal_pane import Pane, have_tmux

import main
import setup_game
from saving import paths


def test_continue_goes_without_a_seed_or_a_daily_game(capsys: pytest.CaptureFixture[str]) -> None:
    for other in (["--seed", "3"], ["--daily"]):
        with pytest.raises(SystemExit):
            main.main(["--continue", *other])
        assert "--continue goes without --daily, --seed" in capsys.readouterr().err


@pytest.mark.skipif(not have_tmux(), reason="tmux is not installed")
def test_continue_plays_the_saved_game_at_once_and_says_so_when_there_is_none(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    pane = Pane(tmp_path)
    try:
        pane.start("--continue", f"--data-dir={data}")
        pane.wait_for("No saved game to load.")
        pane.send("Escape")
        pane.wait_for("Play a new game")
        pane.type("q")
        assert pane.exit_status() == 0
        pane.close()
        engine = setup_game.new_game(5)
        engine.message_log.add_message("A message only this saved game holds.")
        engine.save_as(str(data / paths.SAVE_NAME))
        pane.start("--continue", f"--data-dir={data}")
        screen = pane.wait_for("A message only this saved game holds.")
        assert not any("Continue last game" in row for row in screen)
    finally:
        pane.close()
