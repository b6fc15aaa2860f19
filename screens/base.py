"""The base of every screen, and of screens shown over another; apart from
`input_handlers` so that other screens can build on it with no import cycle."""

from __future__ import annotations

from typing import TYPE_CHECKING, Union

import tcod

import render_functions
from actions import Action
from controls.keys import does_nothing
from saving import paths

if TYPE_CHECKING:
    from engine import Engine
    from replays.recording import Autofight
    from window.options import Settings


ActionOrHandler = Union[Action, "BaseEventHandler"]
"""What an event handler returns: an action to attempt, or the next active handler."""


class BaseEventHandler:
    """A screen: it draws itself and turns each event into the next screen."""

    # While `walking`, the main loop calls `advance` at the walk's pace.
    walking = False
    walk_steps = 0

    def advance(self) -> BaseEventHandler:
        """Take the next step of what goes on without input; the next handler."""
        return self

    def stop_walking(self) -> BaseEventHandler:
        """The handler once what goes on without input has stopped."""
        return self

    def autofight_press(self, event: tcod.event.Event) -> Autofight | None:
        """What autofight does, if `event` presses its key on this screen (the
        dungeon's): what the press is recorded as, and then played (`play_autofight`)."""
        return None

    def play_autofight(self, press: Autofight) -> BaseEventHandler:
        """Do what a press of autofight does (`autofight_press`); the next handler."""
        return self

    def handle_events(self, event: tcod.event.Event) -> BaseEventHandler:
        """Handle an event and return the next active event handler."""
        state = self.dispatch(event)
        if isinstance(state, BaseEventHandler):
            return state
        assert not isinstance(state, Action), f"{self!r} can not handle actions."
        return self

    def dispatch(self, event: tcod.event.Event) -> ActionOrHandler | None:
        """Send the event to the `ev_*` method for its kind, unless it means nothing anywhere."""
        # Differs from the tutorial: routed by `match` here, not by tcod's dispatcher class (deprecated).
        if does_nothing(event):
            return None
        match event:
            case tcod.event.Quit():
                return self.ev_quit(event)
            case tcod.event.KeyDown():
                return self.ev_keydown(event)
            case tcod.event.TextInput():
                return self.ev_textinput(event)
            case tcod.event.MouseButtonDown():
                return self.ev_mousebuttondown(event)
            case tcod.event.MouseMotion():
                return self.ev_mousemotion(event)
        return None

    def on_render(self, console: tcod.console.Console) -> None:
        """Draw the screen."""
        raise NotImplementedError()

    @property
    def settings(self) -> Settings:
        """The options and keys in force (`window.options.Settings`)."""
        raise NotImplementedError()

    def engine_in_play(self) -> Engine | None:
        """The game this screen belongs to, if one is in play; it is what gets saved."""
        return None

    def ev_quit(self, event: tcod.event.Quit) -> ActionOrHandler | None:
        raise SystemExit()

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        return None

    def ev_textinput(self, event: tcod.event.TextInput) -> ActionOrHandler | None:
        """A symbol typed (`keys.is_symbol`): the press of a key that types one."""
        return None

    def ev_mousebuttondown(
        self, event: tcod.event.MouseButtonDown
    ) -> ActionOrHandler | None:
        return None

    def ev_mousemotion(self, event: tcod.event.MouseMotion) -> ActionOrHandler | None:
        return None


class Overlay(BaseEventHandler):
    """A screen drawn over its `parent` and closed back to it, by default by any key or click.

    Every screen that goes back to where it was opened from is one, so there is one way back.
    """

    def __init__(self, parent: BaseEventHandler):
        self.parent = parent

    def engine_in_play(self) -> Engine | None:
        return self.parent.engine_in_play()

    @property
    def settings(self) -> Settings:
        return self.parent.settings

    def on_render(self, console: tcod.console.Console) -> None:
        """The screen below, as it was; subclasses draw themselves over it."""
        self.parent.on_render(console)

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        return self.parent

    def ev_textinput(self, event: tcod.event.TextInput) -> ActionOrHandler | None:
        """A symbol's key is any key too."""
        return self.parent

    def ev_mousebuttondown(
        self, event: tcod.event.MouseButtonDown
    ) -> ActionOrHandler | None:
        return self.parent


class PopupMessage(Overlay):
    """Display a popup text window; any key or click returns to the parent handler."""

    def __init__(self, parent_handler: BaseEventHandler, text: str):
        super().__init__(parent_handler)
        self.text = paths.printable(text)  # A path in it may hold a byte that isn't UTF-8.

    def on_render(self, console: tcod.console.Console) -> None:
        """The parent dimmed, and the message in its own framed window."""
        # Differs from the tutorial: a window of its own, not over the menu's lines.
        super().on_render(console)
        render_functions.draw_popup(console, self.text)
