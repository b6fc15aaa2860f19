"""Where the game keeps the player's files, named in one place.

The save, recordings, morgue files, the hall of fame and screenshots all go in
one data folder.  Run from the source, that is the working directory, as in
the tutorial; `--data-dir` (or a packaged build) chooses another.  Every module
asks here for a path rather than naming a file itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

SAVE_NAME: Final = "savegame.sav"
RECORDINGS_FOLDER: Final = "recordings"
MORGUE_FOLDER: Final = "morgue"
SCORES_NAME: Final = "scores.json"

_data_dir = Path()


def data_dir() -> Path:
    """The folder the player's files go in (the working directory by default)."""
    return _data_dir


def use_data_dir(folder: Path) -> None:
    """Keep the player's files in `folder` from now on; main() calls it once at start-up."""
    global _data_dir
    _data_dir = folder


def save_path() -> Path:
    """The game in progress: `savegame.sav`, as the tutorial names it."""
    return _data_dir / SAVE_NAME


def recordings_dir() -> Path:
    """Where each game's recording is kept."""
    return _data_dir / RECORDINGS_FOLDER


def morgue_dir() -> Path:
    """Where a morgue file is written at each death."""
    return _data_dir / MORGUE_FOLDER


def scores_path() -> Path:
    """The hall of fame."""
    return _data_dir / SCORES_NAME
