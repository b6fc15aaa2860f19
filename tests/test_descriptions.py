"""What the player is told: names under the mouse and the look cursor, the look
window (Enter in look mode), and the inventory's lines.

Expected texts are made from each template's own numbers, so a new monster or
item breaks none of these tests.
"""

from __future__ import annotations

import conftest
import pytest
import tcod
from conftest import give, key, motion, press, pressing, use
from tcod.event import KeySym

import entity_factories
import input_handlers
from components.ai import ConfusedEnemy
from engine import Engine
from entity import Actor, Item
from words import descriptions

PLAYER = (5, 5)
SPOT = (7, 5)  # In view, two tiles east of the player.

MONSTERS = [value for value in vars(entity_factories).values() if isinstance(value, Actor) and value.name != "Player"]
ITEMS = [value for value in vars(entity_factories).values() if isinstance(value, Item)]


def arena() -> Engine:
    engine = conftest.arena(20, 15, PLAYER)
    engine.mouse_location = (0, 0)
    return engine


def hover_text(engine: Engine, x: int, y: int) -> str:
    """The line under the map after the mouse moves onto (x, y)."""
    pressing(conftest.dungeon(engine), motion(x, y))
    console = tcod.console.Console(80, 50, order="F")
    engine.render(console)
    return "".join(map(chr, console.rgb["ch"][21:, 44])).rstrip()


def look_window(engine: Engine, x: int, y: int) -> list[str]:
    """Look mode (`/`), the cursor moved onto (x, y), Enter: the window's rows."""
    screens = press(engine, "/")
    assert isinstance(screens.top, input_handlers.LookHandler)
    engine.mouse_location = (x, y)
    screens.press(key(KeySym.RETURN))
    assert isinstance(screens.top, input_handlers.LookDescription)
    console = tcod.console.Console(80, 50, order="F")
    screens.draw(console)
    rows = ["".join(map(chr, console.rgb["ch"][:, row])) for row in range(50)]
    rows = rows[next(y for y, row in enumerate(rows) if "┌" in row) :]  # From the window's top edge.
    left = rows[0].index("┌")
    right = rows[0].index("┐", left)
    inside: list[str] = []
    for row in rows[1:]:
        if row[left] == "└":
            return [rows[0][left : right + 1], *inside]
        assert (row[left], row[right]) == ("│", "│"), f"text over the frame: {row!r}"
        inside.append(row[left + 1 : right].rstrip())
    raise AssertionError("the window has no bottom edge")


@pytest.mark.parametrize("template", MONSTERS, ids=lambda m: m.name)
def test_a_healthy_monster(template: Actor) -> None:
    engine = arena()
    monster = template.spawn(engine.game_map, *SPOT)
    assert hover_text(engine, *SPOT) == f"{monster.name}, uninjured"
    window = look_window(engine, *SPOT)
    # The title names the monster (it said "Floor", the ground under it).
    assert window[0].strip("┌┐─") == f" {monster.name} "
    assert window[1] == "Uninjured."
    assert f"Attack {monster.fighter.power}, defense {monster.fighter.defense}." in window
    player = engine.player.fighter
    hits_you = max(0, monster.fighter.power - player.defense)
    you_hit = max(0, player.power - monster.fighter.defense)
    assert f"Hits you for {hits_you}; you hit it for {you_hit}." in window


@pytest.mark.parametrize(
    ("share", "words"),
    [(0.9, "lightly wounded"), (0.6, "wounded"), (0.3, "badly wounded"), (0.1, "almost dead")],
)
@pytest.mark.parametrize("template", MONSTERS, ids=lambda m: m.name)
def test_a_wounded_monster(template: Actor, share: float, words: str) -> None:
    engine = arena()
    monster = template.spawn(engine.game_map, *SPOT)
    fighter = monster.fighter
    fighter.hp = max(1, round(fighter.max_hp * share))
    assert descriptions.health_words(fighter) == words
    assert hover_text(engine, *SPOT) == f"{monster.name}, {words}"
    assert f"{words.capitalize()}." in look_window(engine, *SPOT)


def test_a_confused_monster_counts_its_turns_down() -> None:
    engine = arena()
    orc = entity_factories.orc.spawn(engine.game_map, *SPOT)
    scroll = give(engine, entity_factories.confusion_scroll)
    turns = scroll.consumable.number_of_turns  # type: ignore[union-attr]
    aiming = use(engine, scroll)
    assert isinstance(aiming.top, input_handlers.SingleRangedAttackHandler)
    assert engine.mouse_location == SPOT  # Aimed at the orc already.
    aiming.press(key(KeySym.RETURN))  # Confused: the orc's turn came already.
    left = orc.ai.turns_remaining  # type: ignore[union-attr]
    assert left in (turns, turns - 1)
    health = descriptions.health_words(orc.fighter)
    assert hover_text(engine, orc.x, orc.y) == f"Orc, {health} (confused, {left} turns)"
    assert f"Confused, {left} turns." in look_window(engine, orc.x, orc.y)
    press(engine, ".")  # Wait a turn.
    assert hover_text(engine, orc.x, orc.y) == f"Orc, {descriptions.health_words(orc.fighter)} (confused, {left - 1} turns)"


