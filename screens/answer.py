"""Answers beside the map: to one of the questions of `words.questions` (what is
in view, around me, where am I, status, the map as text), and to a look at a tile."""

from __future__ import annotations

from typing import TYPE_CHECKING

import tcod

import render_functions
from controls.keys import Command, does_nothing, key_of
from screens.base import ANY_KEY_CLOSES, BaseEventHandler, Content, Overlay, Pop, Transition
from words import descriptions, questions

if TYPE_CHECKING:
    from input_handlers import EventHandler, LookHandler
    from replays.record_format import Autofight


class AnswerScreen(Overlay):
    """The answer to a question, beside the map.  Any key closes it and does what it
    does in the dungeon, so that questions and moves follow one another."""

    parent: EventHandler

    def __init__(self, parent: EventHandler, question: Command):
        super().__init__(parent)
        self.title, answer = questions.QUESTIONS[question]
        self.lines = answer(parent.engine)  # Asked now: the game stands still while it shows.

    def content(self) -> Content:
        return Content(f"{self.title}:", self.lines)

    def on_render(self, console: tcod.console.Console) -> None:
        super().on_render(console)
        render_functions.draw_side_window(console, self.parent.engine.player.x, self.title, self.lines)

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if isinstance(event, tcod.event.KeyDown | tcod.event.TextInput) and not does_nothing(event):
            if self.settings.keys.main.get(key_of(event)) is Command.QUIT:
                return Pop()  # Escape closes the answer only, as it closes other screens.
            return self.parent.on_event(event) or Pop()
        return super().on_event(event)

    def autofight_press(self, event: tcod.event.Event) -> Autofight | None:
        return self.parent.autofight_press(event)

    def play_autofight(self, press: Autofight) -> BaseEventHandler:
        return self.parent.play_autofight(press)


class LookDescription(Overlay):
    """A window describing the tile chosen in look mode; any key goes back to looking."""

    parent: LookHandler

    def __init__(self, parent: LookHandler, x: int, y: int):
        super().__init__(parent)
        self.x, self.y = x, y

    def content(self) -> Content:
        name, lines = descriptions.describe_tile(self.x, self.y, self.parent.engine)
        return Content(f"{name}:", lines, keys=ANY_KEY_CLOSES)

    def on_render(self, console: tcod.console.Console) -> None:
        """The look cursor, the map dimmed, and the window on the side away from the tile."""
        super().on_render(console)
        render_functions.dim(console)
        title, lines = descriptions.describe_tile(self.x, self.y, self.parent.engine)
        width = render_functions.text_window_width(title, lines)
        x = console.width - width if self.x < console.width // 2 else 0
        render_functions.draw_text_window(console, x, 0, title, lines)
