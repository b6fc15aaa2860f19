"""The recipes of docs/extending.md ("Extending the game", linked from the README), followed
step by step.

Each test adds what its recipe adds (in a fixture, not in the game's files)
and plays it through the real handlers.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest
import tcod
from conftest import (
    arena,
    give,
    in_the_games_module,
    item_key,
    key,
    press,
    screen_rows,
    screens_of,
    texts,
    use,
)
from tcod.event import KeySym
from test_screen_reader import Device

import actions
import components.consumable
import components.equippable
import entity_factories
import exceptions
import input_handlers
import procgen
import setup_game
from components.ai import HostileEnemy
from components.consumable import Consumable
from components.equipment import Equipment
from components.equippable import Sword
from components.fighter import Fighter
from components.inventory import Inventory
from components.level import Level
from engine import Engine
from entity import Actor, Item
from saving import save_data, save_fields, savefile
from saving.save_fields import MAX_NUMBER, Fields, Int
from screens.base import Content, Push
from screens.stack import Screens
from terminal.screen_reader import ScreenReaderFrontEnd
from window import loop

# ------------------------------------------------------------------ a monster


@pytest.fixture
def goblin(monkeypatch: pytest.MonkeyPatch) -> Iterator[Actor]:
    """Step 1: the template; step 2: its row in the spawn table, from floor 1 on."""
    goblin = Actor(
        char="g",
        color=(127, 127, 0),
        name="Goblin",
        ai_cls=HostileEnemy,
        equipment=Equipment(),
        fighter=Fighter(hp=6, base_defense=0, base_power=3),
        inventory=Inventory(capacity=0),
        level=Level(xp_given=20),
    )
    monkeypatch.setitem(procgen.enemy_chances, 0, [*procgen.enemy_chances[0], (goblin, 80)])
    yield goblin


def test_a_new_monster_spawns_hunts_fights_and_dies(goblin: Actor) -> None:
    spawned = 0
    for seed in range(10):
        random.seed(seed)
        engine = setup_game.new_game(seed=seed)
        spawned += sum(entity.name == "Goblin" for entity in engine.game_map.entities)
    assert spawned > 0  # Floors spawn it.

    engine = arena(20, 15, (5, 5))
    monster = goblin.spawn(engine.game_map, 9, 5)
    engine.update_fov()
    press(engine, ".")
    assert (monster.x, monster.y) == (8, 5)  # It hunts the player.
    press(engine, ".")
    press(engine, ".")
    assert (monster.x, monster.y) == (6, 5)  # Next to the player:
    press(engine, ".")
    assert texts(engine)[-1] == "Goblin attacks Player for 1 hit point."  # it attacks (the tutorial said "1 hit points").
    xp = engine.player.level.current_xp
    while monster.is_alive:
        press(engine, KeySym.RIGHT)
    assert "Goblin is dead!" in texts(engine)
    assert (monster.char, monster.name, monster.blocks_movement) == ("%", "remains of Goblin", False)
    assert engine.player.level.current_xp == xp + 20


def test_a_new_monster_is_saved_and_hunts_on_after_loading(goblin: Actor) -> None:
    engine = arena(20, 15, (5, 5))
    goblin.spawn(engine.game_map, 9, 5)
    engine.update_fov()
    press(engine, ".")
    loaded = saved_and_loaded(engine)
    monster = next(actor for actor in loaded.game_map.actors if actor.name == "Goblin")
    assert (monster.x, monster.y, monster.char, monster.fighter.hp) == (8, 5, "g", 6)
    assert isinstance(monster.ai, HostileEnemy) and monster.level.xp_given == 20
    press(loaded, ".")
    assert (monster.x, monster.y) == (7, 5)  # It hunts on.


# -------------------------------------------------------------------- an item


class TeleportConsumable(Consumable):
    """Step 1: what the item does. (In the game it lives in components/consumable.py:
    the `teleport_scroll` fixture puts it there.)"""

    def describe(self) -> str:
        return "teleports you"

    def activate(self, action: actions.ItemAction) -> None:
        consumer = action.entity
        game_map = self.engine.game_map
        spots = [
            (int(x), int(y))
            for x, y in zip(*np.nonzero(game_map.tiles["walkable"]), strict=True)
            if not game_map.get_blocking_entity_at_location(int(x), int(y))
        ]
        if not spots:
            raise exceptions.Impossible("There is nowhere to go.")
        consumer.place(*spots[self.engine.rng.integers(len(spots))])
        self.engine.message_log.add_message("You blink, and find yourself elsewhere.")
        self.consume()


@pytest.fixture
def teleport_scroll(monkeypatch: pytest.MonkeyPatch) -> Item:
    """Step 1's class where the recipe writes it; step 2: the template; step 3:
    its row in the spawn table, from floor 1 on."""
    in_the_games_module(monkeypatch, TeleportConsumable, components.consumable)
    scroll = Item(
        char="~", color=(127, 0, 255), name="Scroll of Teleportation", consumable=TeleportConsumable()
    )
    monkeypatch.setitem(procgen.item_chances, 0, [*procgen.item_chances[0], (scroll, 35)])
    return scroll


def spawned(name: str) -> int:
    """How many entities called `name` the first floors of ten seeds hold."""
    count = 0
    for seed in range(10):
        random.seed(seed)
        engine = setup_game.new_game(seed=seed)
        count += sum(entity.name == name for entity in engine.game_map.entities)
    return count


def saved_and_loaded(engine: Engine) -> Engine:
    """The game as the tutorial saves and loads it (`save_as`, `load_game`)."""
    engine.save_as("savegame.sav")
    return setup_game.load_game("savegame.sav")


def letter_of(engine: Engine, item: Item) -> KeySym:
    return item_key(engine, item)


def test_a_new_item_spawns_is_picked_up_shown_used_and_saved(teleport_scroll: Item) -> None:
    assert spawned("Scroll of Teleportation") > 0

    engine = arena(20, 15, (5, 5))
    player = engine.player
    teleport_scroll.spawn(engine.game_map, 5, 5)
    teleport_scroll.spawn(engine.game_map, 7, 7)  # One left on the floor.
    press(engine, KeySym.G)
    scroll = player.inventory.items[-1]
    assert scroll.name == "Scroll of Teleportation"
    shown = screen_rows(press(engine, KeySym.I))
    letter = chr(letter_of(engine, scroll))
    assert any(f"({letter}) Scroll of Teleportation: teleports you" in row for row in shown)

    loaded = saved_and_loaded(engine)  # Carried and on the floor.
    carried = loaded.player.inventory.items[-1]
    assert carried.name == "Scroll of Teleportation"
    assert isinstance(carried.consumable, TeleportConsumable)
    on_floor = [e for e in loaded.game_map.items if e.name == "Scroll of Teleportation"]
    assert [(e.x, e.y) for e in on_floor] == [(7, 7)]

    use(loaded, carried)
    assert (loaded.player.x, loaded.player.y) != (5, 5)
    assert "You blink, and find yourself elsewhere." in texts(loaded)
    assert carried not in loaded.player.inventory.items


def test_a_new_item_that_cannot_be_used_says_why_and_stays(teleport_scroll: Item) -> None:
    engine = arena(20, 15, (5, 5))
    player = engine.player
    teleport_scroll.spawn(engine.game_map, 5, 5)
    press(engine, KeySym.G)
    scroll = player.inventory.items[-1]
    orc = entity_factories.orc.spawn(engine.game_map, 6, 5)
    engine.game_map.tiles["walkable"][...] = False
    engine.game_map.tiles["walkable"][5:7, 5] = True  # The player's tile and the orc's.
    hp = player.fighter.hp
    use(engine, scroll)
    assert texts(engine)[-1] == "There is nowhere to go."
    assert scroll in player.inventory.items
    assert player.fighter.hp == hp and orc.is_alive  # No turn passed: the orc did not attack.


# ------------------------------------------------------- a piece of equipment


class Rapier(Sword):
    """Step 1: a kind of sword, lighter: it parries. (In the game it lives in
    components/equippable.py: the `rapier` fixture puts it there.)"""

    def __init__(self) -> None:
        super().__init__()
        self.power_bonus = 3
        self.defense_bonus = 1


@pytest.fixture
def rapier(monkeypatch: pytest.MonkeyPatch) -> Item:
    """Step 1's class where the recipe writes it; step 2: the template; step 3:
    its row in the spawn table, from floor 1 on."""
    in_the_games_module(monkeypatch, Rapier, components.equippable)
    rapier = Item(char="/", color=(192, 192, 192), name="Rapier", equippable=Rapier())
    monkeypatch.setitem(procgen.item_chances, 0, [*procgen.item_chances[0], (rapier, 35)])
    return rapier


def test_a_new_piece_of_equipment_spawns_is_worn_and_saved_worn(rapier: Item) -> None:
    assert spawned("Rapier") > 0

    engine = arena(20, 15, (5, 5))
    player = engine.player
    base_power, base_defense = player.fighter.base_power, player.fighter.base_defense
    armor = player.equipment.armor
    rapier.spawn(engine.game_map, 5, 5)
    press(engine, KeySym.G)
    worn = player.inventory.items[-1]
    use(engine, worn)
    assert player.equipment.weapon is worn  # In the weapon slot, the dagger taken off.
    armor_defense = 0 if armor is None or armor.equippable is None else armor.equippable.defense_bonus
    assert player.fighter.power == base_power + 3
    assert player.fighter.defense == base_defense + armor_defense + 1

    loaded = saved_and_loaded(engine)
    weapon = loaded.player.equipment.weapon
    assert weapon is not None and weapon.name == "Rapier"
    assert isinstance(weapon.equippable, Rapier)
    assert loaded.player.fighter.power == base_power + 3
    assert loaded.player.fighter.defense == base_defense + armor_defense + 1


# ---------------------------------------------------------- a new saved field


class WandOfTeleportation(TeleportConsumable):
    """A component with a field: set in its constructor, and declared once in
    its class's `saved_fields`, with a default for the older saves."""

    saved_fields: ClassVar[Fields] = {"charges": Int(0, MAX_NUMBER, default=3)}

    def __init__(self, charges: int = 3):
        self.charges = charges

    def describe(self) -> str:
        return f"teleports you, {self.charges} charges"

    def consume(self) -> None:
        self.charges -= 1
        if self.charges == 0:
            super().consume()


