"""The terminal as the main loop's front end (`window.front_end.FrontEnd`): frames
drawn centred in the terminal, or in one under 50 rows the rows that matter (`view`),
or in one too small a line saying how big it must be and how to leave; keys read as
the window's events, and the terminal always given back (`session`)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import tcod

import exceptions
from controls import keys
from terminal import drawing, key_parser, view
from terminal.device import Device
from window.display_area import COLUMNS, ROWS
from window.speech import Speech

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from screens.stack import Screens
    from window.options import Options


@dataclass
class TerminalKeys:
    """The keys pressed in a terminal, as the window's events; what every front end in
    a terminal shares (this one, and the screen reader's: `screen_reader`)."""

    device: Device
    parser: key_parser.Parser = field(default_factory=key_parser.Parser)
    fits: bool = True  # Whether the game fits the terminal: while not, only leaving keys count.
    quitting: bool = False  # Whether the terminal is gone and the game was told to quit.

    @property
    def context(self) -> tcod.context.Context | None:
        return None

    def draw(self) -> None:
        """Show the game again after a resize."""

    def events(self, timeout: float | None = None) -> list[tcod.event.Event]:
        """The keys pressed, as events; waiting without end, or up to `timeout` seconds.

        A resize redraws at once and waits on; while the game does not fit, only the keys
        that leave are kept (`kept`) and the wait has no end (a walk waits too).  Ctrl+C,
        SIGTERM, SIGHUP and the end of the terminal's input quit (the game is saved, as
        closing the window does).
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            got = self.device.read(self.wait_time(deadline))
            if got.quit or got.ended:
                return self.quit()
            if got.resized:
                self.draw()
            found: list[tcod.event.Event] = []
            if got.data:
                found = self.parser.feed(got.data)
            elif not got and self.parser.waiting:
                found = self.parser.flush()  # Nothing followed an ESC: the Escape key.
            found = self.kept(found)
            if found:
                return found
            if self.fits and deadline is not None and time.monotonic() >= deadline:
                return []

    def kept(self, found: list[tcod.event.Event]) -> list[tcod.event.Event]:
        """The events the game gets: all where it fits; where it does not, the player
        can't see what a key would do, so only leaving is kept: Ctrl+C, `q` or Escape
        save and quit, as the line there says (`drawing.too_small`)."""
        if self.fits:
            return found
        return [tcod.event.Quit()] if any(map(leaves, found)) else []

    def wait_time(self, deadline: float | None) -> float | None:
        """How long to wait for input: until `deadline`, but no longer than an ESC waits
        for the rest of its sequence; without end while the game does not fit."""
        wait = None if deadline is None or not self.fits else max(0.0, deadline - time.monotonic())
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


def leaves(event: tcod.event.Event) -> bool:
    """Whether `event` asks to leave a terminal too small to play in: Ctrl+C (a Quit),
    or a key that leaves the menu (`keys.TOO_SMALL_QUIT_KEYS`)."""
    if isinstance(event, tcod.event.Quit):
        return True
    return isinstance(event, tcod.event.KeyDown) and event.sym in keys.TOO_SMALL_QUIT_KEYS


@dataclass
class TerminalFrontEnd(TerminalKeys):
    """The game in a terminal: what the window's front end does, with ANSI escapes;
    in a terminal under 50 rows, the rows that matter (`view`)."""

    screen: drawing.Screen = field(kw_only=True)
    shown: NDArray[np.void] | None = None  # The last frame, to draw again after a resize.
    focus: tuple[int, int] | None = None  # The map tile the last frame's screen is about.
    size: tuple[int, int] = (0, 0)  # The terminal's size when last drawn.
    window: view.Span | None = None  # The rows of the windows drawn in the last frame.
    page: int | None = None  # The page shown of a window taller than the terminal; None: its first written.
    pages: int = 1
    speech: Speech = field(default_factory=Speech)  # Each key's news said aloud, when the options want it.

    def present(
        self,
        console: tcod.console.Console,
        options: Options | None = None,
        screens: Screens | None = None,
    ) -> None:
        """Send what changed since the last frame (all of it after a resize)."""
        # Rows first, as a terminal draws them; the console is the window's, columns first.
        cells = console.rgb if console.rgb.shape == (ROWS, COLUMNS) else console.rgb.T
        self.shown = cells.copy()
        self.focus = None if screens is None else screens.map_focus()
        window = view.windows(self.shown)
        if window != self.window:  # Another window: from its first page written.
            self.window, self.page = window, None
        self.draw()
        notice = None if options is None else self.speech.follow(options, screens)
        if notice is not None and screens is not None:
            screens.show(notice)

    def draw(self) -> None:
        size = self.device.size()
        if size != self.size:
            self.placed(size)
        if self.fits and self.shown is not None:
            shown = view.view_of(self.size[1], self.shown, self.focus, self.page)
            self.page, self.pages = shown.page, shown.pages
            self.device.write(self.screen.frame(shown.cells(self.shown)))

    def kept(self, found: list[tcod.event.Event]) -> list[tcod.event.Event]:
        """As the terminal's keys are (`TerminalKeys.kept`), but while a window is shown
        a page at a time, PgUp and PgDn turn its pages, and the game does not get them."""
        kept: list[tcod.event.Event] = []
        for event in super().kept(found):
            turn = page_turn(event) if self.pages > 1 else None
            if turn is None:
                kept.append(event)
            else:
                self.page = max(0, min((self.page or 0) + turn, self.pages - 1))
                self.draw()
        return kept

    def placed(self, size: tuple[int, int]) -> None:
        """Clear a terminal of a new size: the game centred in it, or the line asking
        for a bigger one."""
        self.size = size
        columns, rows = size
        self.fits = columns >= COLUMNS and rows >= view.MIN_ROWS
        self.screen.forget()
        if not self.fits:
            self.device.write(drawing.too_small(columns, rows, (COLUMNS, view.MIN_ROWS)))
            return
        self.screen.left, self.screen.top = (columns - COLUMNS) // 2, max(0, (rows - ROWS) // 2)
        self.device.write(drawing.CLEAR.encode())


def page_turn(event: tcod.event.Event) -> int | None:
    """The pages `event` turns (`keys.PAGE_KEYS`), or None."""
    if isinstance(event, tcod.event.KeyDown):
        return keys.PAGE_KEYS.get(event.sym)
    return None
