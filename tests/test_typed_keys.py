"""Symbols (`>`, `?`, `/`, ...) act on the character typed, on every keyboard layout.

A key press comes from SDL as a KeyDown, then, if it types something, as a
TextInput of the character.  These tests send both, as SDL does for the US,
German and French layouts, through the handlers' public API and through
the real main loop: each press must act exactly once.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import tcod
from conftest import arena, dungeon, key, pressing, typed
from tcod.event import KeySym, Modifier

import input_handlers
import main
import tile_types
from engine import Engine
from input_handlers import MainGameEventHandler
from replays import replay
from screens.help_screen import HelpScreen
from screens.stack import Screens
from window import loop

Press = list[tcod.event.KeyDown | tcod.event.TextInput]

SHIFT = Modifier.LSHIFT

# What SDL 3 sends for `>`, `?` and `/` on each layout: the KeyDown of the key
# pressed (SDL names a key by what it types without Shift; the German `ß`
# key has no KeySym of its own), then the character typed.
LAYOUTS: dict[str, dict[str, Press]] = {
    "us": {
        ">": [key(KeySym.PERIOD, SHIFT), typed(">")],
        "?": [key(KeySym.SLASH, SHIFT), typed("?")],
        "/": [key(KeySym.SLASH), typed("/")],
    },
    "de": {
        ">": [key(KeySym.LESS, SHIFT), typed(">")],
        "?": [key(KeySym.UNKNOWN, SHIFT), typed("?")],
        "/": [key(KeySym.N7, SHIFT), typed("/")],
    },
    "fr": {
        ">": [key(KeySym.LESS, SHIFT), typed(">")],
        "?": [key(KeySym.COMMA, SHIFT), typed("?")],
        "/": [key(KeySym.COLON, SHIFT), typed("/")],
    },
}


def on_stairs() -> Engine:
    engine = arena()
    engine.game_map.tiles[5, 5] = tile_types.down_stairs
    engine.game_map.downstairs_location = (5, 5)
    return engine


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_greater_than_descends_exactly_one_floor(layout: str) -> None:
    engine = on_stairs()
    screens = pressing(dungeon(engine), *LAYOUTS[layout][">"])
    assert engine.game_world.current_floor == 2
    assert type(screens.top) is MainGameEventHandler and len(screens.stack) == 2
    assert not screens.walking
    # The player lands on floor 2, beside no stairs: a second `>` would have
    # said so or walked; nothing of the sort happened.
    assert [m.plain_text for m in engine.message_log.messages].count("You descend the staircase.") == 1


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize(
    ("symbol", "screen"), [("?", HelpScreen), ("/", input_handlers.LookHandler)]
)
def test_help_and_look_open_on_every_layout(layout: str, symbol: str, screen: type) -> None:
    screens = pressing(dungeon(arena()), *LAYOUTS[layout][symbol])
    assert type(screens.top) is screen
    assert type(screens.stack[-2]) is MainGameEventHandler and len(screens.stack) == 3


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_a_symbols_key_alone_does_nothing(layout: str) -> None:
    """The KeyDown of `>` is not `>`: without its text, the game stays on the stairs."""
    engine = on_stairs()
    screens = dungeon(engine)
    handler = screens.top
    screens.press(LAYOUTS[layout][">"][0])
    assert screens.stack[1:] == [handler] and not screens.walking
    assert engine.game_world.current_floor == 1 and engine.turns == 0


@pytest.mark.parametrize(
    ("press", "moves"),
    [
        ([key(KeySym.K), typed("k")], 1),  # A letter types itself: it acts once, as a key.
        ([key(KeySym.KP_8, Modifier.NUM), typed("8")], 1),  # So does a numpad digit.
        ([key(KeySym.K, Modifier.LCTRL)], 1),  # Ctrl types nothing.
    ],
)
def test_a_key_that_types_acts_once(press: Press, moves: int) -> None:
    engine = arena()
    pressing(dungeon(engine), *press)
    assert (engine.player.x, engine.player.y) == (5, 5 - moves)
    assert engine.turns == moves


def test_shift_with_a_letter_runs_once() -> None:
    """Shift+k types `K`: the run starts on the KeyDown, and the text stops nothing."""
    engine = arena()
    screens = dungeon(engine)
    handler = screens.top
    pressing(screens, key(KeySym.K, SHIFT), typed("K"))
    assert screens.top is handler and screens.walking


@pytest.mark.parametrize("text", ["k", "K", "8", " ", "é", "ß"])
def test_text_that_is_no_symbol_does_nothing(text: str) -> None:
    engine = arena()
    screens = dungeon(engine)
    handler = screens.top
    screens.press(typed(text))
    assert screens.stack[1:] == [handler] and not screens.walking
    assert engine.turns == 0 and (engine.player.x, engine.player.y) == (5, 5)


@pytest.fixture
def root_console() -> tcod.console.Console:
    return tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")


def play_presses(
    context: tcod.context.Context, screens: Screens, *presses: Press
) -> list[str]:
    """Run the real main loop, one press a frame (both its events in one batch,
    as SDL sends them), then quit; the screen on top after each press."""
    shown: list[str] = []
    frames: Iterator[Press] = iter(presses)
    asked = [0]

    def events() -> list[tcod.event.Event]:
        if asked[0]:  # The previous press was handled.
            shown.append(type(screens.top).__name__)
        asked[0] += 1
        return list(next(frames, [tcod.event.Quit()]))  # The window closed after the last.

    console = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
    loop.main_loop(context, console, screens, events)  # Quitting saves the game.
    assert asked[0] == len(presses) + 1, "the loop did not quit when asked"
    return shown


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_a_symbol_closing_a_screen_does_not_act_again(
    layout: str, context: tcod.context.Context
) -> None:
    """Any key closes the help: `?` pressed there closes it, and does not open it
    again, though on a German keyboard it is the KeyDown (Shift+ß) that closes it."""
    presses = LAYOUTS[layout]
    shown = play_presses(context, dungeon(arena()), presses["?"], presses["?"], presses["/"])
    assert shown == ["HelpScreen", "MainGameEventHandler", "LookHandler"]


def test_numpad_plus_speeds_a_replay_once() -> None:
    """The numpad's + types `+`: its KeyDown does nothing, its text doubles the speed."""
    playback = replay.Playback([], speed=8)
    for event in [key(KeySym.KP_PLUS, Modifier.NUM), typed("+")]:
        playback.control(event)
    assert playback.speed == 16
