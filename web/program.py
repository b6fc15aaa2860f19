"""What every program the server runs for a page has in common, on pipes (`pipe_process`) or in
a pseudo-terminal (`pty_process`): it leads a session of its own, its end is noticed by a poll
from tornado's loop, and once hung up it has `HANGUP_GRACE_SECONDS` to save and quit before its
process group is killed.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Callable
from typing import Final

from tornado.ioloop import IOLoop, PeriodicCallback

# What a program may be sent and not yet have read: keys are a few bytes each.
MAX_PENDING: Final = 16384
# How long a hung-up program has to save and quit before it is killed.
HANGUP_GRACE_SECONDS: Final = 15.0
POLL_MS: Final = 100


class Program:
    """A program started by a subclass (`process`); `on_exit` is told its exit status once it
    has ended and the subclass has let go of its pipes or terminal (`_let_go`)."""

    process: subprocess.Popen[bytes]

    def __init__(self, on_exit: Callable[[int], None]) -> None:
        self.on_exit = on_exit
        self.loop = IOLoop.current()
        self.pending = b""  # Sent by the page and not yet taken by the program.
        self.ended = False
        self.exit_status: int | None = None
        self._hangup_at: float | None = None
        self._poller = PeriodicCallback(self._poll, POLL_MS)

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def hung_up(self) -> bool:
        """Whether the program was hung up (it may still be saving)."""
        return self._hangup_at is not None

    def _room_for(self, data: bytes) -> bool:
        """Whether `data` may wait for the program beside what already waits."""
        return not self.ended and len(self.pending) + len(data) <= MAX_PENDING

    def _poll(self) -> None:
        """Notice the program's end (and kill one that outlived its hang-up's grace)."""
        status = self.process.poll()
        if status is None:
            if self._hangup_at is not None and self.loop.time() > self._hangup_at:
                self.kill()
            return
        self._let_go()
        self._poller.stop()
        self.ended = True
        self.exit_status = status
        self.on_exit(status)

    def _let_go(self) -> None:
        """What is left of the program's pipes or terminal, read and closed as it ends."""
        raise NotImplementedError

    def _give_grace(self) -> None:
        """The program is hung up: it has `HANGUP_GRACE_SECONDS` from now to end."""
        if self._hangup_at is None:
            self._hangup_at = self.loop.time() + HANGUP_GRACE_SECONDS

    def signal_group(self, number: int) -> None:
        """Send a signal to the program's process group (its session), if it still runs."""
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, number)

    def kill(self) -> None:
        self.signal_group(signal.SIGKILL)
