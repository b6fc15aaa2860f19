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
from conftest import arena, key, typed
from tcod.event import KeySym, Modifier

import input_handlers
import main
import tile_types
from engine import Engine
from input_handlers import BaseEventHandler, MainGameEventHandler
from replays import replay
from screens.help_screen import HelpScreen
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


def send(handler: BaseEventHandler, events: Press) -> BaseEventHandler:
    """Each event of a press to the handler in turn, as `handle_events` is called."""
    for event in events:
        handler = handler.handle_events(event)
    return handler


def on_stairs() -> Engine:
    engine = arena()
    engine.game_map.tiles[5, 5] = tile_types.down_stairs
    engine.game_map.downstairs_location = (5, 5)
    return engine


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_greater_than_descends_exactly_one_floor(layout: str) -> None:
    engine = on_stairs()
    handler = send(MainGameEventHandler(engine), LAYOUTS[layout][">"])
    assert engine.game_world.current_floor == 2
    assert type(handler) is MainGameEventHandler
    # The player lands on floor 2, beside no stairs: a second `>` would have
    # said so or walked; nothing of the sort happened.
    assert [m.plain_text for m in engine.message_log.messages].count("You descend the staircase.") == 1


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize(
    ("symbol", "screen"), [("?", HelpScreen), ("/", input_handlers.LookHandler)]
)
def test_help_and_look_open_on_every_layout(layout: str, symbol: str, screen: type) -> None:
    handler = send(MainGameEventHandler(arena()), LAYOUTS[layout][symbol])
    assert type(handler) is screen


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_a_symbols_key_alone_does_nothing(layout: str) -> None:
    """The KeyDown of `>` is not `>`: without its text, the game stays on the stairs."""
    engine = on_stairs()
    handler = MainGameEventHandler(engine)
    assert handler.handle_events(LAYOUTS[layout][">"][0]) is handler
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
    send(MainGameEventHandler(engine), press)
    assert (engine.player.x, engine.player.y) == (5, 5 - moves)
    assert engine.turns == moves


def test_shift_with_a_letter_runs_once() -> None:
    """Shift+k types `K`: the run starts on the KeyDown, and the text stops nothing."""
    engine = arena()
    handler = send(MainGameEventHandler(engine), [key(KeySym.K, SHIFT), typed("K")])
    assert handler.walking


@pytest.mark.parametrize("text", ["k", "K", "8", " ", "é", "ß"])
def test_text_that_is_no_symbol_does_nothing(text: str) -> None:
    engine = arena()
    handler = MainGameEventHandler(engine)
    assert handler.handle_events(typed(text)) is handler
    assert engine.turns == 0 and (engine.player.x, engine.player.y) == (5, 5)


@pytest.fixture
def root_console() -> tcod.console.Console:
    return tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")


def play_presses(
    context: tcod.context.Context, handler: BaseEventHandler, *presses: Press
) -> list[str]:
    """Run the real main loop, one press a frame (both its events in one batch,
    as SDL sends them), then quit; the screen after each press."""
    screens: list[str] = []
    frames: Iterator[Press] = iter(presses)
    real = loop.handle_event
    now = [handler]
    asked = [0]

    def spy(*args: object, **kwargs: object) -> BaseEventHandler:
        now[0] = real(*args, **kwargs)  # type: ignore[arg-type]
        return now[0]

    def events() -> Press:
        if asked[0]:  # The previous press was handled.
            screens.append(type(now[0]).__name__)
        asked[0] += 1
        try:
            return next(frames)
        except StopIteration:
            raise SystemExit() from None

    console = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(loop, "handle_event", spy)
        loop.main_loop(context, console, handler, events)  # Quitting saves the game.
    return screens


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_a_symbol_closing_a_screen_does_not_act_again(
    layout: str, context: tcod.context.Context
) -> None:
    """Any key closes the help: `?` pressed there closes it, and does not open it
    again, though on a German keyboard it is the KeyDown (Shift+ß) that closes it."""
    presses = LAYOUTS[layout]
    screens = play_presses(context, MainGameEventHandler(arena()), presses["?"], presses["?"], presses["/"])
    assert screens == ["HelpScreen", "MainGameEventHandler", "LookHandler"]


def test_numpad_plus_speeds_a_replay_once() -> None:
    """The numpad's + types `+`: its KeyDown does nothing, its text doubles the speed."""
    playback = replay.Playback([], speed=8)
    for event in [key(KeySym.KP_PLUS, Modifier.NUM), typed("+")]:
        playback.control(event)
    assert playback.speed == 16
