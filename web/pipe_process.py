"""The canvas page's game (`main.py --browser`), run on pipes, read and written from tornado's
loop: no terminal, input as JSON lines on its stdin, its frames on fd 3 (read by `hub`).

It leads a session of its own, its memory is capped and it dumps no core, as a game in a
pseudo-terminal does.  Hanging it up is closing its stdin: the game reads the end of its input
and saves and quits, as closing the window does; it is killed if it has not ended in time.
Its stdout and stderr go to `browser.log` in the player's folder, made anew at each start: the
game writes nothing there but a line about input it ignored and, if it fails, its traceback,
which is what one needs to know why, and it is kept with the player's other files.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

from tornado.ioloop import IOLoop

from web import children
from web.program import Program

LOG_NAME: Final = "browser.log"


class PipeProcess(Program):
    """One program with a pipe for its stdin; `on_exit` is told its exit status once it has
    ended.  What it shows comes by its frames pipe, not here."""

    def __init__(
        self,
        argv: Sequence[str],
        cwd: Path,
        env: dict[str, str],
        on_exit: Callable[[int], None],
        memory_bytes: int | None,
        frames: int,
    ) -> None:
        super().__init__(on_exit)
        with (cwd / LOG_NAME).open("wb") as log:
            self.process = subprocess.Popen(
                list(argv),
                stdin=subprocess.PIPE,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=cwd,
                env=env,
                start_new_session=True,
                preexec_fn=children.capped(memory_bytes, frames),
                close_fds=False,  # `capped` closes what should not pass, after placing fd 3.
            )
        assert self.process.stdin is not None
        self.stdin: int | None = self.process.stdin.fileno()
        os.set_blocking(self.stdin, False)
        self._watching = False
        self._poller.start()

    def write(self, data: bytes) -> bool:
        """Send `data` to the program's stdin; False if it was dropped (too much unread, or
        the program hung up or ended)."""
        if self.stdin is None or not self._room_for(data):
            return False
        self.pending += data
        self._flush()
        return True

    def _flush(self) -> None:
        assert self.stdin is not None
        while self.pending:
            try:
                sent = os.write(self.stdin, self.pending)
            except BlockingIOError:
                break
            except OSError:  # The program closed its stdin, or ended.
                self.pending = b""
                break
            self.pending = self.pending[sent:]
        if self.pending and not self._watching:
            self.loop.add_handler(self.stdin, self._writable, IOLoop.WRITE)
            self._watching = True
        elif not self.pending and self._watching:
            self.loop.remove_handler(self.stdin)
            self._watching = False

    def _writable(self, fd: int, events: int) -> None:
        if self.stdin is not None:
            self._flush()

    def _let_go(self) -> None:
        self._close_stdin()

    def _close_stdin(self) -> None:
        if self.stdin is None:
            return
        if self._watching:
            self.loop.remove_handler(self.stdin)
            self._watching = False
        assert self.process.stdin is not None
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        self.stdin = None
        self.pending = b""

    def hangup(self) -> None:
        """The page is gone: the end of the program's input, then SIGKILL if it has not
        ended in time."""
        self._give_grace()
        self._close_stdin()
