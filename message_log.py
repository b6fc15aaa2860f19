"""The message log: what happened, newest last, with repeats stacked, the last
`HISTORY` of them kept."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Reversible
from typing import ClassVar, Final

import tcod

import color
from saving import paths
from saving.save_fields import MAX_STAT, Color, Fields, Int, ListOf, Part, Text

# Messages kept for the history viewer (`v`), as DCSS keeps its last ones: a
# long game's log would otherwise grow without end, and with it the save and
# the time to write it.  The oldest go first.
HISTORY: Final = 1000
MAX_TEXT: Final = 100_000
MAX_MESSAGES: Final = 100_000  # A save made before the log was bounded held them all.


class Message:
    saved_fields: ClassVar[Fields] = {"plain_text": Text(MAX_TEXT), "fg": Color(), "count": Int(1, MAX_STAT)}

    def __init__(self, text: str, fg: tuple[int, int, int]):
        self.plain_text = text
        self.fg = fg
        self.count = 1

    @property
    def full_text(self) -> str:
        """The full text of this message, including the count if necessary."""
        if self.count > 1:
            return f"{self.plain_text} (x{self.count})"
        return self.plain_text


class MessageLog:
    saved_fields: ClassVar[Fields] = {"messages": ListOf(Part(Message), MAX_MESSAGES)}

    def __init__(self) -> None:
        self.messages: list[Message] = []

    def check_loaded(self, what: str) -> None:
        """Keep the last `HISTORY` messages, as playing does."""
        del self.messages[:-HISTORY]

    def add_message(
        self, text: str, fg: tuple[int, int, int] = color.white, *, stack: bool = True
    ) -> None:
        """Add a message to this log.

        `text` is the message text, `fg` is the text color.

        If `stack` is True then the message can stack with a previous message
        of the same text.
        """
        text = paths.printable(text)  # A path in it may hold a byte that isn't UTF-8.
        if stack and self.messages and text == self.messages[-1].plain_text:
            self.messages[-1].count += 1
        else:
            self.messages.append(Message(text, fg))
            del self.messages[:-HISTORY]

    def render(
        self, console: tcod.console.Console, x: int, y: int, width: int, height: int
    ) -> None:
        """Render this log over the given area.

        `x`, `y`, `width`, `height` is the rectangular region to render onto
        the `console`.
        """
        self.render_messages(console, x, y, width, height, self.messages)

    @staticmethod
    def wrap(string: str, width: int) -> Iterable[str]:
        """Return a wrapped text message."""
        for line in string.splitlines():  # Handle newlines in messages.
            yield from textwrap.wrap(line, width, expand_tabs=True)

    @classmethod
    def render_messages(
        cls,
        console: tcod.console.Console,
        x: int,
        y: int,
        width: int,
        height: int,
        messages: Reversible[Message],
    ) -> None:
        """Render the messages provided.

        The `messages` are rendered starting at the last message and working
        backwards.  Only whole messages are shown: the tutorial cut the
        oldest one at the top, leaving just the tail of a wrapped message.
        The newest is shown whatever its length, its head when it can't fit.
        """
        y_offset = height - 1

        for message in reversed(messages):
            lines = list(cls.wrap(message.full_text, width))
            if len(lines) > y_offset + 1:
                if y_offset < height - 1:
                    return  # It doesn't fit whole above the newer ones.
                lines = lines[:height]
            for line in reversed(lines):
                console.print(x=x, y=y + y_offset, text=line, fg=message.fg)
                y_offset -= 1
            if y_offset < 0:
                return  # No more space to print messages.
