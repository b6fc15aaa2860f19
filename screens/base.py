"""The base of every screen: what a screen shows (`Content`), what it asks for next
(a transition: `Push`, `Pop`, `Reset`, `Play`, `Quit`, `BackToMenu`), the one function
that moves from screen to screen (`follow`), and screens shown over another (`Overlay`).

Apart from `input_handlers` so that every screen can build on it with no import cycle.
The stack of screens is each screen's `parent`: an `Overlay` is drawn over it and goes
back to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

import tcod

import exceptions
import render_functions
from actions import Action
from controls.keys import does_nothing
from saving import paths

if TYPE_CHECKING:
    from engine import Engine
    from replays.record_format import Autofight
    from window.options import Settings

ANY_KEY_CLOSES = "Any key closes."


class Content(NamedTuple):
    """What a screen shows, declared once: the window and the terminal draw it, the
    screen reader reads it, any later front end shows it.

    `keys` says how the screen is used (the reader says it; the window shows it where it
    has room); `focus` is the line under a cursor or the chosen row, said each time it moves.
    """

    title: str = ""
    lines: Sequence[str] = ()
    focus: str = ""
    keys: str = ""


# The transitions are plain classes, not dataclasses: each `@dataclass` writes and compiles
# its methods when this module is imported, before the game is ready for its first key
# (docs/performance.md, "Start-up"); a transition is made, matched once and dropped.
class Push:
    """Show `screen` over the one that returned this; leaving it comes back (`Pop`, `Play`)."""

    __match_args__ = ("screen",)

    def __init__(self, screen: BaseEventHandler) -> None:
        self.screen = screen


class Pop:
    """Back to the screen below (an `Overlay`'s `parent`)."""


class Reset:
    """Replace every screen by `screen`: a game started or continued, the menu again."""

    __match_args__ = ("screen",)

    def __init__(self, screen: BaseEventHandler) -> None:
        self.screen = screen


class Play:
    """Back to the game's own screen, whichever it is owed now: after a turn, or
    leaving a screen of the game (see `input_handlers.next_screen`)."""


class Quit:
    """Leave the program; the main loop saves the game in play first, unless `save` is False."""

    __match_args__ = ("save",)

    def __init__(self, save: bool = True) -> None:
        self.save = save


class BackToMenu:
    """Leave a finished game for the main menu the main loop started with."""


Transition = Push | Pop | Reset | Play | Quit | BackToMenu

ActionOrHandler = Action | Transition
"""What a screen's event handling returns: an action to attempt, or what happens to the
screens; None, nothing (the same screen stays)."""


def follow(screen: BaseEventHandler, result: Transition | None) -> BaseEventHandler:
    """The screen after `screen` asked for `result`: the one place screens change.

    Leaving the program or the game is the main loop's to do: `Quit` and `BackToMenu`
    are raised to it (`exceptions`), from any depth of play.
    """
    match result:
        case None:
            return screen
        case Push(next_screen) | Reset(next_screen):
            return next_screen
        case Pop():
            return screen.below()
        case Play():
            return screen.playing()
        case Quit(save=True):
            raise SystemExit()
        case Quit(save=False):
            raise exceptions.QuitWithoutSaving()
        case BackToMenu():
            raise exceptions.BackToMainMenu()
    raise AssertionError(f"not a transition: {result!r}")


class BaseEventHandler:
    """A screen: it draws itself, says what it shows, and turns each event into what
    happens next."""

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
        """The screen after `event`, as in the tutorial: what `on_event` asks for, followed."""
        return follow(self, self.on_event(event))

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """What `event` asks for; a screen of a game performs the action it makes first."""
        result = self.dispatch(event)
        assert not isinstance(result, Action), f"{self!r} can not handle actions."
        return result

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

    def content(self) -> Content | None:
        """What the screen shows, as text (`Content`); None where the game's news tells
        it all (the dungeon)."""
        return None

    @property
    def settings(self) -> Settings:
        """The options and keys in force (`window.options.Settings`)."""
        raise NotImplementedError()

    def engine_in_play(self) -> Engine | None:
        """The game this screen belongs to, if one is in play; it is what gets saved."""
        return None

    def game(self) -> Engine | None:
        """The game this screen shows, in play or over; None for the menus."""
        return None

    def map_focus(self) -> tuple[int, int] | None:
        """The map tile this screen is about, which a view of part of the map keeps in
        sight (a terminal under 50 rows: `terminal.view`): the player's, a cursor's while
        one is shown; None without a map."""
        engine = self.game()
        return None if engine is None else (engine.player.x, engine.player.y)

    def below(self) -> BaseEventHandler:
        """The screen `Pop` goes back to: the one below, for a screen over another."""
        return self

    def playing(self) -> BaseEventHandler:
        """The screen `Play` goes to: the game's own screen, as owed now."""
        return self

    def ev_quit(self, event: tcod.event.Quit) -> ActionOrHandler | None:
        return Quit()

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

    def game(self) -> Engine | None:
        return self.parent.game()

    def map_focus(self) -> tuple[int, int] | None:
        return self.parent.map_focus()

    def below(self) -> BaseEventHandler:
        return self.parent

    def playing(self) -> BaseEventHandler:
        return self.parent.playing()

    def content(self) -> Content | None:
        """The screen below's, unless this one says more."""
        return self.parent.content()

    @property
    def settings(self) -> Settings:
        return self.parent.settings

    def on_render(self, console: tcod.console.Console) -> None:
        """The screen below, as it was; subclasses draw themselves over it."""
        self.parent.on_render(console)

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        return Pop()

    def ev_textinput(self, event: tcod.event.TextInput) -> ActionOrHandler | None:
        """A symbol's key is any key too."""
        return Pop()

    def ev_mousebuttondown(
        self, event: tcod.event.MouseButtonDown
    ) -> ActionOrHandler | None:
        return Pop()


class PopupMessage(Overlay):
    """Display a popup text window; any key or click returns to the parent handler."""

    def __init__(self, parent_handler: BaseEventHandler, text: str):
        super().__init__(parent_handler)
        self.text = paths.printable(text)  # A path in it may hold a byte that isn't UTF-8.

    def content(self) -> Content:
        return Content(lines=self.text.splitlines(), keys=ANY_KEY_CLOSES)

    def on_render(self, console: tcod.console.Console) -> None:
        """The parent dimmed, and the message in its own framed window."""
        # Differs from the tutorial: a window of its own, not over the menu's lines.
        super().on_render(console)
        render_functions.draw_popup(console, self.text)
