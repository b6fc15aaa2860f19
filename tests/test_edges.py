"""Boundaries, each tested on both sides: the cases that went unnoticed before."""

from __future__ import annotations

import random

import numpy as np
import pytest
import tcod
from conftest import arena, click, give, key, press, pressing, texts, use
from tcod.event import KeySym

import color
import entity_factories
import procgen
import tile_types
from actions import MeleeAction
from components.ai import ConfusedEnemy, HostileEnemy
from engine import Engine
from game_map import GameMap
from message_log import MessageLog
from procgen import RectangularRoom


def color_of(engine: Engine, text: str) -> tuple[int, int, int]:
    """The colour of the last message that holds `text`."""
    found = [m.fg for m in engine.message_log.messages if text in m.full_text]
    assert found, (text, texts(engine))
    return found[-1]


# ------------------------------------------------------------------- items


@pytest.mark.parametrize("closer_first", [True, False])
def test_lightning_strikes_the_closer_enemy_whichever_was_spawned_first(closer_first: bool) -> None:
    engine = arena()
    spots = {"near": (7, 5), "far": (5, 9)}  # 2 and 4 tiles from the player.
    order = ["near", "far"] if closer_first else ["far", "near"]
    monsters = {name: entity_factories.orc.spawn(engine.game_map, *spots[name]) for name in order}
    engine.player.inventory.items.clear()
    use(engine, give(engine, entity_factories.lightning_scroll))
    assert not monsters["near"].is_alive
    assert monsters["far"].fighter.hp == monsters["far"].fighter.max_hp


@pytest.mark.parametrize(("missing", "recovered"), [(1, 1), (4, 4), (5, 4)])
def test_a_potion_heals_what_is_missing_up_to_its_amount(missing: int, recovered: int) -> None:
    engine = arena()
    fighter = engine.player.fighter
    fighter.hp = fighter.max_hp - missing
    engine.player.inventory.items.clear()
    potion = give(engine, entity_factories.health_potion)
    use(engine, potion)
    assert fighter.hp == fighter.max_hp - missing + recovered
    assert texts(engine)[-1] == f"You consume the Health Potion, and recover {recovered} HP!"
    assert potion not in engine.player.inventory.items


def test_a_potion_at_full_health_is_refused_and_kept() -> None:
    engine = arena()
    engine.player.inventory.items.clear()
    potion = give(engine, entity_factories.health_potion)
    use(engine, potion)
    assert texts(engine)[-1] == "Your health is already full."
    assert potion in engine.player.inventory.items


# --------------------------------------------------------------- messages


@pytest.mark.parametrize(
    ("repeats", "shown"), [(1, "Hit."), (2, "Hit. (x2)"), (3, "Hit. (x3)")]
)
def test_a_repeat_count_shows_from_the_second_time_on(repeats: int, shown: str) -> None:
    log = MessageLog()
    for _ in range(repeats):
        log.add_message("Hit.")
    assert [message.full_text for message in log.messages] == [shown]


def test_attack_death_and_status_messages_have_their_colours() -> None:
    engine = arena()
    player = engine.player
    orc = entity_factories.orc.spawn(engine.game_map, 6, 5)
    MeleeAction(orc, -1, 0).perform()
    assert color_of(engine, "Orc attacks Player") == color.enemy_atk
    while orc.is_alive:
        MeleeAction(player, 1, 0).perform()
    assert color_of(engine, "Player attacks Orc") == color.player_atk
    assert color_of(engine, "Orc is dead!") == color.enemy_die

    troll = entity_factories.troll.spawn(engine.game_map, 5, 6)
    engine.player.inventory.items.clear()
    give(engine, entity_factories.confusion_scroll)
    pressing(press(engine, KeySym.I), key(KeySym.A), click(5, 6))
    assert isinstance(troll.ai, ConfusedEnemy)
    assert color_of(engine, "look vacant") == color.status_effect_applied

    player.fighter.hp = 1
    killer = entity_factories.orc.spawn(engine.game_map, 4, 4)
    MeleeAction(killer, 1, 1).perform()
    assert color_of(engine, "You died!") == color.player_die


# -------------------------------------------------------------------- map


