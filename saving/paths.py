"""Where the game keeps the player's files, named in one place.

The save, recordings, morgue files, the hall of fame, the options and screenshots all go in
one data folder.  Run from the source, that is the working directory, as in
the tutorial; a packaged build (tools/build.py) uses the folder the player's
system keeps for the game's data, and `--data-dir` chooses any folder for
either.  Every module asks here for a path rather than naming a file itself.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from words import program

SAVE_NAME: Final = "savegame.sav"
RECORDINGS_FOLDER: Final = "recordings"
MORGUE_FOLDER: Final = "morgue"
SCORES_NAME: Final = "scores.json"
KEYS_NAME: Final = "keys.txt"
OPTIONS_NAME: Final = "options.txt"

_data_dir = Path()
# Whether the game is played through the web server (`--served`): its paths are the server's.
_served = False


def data_dir() -> Path:
    """The folder the player's files go in (the working directory by default)."""
    return _data_dir


def default_data_dir(game: str) -> Path:
    """The working directory, as in the tutorial; for a packaged build, the player's data folder.

    A build started from a desktop has no useful working directory: the files
    would land wherever the launcher happened to be.
    """
    return player_data_dir(game) if getattr(sys, "frozen", False) else Path()


def player_data_dir(
    game: str, system: str = sys.platform, environ: Mapping[str, str] = os.environ
) -> Path:
    """The folder the player's system keeps for `game`'s data.

    The same folder as SDL's preference path (SDL_GetPrefPath) for `game`,
    which the player's other SDL games use; but SDL makes the folder when
    asked for its name, and `--help` (which names it) should make nothing.
    """
    if system == "win32":
        appdata = environ.get("APPDATA")
        base = Path(appdata) if appdata else Path.home() / "AppData" / "Roaming"
    elif system == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:  # The XDG base directories, on Linux and the BSDs.
        xdg = environ.get("XDG_DATA_HOME", "")
        base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base / game


def use_data_dir(folder: Path) -> None:
    """Keep the player's files in `folder` from now on; main() calls it once at start-up."""
    global _data_dir
    _data_dir = folder


def prepare_data_dir(folder: Path) -> str | None:
    """Keep the player's files in `folder`, made if missing; or say in one line why not.

    Checked at start-up, so that the player hears of it before playing, not
    when the game can't be saved.
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"{program.name()}: cannot use {folder} as the data folder: {exc.strerror or exc}"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"{program.name()}: cannot write in the data folder {folder}"
    use_data_dir(folder)
    return None


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


def is_players_file(path: Path) -> bool:
    """Whether `path` is one of the player's files in the data folder (the save and
    the files beside it, the options, the keys, the scores, a recording or a
    morgue file), which output the player asks for must never write over."""
    try:
        target = path.resolve()
        folder = _data_dir.resolve()
    except (OSError, RuntimeError):
        return True  # Where it leads can't be told: not risked.
    if target.parent in (folder / RECORDINGS_FOLDER, folder / MORGUE_FOLDER):
        return True
    named = (SAVE_NAME, SCORES_NAME, OPTIONS_NAME, KEYS_NAME, "game.lock")
    return target.parent == folder and target.name.startswith(named)


def use_served() -> None:
    """Played through the web server from now on (`--served`): no screen shows its paths."""
    global _served
    _served = True


def served() -> bool:
    """Whether the game is played through the web server (`use_served`)."""
    return _served


def shown(path: Path | str) -> str:
    """A path as any screen or terminal can print it: a byte of its name that
    is not UTF-8 (which the system allows) shows as U+FFFD, never an error.

    Played through the web server (`use_served`), the server's folders are its own business:
    a file is named inside the player's data folder (`morgue/x.txt`), or by its name alone.
    """
    return printable(str(path) if not _served else served_name(Path(path)))


def served_name(path: Path) -> str:
    """`path` as a served player sees it: inside their data folder, or its name alone."""
    try:
        inside = path.resolve().relative_to(_data_dir.resolve())
    except (ValueError, OSError, RuntimeError):
        return path.name
    return "your data folder" if inside == Path() else inside.as_posix()


def printable(text: str) -> str:
    """`text` with what can't be written as UTF-8 (a file name's stray bytes) as U+FFFD."""
    return os.fsencode(text).decode("utf-8", "replace") if not text.isascii() else text


def options_path() -> Path:
    """The player's options, a plain-text file (see `options`)."""
    return _data_dir / OPTIONS_NAME


def keys_path() -> Path:
    """The player's own keys (`key_file`), read at start-up if there."""
    return _data_dir / KEYS_NAME
