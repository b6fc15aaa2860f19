"""Tutorial parts 1-7: the main game's keys and mouse, and the history viewer."""

from __future__ import annotations

import pytest
import tcod
from conftest import (
    arena,
    dungeon,
    key,
    motion,
    pressing,
    screen_rows,
    screens_of,
    stroke,
    texts,
    typed,
)
from tcod.event import KeySym

import actions
import entity_factories
import input_handlers
import render_functions
import tile_types
from controls import keys
from controls.keys import Key
from input_handlers import MainGameEventHandler
from screens.base import Push, Quit
from screens.stack import Screens

# The tutorial's keys: arrows and Home/End/PgUp/PgDn, the numpad, and vi keys.
EXPECTED_MOVES = {
    KeySym.UP: (0, -1), KeySym.DOWN: (0, 1), KeySym.LEFT: (-1, 0), KeySym.RIGHT: (1, 0),
    KeySym.HOME: (-1, -1), KeySym.END: (-1, 1), KeySym.PAGEUP: (1, -1), KeySym.PAGEDOWN: (1, 1),
    KeySym.KP_1: (-1, 1), KeySym.KP_2: (0, 1), KeySym.KP_3: (1, 1), KeySym.KP_4: (-1, 0),
    KeySym.KP_6: (1, 0), KeySym.KP_7: (-1, -1), KeySym.KP_8: (0, -1), KeySym.KP_9: (1, -1),
    KeySym.H: (-1, 0), KeySym.J: (0, 1), KeySym.K: (0, -1), KeySym.L: (1, 0),
    KeySym.Y: (-1, -1), KeySym.U: (1, -1), KeySym.B: (-1, 1), KeySym.N: (1, 1),
}  # fmt: skip


def test_move_keys_are_the_tutorials() -> None:
    assert dict(keys.MOVE_KEYS) == EXPECTED_MOVES


@pytest.mark.parametrize(("sym", "delta"), EXPECTED_MOVES.items(), ids=lambda v: str(v))
def test_move_key_bumps_and_moves_the_player(sym: KeySym, delta: tuple[int, int]) -> None:
    engine = arena()
    handler = MainGameEventHandler(engine)
    action = handler.dispatch(key(sym))
    assert isinstance(action, actions.BumpAction)
    assert (action.dx, action.dy) == delta

    screens = pressing(dungeon(engine), key(sym))
    assert isinstance(screens.top, MainGameEventHandler)
    assert (engine.player.x, engine.player.y) == (5 + delta[0], 5 + delta[1])


@pytest.mark.parametrize("sym", [".", KeySym.KP_5, KeySym.CLEAR])
def test_wait_keys_pass_a_turn(sym: Key) -> None:
    """The player stays put and the adjacent orc gets its attack."""
    engine = arena()
    entity_factories.orc.spawn(engine.game_map, 6, 5)
    assert isinstance(MainGameEventHandler(engine).dispatch(stroke(sym)), actions.WaitAction)
    pressing(dungeon(engine), stroke(sym))
    assert (engine.player.x, engine.player.y) == (5, 5)
    assert texts(engine)[-1] == "Orc attacks Player for 1 hit point."
    assert engine.player.fighter.hp == 29


@pytest.mark.parametrize("event", [typed(">")])
def test_greater_than_takes_the_stairs(event: tcod.event.TextInput) -> None:
    engine = arena()
    engine.game_map.tiles[5, 5] = tile_types.down_stairs
    engine.game_map.downstairs_location = (5, 5)
    action = MainGameEventHandler(engine).dispatch(event)
    assert isinstance(action, actions.TakeStairsAction)

    pressing(dungeon(engine), event)
    assert engine.game_world.current_floor == 2
    assert texts(engine)[-1] == "You descend the staircase."


@pytest.mark.parametrize(
    ("sym", "result"),
    [
        (KeySym.G, actions.PickupAction),
        (KeySym.I, input_handlers.InventoryActivateHandler),
        (KeySym.D, input_handlers.InventoryDropHandler),
        (KeySym.C, input_handlers.CharacterScreenEventHandler),
        (KeySym.V, input_handlers.HistoryViewer),
        ("/", input_handlers.LookHandler),
    ],
)
def test_command_keys(sym: Key, result: type) -> None:
    engine = arena()
    done = MainGameEventHandler(engine).dispatch(stroke(sym))
    assert type(done.screen if isinstance(done, Push) else done) is result


def test_escape_asks_before_saving_and_quitting() -> None:
    """As in DCSS and Brogue, Escape cancels by reflex: in the dungeon it asks first."""
    engine = arena()
    screens = dungeon(engine)
    game = screens.top
    for answer in (KeySym.N, KeySym.ESCAPE):
        screens.press(key(KeySym.ESCAPE))
        question = screens.top
        assert isinstance(question, input_handlers.ConfirmHandler)
        assert screens.stack[-2] is game
        assert question.text == "Save and quit? (Y/n)"
        assert "Save and quit? (Y/n)" in "".join(screen_rows(screens))
        # n or Escape goes back, and costs no turn.
        screens.press(key(answer))
        assert screens.top is game
    assert engine.turns == 0
    screens.press(key(KeySym.ESCAPE))
    question = screens.top
    # Anything else leaves the question up.
    screens.press(key(KeySym.Q))
    assert screens.top is question
    assert screens.quitting is None
    screens.press(key(KeySym.Y))  # y quits; the main loop saves on the way out.
    assert screens.quitting == Quit()


