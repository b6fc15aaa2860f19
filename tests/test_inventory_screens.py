"""Tutorial part 8: the use (`i`) and drop (`d`) screens, driven by key presses.

The player carries only what each test gives, so the first item is `a`.  An
orc waits in sight two tiles east: it steps closer whenever a turn passes.
"""

from __future__ import annotations

import copy

import conftest
import pytest
import tcod
from conftest import click, key, press, pressing, texts
from tcod.event import KeySym

import entity_factories
import input_handlers
from engine import Engine
from entity import Actor, Item
from input_handlers import MainGameEventHandler
from screens.stack import Screens

OPEN_KEYS = {KeySym.I: input_handlers.InventoryActivateHandler, KeySym.D: input_handlers.InventoryDropHandler}


def arena(*carried: Item) -> tuple[Engine, Actor]:
    """A seeded game on a 20x15 open map, the player at (5, 5) carrying only
    copies of `carried`; and the watching orc at (7, 5)."""
    engine = conftest.arena()
    game_map = engine.game_map
    player = engine.player
    player.equipment.weapon = player.equipment.armor = None
    player.inventory.items.clear()
    for template in carried:
        item = copy.deepcopy(template)
        player.inventory.add(item)
    return engine, entity_factories.orc.spawn(game_map, 7, 5)


def open_screen(engine: Engine, sym: KeySym) -> Screens:
    """The screen `sym` opens over the dungeon, on top of the screens."""
    screens = press(engine, sym)
    assert type(screens.top) is OPEN_KEYS[sym]
    return screens


def item_names(engine: Engine) -> list[str]:
    return [item.name for item in engine.player.inventory.items]


def test_use_screen_letter_a_uses_the_first_item() -> None:
    engine, _ = arena(entity_factories.health_potion, entity_factories.lightning_scroll)
    engine.player.fighter.hp = 10
    screens = pressing(open_screen(engine, KeySym.I), key(KeySym.A))
    assert isinstance(screens.top, MainGameEventHandler)
    assert len(screens.stack) == 2
    assert engine.player.fighter.hp == 14
    assert item_names(engine) == ["Lightning Scroll"]


@pytest.mark.parametrize("sym", OPEN_KEYS)
def test_letter_beyond_the_items_is_invalid(sym: KeySym) -> None:
    engine, orc = arena(entity_factories.health_potion, entity_factories.lightning_scroll)
    screens = open_screen(engine, sym)
    screen = screens.top
    screens.press(key(KeySym.C))
    assert screens.top is screen
    assert texts(engine)[-1] == "Invalid entry."
    assert item_names(engine) == ["Health Potion", "Lightning Scroll"]
    assert (orc.x, orc.y) == (7, 5)


@pytest.mark.parametrize("sym", OPEN_KEYS)
@pytest.mark.parametrize("other", [key(KeySym.ESCAPE), key(KeySym.N1), key(KeySym.F5), click(3, 3)])
def test_any_other_key_closes_the_screen_at_no_cost(sym: KeySym, other: tcod.event.Event) -> None:
    engine, orc = arena(entity_factories.health_potion)
    log_before = texts(engine)
    screens = pressing(open_screen(engine, sym), other)
    assert isinstance(screens.top, MainGameEventHandler)
    assert len(screens.stack) == 2
    assert texts(engine) == log_before
    assert item_names(engine) == ["Health Potion"]
    assert (orc.x, orc.y) == (7, 5)


def test_a_modifier_key_alone_keeps_the_screen_open() -> None:
    engine, _ = arena(entity_factories.health_potion)
    screens = open_screen(engine, KeySym.I)
    screen = screens.top
    screens.press(key(KeySym.LSHIFT))
    assert screens.top is screen


def test_drop_screen_drops_the_chosen_item_at_the_players_feet() -> None:
    engine, _ = arena(entity_factories.health_potion, entity_factories.confusion_scroll)
    pressing(open_screen(engine, KeySym.D), key(KeySym.B))
    assert texts(engine)[-1] == "You dropped the Confusion Scroll."
    assert item_names(engine) == ["Health Potion"]
    (dropped,) = engine.game_map.items
    assert (dropped.name, dropped.x, dropped.y) == ("Confusion Scroll", 5, 5)
    assert dropped.parent is engine.game_map


def test_screens_list_the_items_by_letter() -> None:
    engine, _ = arena(entity_factories.health_potion, entity_factories.fireball_scroll)
    console = tcod.console.Console(80, 50, order="F")
    open_screen(engine, KeySym.I).draw(console)
    text = str(console)
    assert "Select an item to use" in text
    assert "(a) Health Potion" in text
    assert "(b) Fireball Scroll" in text
