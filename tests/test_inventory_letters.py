"""The inventory's letters (issue 25): identical potions and scrolls share one
letter and are listed once with a count; a kind keeps its letter while carried,
through using, dropping, picking up, saving and loading (DCSS's way)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from conftest import arena, give, item_key, key, press, pressing, texts, use
from tcod.event import KeySym

import actions
import entity_factories
import input_handlers
from engine import Engine
from entity import Item
from replays import record_reader, replay
from saving import save_data, savefile


def letters(engine: Engine) -> dict[str, list[str]]:
    """Each letter in use and the names of what it holds."""
    return {letter: [item.name for item in stack] for letter, stack in engine.player.inventory.listing()}


def inventory_lines(engine: Engine) -> list[str]:
    """The inventory screen's item lines, as `i` opens it from the dungeon."""
    screen = press(engine, KeySym.I).top
    assert isinstance(screen, input_handlers.InventoryEventHandler)
    return screen.item_lines()


def carried_names(engine: Engine) -> dict[str, str]:
    """Each letter and the one kind it holds, as a player reads the screen."""
    return {letter: names[0] for letter, names in letters(engine).items()}


def test_identical_potions_are_listed_once_with_a_count() -> None:
    engine = arena()
    for _ in range(3):
        give(engine, entity_factories.health_potion)
    potions = [line for line in inventory_lines(engine) if "Health Potion" in line]
    assert len(potions) == 1 and potions[0].startswith("(c) Health Potion (x3): ")


def test_weapons_and_armour_keep_a_letter_each() -> None:
    engine = arena()
    give(engine, entity_factories.dagger)  # A second dagger beside the one carried.
    assert list(letters(engine).values()).count(["Dagger"]) == 2


def test_letters_stay_put_through_using_dropping_and_picking_up() -> None:
    engine = arena()
    engine.player.fighter.hp = 1
    first = give(engine, entity_factories.health_potion)
    give(engine, entity_factories.health_potion)
    scroll = give(engine, entity_factories.confusion_scroll)
    give(engine, entity_factories.lightning_scroll)
    before = carried_names(engine)
    assert before == {
        "a": "Dagger", "b": "Leather Armor", "c": "Health Potion",
        "d": "Confusion Scroll", "e": "Lightning Scroll",
    }  # fmt: skip

    use(engine, first)  # Drinks one of the two.
    assert carried_names(engine) == before and len(letters(engine)["c"]) == 1

    pressing(press(engine, KeySym.D), key(item_key(engine, scroll)))
    assert "You dropped the Confusion Scroll." in texts(engine)
    assert carried_names(engine) == {k: v for k, v in before.items() if k != "d"}

    # A new kind takes the first free letter; more of a carried kind, its letter.
    player = engine.player
    actions.MovementAction(player, 1, 0).perform()  # Off the dropped scroll.
    fireball = entity_factories.fireball_scroll.spawn(engine.game_map, player.x, player.y)
    actions.PickupAction(player).perform()
    assert engine.player.inventory.letter_of(fireball) == "d"
    potion = entity_factories.health_potion.spawn(engine.game_map, player.x, player.y)
    actions.PickupAction(player).perform()
    assert engine.player.inventory.letter_of(potion) == "c"
    assert carried_names(engine)["e"] == "Lightning Scroll"


def test_a_letter_of_nothing_carried_does_nothing_but_say_so() -> None:
    engine = arena()
    screens = press(engine, KeySym.I)
    screen = screens.top
    turns = engine.turns
    screens.press(key(KeySym.Z))
    assert screens.top is screen
    assert texts(engine)[-1] == "Invalid entry." and engine.turns == turns


def test_a_saved_game_keeps_its_letters_gaps_and_all() -> None:
    engine = arena()
    give(engine, entity_factories.health_potion)
    give(engine, entity_factories.confusion_scroll)
    give(engine, entity_factories.health_potion)
    actions.DropItem(engine.player, engine.player.inventory.stack("a")[0]).perform()  # a is free.
    loaded = save_data.from_data(save_data.to_data(engine))
    assert letters(loaded) == letters(engine)
    assert "a" not in letters(loaded) and letters(loaded)["c"] == ["Health Potion"] * 2


def carried_record(engine: Engine) -> tuple[dict[str, Any], dict[str, Any]]:
    """A game's data, and its player's inventory record in it."""
    data: dict[str, Any] = save_data.to_data(engine)
    return data, data["game_map"]["entities"][data["player"]]["inventory"]


@pytest.mark.parametrize(
    ("letters_saved", "refusal"),
    [
        ("abc", "not one letter a to z for each item"),
        ("abcdd", "not one letter a to z for each item"),
        ("ab?d", "not one letter a to z for each item"),
        ("aacd", "unlike items under one letter"),
        ("abbc", "unlike items under one letter"),
        ("abcd", "like items under two letters"),
    ],
)
def test_letters_the_game_could_not_have_given_are_refused(letters_saved: str, refusal: str) -> None:
    engine = arena()  # a Dagger, b Leather Armor, then two potions under c.
    give(engine, entity_factories.health_potion)
    give(engine, entity_factories.health_potion)
    data, inventory = carried_record(engine)
    assert inventory["kept_letters"] == "abcc"
    inventory["kept_letters"] = letters_saved
    with pytest.raises(savefile.DamagedSaveError, match=refusal):
        save_data.from_data(data)


