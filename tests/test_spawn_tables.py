"""Part 12 (and 13's additions): what each floor holds, and how much of it.

These tests check what the tables mean, not what rows they hold: adding a
monster or an item to `entity_factories` and the tables breaks none of them.
A table maps a floor number to (kind, weight) rows that hold from that floor
down; a later row for the same kind replaces its weight.
"""

from __future__ import annotations

import collections
import random

import pytest

import entity_factories as ef
import game_map
import procgen
import setup_game
from entity import Actor, Entity, Item
from game_map import GameMap, GameWorld
from procgen import (
    RectangularRoom,
    enemy_chances,
    get_entities_at_random,
    get_max_value_for_floor,
    item_chances,
    max_items_by_floor,
    max_monsters_by_floor,
)

Table = dict[int, list[tuple[Entity, int]]]
TABLES = {"monsters": enemy_chances, "items": item_chances}
# Every floor where some table changes, the one after it, and one far down.
FLOORS = sorted(
    {1, 50}
    | {max(1, key) + step for table in TABLES.values() for key in table for step in (0, 1)}
    | {floor for floor, _ in max_items_by_floor + max_monsters_by_floor}
)


def first_floor(table: Table, kind: Entity) -> int:
    """The first floor where the table lists `kind` (floor 0 is floor 1)."""
    return max(1, min(key for key, rows in table.items() for entity, _ in rows if entity is kind))


def weight_on(table: Table, kind: Entity, floor: int) -> int:
    """The weight of `kind` on `floor`: that of its deepest row at or above it."""
    rows = [
        (key, weight)
        for key, entries in table.items()
        for entity, weight in entries
        if entity is kind and key <= floor
    ]
    return max(rows, key=lambda row: row[0])[1] if rows else 0


def kinds(table: Table) -> list[Entity]:
    return list(dict.fromkeys(entity for rows in table.values() for entity, _ in rows))


# ------------------------------------------------ the functions, on tables of our own


def test_max_value_for_floor_holds_from_its_floor_down() -> None:
    table = [(1, 2), (4, 3), (6, 5)]
    expected = {1: 2, 2: 2, 3: 2, 4: 3, 5: 3, 6: 5, 7: 5, 50: 5}
    for floor, value in expected.items():
        assert get_max_value_for_floor(table, floor) == value, floor
    assert get_max_value_for_floor(table, 0) == 0  # Above the first row: nothing.


def test_a_kind_is_drawn_only_from_its_floor_on_and_later_rows_replace_weights() -> None:
    table: Table = {0: [(ef.orc, 1)], 3: [(ef.troll, 1)], 5: [(ef.troll, 1000)]}
    for floor, allowed in [(1, {"Orc"}), (2, {"Orc"}), (3, {"Orc", "Troll"})]:
        drawn = get_entities_at_random(table, 500, floor, random.Random(floor))
        assert {entity.name for entity in drawn} == allowed, floor
    drawn = get_entities_at_random(table, 1000, 5, random.Random(5))
    assert sum(entity is ef.troll for entity in drawn) > 980  # 1000 against 1.


def test_weights_do_not_depend_on_the_order_the_table_is_written_in() -> None:
    # The tutorial stopped at the first floor number above the current one,
    # trusting the dict to be written in order.
    table: Table = {5: [(ef.troll, 1000)], 0: [(ef.orc, 1)], 3: [(ef.troll, 1)]}
    drawn = get_entities_at_random(table, 1000, 6, random.Random(6))
    assert sum(entity is ef.troll for entity in drawn) > 980


# ------------------------------------------------------ the game's own tables


@pytest.mark.parametrize("name", TABLES)
def test_each_kind_is_drawn_only_from_its_first_floor_on(name: str) -> None:
    table = TABLES[name]
    for floor in FLOORS:
        drawn = {e.name for e in get_entities_at_random(table, 3000, floor, random.Random(floor))}
        for kind in kinds(table):
            if floor < first_floor(table, kind):
                assert kind.name not in drawn, (kind.name, floor)
            elif weight_on(table, kind, floor) > 0:
                assert kind.name in drawn, (kind.name, floor)


@pytest.mark.parametrize("name", TABLES)
def test_draws_follow_the_weights(name: str) -> None:
    table = TABLES[name]
    draws = 5000
    for floor in FLOORS:
        counts = collections.Counter(get_entities_at_random(table, draws, floor, random.Random(floor)))
        total = sum(weight_on(table, kind, floor) for kind in kinds(table))
        for kind in kinds(table):
            share = weight_on(table, kind, floor) / total
            # Five standard deviations of a binomial draw either way.
            spread = 5 * (share * (1 - share) / draws) ** 0.5
            assert abs(counts[kind] / draws - share) <= spread, (kind.name, floor)


def contents_per_room(floor: int, rooms: int = 300) -> tuple[set[int], set[int]]:
    """How many monsters and items `place_entities` put in each of many rooms."""
    engine = setup_game.new_game(seed=1)
    monster_counts, item_counts = set(), set()
    for seed in range(rooms):
        dungeon = GameMap(engine, 80, 43)
        procgen.place_entities(RectangularRoom(10, 10, 10, 10), dungeon, floor, random.Random(seed))
        monster_counts.add(sum(isinstance(entity, Actor) for entity in dungeon.entities))
        item_counts.add(sum(isinstance(entity, Item) for entity in dungeon.entities))
    return monster_counts, item_counts


@pytest.mark.parametrize("floor", FLOORS)
def test_a_room_holds_up_to_the_floors_maximum_and_every_count_below(floor: int) -> None:
    monster_counts, item_counts = contents_per_room(floor)
    assert monster_counts == set(range(get_max_value_for_floor(max_monsters_by_floor, floor) + 1))
    assert item_counts == set(range(get_max_value_for_floor(max_items_by_floor, floor) + 1))


def kinds_on_floor(floor: int, seeds: range) -> set[str]:
    """The names of everything generated on `floor` of the worlds of these seeds."""
    engine = setup_game.new_game(seed=1)
    seen: set[str] = set()
    for seed in seeds:
        engine.game_world = GameWorld(
            engine=engine,
            map_width=game_map.MAP_WIDTH,
            map_height=game_map.MAP_HEIGHT,
            max_rooms=game_map.MAX_ROOMS,
            room_min_size=game_map.ROOM_MIN_SIZE,
            room_max_size=game_map.ROOM_MAX_SIZE,
            current_floor=floor - 1,
            seed=seed,
        )
        engine.game_world.generate_floor()
        assert engine.game_world.current_floor == floor
        seen |= {entity.name for entity in engine.game_map.entities}
    return seen - {"Player"}


def allowed_on(floor: int) -> set[str]:
    return {
        kind.name
        for table in TABLES.values()
        for kind in kinds(table)
        if first_floor(table, kind) <= floor
    }


@pytest.mark.parametrize("floor", [1, 2, 3, 4, 6])
def test_generated_floors_hold_only_kinds_their_tables_allow(floor: int) -> None:
    seen = kinds_on_floor(floor, range(60))
    assert seen <= allowed_on(floor)
    assert seen & {kind.name for kind in kinds(enemy_chances)}  # Monsters, and
    assert seen & {kind.name for kind in kinds(item_chances)}  # items, all the same.


def test_new_games_start_with_only_what_floor_1_allows() -> None:
    seen: set[str] = set()
    for seed in range(60):
        random.seed(seed)
        engine = setup_game.new_game(seed=seed)
        assert engine.game_world.current_floor == 1
        seen |= {entity.name for entity in engine.game_map.entities} - {"Player"}
    assert seen <= allowed_on(1)
