"""A program run in a pseudo-terminal of a fixed size, read and written from tornado's loop.

The program leads a session of its own with the terminal as its controlling one, so that
hanging it up (SIGHUP to its process group) is what a terminal closed does: the game saves
and quits.  Its memory is capped (RLIMIT_AS) and it is killed if it outlives a hang-up.
A player's game also writes its frames to a pipe (fd 3), which `hub` reads.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import signal
import struct
import subprocess
import termios
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

from tornado.ioloop import IOLoop

from web import children
from web.program import Program

ROWS: Final = 50
COLUMNS: Final = 80
READ_BYTES: Final = 65536


def limits(memory_bytes: int | None, frames: int | None = None) -> Callable[[], None]:
    """What the child runs before the program: the terminal made its controlling one, its
    address space capped, and the frames pipe (if any) made its fd 3."""
    capped = children.capped(memory_bytes, frames)

    def before_exec() -> None:
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        capped()

    return before_exec


def spawn(
    argv: Sequence[str],
    cwd: Path,
    env: dict[str, str],
    memory_bytes: int | None,
    frames: int | None = None,
) -> tuple[subprocess.Popen[bytes], int]:
    """Start `argv` on a new 80x50 pseudo-terminal of its own, its controlling terminal
    (and `frames`, a pipe's write end, as its fd 3); the process, and the pty's master end."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    try:
        process = subprocess.Popen(
            list(argv),
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            env=env,
            start_new_session=True,
            preexec_fn=limits(memory_bytes, frames),
            close_fds=frames is None,  # Else closed by `children.capped`, after fd 3 is placed.
        )
    except BaseException:
        os.close(master)
        raise
    finally:
        os.close(slave)
    return process, master


class PtyProcess(Program):
    """One program in its own pseudo-terminal; its output goes to `on_output` as it comes,
    and `on_exit` is told its exit status once it has ended and its output is read."""

    def __init__(
        self,
        argv: Sequence[str],
        cwd: Path,
        env: dict[str, str],
        on_output: Callable[[bytes], None],
        on_exit: Callable[[int], None],
        memory_bytes: int | None = None,
        frames: int | None = None,
    ) -> None:
        super().__init__(on_exit)
        self.on_output = on_output
        self._reading = True
        self.process, master = spawn(argv, cwd, env, memory_bytes, frames)
        self.master = master
        self.columns = COLUMNS
        os.set_blocking(master, False)
        self.loop.add_handler(master, self._ready, IOLoop.READ)
        self._poller.start()

    def write(self, data: bytes) -> bool:
        """Send `data` to the program as typed; False if it was dropped (too much unread)."""
        if not self._reading or not self._room_for(data):
            return False
        self.pending += data
        self._flush()
        return True

    def _flush(self) -> None:
        while self.pending:
            try:
                sent = os.write(self.master, self.pending)
            except BlockingIOError:
                break
            except OSError:
                self.pending = b""
                return
            self.pending = self.pending[sent:]
        events = IOLoop.READ | (IOLoop.WRITE if self.pending else 0)
        if self._reading:
            self.loop.update_handler(self.master, events)

    def _ready(self, fd: int, events: int) -> None:
        if events & IOLoop.WRITE:
            self._flush()
        if not events & (IOLoop.READ | IOLoop.ERROR):
            return
        try:
            data = os.read(fd, READ_BYTES)
        except BlockingIOError:
            return
        except OSError as exc:  # EIO: every copy of the terminal's other end is closed.
            if exc.errno != errno.EIO:
                raise
            data = b""
        if data:
            self.on_output(data)
        else:
            self._stop_reading()

    def _stop_reading(self) -> None:
        if self._reading:
            self._reading = False
            self.loop.remove_handler(self.master)
            os.close(self.master)

    def _let_go(self) -> None:
        if self._reading:  # Read what it wrote last before closing.
            try:
                while data := os.read(self.master, READ_BYTES):
                    self.on_output(data)
            except OSError:
                pass
            self._stop_reading()

    def redraw(self) -> None:
        """Have the program draw its screen whole, for a new page's empty terminal: the
        terminal's width goes from 80 to 81 columns or back (the game, left-aligned in both,
        draws whole after a resize; the same size again it would not see as one).  The kernel
        sends SIGWINCH itself."""
        if self._reading and not self.ended:
            self.columns = COLUMNS + 1 if self.columns == COLUMNS else COLUMNS
            size = struct.pack("HHHH", ROWS, self.columns, 0, 0)
            with contextlib.suppress(OSError):
                fcntl.ioctl(self.master, termios.TIOCSWINSZ, size)

    def hangup(self) -> None:
        """What closing a terminal does: SIGHUP, then SIGKILL if it has not ended in time."""
        self._give_grace()
        self.signal_group(signal.SIGHUP)
