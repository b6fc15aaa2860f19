"""The base of every screen: what a screen shows (`Content`), what it asks for next
(a transition: `Push`, `Replace`, `Pop`, `PassOn`, `Reset`, `Play`, `Unchanged`, `Quit`, `BackToMenu`, which
the stack of screens applies: `screens.stack`), and screens shown over another (`Overlay`).

Apart from `input_handlers` so that every screen can build on it with no import cycle.
A transition with fields is a NamedTuple (declared by its fields, matched by its class,
and the cheapest class to make at start-up); one without is a plain class.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

import tcod

import render_functions
from actions import Action
from saving import paths

if TYPE_CHECKING:
    from controls.travel import Walk
    from engine import Engine
    from window.options import Settings

ANY_KEY_CLOSES = "Any key closes."
# What a key that changes nothing says (`Unchanged`): plain words, no symbol to spell.
NOTHING_TO_DO = "Nothing to do here."
TOP_OF_LIST = "Top of the list."
BOTTOM_OF_LIST = "Bottom of the list."
CHOOSE_BY_LETTER = "Choose with a letter."
OPTION_KEYS = "Up and Down choose, Left and Right change, Escape closes."
EDGE_OF_MAP = "Edge of the map."
NO_ENEMY = "No enemy in view."
NO_OTHER_ENEMY = "No other enemy in view."


Row = tuple[str, str]
Section = tuple[str, Sequence[Row]]


class Content(NamedTuple):
    """What a screen shows, declared once: the screen draws it in the window's console
    (which the terminal shows as its cells), each laying it out its own way; the screen
    reader reads it as lines (`text`, `words.reading`); any later front end takes it too.

    `lines` are its text; `sections`, a table under headings of (keys, meaning) rows
    (the help), which the window sets in columns; `keys` says how the screen is used
    (the reader says it; the window shows it where it has room); `focus` is the line
    under a cursor or the chosen row, said each time it moves.
    """

    title: str = ""
    lines: Sequence[str] = ()
    focus: str = ""
    keys: str = ""
    sections: Sequence[Section] = ()

    def text(self) -> list[str]:
        """Its lines, then each section's heading and its rows, one a line ("keys: meaning")."""
        table = [
            line
            for heading, rows in self.sections
            for line in [f"{heading}:", *(f"{name}: {said}" for name, said in rows)]
        ]
        return [*self.lines, *table]


class Push(NamedTuple):
    """Show `screen` over the one that returned this; leaving it comes back (`Pop`, `Play`)."""

    screen: BaseEventHandler


class Replace(NamedTuple):
    """This screen closed, `screen` shown in its place (a question answered by a notice)."""

    screen: BaseEventHandler


class Pop:
    """Back to the screen below."""


class PassOn:
    """Close this screen, and let the one below take the same event: an answer beside
    the map goes as the next key does what it does in the dungeon."""


class Reset(NamedTuple):
    """Replace every screen above the main menu by `screens`, bottom first: a game
    started or continued (under a popup, if one says how it was continued)."""

    screens: tuple[BaseEventHandler, ...]

    @classmethod
    def to(cls, *screens: BaseEventHandler) -> Reset:
        return cls(screens)


class Play(NamedTuple):
    """Back to the game's own screen, whichever it is owed now: after a turn, or
    leaving a screen of the game (see `screens.stack.next_screen`); with `walk`,
    that walk starts there (`travel`: to a tile chosen with the cursor)."""

    walk: Walk | None = None


class Unchanged(NamedTuple):
    """Nothing changes, and `why` says so: the screen reader says it (`Screens.note`)
    where the key would otherwise pass in silence; the window shows the same screen."""

    why: str


class Quit(NamedTuple):
    """Leave the program; the main loop saves the game in play first, unless `save` is False."""

    save: bool = True


class BackToMenu:
    """Leave a finished game for the main menu at the bottom of the screens."""


Transition = Push | Replace | Pop | PassOn | Reset | Play | Unchanged | Quit | BackToMenu

ActionOrHandler = Action | Transition
"""What a screen's event handling returns: an action to attempt, or what happens to the
screens; None, nothing (the same screen stays)."""


class BaseEventHandler:
    """A screen: it draws itself, says what it shows, and turns each event into what
    happens next (`on_event`), which the stack of screens applies (`screens.stack`)."""

    # Whether the keys pressed on this screen belong to the game under it, and are
    # recorded with it: not a question asked outside the game's play (`Question`).
    keys_belong_to_game = True

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """What `event` asks for; a screen of a game performs the action it makes first."""
        result = self.dispatch(event)
        assert not isinstance(result, Action), f"{self!r} can not handle actions."
        return result

    def dispatch(self, event: tcod.event.Event) -> ActionOrHandler | None:
        """Send the event to the `ev_*` method for its kind (one that means nothing anywhere
        never comes here: `Screens.press`)."""
        # Differs from the tutorial: routed by `match` here, not by tcod's dispatcher class (deprecated).
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
        it all (the dungeon), or, over another screen, where that one's tells it."""
        return None

    @property
    def settings(self) -> Settings:
        """The options and keys in force (`window.options.Settings`): the main menu's
        and a game's screens have them; `Screens.settings` says which apply."""
        raise NotImplementedError()

    def game(self) -> Engine | None:
        """The game this screen shows, in play or over; None for the menus and popups."""
        return None

    def map_focus(self) -> tuple[int, int] | None:
        """The map tile this screen is about, which a view of part of the map keeps in
        sight (a terminal under 50 rows: `terminal.view`): the player's, a cursor's while
        one is shown; None where the screen below says."""
        engine = self.game()
        return None if engine is None else (engine.player.x, engine.player.y)

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
    """A screen drawn over the one below it and closed back to it, by default by any
    key or click.  It draws only itself: the stack draws what is under it first.

    Every screen that goes back to where it was opened from is one, so there is one way back.
    """

    def on_render(self, console: tcod.console.Console) -> None:
        """Nothing of its own by default: subclasses draw themselves over the screen below."""

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
    """Display a popup text window; any key or click returns to the screen below."""

    def __init__(self, text: str):
        self.text = paths.printable(text)  # A path in it may hold a byte that isn't UTF-8.

    def content(self) -> Content:
        return Content(lines=self.text.splitlines(), keys=ANY_KEY_CLOSES)

    def on_render(self, console: tcod.console.Console) -> None:
        """The screen below dimmed, and the message in its own framed window."""
        # Differs from the tutorial: a window of its own, not over the menu's lines.
        render_functions.draw_popup(console, "\n".join(self.content().lines))
