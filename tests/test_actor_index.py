"""The map's index of entities by position (`EntitySet.at`) says what stands
where, as looking at every entity would, after every way an entity comes,
goes or moves: steps, deaths, spawns, pick-ups and drops, descents, a load."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from conftest import arena, screens_of

import entity_factories
import setup_game
from actions import DropItem, PickupAction
from engine import Engine
from entity import Actor, Entity
from game_map import GameMap
from replays import record_reader, replay, replay_lines

RECORDINGS = Path(__file__).parent / "recordings"


def looked_up(game_map: GameMap) -> dict[tuple[int, int], list[Entity]]:
    """What stands on each tile, found by looking at every entity (the tutorial's way)."""
    found: dict[tuple[int, int], list[Entity]] = defaultdict(list)
    for entity in game_map.entities:
        found[entity.x, entity.y].append(entity)
    return found


def assert_filed_rightly(game_map: GameMap) -> None:
    found = looked_up(game_map)
    for x in range(game_map.width):
        for y in range(game_map.height):
            here = found.get((x, y), [])
            assert sorted(map(id, game_map.entities.at(x, y))) == sorted(map(id, here)), (x, y)
            blocking = [entity for entity in here if entity.blocks_movement]
            assert game_map.get_blocking_entity_at_location(x, y) is (blocking[0] if blocking else None)
            living = [entity for entity in here if isinstance(entity, Actor) and entity.is_alive]
            assert game_map.get_actor_at_location(x, y) is (living[0] if living else None)


def test_a_played_game_keeps_its_index_right_through_steps_deaths_and_descents() -> None:
    script = record_reader.parse((RECORDINGS / "descent.rec").read_text(), "descent.rec")
    screens = screens_of(replay.start(script))
    engine = screens.engine
    assert engine is not None
    floors, kills = set(), 0
    for event in script.events:
        replay_lines.replay_line(screens, event)
        engine = screens.engine
        assert engine is not None
        assert_filed_rightly(engine.game_map)
        floors.add(engine.game_world.current_floor)
        kills = sum(engine.kills.values())
    assert floors == {1, 2, 3} and kills >= 5  # Descents and deaths were checked.


def test_a_step_moves_the_actor_in_the_index() -> None:
    engine = arena()
    orc = entity_factories.orc.spawn(engine.game_map, 7, 5)
    assert engine.game_map.get_actor_at_location(7, 5) is orc
    orc.move(1, 0)
    assert engine.game_map.get_actor_at_location(7, 5) is None
    assert engine.game_map.get_blocking_entity_at_location(8, 5) is orc
    assert_filed_rightly(engine.game_map)


def test_the_dead_block_nothing_and_are_no_actor_but_stay_filed() -> None:
    engine = arena()
    orc = entity_factories.orc.spawn(engine.game_map, 6, 5)
    orc.fighter.take_damage(orc.fighter.hp)
    assert engine.game_map.get_actor_at_location(6, 5) is None
    assert engine.game_map.get_blocking_entity_at_location(6, 5) is None
    assert list(engine.game_map.entities.at(6, 5)) == [orc]
    assert_filed_rightly(engine.game_map)


def test_items_picked_up_leave_the_index_and_dropped_come_back_where_dropped() -> None:
    engine = arena()
    potion = entity_factories.health_potion.spawn(engine.game_map, 5, 5)
    PickupAction(engine.player).perform()
    assert potion not in engine.game_map.entities.at(5, 5)
    assert_filed_rightly(engine.game_map)
    engine.player.move(2, 1)
    DropItem(engine.player, potion).perform()
    assert list(engine.game_map.entities.at(7, 6)) == [engine.player, potion]
    assert_filed_rightly(engine.game_map)


def test_a_move_keeps_the_order_monsters_act_in() -> None:
    engine = arena()
    first = entity_factories.orc.spawn(engine.game_map, 8, 8)
    second = entity_factories.troll.spawn(engine.game_map, 10, 10)
    first.move(1, 1)
    first.place(3, 3, engine.game_map)
    assert list(engine.game_map.actors) == [engine.player, first, second]


def test_a_loaded_game_has_its_index(in_tmp: Path) -> None:
    engine = setup_game.new_game(seed=1234)
    engine.save_as("game.sav")
    loaded = setup_game.load_game("game.sav")
    assert isinstance(loaded, Engine)
    assert len(loaded.game_map.entities) > 1
    assert_filed_rightly(loaded.game_map)