@pytest.fixture
def wand(monkeypatch: pytest.MonkeyPatch, teleport_scroll: Item) -> Item:
    in_the_games_module(monkeypatch, WandOfTeleportation, components.consumable)
    return Item(char="-", color=(127, 0, 255), name="Wand of Teleportation", consumable=WandOfTeleportation())


def test_a_new_saved_field_is_kept_checked_and_named(wand: Item) -> None:
    engine = arena(20, 15, (5, 5))
    wand.spawn(engine.game_map, 5, 5)
    press(engine, KeySym.G)
    carried = engine.player.inventory.items[-1]
    use(engine, carried)
    assert isinstance(carried.consumable, WandOfTeleportation) and carried.consumable.charges == 2

    loaded = saved_and_loaded(engine).player.inventory.items[-1].consumable
    assert isinstance(loaded, WandOfTeleportation) and loaded.charges == 2

    carried.consumable.charges = -1  # Nonsense a bug could make: not saved, and named.
    with pytest.raises(savefile.UnsaveableGameError) as raised:
        engine.save_as("savegame.sav")
    assert "the charges of the consumable of entry" in str(raised.value)


def test_a_save_made_before_a_new_field_loads_with_its_default(wand: Item) -> None:
    engine = arena(20, 15, (5, 5))
    give(engine, wand)
    data = save_data.to_data(engine)
    player = data["game_map"]["entities"][data["player"]]  # type: ignore[index]
    del player["inventory"]["items"][-1]["consumable"]["charges"]  # As a save made before it.
    loaded = save_data.from_data(data).player.inventory.items[-1].consumable
    assert isinstance(loaded, WandOfTeleportation) and loaded.charges == 3


