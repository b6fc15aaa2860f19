"""One game per data folder: a lock that the system lets go of however the game ends.

Two copies of the game on one data folder would overwrite each other's save
(and a death in one would delete the other's).  So the game locks the file
`game.lock` in its data folder before it opens the window, and holds it
until it ends.  The lock is the system's own (`fcntl.flock`, or
`msvcrt.locking` on Windows), taken on the open file, not the file's being
there: when a game ends in any way, killed included, the system releases it,
so the next game takes it over; the file itself is left in place.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Final

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
    let go first.  OSError when the lock file can't be made.
    """
    global _held
    folder = folder.resolve()
    if _held is not None:
        if _held.folder == folder:
            return
        release()
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(folder / LOCK_NAME, flags, 0o644)
    try:
        _lock(fd)
    except OSError:
        os.close(fd)
        raise InUseError(
            f"another copy of the game is playing in {folder}; close it first "
            "(or give this one another folder with --data-dir)"
        ) from None
    _held = _Held(folder, fd)


def release() -> None:
    """Let go of the lock held, if any (the system does it anyway when the game ends)."""
    global _held
    if _held is not None:
        os.close(_held.fd)  # Closing the file releases its lock.
        _held = None


if sys.platform == "win32":
    import msvcrt

    def _lock(fd: int) -> None:
        """Lock the file's first byte, or fail at once."""
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)

else:
    import fcntl

    def _lock(fd: int) -> None:
        """Lock the whole file, or fail at once."""
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
