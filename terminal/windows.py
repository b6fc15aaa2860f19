"""The terminal on Windows 10 and later: the console's virtual-terminal mode draws the
same ANSI escapes as elsewhere; keys come from `msvcrt`, the keys with no character
given as the escape sequences xterm sends for them, so that `key_parser` reads both
alike.  The console has no SIGWINCH: its size is looked at while waiting.

Written to the Windows API's documentation; the project's tests run on Linux.
"""

from __future__ import annotations

import ctypes
import msvcrt
import signal
import sys
import time
from ctypes import wintypes
from dataclasses import dataclass
from types import FrameType
from typing import Any, Final

from terminal import drawing
from terminal.device import Input, TerminalError, is_terminal, size_of, write_all

assert sys.platform == "win32"  # Type-checked, and only imported, on Windows.

STD_OUTPUT_HANDLE: Final = -11
ENABLE_PROCESSED_OUTPUT: Final = 0x0001
ENABLE_VIRTUAL_TERMINAL_PROCESSING: Final = 0x0004
UTF8: Final = 65001

# How often the console is looked at while waiting (keys, size, signals).
POLL: Final = 0.02

QUIT_SIGNALS: Final = (signal.SIGINT, signal.SIGBREAK, signal.SIGTERM)

# The second code `getwch` gives after "\x00" or "\xe0", as the sequence xterm sends.
SCAN_CODES: Final[dict[str, str]] = {
    "H": "\x1b[A", "P": "\x1b[B", "M": "\x1b[C", "K": "\x1b[D",  # Arrows.
    "G": "\x1b[H", "O": "\x1b[F", "I": "\x1b[5~", "Q": "\x1b[6~",  # Home, End, PgUp, PgDn.
    "L": "\x1b[E",  # The numpad's 5, NumLock off.
    ";": "\x1bOP", "\x86": "\x1b[24~",  # F1, F12.
    "\x0f": "\x1b[Z",  # Shift+Tab.
    "\x8d": "\x1b[1;5A", "\x91": "\x1b[1;5B", "t": "\x1b[1;5C", "s": "\x1b[1;5D",  # Ctrl+arrows.
}  # fmt: skip

kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)


def console_mode(handle: int) -> int | None:
    mode = wintypes.DWORD()
    return mode.value if kernel32.GetConsoleMode(handle, ctypes.byref(mode)) else None


@dataclass
class WindowsConsole:
    """The console of stdin and stdout, in virtual-terminal mode until `close`."""

    output: int
    saved_mode: int
    saved_code_page: int
    saved_handlers: dict[int, Any]
    size_seen: tuple[int, int]
    quitting: bool = False
    gone: bool = False
    leave: str = drawing.LEAVE  # Written on closing: the modes `enter` set, given back.

    @classmethod
    def open(cls, enter: str = drawing.ENTER, leave: str = drawing.LEAVE) -> WindowsConsole:
        if not (is_terminal(sys.stdin) and is_terminal(sys.stdout)):
            raise TerminalError("--terminal needs a console for its input and output")
        output = kernel32.GetStdHandle(STD_OUTPUT_HANDLE)
        mode = console_mode(output)
        wanted = (mode or 0) | ENABLE_PROCESSED_OUTPUT | ENABLE_VIRTUAL_TERMINAL_PROCESSING
        if mode is None or not kernel32.SetConsoleMode(output, wanted):
            raise TerminalError("this console can't draw with ANSI escapes (Windows 10 or later can)")
        code_page = kernel32.GetConsoleOutputCP()
        kernel32.SetConsoleOutputCP(UTF8)
        console = cls(output, mode, code_page, {}, (0, 0))
        console.size_seen = console.size()
        for signum in QUIT_SIGNALS:
            console.saved_handlers[signum] = signal.signal(signum, console.asked_to_quit)
        console.leave = leave
        console.write(enter.encode())
        return console

    def asked_to_quit(self, signum: int, frame: FrameType | None) -> None:
        self.quitting = True

    def size(self) -> tuple[int, int]:
        return size_of(sys.stdout.fileno())

    def write(self, data: bytes) -> None:
        self.gone = self.gone or not write_all(sys.stdout.fileno(), data)

    def read(self, timeout: float | None) -> Input:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            got = Input(data=self.typed().encode("utf-8"), quit=self.quitting, ended=self.gone)
            size = self.size()
            got.resized, self.size_seen = size != self.size_seen, size
            if got or (deadline is not None and time.monotonic() >= deadline):
                return got
            time.sleep(POLL)

    @staticmethod
    def typed() -> str:
        """What was typed since last asked, keys with no character as xterm's sequences."""
        text = ""
        while msvcrt.kbhit():
            char = msvcrt.getwch()
            if char in ("\x00", "\xe0"):
                text += SCAN_CODES.get(msvcrt.getwch(), "")
            else:
                text += char
        return text

    def close(self) -> None:
        self.write(self.leave.encode())
        kernel32.SetConsoleMode(self.output, self.saved_mode)
        kernel32.SetConsoleOutputCP(self.saved_code_page)
        for signum, handler in self.saved_handlers.items():
            signal.signal(signum, handler)
