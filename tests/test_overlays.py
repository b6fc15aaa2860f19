"""One way back: every screen opened over another holds it as `parent` (the
tutorial's `PopupMessage`, through `input_handlers.Overlay`) and closing it
gives back that very screen, not a new one: the look cursor, the menu's
choice and the game-over screen are found as they were left."""

from __future__ import annotations

import pytest
import tcod
from conftest import click, key, stroke
from tcod.event import KeySym

import input_handlers
import setup_game
from controls import keys
from controls.keys import Command, Key
from engine import Engine


def binding(table: dict[Key, Command], command: Command) -> Key:
    """The first key a key table gives `command`."""
    return next(bound for bound, meaning in table.items() if meaning is command)


def opened(below: input_handlers.BaseEventHandler, press: Key) -> input_handlers.Overlay:
    """The screen a key press opens over `below`; it must hold `below` as its parent."""
    over = below.handle_events(stroke(press))
    assert isinstance(over, input_handlers.Overlay), over
    assert over.parent is below
    return over


def closes_back_to(over: input_handlers.BaseEventHandler, below: input_handlers.BaseEventHandler) -> None:
    """Escape closes `over`, giving back `below` itself; the screen draws over it first."""
    over.on_render(tcod.console.Console(80, 50, order="F"))
    assert over.handle_events(key(KeySym.ESCAPE)) is below


@pytest.mark.parametrize("command", [Command.HISTORY, Command.HELP, Command.OPTIONS, Command.QUIT])
def test_a_screen_opened_over_the_game_closes_back_to_it(engine: Engine, command: Command) -> None:
    game = input_handlers.MainGameEventHandler(engine)
    closes_back_to(opened(game, binding(keys.MAIN_KEYS, command)), game)


@pytest.mark.parametrize("command", [Command.HELP, Command.OPTIONS])
def test_a_screen_opened_over_the_menu_closes_back_to_it(command: Command) -> None:
    menu = setup_game.MainMenu()
    closes_back_to(opened(menu, binding(keys.MENU_KEYS, command)), menu)


@pytest.mark.parametrize("command", [Command.HISTORY, Command.HALL_OF_FAME, Command.HELP])
def test_a_screen_opened_after_a_death_closes_back_to_the_game_over_screen(
    engine: Engine, command: Command
) -> None:
    engine.player.fighter.die()
    game_over = input_handlers.next_screen(engine)
    assert isinstance(game_over, input_handlers.GameOverEventHandler)
    closes_back_to(opened(game_over, binding(keys.GAME_OVER_KEYS, command)), game_over)


def test_the_look_window_closes_back_to_the_look_cursor_where_it_was(engine: Engine) -> None:
    look = input_handlers.LookHandler(engine)
    look.handle_events(key(KeySym.RIGHT))
    cursor = engine.mouse_location
    closes_back_to(opened(look, KeySym.RETURN), look)
    assert engine.mouse_location == cursor


def test_a_popup_closes_back_to_the_screen_below_on_a_key_or_a_click() -> None:
    menu = setup_game.MainMenu()
    popup = input_handlers.PopupMessage(menu, "Hello.")
    closes_back_to(popup, menu)
    assert popup.handle_events(click(1, 1)) is menu
