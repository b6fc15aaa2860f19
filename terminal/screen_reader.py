"""The terminal for a screen reader (`python main.py --screen-reader`): no map is
drawn; after each key, what changed is written as plain lines, the cursor left at
the start of the newest (as NVDA, Orca and VoiceOver read a terminal best).
What to say is `reading`'s; the keys are read as in `front_end`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import tcod

from terminal.front_end import TerminalKeys
from words.reading import Narrator

if TYPE_CHECKING:
    from screens.base import BaseEventHandler
    from window.options import Options


@dataclass
class ScreenReaderFrontEnd(TerminalKeys):
    """The game as lines of text, in the terminal's own scrolling screen."""

    narrator: Narrator = field(default_factory=Narrator)

    def present(
        self,
        console: tcod.console.Console,
        options: Options | None = None,
        screen: BaseEventHandler | None = None,
    ) -> None:
        """Write what changed on `screen` (the console's drawing is not read)."""
        if screen is not None:
            self.say(self.narrator.news(screen))

    def say(self, lines: list[str]) -> None:
        """Each line on a line of its own, the cursor back at the start of the last."""
        if lines:
            self.device.write("".join(f"\r\n{line}" for line in lines).encode() + b"\r")
