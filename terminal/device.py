"""What the terminal front end needs of the terminal, the same on every system:
its size, writing bytes, waiting for input, and giving it back (`Device`);
`session.open_device` opens this system's (`posix` or `windows`)."""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Iterator
from typing import Protocol, TextIO

from saving import paths
from window.windowed import LOG_NAME


class TerminalError(Exception):
    """No terminal to play in; `str()` says why, in one line."""


def is_terminal(stream: TextIO | None) -> bool:
    """Whether `stream` (sys.stdin, sys.stdout) is a terminal's.  Not where there is no
    stream (None: a program started with no console, as pythonw and the Windows and macOS
    downloads are, or with the file closed) or its file was closed since."""
    try:
        return stream is not None and stream.isatty()
    except (OSError, ValueError):
        return False


@dataclasses.dataclass(frozen=True)
class Input:
    """What waiting for the terminal brought: bytes typed, a resize, a request to quit
    (Ctrl+C sent as a signal, SIGTERM, SIGHUP), or the end of input (a closed terminal)."""

    data: bytes = b""
    resized: bool = False
    quit: bool = False
    ended: bool = False

    def __bool__(self) -> bool:
        return bool(self.data) or self.resized or self.quit or self.ended


class Device(Protocol):
    """A terminal in raw mode, on the alternate screen, until `close`."""

    def size(self) -> tuple[int, int]:
        """Columns and rows."""
        ...

    def write(self, data: bytes) -> None:
        """Send `data` whole; a terminal gone (SIGHUP) is not an error: nothing is drawn."""
        ...

    def read(self, timeout: float | None) -> Input:
        """Wait up to `timeout` seconds (None: without end) for input, a resize or a signal."""
        ...

    def close(self) -> None:
        """Give the terminal back as it was: modes, screen, cursor, signal handlers."""
        ...


def size_of(fd: int) -> tuple[int, int]:
    """The columns and rows of the terminal at `fd`; none if it is gone."""
    try:
        columns, rows = os.get_terminal_size(fd)
    except OSError:
        return (0, 0)
    return (columns, rows)


def write_all(fd: int, data: bytes) -> bool:
    """Write `data` whole to `fd`; False if the terminal is gone (hung up)."""
    view = memoryview(data)
    while view:
        try:
            view = view[os.write(fd, view) :]
        except InterruptedError:
            continue
        except OSError:
            return False
    return True


@contextlib.contextmanager
def libraries_to_log() -> Iterator[None]:
    """The process's file descriptor 2 sent to the data folder's log while the game
    holds the terminal, and given back after.

    C libraries write there themselves, past `sys.stderr` (SDL's "XDG_RUNTIME_DIR is
    invalid" at each help screen where it is unset): in the terminal those lines would
    break the drawing, and a screen reader would read them aloud.  Where the log
    can't be opened, they go nowhere.
    """
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        log = os.open(paths.data_dir() / LOG_NAME, flags, 0o644)
    except OSError:
        log = os.open(os.devnull, os.O_WRONLY)
    saved = os.dup(2)
    os.dup2(log, 2)
    os.close(log)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
