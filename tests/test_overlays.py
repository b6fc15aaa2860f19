"""One way back: every screen opened over another is pushed over it on the stack of
screens (the tutorial's `PopupMessage`, through `input_handlers.Overlay`) and closing
it gives back that very screen, not a new one: the look cursor, the menu's
choice and the game-over screen are found as they were left."""

from __future__ import annotations

import pytest
import tcod
from conftest import click, key, screens_of, stroke
from tcod.event import KeySym

import input_handlers
import setup_game
from controls import keys
from controls.keys import Command, Key
from engine import Engine
from screens.base import Push
from screens.stack import Screens, next_screen


def binding(table: dict[Key, Command], command: Command) -> Key:
    """The first key a key table gives `command`."""
    return next(bound for bound, meaning in table.items() if meaning is command)


def opened(screens: Screens, press: Key) -> input_handlers.Overlay:
    """The screen a key press opens over the top one; it must be pushed right over it."""
    below = screens.top
    screens.press(stroke(press))
    over = screens.top
    assert isinstance(over, input_handlers.Overlay), over
    assert screens.stack[-2] is below
    return over


def closes_back_to(screens: Screens, below: input_handlers.BaseEventHandler) -> None:
    """Escape closes the top screen, giving back `below` itself; the screen draws over it first."""
    under = screens.stack[:-1]
    screens.draw(tcod.console.Console(80, 50, order="F"))
    screens.press(key(KeySym.ESCAPE))
    assert screens.top is below
    assert screens.stack == under


@pytest.mark.parametrize("command", [Command.HISTORY, Command.HELP, Command.OPTIONS, Command.QUIT])
def test_a_screen_opened_over_the_game_closes_back_to_it(engine: Engine, command: Command) -> None:
    game = input_handlers.MainGameEventHandler(engine)
    screens = screens_of(game)
    opened(screens, binding(keys.MAIN_KEYS, command))
    closes_back_to(screens, game)


@pytest.mark.parametrize("command", [Command.HELP, Command.OPTIONS])
def test_a_screen_opened_over_the_menu_closes_back_to_it(command: Command) -> None:
    menu = setup_game.MainMenu()
    screens = Screens(menu)
    opened(screens, binding(keys.MENU_KEYS, command))
    closes_back_to(screens, menu)


@pytest.mark.parametrize("command", [Command.HISTORY, Command.HALL_OF_FAME, Command.HELP])
def test_a_screen_opened_after_a_death_closes_back_to_the_game_over_screen(
    engine: Engine, command: Command
) -> None:
    engine.player.fighter.die()
    game_over = next_screen(engine)
    assert isinstance(game_over, input_handlers.GameOverEventHandler)
    screens = screens_of(game_over)
    opened(screens, binding(keys.GAME_OVER_KEYS, command))
    closes_back_to(screens, game_over)


def test_the_look_window_closes_back_to_the_look_cursor_where_it_was(engine: Engine) -> None:
    look = input_handlers.LookHandler(engine)
    screens = screens_of(look)
    screens.press(key(KeySym.RIGHT))
    assert screens.top is look
    cursor = engine.mouse_location
    opened(screens, KeySym.RETURN)
    closes_back_to(screens, look)
    assert engine.mouse_location == cursor


def test_a_popup_closes_back_to_the_screen_below_on_a_key_or_a_click() -> None:
    menu = setup_game.MainMenu()
    popup = input_handlers.PopupMessage("Hello.")
    screens = Screens(menu, popup)
    closes_back_to(screens, menu)
    screens.apply(Push(popup))
    screens.press(click(1, 1))
    assert screens.top is menu
    assert screens.stack == [menu]