def test_a_format_5_pack_takes_its_letters_in_the_order_carried() -> None:
    data = savefile.read(Path(__file__).parent / "saves" / "format-5" / "pack.sav", 5)
    assert isinstance(data, dict)
    inventory = data["map"]["entities"][data["player"]]["inventory"]
    by_name = {item["name"]: item for item in inventory["items"]}
    carried = ["Dagger", "Leather Armor", "Health Potion", "Sword", "Health Potion", "Confusion Scroll"]
    inventory["items"] = [copy.deepcopy(by_name[name]) for name in carried]  # As format 5 saved it, potions apart.
    data["map"]["entities"][data["player"]]["equipment"] = {"weapon": None, "armor": None}
    loaded = save_data.from_data(save_data.upgraded(data, 5))
    inventory_letters = loaded.player.inventory.letters
    assert [item.name for item in inventory_letters] == carried
    assert "".join(inventory_letters.values()) == "abcdce"  # Potions share c; the sword has d.
    # The game goes on with the letters its recording was played with, by place.
    assert not loaded.player.inventory.by_kind
    assert list(carried_names(loaded)) == list("abcdef")


def test_a_game_begun_with_the_tutorials_letters_keeps_them(in_tmp: object) -> None:
    """A recording of format 2 was played with a letter per item, by place:
    replayed, its `e` must read what was `e` then, not what `e` is by kind."""
    handler = replay.start(record_reader.Script(seed=1, events=[], version=2))
    engine = handler.engine
    for template in (entity_factories.health_potion, entity_factories.health_potion, entity_factories.confusion_scroll):
        give(engine, template)
    assert carried_names(engine) == {
        "a": "Dagger", "b": "Leather Armor", "c": "Health Potion", "d": "Health Potion", "e": "Confusion Scroll",
    }  # fmt: skip
    assert "(d) Health Potion" in "\n".join(inventory_lines(engine))
    engine.player.fighter.hp = 1
    press(engine, KeySym.I, KeySym.C)  # The first potion: letters move up, as they did.
    assert carried_names(engine)["d"] == "Confusion Scroll" and "e" not in carried_names(engine)
    loaded = save_data.from_data(save_data.to_data(engine))
    assert not loaded.player.inventory.by_kind and carried_names(loaded) == carried_names(engine)



# --- The tutorial's own idioms (part 8): `items` is a plain list -----------------


def tutorial_pickup(engine: Engine, template: Item) -> Item:
    """Part 8's PickupAction, line for line: off the map, into the list."""
    player = engine.player
    item = template.spawn(engine.game_map, player.x, player.y)
    engine.game_map.entities.remove(item)
    item.parent = player.inventory
    player.inventory.items.append(item)
    return item


def test_an_item_appended_as_the_tutorial_picks_up_is_listed_under_a_letter() -> None:
    engine = arena()  # a Dagger, b Leather Armor.
    scroll = tutorial_pickup(engine, entity_factories.confusion_scroll)
    assert engine.player.inventory.letter_of(scroll) == "c"
    assert carried_names(engine) == {"a": "Dagger", "b": "Leather Armor", "c": "Confusion Scroll"}
    assert "(c) Confusion Scroll" in "\n".join(inventory_lines(engine))


def test_an_item_removed_as_the_tutorial_consumes_is_gone_and_other_letters_stay() -> None:
    engine = arena()
    potion = tutorial_pickup(engine, entity_factories.health_potion)
    tutorial_pickup(engine, entity_factories.confusion_scroll)
    tutorial_pickup(engine, entity_factories.lightning_scroll)
    before = carried_names(engine)
    assert before == {"a": "Dagger", "b": "Leather Armor", "c": "Health Potion",
                      "d": "Confusion Scroll", "e": "Lightning Scroll"}  # fmt: skip
    engine.player.inventory.items.remove(potion)  # Part 8's consume.
    assert potion not in engine.player.inventory.items
    assert carried_names(engine) == {k: v for k, v in before.items() if k != "c"}
    # The freed letter is the next new kind's.
    fireball = tutorial_pickup(engine, entity_factories.fireball_scroll)
    assert engine.player.inventory.letter_of(fireball) == "c"


def test_a_second_of_a_kind_appended_shares_its_letter_and_a_stack_of_two_says_x2() -> None:
    engine = arena()
    first = tutorial_pickup(engine, entity_factories.health_potion)
    second = tutorial_pickup(engine, entity_factories.health_potion)
    inventory = engine.player.inventory
    assert inventory.letter_of(first) == inventory.letter_of(second) == "c"
    lines = inventory_lines(engine)
    assert next(line for line in lines if "Health Potion" in line).startswith("(c) Health Potion (x2): ")


def test_a_kind_keeps_its_letter_when_one_of_it_is_used_by_the_tutorials_remove() -> None:
    engine = arena()
    first = tutorial_pickup(engine, entity_factories.health_potion)
    tutorial_pickup(engine, entity_factories.confusion_scroll)
    tutorial_pickup(engine, entity_factories.health_potion)
    assert carried_names(engine)["c"] == "Health Potion"  # As the screen the potion is chosen on shows.
    engine.player.inventory.items.remove(first)
    assert carried_names(engine) == {"a": "Dagger", "b": "Leather Armor", "c": "Health Potion",
                                     "d": "Confusion Scroll"}  # fmt: skip
