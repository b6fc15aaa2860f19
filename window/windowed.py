"""Where the game's words go when it has no console (the Windows and macOS
downloads, or `--windowed`): a bounded log file, and SDL's message box for a
failure to start, which would otherwise show nothing at all."""

from __future__ import annotations

import contextlib
import io
import logging
import os
import stat
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Final

from tcod.cffi import ffi, lib

from window import title
from words import program

LOG_NAME: Final = "game.log"
MAX_BYTES: Final = 256 * 1024  # Some thousand lines: many games' worth of notes.
BACKUPS: Final = 2

# Opens the file itself, never a link's target, and never waits on a pipe.
_OPEN_FLAGS: Final = (
    os.O_WRONLY | os.O_APPEND | os.O_CREAT
    | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
)  # fmt: skip


def is_windowed_build() -> bool:
    """A download for Windows or macOS, built with no console (see tools/build.py)."""
    return bool(getattr(sys, "frozen", False)) and sys.platform in ("win32", "darwin")


class LogFile(io.TextIOBase):
    """A text stream appending to a log file, moved aside when it grows too big.

    Writing never raises: a lost log line must not stop the game.
    """

    def __init__(self, path: Path, max_bytes: int = MAX_BYTES, backups: int = BACKUPS) -> None:
        self.path = path
        self.max_bytes = max_bytes
        self.backups = backups
        self.last_line = ""
        self._line = ""  # The line being written, until its end comes.
        self._fd: int | None = None
        self._size = 0
        self.problem = self._open()

    def _open(self) -> str | None:
        """Open the log to append to it; or say why not."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self.path.is_symlink():  # Where there is no O_NOFOLLOW (Windows).
                raise OSError(f"{self.path} is a link")
            fd = os.open(self.path, _OPEN_FLAGS, 0o644)
        except OSError as exc:
            return f"cannot write the log {self.path}: {exc.strerror or exc}"
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            os.close(fd)
            return f"cannot write the log {self.path}: not a plain file"
        self._fd, self._size = fd, info.st_size
        return None

    def _rotate(self) -> None:
        """game.log becomes game.log.1, game.log.1 becomes game.log.2, ...; a new log begins.

        A backup's name taken by something that can't be replaced (a folder)
        costs the log that would have gone there, never the log's bound.
        """
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        in_the_way: list[str] = []
        for number in range(self.backups, 0, -1):
            older = self.path.with_name(f"{self.path.name}.{number - 1}") if number > 1 else self.path
            newer = self.path.with_name(f"{self.path.name}.{number}")
            if not (older.exists() or older.is_symlink()) or (older.is_dir() and not older.is_symlink()):
                continue  # Nothing there, or a folder, which is not the game's to move.
            try:  # Renames the name itself: a link is moved, never followed.
                os.replace(older, newer)
            except OSError as exc:
                in_the_way.append(f"{newer.name} is in the way ({exc.strerror or exc}): {older.name} was dropped")
                with contextlib.suppress(OSError):
                    older.unlink()
        if self.backups == 0:
            with contextlib.suppress(OSError):
                self.path.unlink()
        self.problem = self._open()
        for line in in_the_way:
            self.write(f"main.py: log rotation: {line}\n")

    def write(self, text: str) -> int:
        """Append `text`; always says all of it was written."""
        lines = (self._line + text).split("\n")
        self._line = lines[-1]
        if finished := [line for line in lines[:-1] if line.strip()]:
            self.last_line = finished[-1].strip()
        data = text.encode("utf-8", "backslashreplace")[-self.max_bytes :]
        if self._size + len(data) > self.max_bytes:
            self._rotate()
        if self._fd is not None:
            try:
                while data:
                    written = os.write(self._fd, data)
                    self._size += written
                    data = data[written:]
            except OSError:
                pass  # Lost, but the game plays on.
        return len(text)

    def writable(self) -> bool:
        return True

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        super().close()


def show_error(text: str) -> bool:
    """Show `text` in SDL's message box, which needs no window; False without a desktop."""
    return bool(
        lib.SDL_ShowSimpleMessageBox(
            lib.SDL_MESSAGEBOX_ERROR, title.GAME_TITLE.encode(), text.encode("utf-8", "replace"), ffi.NULL
        )
    )


def run(start: Callable[[], int], folder: Path) -> int:
    """Run the game (`start`) printing to the log in `folder`; on a failure the
    message box shows the last line printed, and where the log is."""
    log = LogFile(folder / LOG_NAME)
    console = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = log
    try:
        print(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')}: {title.GAME_TITLE} starts")
        if log.problem is not None:
            print(f"{program.name()}: {log.problem}")
        status = start()
        message = log.last_line
    except Exception:
        traceback.print_exc()
        status, message = 1, f"{log.last_line}\n\nThe log {log.path} says more."
    finally:
        sys.stdout, sys.stderr = console
        log.close()
    if status != 0:
        show_error(message)
    return status


def quiet_library_logs() -> None:
    """Keep tcod's and SDL's log records off the terminal.

    tcod passes SDL's chatter ("App name: python3") on as warnings, which
    Python prints when logging is not set up; a handler of its own stops that.
    """
    logger = logging.getLogger("tcod")
    if not any(isinstance(handler, logging.NullHandler) for handler in logger.handlers):
        logger.addHandler(logging.NullHandler())
