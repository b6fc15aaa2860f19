"""Part 12 (and 13's additions): what each floor holds, and how much of it."""

from __future__ import annotations

import random

import pytest

import entity_factories as ef
import procgen
import setup_game
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


class CapturingRng:
    """Stands in for the generator to record what `choices` is asked to draw from."""

    def choices(self, population, weights, k):
        self.weights = {entity.name: weight for entity, weight in zip(population, weights, strict=True)}
        return []


def weights(table, floor: int) -> dict[str, int]:
    rng = CapturingRng()
    get_entities_at_random(table, 1, floor, rng)
    return rng.weights


def test_the_tables_are_the_tutorials():
    assert max_items_by_floor == [(1, 1), (4, 2)]
    assert max_monsters_by_floor == [(1, 2), (4, 3), (6, 5)]
    assert item_chances == {
        0: [(ef.health_potion, 35)],
        2: [(ef.confusion_scroll, 10)],
        4: [(ef.lightning_scroll, 25), (ef.sword, 5)],
        6: [(ef.fireball_scroll, 25), (ef.chain_mail, 15)],
    }
    assert enemy_chances == {
        0: [(ef.orc, 80)],
        3: [(ef.troll, 15)],
        5: [(ef.troll, 30)],
        7: [(ef.troll, 60)],
    }


@pytest.mark.parametrize(
    ("floor", "items", "monsters"),
    [(1, 1, 2), (2, 1, 2), (3, 1, 2), (4, 2, 3), (5, 2, 3), (6, 2, 5), (7, 2, 5), (50, 2, 5)],
)
def test_max_value_for_floor_holds_from_its_floor_down(floor, items, monsters):
    assert get_max_value_for_floor(max_items_by_floor, floor) == items
    assert get_max_value_for_floor(max_monsters_by_floor, floor) == monsters


@pytest.mark.parametrize(
    ("floor", "expected"),
    [
        (1, {"Orc": 80}),
        (2, {"Orc": 80}),
        (3, {"Orc": 80, "Troll": 15}),
        (4, {"Orc": 80, "Troll": 15}),
        (5, {"Orc": 80, "Troll": 30}),
        (6, {"Orc": 80, "Troll": 30}),
        (7, {"Orc": 80, "Troll": 60}),
    ],
)
def test_monster_weights_carry_over_and_later_ones_replace_earlier(floor, expected):
    assert weights(enemy_chances, floor) == expected


POTION = {"Health Potion": 35}
CONFUSION = {**POTION, "Confusion Scroll": 10}
LIGHTNING = {**CONFUSION, "Lightning Scroll": 25, "Sword": 5}
FIREBALL = {**LIGHTNING, "Fireball Scroll": 25, "Chain Mail": 15}


@pytest.mark.parametrize(
    ("floor", "expected"),
    [(1, POTION), (2, CONFUSION), (3, CONFUSION), (4, LIGHTNING), (5, LIGHTNING), (6, FIREBALL), (7, FIREBALL)],
)
def test_item_weights_accumulate_floor_by_floor(floor, expected):
    assert weights(item_chances, floor) == expected


def test_weights_do_not_depend_on_the_order_the_table_is_written_in():
    # The tutorial stopped at the first floor number above the current one,
    # trusting the dict to be written in order.
    table = {7: [(ef.troll, 60)], 0: [(ef.orc, 80)], 5: [(ef.troll, 30)], 3: [(ef.troll, 15)]}
    assert weights(table, 6) == {"Orc": 80, "Troll": 30}


def test_seeded_draws_follow_the_weights():
    rng = random.Random(12)
    floor_1 = get_entities_at_random(enemy_chances, 2000, 1, rng)
    floor_7 = get_entities_at_random(enemy_chances, 2000, 7, rng)

    assert {entity.name for entity in floor_1} == {"Orc"}
    trolls = sum(entity is ef.troll for entity in floor_7)
    assert 0.38 < trolls / 2000 < 0.48  # 60 / 140 = 0.43


def monsters_and_items_per_room(floor: int, rooms: int = 300) -> tuple[set[int], set[int]]:
    """How many monsters and items `place_entities` put in each of many rooms."""
    engine = setup_game.new_game(seed=1)
    monster_counts, item_counts = set(), set()
    for seed in range(rooms):
        dungeon = GameMap(engine, 80, 43)
        procgen.place_entities(RectangularRoom(10, 10, 10, 10), dungeon, floor, random.Random(seed))
        names = [entity.name for entity in dungeon.entities]
        monster_counts.add(sum(name in ("Orc", "Troll") for name in names))
        item_counts.add(len(names) - sum(name in ("Orc", "Troll") for name in names))
    return monster_counts, item_counts


@pytest.mark.parametrize(
    ("floor", "monsters", "items"),
    [(1, 2, 1), (3, 2, 1), (4, 3, 2), (6, 5, 2)],
)
def test_a_room_holds_up_to_the_floors_maximum(floor, monsters, items):
    monster_counts, item_counts = monsters_and_items_per_room(floor)
    assert monster_counts == set(range(monsters + 1))
    assert item_counts == set(range(items + 1))


def kinds_on_floor(floor: int, seeds: range) -> set[str]:
    """The names of everything generated on `floor` of the worlds of these seeds."""
    engine = setup_game.new_game(seed=1)
    seen: set[str] = set()
    for seed in seeds:
        engine.game_world = GameWorld(
            engine=engine,
            map_width=setup_game.MAP_WIDTH,
            map_height=setup_game.MAP_HEIGHT,
            max_rooms=setup_game.MAX_ROOMS,
            room_min_size=setup_game.ROOM_MIN_SIZE,
            room_max_size=setup_game.ROOM_MAX_SIZE,
            current_floor=floor - 1,
            seed=seed,
        )
        engine.game_world.generate_floor()
        assert engine.game_world.current_floor == floor
        seen |= {entity.name for entity in engine.game_map.entities}
    return seen - {"Player"}


def test_floor_1_never_has_a_troll_or_a_scroll():
    assert kinds_on_floor(1, range(200)) == {"Orc", "Health Potion"}


def test_new_games_never_start_with_a_troll_or_a_scroll():
    seen = set()
    for seed in range(100):
        engine = setup_game.new_game(seed=seed)
        assert engine.game_world.current_floor == 1
        seen |= {entity.name for entity in engine.game_map.entities}
    assert seen == {"Player", "Orc", "Health Potion"}


@pytest.mark.parametrize(
    ("floor", "kinds"),
    [
        (2, {"Orc", "Health Potion", "Confusion Scroll"}),
        (3, {"Orc", "Troll", "Health Potion", "Confusion Scroll"}),
        (4, {"Orc", "Troll", "Health Potion", "Confusion Scroll", "Lightning Scroll", "Sword"}),
        (
            6,
            {"Orc", "Troll", "Health Potion", "Confusion Scroll", "Lightning Scroll", "Sword",
             "Fireball Scroll", "Chain Mail"},
        ),
    ],
)
def test_deeper_floors_add_new_kinds(floor, kinds):
    assert kinds_on_floor(floor, range(100)) == kinds
