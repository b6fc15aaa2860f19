"""Answers beside the map: to one of the questions of `words.questions` (what is
in view, around me, where am I, status, the map as text), and to a look at a tile."""

from __future__ import annotations

from typing import TYPE_CHECKING

import tcod

import render_functions
from controls.keys import Command, main_command
from screens.base import ANY_KEY_CLOSES, Content, Overlay, PassOn, Pop, Transition
from words import descriptions, questions

if TYPE_CHECKING:
    from engine import Engine


class AnswerScreen(Overlay):
    """The answer to a question, beside the map.  Any key closes it and does what it
    does in the dungeon, so that questions and moves follow one another."""

    def __init__(self, engine: Engine, question: Command):
        self.engine = engine
        self.title, answer = questions.QUESTIONS[question]
        self.lines = answer(engine)  # Asked now: the game stands still while it shows.

    def content(self) -> Content:
        """The answer, under its question's name (said with a colon: a heading)."""
        return Content(f"{self.title}:", self.lines)

    def on_render(self, console: tcod.console.Console) -> None:
        """The content in a window beside the map, framed by the question's name."""
        render_functions.draw_side_window(console, self.engine.player.x, self.title, self.content().lines)

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if isinstance(event, tcod.event.KeyDown | tcod.event.TextInput):
            if main_command(event, self.engine.settings.keys) is Command.QUIT:
                return Pop()  # Escape closes the answer only, as it closes other screens.
            return PassOn()
        return super().on_event(event)


class LookDescription(Overlay):
    """A window describing the tile chosen in look mode; any key goes back to looking."""

    def __init__(self, engine: Engine, x: int, y: int):
        self.engine = engine
        self.x, self.y = x, y

    def content(self) -> Content:
        name, lines = descriptions.describe_tile(self.x, self.y, self.engine)
        return Content(f"{name}:", lines, keys=ANY_KEY_CLOSES)

    def on_render(self, console: tcod.console.Console) -> None:
        """The look cursor, the map dimmed, and the window on the side away from the tile."""
        render_functions.dim(console)
        content = self.content()
        title = content.title.removesuffix(":")  # A window's frame names it without the reader's colon.
        width = render_functions.text_window_width(title, content.lines)
        margin = render_functions.MARGIN
        x = console.width - width - margin if self.x < console.width // 2 else margin
        render_functions.draw_text_window(console, x, render_functions.MARGIN, title, content.lines)
