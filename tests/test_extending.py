"""The README's "Extending the game" recipes, followed step by step.

Each test adds what its recipe adds (in a fixture, not in the game's files)
and plays it through the real handlers.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
import tcod
from conftest import arena, key, press, screen_rows, texts
from tcod.event import KeySym

import actions
import color
import entity_factories
import exceptions
import input_handlers
import procgen
import setup_game
from components.ai import HostileEnemy
from components.consumable import Consumable
from components.equipment import Equipment
from components.fighter import Fighter
from components.inventory import Inventory
from components.level import Level
from engine import Engine
from entity import Actor, Item

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
    assert texts(engine)[-1] == "Goblin attacks Player for 1 hit points."  # it attacks.
    xp = engine.player.level.current_xp
    while monster.is_alive:
        press(engine, KeySym.RIGHT)
    assert "Goblin is dead!" in texts(engine)
    assert (monster.char, monster.name, monster.blocks_movement) == ("%", "remains of Goblin", False)
    assert engine.player.level.current_xp == xp + 20


# -------------------------------------------------------------------- an item


class StrengthConsumable(Consumable):
    """Step 1: what the item does. (In the game it would live in
    components/consumable.py.)"""

    def __init__(self, amount: int):
        self.amount = amount

    def describe(self) -> str:
        return f"power +{self.amount}"

    def activate(self, action: actions.ItemAction) -> None:
        fighter = action.entity.fighter
        if fighter.base_power >= 10:
            raise exceptions.Impossible("You are as strong as you can get.")
        fighter.base_power += self.amount
        self.engine.message_log.add_message(
            f"You feel stronger: power +{self.amount}.", color.health_recovered
        )
        self.consume()


@pytest.fixture
def strength_potion(monkeypatch: pytest.MonkeyPatch) -> Item:
    """Step 2: the template; step 3: its row in the spawn table, from floor 1 on."""
    potion = Item(
        char="!", color=(255, 127, 0), name="Potion of Strength", consumable=StrengthConsumable(1)
    )
    monkeypatch.setitem(procgen.item_chances, 0, [*procgen.item_chances[0], (potion, 35)])
    return potion


def test_a_new_item_spawns_is_picked_up_shown_and_used(strength_potion: Item) -> None:
    spawned = 0
    for seed in range(10):
        random.seed(seed)
        engine = setup_game.new_game(seed=seed)
        spawned += sum(entity.name == "Potion of Strength" for entity in engine.game_map.entities)
    assert spawned > 0

    engine = arena(20, 15, (5, 5))
    player = engine.player
    strength_potion.spawn(engine.game_map, 5, 5)
    press(engine, KeySym.G)
    assert player.inventory.items[-1].name == "Potion of Strength"
    letter = chr(ord("a") + len(player.inventory.items) - 1)
    shown = screen_rows(press(engine, KeySym.I))
    assert any(f"({letter}) Potion of Strength: power +1" in row for row in shown)

    power = player.fighter.power
    press(engine, KeySym.I).handle_events(key(KeySym(ord(letter))))
    assert player.fighter.power == power + 1
    assert texts(engine)[-1] == "You feel stronger: power +1."
    assert all(item.name != "Potion of Strength" for item in player.inventory.items)


def test_a_new_item_that_cannot_be_used_says_why_and_stays(strength_potion: Item) -> None:
    engine = arena(20, 15, (5, 5))
    player = engine.player
    player.fighter.base_power = 10
    strength_potion.spawn(engine.game_map, 5, 5)
    press(engine, KeySym.G)
    orc = entity_factories.orc.spawn(engine.game_map, 8, 5)
    engine.update_fov()
    letter = chr(ord("a") + len(player.inventory.items) - 1)
    press(engine, KeySym.I).handle_events(key(KeySym(ord(letter))))
    assert texts(engine)[-1] == "You are as strong as you can get."
    assert player.inventory.items[-1].name == "Potion of Strength"
    assert (orc.x, orc.y) == (8, 5)  # No turn passed.


# ------------------------------------------------------------------- a screen


class KillsScreen(input_handlers.AskUserEventHandler):
    """Step 1: what the player has killed, on a window over the game."""

    TITLE = "Kills"

    def on_render(self, console: tcod.console.Console) -> None:
        super().on_render(console)
        kills = self.engine.kills
        lines = [f"{name}: {count}" for name, count in kills.items()] or ["Nothing yet."]
        self.draw_side_window(console, self.TITLE, lines)


class GameWithKillsKey(input_handlers.MainGameEventHandler):
    """Steps 2 and 3, as a test can take them: K opens the screen."""

    def ev_keydown(self, event: tcod.event.KeyDown) -> input_handlers.ActionOrHandler | None:
        if event.sym == KeySym.K:
            return KillsScreen(self.engine)
        return super().ev_keydown(event)


def open_kills(engine: Engine) -> input_handlers.BaseEventHandler:
    screen = GameWithKillsKey(engine).handle_events(key(KeySym.K))
    assert isinstance(screen, KillsScreen)
    return screen


def test_a_new_screen_shows_over_the_game_and_any_key_closes_it_costing_no_turn() -> None:
    engine = arena(20, 15, (5, 5))
    orc = entity_factories.orc.spawn(engine.game_map, 9, 5)
    engine.update_fov()
    rows = screen_rows(open_kills(engine))
    assert any("Kills" in row for row in rows) and any("Nothing yet." in row for row in rows)
    assert "@" in "".join(rows[:15])  # The game is drawn under it.

    closed = open_kills(engine).handle_events(key(KeySym.X))
    assert isinstance(closed, input_handlers.MainGameEventHandler)
    assert (orc.x, orc.y) == (9, 5)  # No turn passed.

    while orc.is_alive:
        orc.fighter.hp = 1
        press(engine, KeySym.RIGHT)
    assert any("Orc: 1" in row for row in screen_rows(open_kills(engine)))
