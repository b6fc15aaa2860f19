"""The message history (`v`), read a message at a time with the keys."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import tcod

import render_functions
from controls import keys
from screens.base import (
    BOTTOM_OF_LIST,
    TOP_OF_LIST,
    ActionOrHandler,
    Content,
    Overlay,
    Pop,
    Unchanged,
)

if TYPE_CHECKING:
    from engine import Engine


class HistoryViewer(Overlay):
    """The message history, scrolled with the keys; any other key goes back."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.log_length = len(self.engine.message_log.messages)
        self.cursor = max(0, self.log_length - 1)

    def content(self) -> Content:
        """The message under the cursor, and its turn."""
        messages = self.engine.message_log.messages
        if not messages:
            return Content(keys=HISTORY_KEYS, focus="No messages.")
        message = messages[self.cursor]
        return Content(keys=HISTORY_KEYS, focus=f"{message.full_text} (turn {message.turn})")

    def on_render(self, console: tcod.console.Console) -> None:
        """The history in a window over the whole console."""
        # Differs from the tutorial: no band of the map shows around the window,
        # only the margin every menu keeps (`render_functions.MARGIN`).
        console.clear()
        margin = render_functions.MARGIN
        width, height = console.width - 2 * margin, console.height - 2 * margin
        render_functions.draw_window(console, margin, margin, width, height, "Message history")
        self.engine.message_log.render_messages(
            console,
            margin + 1,
            margin + 1,
            width - 2,
            height - 2,
            # Differs from the tutorial: marked with the floor and the turn.
            self.engine.message_log.marked(self.engine.message_log.messages[: self.cursor + 1]),
        )

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        last, was = max(0, self.log_length - 1), self.cursor
        if event.sym in keys.CURSOR_Y_KEYS:
            adjust = keys.CURSOR_Y_KEYS[event.sym]
            self.cursor = scrolled(self.cursor, adjust, last)
        elif event.sym in keys.HISTORY_JUMP_KEYS:
            adjust = -1 if keys.HISTORY_JUMP_KEYS[event.sym] is keys.HistoryJump.TOP else 1
            self.cursor = 0 if adjust < 0 else last
        else:
            return Pop()
        if self.cursor == was:  # At the end it goes to: said, as the same line is not read again.
            return Unchanged(TOP_OF_LIST if adjust < 0 else BOTTOM_OF_LIST)
        return None

    def ev_mousebuttondown(self, event: tcod.event.MouseButtonDown) -> None:
        """Clicks do nothing: the history is read with the keys."""


HISTORY_KEYS: Final = "Message history: Up and Down read it, any other key closes."


def scrolled(cursor: int, adjust: int, last: int) -> int:
    """The history's cursor moved by `adjust`, within 0 to `last`; it wraps around only
    from the very edge, so that a page key stops there first."""
    if adjust < 0 and cursor == 0:
        return last
    if adjust > 0 and cursor == last:
        return 0
    return max(0, min(cursor + adjust, last))
