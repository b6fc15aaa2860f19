"""The message log: what happened, newest last, with repeats stacked, the last
`HISTORY` of them kept."""

from __future__ import annotations

import itertools
import textwrap
from collections.abc import Iterable, Reversible
from typing import TYPE_CHECKING, ClassVar, Final

import tcod

import color
from saving import paths
from saving.save_fields import (
    MAX_STAT,
    MAX_TURNS,
    Color,
    Fields,
    Int,
    Link,
    ListOf,
    Maybe,
    Row,
    Text,
)

if TYPE_CHECKING:
    from engine import Engine
    from entity import Entity

# Messages kept for the history viewer (`v`), as DCSS keeps its last ones: a
# long game's log would otherwise grow without end, and with it the save and
# the time to write it.  The oldest go first.
HISTORY: Final = 1000
MAX_TEXT: Final = 100_000
MAX_MESSAGES: Final = 100_000
MAX_ABOUT: Final = 200
TURN_WIDTH: Final = 6  # The history's column of turns: up to 999,999.  # A save made before the log was bounded held them all.


def about(*actors: Entity) -> str:
    """What an event concerns, as `add_message` compares it: each actor by name and place."""
    return "; ".join(f"{actor.name} {actor.x},{actor.y}" for actor in actors)[:MAX_ABOUT]


class Message:
    """One line of the log: its text and colour, how many times in a row it
    happened, and the turn and floor it first did (0 when not known: a save
    from before they were kept, or a log of no game)."""

    saved_fields: ClassVar[Fields] = {
        "plain_text": Text(MAX_TEXT),
        "fg": Color(),
        "count": Int(1, MAX_STAT),
        "turn": Int(0, MAX_TURNS, default=0),
        "floor": Int(0, MAX_STAT, default=0),
        "about": Maybe(Text(MAX_ABOUT), default=None),
    }

    def __init__(
        self, text: str, fg: tuple[int, int, int], turn: int = 0, floor: int = 0, about: str | None = None
    ):
        self.plain_text = text
        self.fg = fg
        self.count = 1
        self.turn = turn
        self.floor = floor
        self.about = about

    @property
    def full_text(self) -> str:
        """The full text of this message, including the count if necessary."""
        return self.counted(self.count)

    def counted(self, count: int) -> str:
        """The text with `count` after it, as the log shows a repeat: "Hit. (x2)"."""
        if count > 1:
            return f"{self.plain_text} (x{count})"
        return self.plain_text


class MessageLog:
    saved_fields: ClassVar[Fields] = {"messages": ListOf(Row(Message), MAX_MESSAGES), "engine": Link()}

    def __init__(self, engine: Engine | None = None) -> None:
        self.messages: list[Message] = []
        self.engine = engine  # Whose turns and floors the messages are stamped with.

    def check_loaded(self, what: str) -> None:
        """Keep the last `HISTORY` messages, as playing does."""
        del self.messages[:-HISTORY]

    def add_message(
        self,
        text: str,
        fg: tuple[int, int, int] = color.white,
        *,
        stack: bool = True,
        about: str | None = None,
    ) -> None:
        """Add a message to this log.

        `text` is the message text, `fg` is the text color.

        If `stack` is True then the message can stack with a previous message
        of the same text about the same thing: `about` names what the event
        concerns (`about`: the actors of a fight, where they stand), so that
        two orcs' blows are told apart.
        """
        text = paths.printable(text)  # A path in it may hold a byte that isn't UTF-8.
        last = self.messages[-1] if self.messages else None
        # Differs from the tutorial: repeats stack only when the same event (`about`).
        if stack and last is not None and text == last.plain_text and about == last.about:
            last.count += 1
        else:
            self.messages.append(Message(text, fg, *self.now(), about=about))
            del self.messages[:-HISTORY]

    def now(self) -> tuple[int, int]:
        """The turn and floor of the game the log belongs to: (0, 0) for none."""
        world = getattr(self.engine, "game_world", None)  # Not yet while a game is made.
        if self.engine is None or world is None:
            return 0, 0
        return self.engine.turns, world.current_floor

    @staticmethod
    def marked(messages: Iterable[Message]) -> list[Message]:
        """The messages as the history shows them: each floor's first under a line
        naming the floor, each turn's first after its number ("   340 You descend...")."""
        shown: list[Message] = []
        floor = turn = None
        for message in messages:
            if message.floor and message.floor != floor:
                floor, turn = message.floor, None
                shown.append(Message(f"Dungeon level {floor}", color.descend))
            stamp = f"{message.turn:>{TURN_WIDTH}}" if message.turn != turn else " " * TURN_WIDTH
            turn = message.turn
            copy = Message(f"{stamp} {message.plain_text}", message.fg)
            copy.count = message.count
            shown.append(copy)
        return shown

    def render(
        self, console: tcod.console.Console, x: int, y: int, width: int, height: int
    ) -> None:
        """Render this log over the given area.

        `x`, `y`, `width`, `height` is the rectangular region to render onto
        the `console`.
        """
        self.render_messages(console, x, y, width, height, self.messages)

    @staticmethod
    def wrap(string: str, width: int, most: int | None = None) -> Iterable[str]:
        """Return a wrapped text message; with `most`, its first `most` rows only,
        read from no more of the text than they can hold: drawing costs the rows
        drawn, whatever a message holds (a saved one may hold 100,000 line breaks)."""
        if most is not None:
            string = string[: most * (width + 1)]
        rows = (row for line in string.splitlines() for row in textwrap.wrap(line, width, expand_tabs=True))
        return rows if most is None else itertools.islice(rows, most)

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
            lines = list(cls.wrap(message.full_text, width, y_offset + 2))  # One more: does it fit?
            if len(lines) > y_offset + 1:
                if y_offset < height - 1:
                    return  # It doesn't fit whole above the newer ones.
                lines = lines[:height]
            for line in reversed(lines):
                console.print(x=x, y=y + y_offset, text=line, fg=message.fg)
                y_offset -= 1
            if y_offset < 0:
                return  # No more space to print messages.
