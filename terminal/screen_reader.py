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

from terminal.front_end import TerminalKeys
from words.reading import Narrator

if TYPE_CHECKING:
    from screens.base import BaseEventHandler
    from window.options import Options

# Control characters (C0, DEL and C1): a line from a file (a save's messages) may
# hold them, and written raw they would move the cursor, set a window title or
# clear the screen instead of being read.
CONTROLS: Final = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def plain(line: str) -> str:
    """`line` with no control character: text only."""
    return CONTROLS.sub("", line)


@dataclass
class ScreenReaderFrontEnd(TerminalKeys):
    """The game as lines of text, in the terminal's own scrolling screen."""

    narrator: Narrator = field(default_factory=Narrator)
    scrolled: bool = False  # Whether the screen below the cursor has been scrolled away.

    def present(
        self,
        console: tcod.console.Console,
        options: Options | None = None,
        screen: BaseEventHandler | None = None,
    ) -> None:
        """Write what changed on `screen` (the console's drawing is not read)."""
        if screen is not None:
            self.say(self.narrator.news(screen))

    def draw(self) -> None:
        """After a resize: rows below the cursor may have come back; scroll them away."""
        self.scrolled = False

    def say(self, lines: list[str]) -> None:
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
