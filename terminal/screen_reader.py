"""The terminal for a screen reader (`python main.py --screen-reader`): no map is
drawn; after each key, what changed is written as plain lines (`say`), the way a
real reader (Orca reading a VTE terminal, checked in tests/test_orca.py) speaks
every key's news whole, once, in order.  What to say is `reading`'s; the keys are
read as in `front_end`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

import tcod

from controls.keys import MORE_KEY
from terminal import key_parser
from terminal.front_end import TerminalKeys
from words.reading import Narrator, news_to_come

if TYPE_CHECKING:
    from screens.stack import Screens
    from window.options import Options

# Control characters (C0, DEL and C1): a line from a file (a save's messages) may
# hold them, and written raw they would move the cursor, set a window title or
# clear the screen instead of being read.
CONTROLS: Final = re.compile(r"[\x00-\x1f\x7f-\x9f]")
DIGITS: Final = "123456789"
MODIFIERS: Final = tcod.event.Modifier.CTRL | tcod.event.Modifier.ALT | tcod.event.Modifier.SHIFT


def plain(line: str) -> str:
    """`line` with no control character: text only."""
    return CONTROLS.sub("", line)


def numpad(events: list[tcod.event.Event]) -> list[tcod.event.Event]:
    """`events` with each typed digit as the numpad's key (1 to 9: moves, 5 waits).

    A screen reader's numpad types digits: Orca keeps it for itself while NumLock is
    off, and with NumLock on a VTE terminal sends digits, not the numpad's own keys
    (which the game also reads, `key_parser`).  The reader's game has no other use
    for a digit.
    """
    found: list[tcod.event.Event] = []
    for event in events:
        if isinstance(event, tcod.event.TextInput) and len(event.text) == 1 and event.text in DIGITS:
            continue
        if isinstance(event, tcod.event.KeyDown) and ord("1") <= event.sym <= ord("9") and not event.mod & MODIFIERS:
            event = key_parser.key_down(tcod.event.KeySym[f"KP_{chr(event.sym)}"])
        found.append(event)
    return found


@dataclass
class ScreenReaderFrontEnd(TerminalKeys):
    """The game as lines of text, in the terminal's own scrolling screen."""

    narrator: Narrator = field(default_factory=Narrator)
    scrolled: bool = False  # Whether the screen below the cursor has been scrolled away.
    pages: list[list[str]] = field(default_factory=list)  # Those of a long screen not said yet.
    held: list[str] = field(default_factory=list)  # A walk's news, until it ends.

    def present(
        self,
        console: tcod.console.Console,
        options: Options | None = None,
        screens: Screens | None = None,
    ) -> None:
        """Write what changed on `screens` (the console's drawing is not read); a walk's
        news once it has ended, all at once.

        Lines written in quick succession are misheard: by the time Orca reads the
        first, the terminal has scrolled under it, and it reads the next one twice.
        A key's news is one write.
        """
        if screens is None:
            return
        self.held += self.narrator.news(screens)
        if not news_to_come(screens):
            lines, self.held = self.held, []
            self.say(lines)

    def draw(self) -> None:
        """After a resize: rows below the cursor may have come back; scroll them away."""
        self.scrolled = False

    def events(self, timeout: float | None = None) -> list[tcod.event.Event]:
        """The keys pressed, as `TerminalKeys` reads them; while a long screen has pages
        not said, its key for more (Space) says the next one and goes no further, and
        any other key leaves them unsaid and acts as ever.  A digit is the numpad's."""
        while True:
            events = numpad(super().events(timeout))
            if not self.pages:
                return events
            if not any(isinstance(event, tcod.event.KeyDown) and event.sym == MORE_KEY for event in events):
                self.pages = []
                return events
            self.write(self.pages.pop(0))
            if timeout is not None:
                return []

    def say(self, lines: list[str]) -> None:
        """The lines, or the first page of them where they are more than the terminal
        holds (the rest at each press of Space): read from their start, as a screen
        whose top scrolled away before the reader reached it can't be."""
        rows = self.device.size()[1] or len(lines) + 2  # No size (a terminal gone): one page.
        room = max(rows - 2, 1)  # A page's lines, and the line that says how to go on.
        if len(lines) <= room + 1:
            self.pages = []
            self.write(lines)
            return
        parts = [lines[start : start + room] for start in range(0, len(lines), room)]
        count = len(parts)
        for number, part in enumerate(parts[:-1], start=1):
            part.append(f"Page {number} of {count}. Space for more.")
        parts[-1].append(f"Page {count} of {count}.")
        self.pages = parts[1:]
        self.write(parts[0])

    def write(self, lines: list[str]) -> None:
        """Each line ended (`\\r\\n`), the cursor left at the start of the fresh empty
        line after them.

        A terminal's reader speaks text inserted after a key only when it can tell the
        key caused it: Orca speaks it after Left, Up or Escape only when the insertion
        ends where the cursor is, and widens it to whole lines.  So the news starts a
        line of its own and ends with the cursor after it.  Blank rows below the cursor
        (a terminal not yet scrolled) hold line ends already, so an insertion there
        would stop short of the cursor: the screen is scrolled once, first.
        """
        if not lines:
            return
        if not self.scrolled:
            self.scrolled = True
            self.device.write(b"\r\n" * self.device.size()[1])
        self.device.write("".join(f"{plain(line)}\r\n" for line in lines).encode())
