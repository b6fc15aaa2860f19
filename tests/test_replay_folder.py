"""Watching a recording never touches the player's game.

A replay's game writes what any game writes (its recording, a save on
quitting, a morgue file and the hall of fame at its death, and removes its
save when it ends), but in a folder of its own (`paths.replay_folder`): the
player's save, backup, scores, morgue files and recordings are byte for byte
what they were, in the window and headless.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterable
from pathlib import Path

import pytest
import tcod
from conftest import key, typed
from tcod.event import KeySym

import main
from saving import paths

RECORDINGS = Path(__file__).parent / "recordings"
# Files the player may see change: the options keep where the window was, and
# the lock is the running game's.
NOT_THE_GAME = {"options.txt", "game.lock"}


def players_folder(root: Path) -> Path:
    """A data folder holding a game in progress and the files of earlier ones."""
    folder = root / "data"
    (folder / "morgue").mkdir(parents=True)
    (folder / "recordings").mkdir()
    (folder / paths.SAVE_NAME).write_bytes(b"the player's own game")
    (folder / f"{paths.SAVE_NAME}.bak").write_bytes(b"the player's own backup")
    (folder / paths.SCORES_NAME).write_bytes(b'{"scores": []}')
    (folder / "morgue" / "morgue-001.txt").write_bytes(b"an earlier death")
    (folder / "recordings" / "game-001.rec").write_bytes(b"recording 2\nseed 1\n")
    return folder


def files_of(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name not in NOT_THE_GAME
    }


class Watcher:
    """`tcod.event.wait` for a window replay: the playback sped up to its fastest,
    then, once it has ended (the loop waits with no timeout), the keys given."""

    def __init__(self, *after: Iterable[tcod.event.Event]) -> None:
        self.after = [list(batch) for batch in after] + [[tcod.event.Quit()]]
        self.sped_up = False

    def __call__(self, timeout: float | None = None) -> list[tcod.event.Event]:
        if not self.sped_up:
            self.sped_up = True
            return [typed("+")] * 8
        if timeout is not None:  # The replay plays on.
            time.sleep(min(timeout, 0.01))
            return []
        return self.after.pop(0)


@pytest.mark.parametrize(
    ("name", "after"),
    [
        ("death", [[key(KeySym.RETURN)]]),  # The death, then back to the menu.
        ("descent", []),  # Closing the window saves the replayed game.
        ("scroll", [[key(KeySym.L)], [key(KeySym.ESCAPE)], [key(KeySym.Y)]]),  # Played on, saved and quit.
    ],
)
def test_a_window_replay_leaves_the_players_files_as_they_were(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch, name: str, after: list[list[tcod.event.Event]]
) -> None:
    folder = players_folder(in_tmp)
    before = files_of(folder)
    monkeypatch.setattr(tcod.event, "wait", Watcher(*after))
    rec = in_tmp / f"{name}.rec"
    shutil.copy(RECORDINGS / f"{name}.rec", rec)
    assert main.main(["--replay", str(rec), "--data-dir", str(folder)]) == 0
    assert files_of(folder) == before
    assert paths.games_dir() == paths.data_dir() == folder  # The replay's folder is gone with it.


@pytest.mark.parametrize("name", ["death", "descent", "scroll"])
def test_a_headless_replay_leaves_the_players_files_as_they_were(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    folder = players_folder(in_tmp)
    before = files_of(folder)
    ended = in_tmp / f"{name}.rec"
    ended.write_text((RECORDINGS / f"{name}.rec").read_text() + "key return\n")
    assert main.main(["--replay", str(ended), "--headless", "--data-dir", str(folder)]) == 0
    capsys.readouterr()
    assert files_of(folder) == before
