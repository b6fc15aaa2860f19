"""Yes-or-no questions: `ConfirmHandler`, over a game, whose yes is an action (or
leaving); and `Question`, asked outside any game (over the main menu, or over a replay
that has ended), whose keys belong to no game, so none is recorded."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import tcod

import render_functions
from actions import Action
from controls.keys import ANSWER_KEYS, Answer
from screens.base import (
    ActionOrHandler,
    Content,
    Overlay,
    Play,
    Pop,
    PopupMessage,
    Transition,
)

if TYPE_CHECKING:
    from input_handlers import EventHandler


class Question(Overlay):
    """`text` over the screen that asked it: `y` does what `on_yes()` returns, `n` or
    Escape what `on_no()` returns (by default, back); nothing else answers."""

    # No game's: what answers it is not recorded.
    keys_belong_to_game = False

    def __init__(
        self,
        text: str,
        on_yes: Callable[[], ActionOrHandler | None],
        on_no: Callable[[], ActionOrHandler | None] = Pop,
    ):
        self.text = text
        self.on_yes = on_yes
        self.on_no = on_no

    def content(self) -> Content:
        return Content(lines=[self.text])

    # A map row the question's window keeps away from (the blast's centre), if any.
    clear_of_row: int | None = None

    def on_render(self, console: tcod.console.Console) -> None:
        text = "\n".join(self.content().lines)
        render_functions.draw_popup(console, text, away_from_row=self.clear_of_row)

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        match ANSWER_KEYS.get(event.sym):
            case Answer.YES:
                return self.on_yes() or Pop()
            case Answer.NO:
                return self.on_no() or Pop()
        return None

    def ev_textinput(self, event: tcod.event.TextInput) -> None:
        """Only the answers' keys answer."""

    def ev_mousebuttondown(self, event: tcod.event.MouseButtonDown) -> None:
        """Nor does a click."""


class ConfirmHandler(Question):
    """A question over a screen of the game that asked it (`asker`): yes performs the
    action `on_yes` makes, as that screen would (or does what it returns), no goes back
    at no cost."""

    keys_belong_to_game = True  # The game's: its answers are recorded.

    def __init__(
        self,
        asker: EventHandler,
        text: str,
        on_yes: Callable[[], ActionOrHandler | None],
    ):
        super().__init__(text, on_yes)
        self.asker = asker

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        result = self.dispatch(event)
        if isinstance(result, Action):
            return Play() if self.asker.handle_action(result) else Pop()
        return result


class Notice(PopupMessage):
    """A popup over a game that is no part of it: the key that closes it is not recorded."""

    keys_belong_to_game = False