@pytest.mark.parametrize("sym", [KeySym.Z, KeySym.F5, KeySym.N1, KeySym.LSHIFT])
def test_unbound_key_does_nothing(sym: KeySym) -> None:
    """Same handler back, no message, and the orc two tiles away does not move."""
    engine = arena()
    orc = entity_factories.orc.spawn(engine.game_map, 7, 5)
    screens = dungeon(engine)
    handler = screens.top
    log_before = texts(engine)
    screens.press(key(sym))
    assert screens.stack == [screens.menu, handler]
    assert texts(engine) == log_before
    assert (orc.x, orc.y) == (7, 5)
    assert (engine.player.x, engine.player.y) == (5, 5)


def test_mouse_motion_sets_mouse_location() -> None:
    engine = arena()
    screens = dungeon(engine)
    handler = screens.top
    screens.press(motion(7, 3))
    assert screens.stack == [screens.menu, handler]
    assert engine.mouse_location == (7, 3)
    screens.press(motion(40, 45))  # Off the map (the panel below it).
    assert engine.mouse_location == (7, 3)


def test_names_shown_only_on_visible_tiles() -> None:
    engine = arena()
    game_map = engine.game_map
    game_map.tiles[10, :] = tile_types.wall
    orc = entity_factories.orc.spawn(game_map, 7, 5)
    potion = entity_factories.health_potion.spawn(game_map, 7, 5)
    entity_factories.troll.spawn(game_map, 12, 5)  # Behind the wall.
    engine.update_fov()

    # The monster on top first, each thing in a few words (see test_descriptions.py).
    assert potion.consumable is not None
    expected = f"{orc.name}, uninjured; {potion.name}: {potion.consumable.describe()}"
    assert render_functions.get_names_at_location(7, 5, game_map) == expected  # The tutorial's name.
    assert render_functions.get_names_at_location(12, 5, game_map) == ""

    pressing(dungeon(engine), motion(7, 5))
    console = tcod.console.Console(80, 50, order="F")
    engine.render(console)
    names_row = "".join(map(chr, console.rgb["ch"][21:, 44])).rstrip()
    assert names_row == expected


def history_with(count: int) -> Screens:
    """The history viewer of a game with `count` messages, over its dungeon."""
    engine = arena()
    for i in range(count - 1):  # The welcome message is the first.
        engine.message_log.add_message(f"message {i}")
    return screens_of(MainGameEventHandler(engine), input_handlers.HistoryViewer(engine))


@pytest.mark.parametrize(
    ("presses", "cursor"),
    [
        ([], 29),
        ([KeySym.UP], 28),
        ([KeySym.UP, KeySym.DOWN], 29),
        ([KeySym.DOWN], 0),  # Wraps from the bottom to the top...
        ([KeySym.HOME, KeySym.UP], 29),  # ...and from the top to the bottom.
        ([KeySym.PAGEUP], 19),
        ([KeySym.PAGEUP] * 3, 0),  # Clamped at the top.
        ([KeySym.HOME], 0),
        ([KeySym.HOME, KeySym.PAGEDOWN], 10),
        ([KeySym.HOME, KeySym.END], 29),
        ([KeySym.PAGEUP, KeySym.PAGEUP, KeySym.PAGEDOWN, KeySym.PAGEDOWN], 29),
        ([KeySym.UP, KeySym.PAGEDOWN], 29),  # Clamped at the bottom.
    ],
)
def test_history_viewer_scrolls(presses: list[KeySym], cursor: int) -> None:
    screens = history_with(30)
    viewer = screens.top
    assert isinstance(viewer, input_handlers.HistoryViewer)
    for sym in presses:
        screens.press(key(sym))
        assert screens.top is viewer
    assert viewer.cursor == cursor


def test_history_viewer_shows_messages_up_to_the_cursor() -> None:
    """The window's last line (x=2, y=47: inside the frame, a row and a column in from the
    console's edges) is the message under the cursor."""
    screens = pressing(history_with(30), key(KeySym.UP))
    console = tcod.console.Console(80, 50, order="F")
    screens.draw(console)
    # After the column of turns (a turn's first message shows its number).
    assert "".join(map(chr, console.rgb["ch"][2:30, 47])).strip() == "message 27"
    assert "".join(map(chr, console.rgb["ch"][2:30, 46])).strip() == "message 26"


@pytest.mark.parametrize("sym", [KeySym.A, KeySym.ESCAPE, KeySym.V])
def test_history_viewer_any_other_key_returns_to_the_game(sym: KeySym) -> None:
    screens = history_with(30)
    game = screens.stack[-2]
    assert isinstance(game, MainGameEventHandler)
    screens.press(key(sym))
    assert screens.top is game