@pytest.mark.parametrize("template", ITEMS, ids=lambda i: i.name)
def test_an_item_says_what_it_does_from_its_own_numbers(template: Item) -> None:
    engine = arena()
    item = template.spawn(engine.game_map, *SPOT)
    effect = descriptions.item_effect(item)
    component = item.consumable or item.equippable
    assert component is not None
    numbers = [value for value in vars(component).values() if type(value) is int and value]
    assert effect and all(str(abs(number)) in effect for number in numbers), effect  # Some have none.
    assert hover_text(engine, *SPOT) == f"{item.name}: {effect}"
    window = look_window(engine, *SPOT)
    assert window[0].strip("┌┐─") == f" {item.name} "
    assert window[1] == f"{effect[0].upper()}{effect[1:]}."


def test_equipment_says_what_it_adds() -> None:
    sword = entity_factories.sword
    assert sword.equippable is not None
    assert descriptions.item_effect(sword) == f"+{sword.equippable.power_bonus} power"
    armor = entity_factories.chain_mail
    assert armor.equippable is not None
    assert descriptions.item_effect(armor) == f"+{armor.equippable.defense_bonus} defense"


def test_the_stairs_and_what_lies_on_them() -> None:
    engine = arena()
    conftest.place_stairs(engine, *SPOT)
    assert hover_text(engine, *SPOT) == "Stairs down"
    window = look_window(engine, *SPOT)
    assert window[0].strip("┌┐─") == " Stairs down "
    assert window[1] == f"Stairs down to floor {engine.game_world.current_floor + 1}."
    potion = entity_factories.health_potion.spawn(engine.game_map, *SPOT)
    assert hover_text(engine, *SPOT) == f"{potion.name}: {descriptions.item_effect(potion)}; stairs down"


def test_the_monster_on_top_comes_first_and_corpses_have_no_health() -> None:
    engine = arena()
    potion = entity_factories.health_potion.spawn(engine.game_map, *SPOT)
    dead = entity_factories.troll.spawn(engine.game_map, *SPOT)
    dead.fighter.take_damage(dead.fighter.max_hp)
    orc = entity_factories.orc.spawn(engine.game_map, *SPOT)
    assert hover_text(engine, *SPOT) == (
        f"{orc.name}, uninjured; {potion.name}: {descriptions.item_effect(potion)}; remains of Troll"
    )
    # The look window is titled by the top one; the others follow, each named.
    window = look_window(engine, *SPOT)
    assert window[0].strip("┌┐─") == f" {orc.name} "
    assert window[1] == "Uninjured."
    effect = descriptions.item_effect(potion)
    assert window[-3:] == [potion.name, f"  {effect[0].upper()}{effect[1:]}.", "Remains of Troll"]


def test_tiles_out_of_sight_name_nothing_and_the_window_says_why() -> None:
    engine = arena()
    engine.game_map.tiles[10, :] = engine.game_map.tiles[0, 0]  # A wall across the room.
    entity_factories.orc.spawn(engine.game_map, 12, 5)
    engine.game_map.explored[:] = False
    engine.update_fov()
    assert hover_text(engine, 12, 5) == ""
    assert look_window(engine, 12, 5)[1] == "You have not seen this place."
    engine.game_map.explored[12, 5] = True  # Seen before: the orc may have gone.
    assert look_window(engine, 12, 5)[1:] == ["Out of sight: you remember the ground only."]
    assert look_window(engine, 3, 3)[1] == "Nothing here."


def test_the_inventory_says_what_each_item_does_and_what_is_worn() -> None:
    engine = arena()
    carried = [give(engine, template) for template in ITEMS]
    worn = set(engine.player.equipment._worn())
    for sym in (KeySym.I, KeySym.D):
        screens = press(engine, sym)
        assert isinstance(screens.top, input_handlers.InventoryEventHandler)
        console = tcod.console.Console(80, 50, order="F")
        screens.draw(console)
        text = str(console)
        for item in engine.player.inventory.items:
            mark = " (E)" if item in worn else ""
            letter = engine.player.inventory.letter_of(item)
            line = f"({letter}) {item.name}{mark}: {descriptions.item_effect(item)}"
            assert line in text
        assert len(engine.player.inventory.items) == 2 + len(carried)


def test_a_confusion_on_its_last_turn_is_wearing_off() -> None:
    """Not "confused, 0 turns": the monster's next turn is spent recovering."""
    engine = arena()
    orc = entity_factories.orc.spawn(engine.game_map, *SPOT)
    orc.ai = ConfusedEnemy(orc, orc.ai, turns_remaining=1)
    assert hover_text(engine, orc.x, orc.y).endswith("(confused, 1 turn)")
    orc.ai.perform()
    assert hover_text(engine, orc.x, orc.y).endswith("(confused, wearing off)")
    orc.ai.perform()
    assert "confused" not in hover_text(engine, orc.x, orc.y)


def test_looking_at_yourself_gives_your_hp_and_no_fight_with_yourself() -> None:
    engine = arena()
    fighter = engine.player.fighter
    fighter.hp = fighter.max_hp - 3
    window = look_window(engine, *PLAYER)
    assert f"HP {fighter.hp} of {fighter.max_hp}." in window
    assert f"Attack {fighter.power}, defense {fighter.defense}." in window
    assert not any(line.startswith("Hits you for") for line in window)
