"""A yes-or-no question asked outside any game: over the main menu, or over a
replay that has ended.  Its keys belong to no game, so none is recorded."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import tcod

import render_functions
from controls.keys import ANSWER_KEYS, Answer
from screens.base import BaseEventHandler, Overlay, PopupMessage

if TYPE_CHECKING:
    from engine import Engine


class Question(Overlay):
    """`text` over the screen that asked it: `y` goes to `on_yes()`'s screen, `n` or
    Escape to `on_no()`'s (by default back); nothing else answers."""

    def __init__(
        self,
        parent: BaseEventHandler,
        text: str,
        on_yes: Callable[[], BaseEventHandler],
        on_no: Callable[[], BaseEventHandler] | None = None,
    ):
        super().__init__(parent)
        self.text = text
        self.on_yes = on_yes
        self.on_no = on_no if on_no is not None else lambda: parent

    def engine_in_play(self) -> Engine | None:
        """No game's: what answers it is not recorded."""
        return None

    def on_render(self, console: tcod.console.Console) -> None:
        super().on_render(console)
        render_functions.draw_popup(console, self.text)

    def ev_keydown(self, event: tcod.event.KeyDown) -> BaseEventHandler | None:
        match ANSWER_KEYS.get(event.sym):
            case Answer.YES:
                return self.on_yes()
            case Answer.NO:
                return self.on_no()
        return None

    def ev_textinput(self, event: tcod.event.TextInput) -> None:
        """Only the answers' keys answer."""

    def ev_mousebuttondown(self, event: tcod.event.MouseButtonDown) -> None:
        """Nor does a click."""


class Notice(PopupMessage):
    """A popup over a game that is no part of it: the key that closes it is not recorded."""

    def engine_in_play(self) -> Engine | None:
        return None
