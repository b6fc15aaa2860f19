"""The terminal as the main loop's front end (`window.front_end.FrontEnd`): frames
drawn centred in the terminal (or one line asking for a bigger terminal), keys read
as the window's events, and the terminal always given back (`session`)."""

from __future__ import annotations

import contextlib
import io
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import tcod

import exceptions
from terminal import drawing, key_parser
from terminal.device import Device, libraries_to_log, open_device
from window.display_area import COLUMNS, ROWS

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from screens.base import BaseEventHandler
    from window.front_end import FrontEnd
    from window.options import Options


@dataclass
class TerminalKeys:
    """The keys pressed in a terminal, as the window's events; what every front end in
    a terminal shares (this one, and the screen reader's: `screen_reader`)."""

    device: Device
    parser: key_parser.Parser = field(default_factory=key_parser.Parser)
    fits: bool = True  # Whether the game fits the terminal: keys are dropped while not.
    quitting: bool = False  # Whether the terminal is gone and the game was told to quit.

    @property
    def context(self) -> tcod.context.Context | None:
        return None

    def draw(self) -> None:
        """Show the game again after a resize."""

    def events(self, timeout: float | None = None) -> list[tcod.event.Event]:
        """The keys pressed, as events; waiting without end, or up to `timeout` seconds.

        A resize redraws at once and waits on; while the game does not fit, keys are
        dropped and the wait has no end (a walk waits too).  Ctrl+C, SIGTERM, SIGHUP and
        the end of the terminal's input quit (the game is saved, as closing the window does).
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            got = self.device.read(self.wait_time(deadline))
            if got.quit or got.ended:
                return self.quit()
            if got.resized:
                self.draw()
            found: list[tcod.event.Event] = []
            if got.data and self.fits:
                found = self.parser.feed(got.data)
            elif not got and self.parser.waiting:
                found = self.parser.flush()  # Nothing followed an ESC: the Escape key.
            if found:
                return found
            if self.fits and deadline is not None and time.monotonic() >= deadline:
                return []

    def wait_time(self, deadline: float | None) -> float | None:
        """How long to wait for input: until `deadline`, but no longer than an ESC waits
        for the rest of its sequence; without end while the game does not fit."""
        if not self.fits:
            return None
        wait = None if deadline is None else max(0.0, deadline - time.monotonic())
        if self.parser.waiting:
            wait = key_parser.ESCAPE_WAIT if wait is None else min(wait, key_parser.ESCAPE_WAIT)
        return wait

    def quit(self) -> list[tcod.event.Event]:
        """Quit as closing the window does; once the terminal is gone, asked again
        (the save failed, and no one can see its popup), quit without saving: the
        recording holds what was played since the last save."""
        if self.quitting:
            raise exceptions.QuitWithoutSaving()
        self.quitting = True
        return [tcod.event.Quit()]


@dataclass
class TerminalFrontEnd(TerminalKeys):
    """The game in a terminal: what the window's front end does, with ANSI escapes."""

    screen: drawing.Screen = field(kw_only=True)
    shown: NDArray[np.void] | None = None  # The last frame, to draw again after a resize.
    size: tuple[int, int] = (0, 0)  # The terminal's size when last drawn.

    def present(
        self,
        console: tcod.console.Console,
        options: Options | None = None,
        screen: BaseEventHandler | None = None,
    ) -> None:
        """Send what changed since the last frame (all of it after a resize)."""
        # Rows first, as a terminal draws them; the console is the window's, columns first.
        cells = console.rgb if console.rgb.shape == (ROWS, COLUMNS) else console.rgb.T
        self.shown = cells.copy()
        self.draw()

    def draw(self) -> None:
        size = self.device.size()
        if size != self.size:
            self.placed(size)
        if self.fits and self.shown is not None:
            self.device.write(self.screen.frame(self.shown))

    def placed(self, size: tuple[int, int]) -> None:
        """Clear a terminal of a new size: the game centred in it, or the line asking
        for a bigger one."""
        self.size = size
        columns, rows = size
        self.fits = columns >= COLUMNS and rows >= ROWS
        self.screen.forget()
        if not self.fits:
            self.device.write(drawing.too_small(columns, rows, (COLUMNS, ROWS)))
            return
        self.screen.left, self.screen.top = (columns - COLUMNS) // 2, (rows - ROWS) // 2
        self.device.write(drawing.CLEAR.encode())


@contextlib.contextmanager
def session(screen_reader: bool = False) -> Iterator[FrontEnd]:
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
                from terminal.screen_reader import ScreenReaderFrontEnd

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