def test_in_bounds_at_every_edge() -> None:
    game_map = GameMap(None, 7, 4)  # type: ignore[arg-type]  # No engine needed.
    for x, y in [(0, 0), (6, 0), (0, 3), (6, 3), (3, 0), (3, 3), (0, 2), (6, 2)]:
        assert game_map.in_bounds(x, y), (x, y)
    for x, y in [(-1, 0), (7, 0), (0, -1), (0, 4), (-1, -1), (7, 4), (3, -1), (3, 4), (-1, 2), (7, 2)]:
        assert not game_map.in_bounds(x, y), (x, y)


def test_engine_render_draws_the_maps_tiles_lit_remembered_or_shrouded() -> None:
    engine = arena(20, 15, (5, 5))
    game_map = engine.game_map
    game_map.tiles[8, 5] = tile_types.down_stairs
    game_map.explored[15, 10] = True  # Remembered floor, out of sight.
    console = tcod.console.Console(80, 50, order="F")
    console.rgb["bg"] = (1, 2, 3)  # Anything the map leaves untouched shows.
    engine.render(console)
    drawn = console.rgb[: game_map.width, : game_map.height]
    expected = np.select(
        [game_map.visible, game_map.explored],
        [game_map.tiles["light"], game_map.tiles["dark"]],
        tile_types.SHROUD,
    )
    assert (drawn["bg"] == expected["bg"]).all()
    assert chr(drawn["ch"][8, 5]) == ">" and chr(drawn["ch"][5, 5]) == "@"
    assert game_map.visible[8, 5] and not game_map.visible[15, 10]
    assert tuple(drawn["bg"][15, 10]) == tuple(tile_types.floor["dark"]["bg"])
    assert not game_map.explored[18, 13]
    assert tuple(drawn["bg"][18, 13]) == tuple(tile_types.SHROUD["bg"])


# --------------------------------------------------------------- monsters


def test_a_confused_monster_moves_exactly_one_step_a_turn() -> None:
    engine = arena(40, 30, (20, 15))
    # Nine tiles from the wall and ten from the player: in 8 turns it reaches neither.
    orc = entity_factories.orc.spawn(engine.game_map, 10, 15)
    orc.ai = ConfusedEnemy(orc, previous_ai=orc.ai, turns_remaining=8)
    for _ in range(8):
        x, y = orc.x, orc.y
        engine.handle_enemy_turns()
        assert max(abs(orc.x - x), abs(orc.y - y)) == 1


def test_a_broken_path_is_dropped_at_once_and_the_monster_waits() -> None:
    engine = arena(30, 15, (5, 5))
    orc = entity_factories.orc.spawn(engine.game_map, 12, 5)
    assert isinstance(orc.ai, HostileEnemy)
    engine.game_map.visible[:] = False  # Out of sight: it follows its path.
    orc.ai.path = [(11, 5), (10, 5)]  # Next to it: followed.
    engine.handle_enemy_turns()
    assert (orc.x, orc.y) == (11, 5) and orc.ai.path == [(10, 5)]
    orc.ai.path = [(9, 5), (8, 5)]  # Two tiles away: broken.
    engine.handle_enemy_turns()
    assert (orc.x, orc.y) == (11, 5) and orc.ai.path == []


# ---------------------------------------------------------------- spawning


def test_nothing_spawns_on_an_occupied_tile() -> None:
    """A room of one inner tile: whatever is drawn for it lands there, but only
    the first fits; on a tile the player holds, nothing."""
    engine = arena()
    for seed in range(200):
        dungeon = GameMap(engine, 10, 10)
        room = RectangularRoom(2, 2, 2, 2)  # Inner tile (3, 3) alone.
        procgen.place_entities(room, dungeon, 6, random.Random(seed))
        assert len(dungeon.entities) <= 1
    for seed in range(200):
        dungeon = GameMap(engine, 10, 10)
        engine.player.place(3, 3, dungeon)
        procgen.place_entities(RectangularRoom(2, 2, 2, 2), dungeon, 6, random.Random(seed))
        assert list(dungeon.entities) == [engine.player]


def test_something_spawns_on_a_free_tile() -> None:
    engine = arena()
    placed = 0
    for seed in range(50):
        dungeon = GameMap(engine, 10, 10)
        procgen.place_entities(RectangularRoom(2, 2, 2, 2), dungeon, 6, random.Random(seed))
        placed += len(dungeon.entities)
    # On floor 6 a room draws no monster one time in 6, no item one in 3:
    # something 17 times in 18, and the first thing drawn always fits.
    assert placed >= 40