# ---------------------------------- a new saved field of a Level (docs/extending.md's recipe)


# Named, not written `level.kills`: the test still type-checks once a reader adds the field.
KILLS = "kills"


@pytest.fixture
def counting_level(monkeypatch: pytest.MonkeyPatch) -> None:
    """The recipe's first step: `self.kills = 0` in `Level.__init__`."""
    constructor = Level.__init__

    def init(self: Level, *args: object, **kwargs: object) -> None:
        constructor(self, *args, **kwargs)  # type: ignore[arg-type]
        setattr(self, KILLS, 0)

    monkeypatch.setattr(Level, "__init__", init)
    for template in vars(entity_factories).values():  # Made before: as the edited constructor makes them.
        if isinstance(template, Actor):
            monkeypatch.setattr(template.level, "kills", 0, raising=False)


def test_a_new_field_of_a_level_declared_once_is_saved_and_loaded(
    counting_level: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second step, its one line: `"kills": Int(0, MAX_STAT, default=0)` in `Level.saved_fields`."""
    page = (Path(__file__).parent.parent / "docs" / "extending.md").read_text(encoding="utf-8")
    recipe = page[page.index("**A new saved field**") : page.index("**A rule left to chance**")]
    assert "`self.kills = 0`" in recipe and '`"kills": Int(0, MAX_STAT, default=0)`' in recipe
    assert "components/level.py" in recipe and "saved_fields" in recipe
    monkeypatch.setitem(Level.saved_fields, "kills", Int(0, save_fields.MAX_STAT, default=0))
    engine = setup_game.new_game(seed=1)
    setattr(engine.player.level, KILLS, 7)
    loaded = saved_and_loaded(engine)
    assert getattr(loaded.player.level, KILLS) == 7
    data = save_data.to_data(engine)
    del data["game_map"]["entities"][data["player"]]["level"]["kills"]  # type: ignore[index]  # A save made before.
    assert getattr(save_data.from_data(data).player.level, KILLS) == 0


def test_a_new_field_of_a_level_not_declared_is_named_not_dropped(
    counting_level: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from test_savefile import undeclared_fields

    monkeypatch.delitem(Level.saved_fields, KILLS, raising=False)  # Forgotten, even once declared.
    engine = setup_game.new_game(seed=1)
    assert undeclared_fields(engine) == {"Level.kills"}
    with pytest.raises(save_fields.UndeclaredFieldError, match=r"Level\.kills is neither saved nor declared"):
        engine.save_as("savegame.sav")


# ------------------------------------------------------------------- a screen


class KillsScreen(input_handlers.AskUserEventHandler):
    """Step 1: what the player has killed, declared once: the window draws it beside
    the map, the screen reader reads it."""

    TITLE = "Kills"

    def content(self) -> Content:
        kills = self.engine.kills
        lines = [f"{name}: {count}" for name, count in kills.items()] or ["Nothing yet."]
        return Content(self.TITLE, lines)


class GameWithKillsKey(input_handlers.MainGameEventHandler):
    """Steps 2 and 3, as a test can take them: K opens the screen."""

    def ev_keydown(self, event: tcod.event.KeyDown) -> input_handlers.ActionOrHandler | None:
        if event.sym == KeySym.K:
            return Push(KillsScreen(self.engine))
        return super().ev_keydown(event)


def open_kills(engine: Engine) -> Screens:
    """The game with the K key, over the menu; K pressed: the screen over the game."""
    screens = screens_of(GameWithKillsKey(engine))
    game = screens.top
    screens.press(key(KeySym.K))
    assert isinstance(screens.top, KillsScreen) and screens.stack[-2] is game
    return screens


def test_a_new_screen_shows_over_the_game_and_any_key_closes_it_costing_no_turn() -> None:
    engine = arena(20, 15, (5, 5))
    orc = entity_factories.orc.spawn(engine.game_map, 9, 5)
    engine.update_fov()
    rows = screen_rows(open_kills(engine))
    assert any("Kills" in row for row in rows) and any("Nothing yet." in row for row in rows)
    assert "@" in "".join(rows[:15])  # The game is drawn under it.

    screens = open_kills(engine)
    screens.press(key(KeySym.X))
    assert isinstance(screens.top, input_handlers.MainGameEventHandler) and len(screens.stack) == 2
    assert (orc.x, orc.y) == (9, 5)  # No turn passed.

    while orc.is_alive:
        orc.fighter.hp = 1
        press(engine, KeySym.RIGHT)
    assert any("Orc: 1" in row for row in screen_rows(open_kills(engine)))


def test_a_new_screen_reads_aloud_in_the_screen_reader_with_no_other_edit() -> None:
    """Played through the real main loop and the `--screen-reader` front end: the
    screen's title and lines are spoken when it opens, and closing it says nothing of it."""
    engine = arena(20, 15, (5, 5))
    device = Device()
    front = ScreenReaderFrontEnd(device)
    batches: Iterator[list[tcod.event.Event]] = iter([[key(KeySym.K)], [key(KeySym.X)], [tcod.event.Quit()]])
    console = tcod.console.Console(80, 50, order="F")
    loop.main_loop(front, console, screens_of(GameWithKillsKey(engine)), events=lambda *_: next(batches))
    spoken = [line.rstrip("\r") for line in device.written.decode().split("\r\n")]
    opened = spoken.index("Kills")
    assert spoken[opened + 1] == "Nothing yet."
    assert "Kills" not in spoken[opened + 1 :]  # Closed: nothing of it is said again.
