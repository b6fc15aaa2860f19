"""Tutorial part 9: the targeting cursor (look mode, scroll targets) and the blast frame."""

from __future__ import annotations

import conftest
import pytest
import tcod
from conftest import click, give, key, motion
from tcod.event import KeySym, Modifier

import actions
import entity_factories
import input_handlers
from engine import Engine
from entity import Item
from input_handlers import MainGameEventHandler

PLAYER = (40, 20)


def arena() -> Engine:
    """A seeded new game on an 80x43 map of open floor ringed by wall, the
    player at PLAYER."""
    engine = conftest.arena(80, 43, PLAYER)
    engine.mouse_location = (0, 0)
    return engine


def aim(engine: Engine, template: Item) -> tuple[input_handlers.BaseEventHandler, Item]:
    """Carry a scroll and read it (`i`, then its letter): the targeting handler."""
    scroll = give(engine, template)
    inventory = MainGameEventHandler(engine).handle_events(key(KeySym.I))
    letter = KeySym(ord("a") + engine.player.inventory.items.index(scroll))
    return inventory.handle_events(key(letter)), scroll


def look(engine: Engine) -> input_handlers.BaseEventHandler:
    handler = MainGameEventHandler(engine).handle_events(key(KeySym.SLASH))
    assert isinstance(handler, input_handlers.LookHandler)
    return handler


def test_look_mode_starts_the_cursor_on_the_player() -> None:
    engine = arena()
    look(engine)
    assert engine.mouse_location == PLAYER


@pytest.mark.parametrize(
    ("sym", "cursor"), [(KeySym.UP, (40, 19)), (KeySym.KP_3, (41, 21)), (KeySym.Y, (39, 19))]
)
def test_move_keys_move_the_cursor_not_the_player(sym: KeySym, cursor: tuple[int, int]) -> None:
    engine = arena()
    orc = entity_factories.orc.spawn(engine.game_map, 42, 20)
    handler = look(engine)
    assert handler.handle_events(key(sym)) is handler
    assert engine.mouse_location == cursor
    assert (engine.player.x, engine.player.y) == PLAYER
    assert (orc.x, orc.y) == (42, 20)


@pytest.mark.parametrize(
    ("mod", "step"),
    [
        (Modifier.NONE, 1),
        (Modifier.LSHIFT, 5),
        (Modifier.RSHIFT, 5),
        (Modifier.LCTRL, 10),
        (Modifier.RCTRL, 10),
        (Modifier.LALT, 20),
        (Modifier.RALT, 20),
        (Modifier.LSHIFT | Modifier.NUM, 5),  # Num Lock changes nothing.
    ],
)
def test_modifiers_move_the_cursor_further(mod: Modifier, step: int) -> None:
    engine = arena()
    handler = look(engine)
    handler.handle_events(key(KeySym.RIGHT, mod))
    assert engine.mouse_location == (40 + step, 20)
    handler.handle_events(key(KeySym.DOWN, mod))
    assert engine.mouse_location == (40 + step, 20 + step)


@pytest.mark.parametrize(
    ("sym", "cursors"),
    [
        (KeySym.LEFT, [(20, 20), (0, 20), (0, 20)]),
        (KeySym.RIGHT, [(60, 20), (79, 20), (79, 20)]),
        (KeySym.UP, [(40, 0), (40, 0)]),
        (KeySym.DOWN, [(40, 40), (40, 42), (40, 42)]),
    ],
)
def test_cursor_is_clamped_to_the_map(sym: KeySym, cursors: list[tuple[int, int]]) -> None:
    engine = arena()
    handler = look(engine)
    for cursor in cursors:
        handler.handle_events(key(sym, Modifier.LALT))
        assert engine.mouse_location == cursor


@pytest.mark.parametrize("event", [key(KeySym.RETURN), key(KeySym.KP_ENTER), click(41, 20)])
def test_look_mode_ends_on_select(event: tcod.event.Event) -> None:
    engine = arena()
    handler = look(engine)
    handler.handle_events(key(KeySym.RIGHT))
    assert isinstance(handler.handle_events(event), MainGameEventHandler)


@pytest.mark.parametrize(
    ("events", "target"),
    [
        ([key(KeySym.RIGHT), key(KeySym.RIGHT), key(KeySym.RETURN)], (42, 20)),
        ([key(KeySym.DOWN, Modifier.LSHIFT), key(KeySym.KP_ENTER)], (40, 25)),
        ([click(44, 22)], (44, 22)),
        ([motion(43, 18), key(KeySym.RETURN)], (43, 18)),
        ([motion(43, 18), key(KeySym.RIGHT), key(KeySym.RETURN)], (44, 18)),
    ],
)
def test_selection_gives_the_scrolls_action_its_target(
    events: list[tcod.event.Event], target: tuple[int, int]
) -> None:
    engine = arena()
    handler, scroll = aim(engine, entity_factories.confusion_scroll)
    assert isinstance(handler, input_handlers.SingleRangedAttackHandler)
    *moves, select = events
    for event in moves:
        assert handler.handle_events(event) is handler
    action = handler.dispatch(select)
    assert isinstance(action, actions.ItemAction)
    assert (action.entity, action.item, action.target_xy) == (engine.player, scroll, target)


def test_mouse_motion_moves_the_cursor() -> None:
    engine = arena()
    handler = look(engine)
    handler.handle_events(motion(12, 34))
    assert engine.mouse_location == (12, 34)


@pytest.mark.parametrize("cancel", [key(KeySym.ESCAPE), click(44, 22, tcod.event.MouseButton.RIGHT)])
def test_cancel_costs_nothing(cancel: tcod.event.Event) -> None:
    """Escape or a right click: back to the game, no turn, the scroll still carried."""
    engine = arena()
    orc = entity_factories.orc.spawn(engine.game_map, 42, 20)
    handler, scroll = aim(engine, entity_factories.fireball_scroll)
    handler.handle_events(key(KeySym.RIGHT))
    assert isinstance(handler.handle_events(cancel), MainGameEventHandler)
    assert scroll in engine.player.inventory.items
    assert (orc.x, orc.y, orc.fighter.hp) == (42, 20, 10)


def frame_corners(console: tcod.console.Console) -> dict[str, tuple[int, int]]:
    ch = console.rgb["ch"]
    corners = {}
    for glyph in "┌┐└┘":
        (found,) = zip(*(ch == ord(glyph)).nonzero(), strict=True)
        corners[glyph] = tuple(int(v) for v in found)
    return corners


def test_fireball_frame_surrounds_the_radius_3_blast() -> None:
    engine = arena()
    handler, _ = aim(engine, entity_factories.fireball_scroll)
    assert isinstance(handler, input_handlers.AreaRangedAttackHandler)
    handler.handle_events(motion(45, 20))
    console = tcod.console.Console(80, 50, order="F")
    handler.on_render(console)
    assert frame_corners(console) == {
        "┌": (41, 16), "┐": (49, 16), "└": (41, 24), "┘": (49, 24)
    }  # fmt: skip
    assert tuple(console.rgb["bg"][45, 20]) == (255, 255, 255)  # The cursor.


def test_blast_frame_fits_radius_2() -> None:
    """The tutorial drew the frame radius**2 wide: right for 3 only."""
    engine = arena()
    handler = input_handlers.AreaRangedAttackHandler(engine, radius=2, callback=lambda xy: None)
    handler.handle_events(motion(30, 10))
    console = tcod.console.Console(80, 50, order="F")
    handler.on_render(console)
    assert frame_corners(console) == {
        "┌": (27, 7), "┐": (33, 7), "└": (27, 13), "┘": (33, 13)
    }  # fmt: skip
