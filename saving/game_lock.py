"""One game per data folder: a lock that the system lets go of however the game ends.

Two copies of the game on one data folder would overwrite each other's save
(and a death in one would delete the other's).  So the game locks its data
folder before it opens the window, and holds it until it ends.  The lock is
the system's own (`fcntl.flock`), taken on the open folder itself, so no file
can be deleted or replaced by a link to get around it or stop the game; on
Windows, where a folder can't be locked, it is `msvcrt.locking` on the file
`game.lock` in it, which Windows lets no one delete while it is open.  When a
game ends in any way, killed included, the system releases the lock, so the
next game takes it over.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Final

from saving import paths
from words import program

LOCK_NAME: Final = "game.lock"


class InUseError(Exception):
    """Another copy of the game holds the data folder; `str()` says so in one line."""


class _Held:
    """The lock this process holds: the folder and the open lock file."""

    def __init__(self, folder: Path, fd: int) -> None:
        self.folder = folder
        self.fd = fd


_held: _Held | None = None


def hold(folder: Path) -> None:
    """Lock `folder` for this game until it ends; InUseError when another game has it.

    Holding it already, this does nothing; a lock held on another folder is
    let go first.  OSError when the folder (on Windows, the lock file) can't be opened.
    """
    global _held
    folder = folder.resolve()
    if _held is not None:
        if _held.folder == folder:
            return
        release()
    fd = _open(folder)
    try:
        _lock(fd)
    except OSError:
        os.close(fd)
        raise InUseError(
            f"another copy of the game is playing in {folder}; close it first "
            "(or give this one another folder with --data-dir)"
        ) from None
    _held = _Held(folder, fd)


def taken() -> str | None:
    """Hold the data folder's lock for the game about to play (`hold`); None, or in one
    line why not (another copy plays there, or the folder can't be opened)."""
    try:
        hold(paths.data_dir())
    except (InUseError, OSError) as exc:
        return f"{program.name()}: {exc}"
    return None


def release() -> None:
    """Let go of the lock held, if any (the system does it anyway when the game ends)."""
    global _held
    if _held is not None:
        os.close(_held.fd)  # Closing the file releases its lock.
        _held = None


if sys.platform == "win32":
    import msvcrt

    def _open(folder: Path) -> int:
        """The lock file in `folder`, made if missing (a folder can't be locked on Windows)."""
        if (folder / LOCK_NAME).is_symlink():
            raise OSError(f"{folder / LOCK_NAME} is a link; remove it")
        return os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o644)

    def _lock(fd: int) -> None:
        """Lock the file's first byte, or fail at once."""
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)

else:
    import fcntl

    def _open(folder: Path) -> int:
        """The folder itself, open to be locked."""
        return os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))

    def _lock(fd: int) -> None:
        """Lock the whole file, or fail at once."""
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
