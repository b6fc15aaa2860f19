"""The terminal on Linux and macOS: raw mode (termios), the signals that matter to a
game (SIGWINCH to redraw; SIGINT, SIGTERM and SIGHUP to save and quit) seen through
a pipe that `select` waits on beside the keys."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import termios
import tty
from dataclasses import dataclass
from types import FrameType
from typing import Any, Final

from terminal import drawing
from terminal.device import Input, TerminalError, is_terminal, size_of, write_all

assert sys.platform != "win32"  # Type-checked, and only imported, off Windows (see `windows`).

QUIT_SIGNALS: Final = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
WATCHED: Final = (signal.SIGWINCH, *QUIT_SIGNALS)


def noted(signum: int, frame: FrameType | None) -> None:
    """A signal's handler: nothing here, the wakeup pipe tells `read` of it."""


@dataclass
class PosixTerminal:
    """The terminal of stdin and stdout, in raw mode until `close`."""

    fd_in: int
    fd_out: int
    saved_modes: list[Any]
    wake_read: int
    wake_write: int
    saved_handlers: dict[int, Any]
    saved_wakeup: int
    gone: bool = False
    leave: str = drawing.LEAVE  # Written on closing: the modes `enter` set, given back.

    @classmethod
    def open(cls, enter: str = drawing.ENTER, leave: str = drawing.LEAVE) -> PosixTerminal:
        """Raw mode, signals watched, `enter`'s modes (the alternate screen); TerminalError
        where stdin or stdout is no terminal."""
        if not (is_terminal(sys.stdin) and is_terminal(sys.stdout)):
            raise TerminalError("--terminal needs a terminal for its input and output")
        fd_in, fd_out = sys.stdin.fileno(), sys.stdout.fileno()
        saved_modes = termios.tcgetattr(fd_in)
        wake_read, wake_write = os.pipe()
        os.set_blocking(wake_write, False)
        os.set_blocking(wake_read, False)
        handlers: dict[int, Any] = {signum: signal.signal(signum, noted) for signum in WATCHED}
        saved_wakeup = signal.set_wakeup_fd(wake_write)
        terminal = cls(fd_in, fd_out, saved_modes, wake_read, wake_write, handlers, saved_wakeup)
        # Raw: each key as it is pressed, no echo, Ctrl+C and Ctrl+Z as keys (no
        # signal, no suspending a game on the alternate screen).
        tty.setraw(fd_in, termios.TCSADRAIN)
        terminal.leave = leave
        terminal.write(enter.encode())
        return terminal

    def size(self) -> tuple[int, int]:
        return size_of(self.fd_out)

    def write(self, data: bytes) -> None:
        # A terminal that hung up: nothing more is drawn, the game saves and quits (`read`).
        self.gone = self.gone or not write_all(self.fd_out, data)

    def read(self, timeout: float | None) -> Input:
        try:
            ready, _, _ = select.select([self.fd_in, self.wake_read], [], [], timeout)
        except InterruptedError:
            ready = []
        resized = quitting = ended = False
        data = b""
        if self.wake_read in ready:
            signals = set(os.read(self.wake_read, 64))
            resized = signal.SIGWINCH in signals
            quitting = any(signum in signals for signum in QUIT_SIGNALS)
        if self.fd_in in ready:
            try:
                data = os.read(self.fd_in, 4096)
            except OSError:
                data = b""
            ended = not data
        return Input(data, resized, quitting, ended or self.gone)

    def close(self) -> None:
        self.write(self.leave.encode())
        with contextlib.suppress(termios.error):  # A terminal gone has nothing to give back.
            termios.tcsetattr(self.fd_in, termios.TCSADRAIN, self.saved_modes)
        signal.set_wakeup_fd(self.saved_wakeup)
        for signum, handler in self.saved_handlers.items():
            signal.signal(signum, handler)
        os.close(self.wake_read)
        os.close(self.wake_write)
