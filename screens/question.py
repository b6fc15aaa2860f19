"""Yes-or-no questions: `ConfirmHandler`, over a game, whose yes is an action (or
leaving); and `Question`, asked outside any game (over the main menu, or over a replay
that has ended), whose keys belong to no game, so none is recorded."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import tcod

import render_functions
from actions import Action
from controls.keys import ANSWER_KEYS, CONFIRM_KEYS, Answer
from screens.base import (
    ActionOrHandler,
    Content,
    Overlay,
    Play,
    Pop,
    PopupMessage,
    Transition,
    Unchanged,
)

if TYPE_CHECKING:
    from input_handlers import EventHandler


class Question(Overlay):
    """`text` over the screen that asked it: `y` does what `on_yes()` returns, `n` or
    Escape what `on_no()` returns (by default, back); Enter takes the `default`, if the
    question has one (shown in capitals, "(Y/n)", as a shell's prompts show it).  Any
    other key answers nothing, and names the answers again (`Unchanged`)."""

    # No game's: what answers it is not recorded.
    keys_belong_to_game = False

    def __init__(
        self,
        text: str,
        on_yes: Callable[[], ActionOrHandler | None],
        on_no: Callable[[], ActionOrHandler | None] = Pop,
        default: Answer | None = None,
    ):
        self.text = text
        self.on_yes = on_yes
        self.on_no = on_no
        self.default = default

    def content(self) -> Content:
        """The question, and what Enter does: a capital letter is not heard."""
        return Content(lines=[self.text], keys=enter_says(self.default))

    def answers(self) -> Unchanged:
        """For a key that answers nothing: the answers named again."""
        return Unchanged(" ".join(["Answer y or n.", enter_says(self.default)]).strip())

    # A map row the question's window keeps away from (the blast's centre), if any.
    clear_of_row: int | None = None

    def on_render(self, console: tcod.console.Console) -> None:
        text = "\n".join(self.content().lines)
        render_functions.draw_popup(console, text, away_from_row=self.clear_of_row)

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        answer = self.default if event.sym in CONFIRM_KEYS else ANSWER_KEYS.get(event.sym)
        match answer:
            case Answer.YES:
                return self.on_yes() or Pop()
            case Answer.NO:
                return self.on_no() or Pop()
        return self.answers()

    def ev_textinput(self, event: tcod.event.TextInput) -> Unchanged:
        """Only the answers' keys answer: a symbol names them again."""
        return self.answers()

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
        default: Answer | None = None,
    ):
        super().__init__(text, on_yes, default=default)
        self.asker = asker

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        result = self.dispatch(event)
        if isinstance(result, Action):
            return Play() if self.asker.handle_action(result) else Pop()
        return result


def enter_says(default: Answer | None) -> str:
    """What Enter answers, said with the question: nothing where it answers nothing."""
    match default:
        case Answer.YES:
            return "Enter says yes."
        case Answer.NO:
            return "Enter says no."
    return ""


class Notice(PopupMessage):
    """A popup over a game that is no part of it: the key that closes it is not recorded."""

    keys_belong_to_game = False
