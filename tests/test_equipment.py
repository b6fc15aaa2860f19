"""Part 13: weapons and armour, worn through the inventory; and saves keeping all of 11-13."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import give, key, press, screen_rows, texts
from tcod.event import KeySym

import entity_factories
import setup_game
from engine import Engine
from entity import Item
from equipment_types import EquipmentType
from input_handlers import InventoryActivateHandler, InventoryDropHandler, MainGameEventHandler
from saving import save_data


@pytest.mark.parametrize(
    ("template", "kind", "power", "defense"),
    [
        (entity_factories.dagger, EquipmentType.WEAPON, 2, 0),
        (entity_factories.sword, EquipmentType.WEAPON, 4, 0),
        (entity_factories.leather_armor, EquipmentType.ARMOR, 0, 1),
        (entity_factories.chain_mail, EquipmentType.ARMOR, 0, 3),
    ],
    ids=["dagger", "sword", "leather-armor", "chain-mail"],
)
def test_each_piece_gives_its_bonus(
    template: Item, kind: EquipmentType, power: int, defense: int
) -> None:
    equippable = template.equippable
    assert equippable is not None and equippable.equipment_type is kind
    assert (equippable.power_bonus, equippable.defense_bonus) == (power, defense)


def test_a_new_game_starts_wearing_a_dagger_and_leather_armor(engine: Engine) -> None:
    player = engine.player
    dagger, armor = player.inventory.items
    assert (dagger.name, armor.name) == ("Dagger", "Leather Armor")
    assert player.equipment.weapon is dagger
    assert player.equipment.armor is armor
    assert (player.fighter.base_power, player.fighter.base_defense) == (2, 1)
    assert (player.fighter.power, player.fighter.defense) == (4, 2)
    # Put on silently: the log holds the welcome alone.
    assert texts(engine) == ["Hello and welcome, adventurer, to yet another dungeon!"]


def test_power_and_defense_are_base_plus_equipment(engine: Engine) -> None:
    fighter = engine.player.fighter
    fighter.base_power = 5
    fighter.base_defense = 3
    assert (fighter.power, fighter.defense) == (7, 4)
    engine.player.equipment.weapon = None
    assert (fighter.power, fighter.defense) == (5, 4)


def test_using_a_sword_from_the_inventory_swaps_out_the_dagger(engine: Engine) -> None:
    player = engine.player
    dagger = player.inventory.items[0]
    sword = give(engine, entity_factories.sword)  # Item (c).
    start = len(engine.message_log.messages)

    screens = press(engine, KeySym.I)
    assert isinstance(screens.top, InventoryActivateHandler)
    screens.press(key(KeySym.C))

    assert isinstance(screens.top, MainGameEventHandler)
    assert texts(engine, start)[:2] == ["You remove the Dagger.", "You equip the Sword."]
    assert player.equipment.weapon is sword
    assert dagger in player.inventory.items
    assert player.fighter.power == 6


def test_chain_mail_replaces_leather_armor(engine: Engine) -> None:
    player = engine.player
    mail = give(engine, entity_factories.chain_mail)
    start = len(engine.message_log.messages)

    press(engine, KeySym.I, KeySym.C)

    assert texts(engine, start)[:2] == ["You remove the Leather Armor.", "You equip the Chain Mail."]
    assert player.equipment.armor is mail
    assert player.fighter.defense == 4


def test_using_a_worn_piece_takes_it_off(engine: Engine) -> None:
    player = engine.player
    start = len(engine.message_log.messages)

    press(engine, KeySym.I, KeySym.A)

    assert texts(engine, start)[0] == "You remove the Dagger."
    assert player.equipment.weapon is None
    assert player.fighter.power == 2
    assert len(player.inventory.items) == 2

    start = len(engine.message_log.messages)
    press(engine, KeySym.I, KeySym.A)  # And on again.
    assert texts(engine, start)[0] == "You equip the Dagger."
    assert player.fighter.power == 4


def test_the_inventory_marks_worn_pieces_with_e(engine: Engine) -> None:
    dagger, armor = engine.player.inventory.items
    sword = give(engine, entity_factories.sword)
    screens = press(engine, KeySym.I)

    rows = screen_rows(screens)
    assert dagger.equippable and armor.equippable and sword.equippable

    # The player is on the left half, so the window is drawn from x = 40, a row down.
    assert engine.player.x <= 30
    assert rows[1][40] == "┌" and " Select an item to use " in rows[1]
    right = rows[1].index("┐")
    assert rows[5][40] == "└" and rows[5][right] == "┘"
    assert [row[41:right].rstrip() for row in rows[2:5]] == [
        f"(a) {dagger.name} (E): {dagger.equippable.describe()}",
        f"(b) {armor.name} (E): {armor.equippable.describe()}",
        f"(c) {sword.name}: {sword.equippable.describe()}",
    ]


def test_dropping_a_worn_piece_takes_it_off_first(engine: Engine) -> None:
    player = engine.player
    dagger = player.inventory.items[0]
    start = len(engine.message_log.messages)

    screens = press(engine, KeySym.D)
    assert isinstance(screens.top, InventoryDropHandler)
    screens.press(key(KeySym.A))

    assert texts(engine, start)[:2] == ["You remove the Dagger.", "You dropped the Dagger."]
    assert player.equipment.weapon is None
    assert player.fighter.power == 2
    assert dagger not in player.inventory.items
    assert dagger in engine.game_map.entities
    assert (dagger.x, dagger.y) == (player.x, player.y)


def test_a_save_keeps_floor_level_experience_and_equipment(engine: Engine, tmp_path: Path) -> None:
    world = engine.game_world
    world.generate_floor()
    world.generate_floor()
    engine.update_fov()
    player = engine.player
    player.level.current_xp = 350 + 500 + 123
    player.level.increase_power()
    player.level.increase_defense()
    sword = give(engine, entity_factories.sword)
    mail = give(engine, entity_factories.chain_mail)
    player.equipment.toggle_equip(sword)
    player.equipment.toggle_equip(mail)
    assert (world.current_floor, player.level.current_level, player.level.current_xp) == (3, 3, 123)
    assert (player.fighter.power, player.fighter.defense) == (7, 5)
    path = str(tmp_path / "floor3.sav")

    save_data.save(engine, path)
    loaded = setup_game.load_game(path)

    lp = loaded.player
    assert loaded.game_world.current_floor == 3
    assert loaded.game_world.seed == 1234
    assert (lp.level.current_level, lp.level.current_xp) == (3, 123)
    assert lp.level.experience_to_next_level == 650
    assert (lp.fighter.base_power, lp.fighter.base_defense) == (3, 2)
    assert (lp.fighter.power, lp.fighter.defense) == (7, 5)
    assert [item.name for item in lp.inventory.items] == [
        "Dagger", "Leather Armor", "Sword", "Chain Mail",
    ]
    # The worn pieces are the very items in the pack, not copies of them.
    assert any(item is lp.equipment.weapon for item in lp.inventory.items)
    assert any(item is lp.equipment.armor for item in lp.inventory.items)
    assert lp.equipment.weapon is not None and lp.equipment.armor is not None
    assert (lp.equipment.weapon.name, lp.equipment.armor.name) == ("Sword", "Chain Mail")
    assert lp.equipment.weapon.parent is lp.inventory
    assert lp.gamemap is loaded.game_map
    assert loaded.game_map.downstairs_location == engine.game_map.downstairs_location
    assert np.array_equal(loaded.game_map.tiles, engine.game_map.tiles)
    assert np.array_equal(loaded.game_map.explored, engine.game_map.explored)

    # Taking off the loaded sword still changes the loaded player's stats.
    press(loaded, KeySym.I, KeySym.C)
    assert lp.equipment.weapon is None
    assert lp.fighter.power == 3

    # And the next floor is the one the unsaved game would have found.
    world.generate_floor()
    loaded.game_world.generate_floor()
    assert loaded.game_world.current_floor == 4
    assert np.array_equal(loaded.game_map.tiles, engine.game_map.tiles)
