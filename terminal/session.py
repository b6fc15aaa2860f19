"""A game's time in the terminal (`opened`): this system's terminal opened
(`open_device`), the front end that draws to it or tells it as lines, and the
terminal given back however the game ends."""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

from terminal import drawing
from terminal.device import Device, libraries_to_log
from terminal.front_end import TerminalFrontEnd
from terminal.screen_reader import ScreenReaderFrontEnd

if TYPE_CHECKING:
    from window.front_end import FrontEnd


def open_device(lines: bool = False) -> Device:
    """This system's terminal, made ready to play in; TerminalError if there is none.

    With `lines`, for a screen reader: no alternate screen and the cursor kept, so that
    what is written scrolls as lines do and stays in the shell's screen after the game.
    """
    enter, leave = (drawing.LINES_ENTER, drawing.LINES_LEAVE) if lines else (drawing.ENTER, drawing.LEAVE)
    if sys.platform == "win32":
        from terminal import windows

        return windows.WindowsConsole.open(enter, leave)
    from terminal import posix

    return posix.PosixTerminal.open(enter, leave)


@contextlib.contextmanager
def opened(screen_reader: bool = False) -> Iterator[FrontEnd]:
    """The terminal made ready to play in, and always given back, however the game ends;
    the game drawn, or with `screen_reader` told as lines (`screen_reader`).

    What the game prints meanwhile ("Game saved.", an error's report) would land in
    the middle of the drawing: it is held, and printed once the terminal is back;
    what libraries write themselves goes to the log (`libraries_to_log`).
    """
    device = open_device(lines=screen_reader)
    held_out, held_err = io.StringIO(), io.StringIO()
    real_out, real_err = sys.stdout, sys.stderr
    try:
        with libraries_to_log():
            sys.stdout, sys.stderr = held_out, held_err
            if screen_reader:
                yield ScreenReaderFrontEnd(device)
            else:
                yield TerminalFrontEnd(device, screen=drawing.Screen(drawing.is_truecolor(os.environ)))
    finally:
        sys.stdout, sys.stderr = real_out, real_err
        device.close()
        with contextlib.suppress(OSError):
            real_out.write(held_out.getvalue())
            real_out.flush()
            real_err.write(held_err.getvalue())
            real_err.flush()
