"""Tutorial parts 3, 5, 11: dungeon generation, checked over many seeds."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import tcod

import procgen
import setup_game
from engine import Engine
from game_map import GameMap
from procgen import RectangularRoom

SEEDS = range(30)
FLOORS = (1, 6)  # The first floor, and a deep one with up to five monsters a room.

Dungeon = tuple[GameMap, list[RectangularRoom]]


def generate(seed: int, floor: int) -> Dungeon:
    """Generate floor `floor` of a seeded game; also return the rooms it kept
    (each kept room is furnished once, by `place_entities`)."""
    random.seed(seed)
    engine = setup_game.new_game(seed=seed)
    rooms: list[RectangularRoom] = []
    original = procgen.place_entities

    def recording(room: RectangularRoom, *args: Any, **kwargs: Any) -> None:
        rooms.append(room)
        original(room, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(procgen, "place_entities", recording)
        engine.game_world.current_floor = floor - 1
        engine.game_world.generate_floor()
    return engine.game_map, rooms


@pytest.fixture(scope="module")
def dungeons() -> list[Dungeon]:
    return [generate(seed, floor) for seed in SEEDS for floor in FLOORS]


def all_maps(dungeons: list[Dungeon]) -> Iterator[GameMap]:
    return (game_map for game_map, _ in dungeons)


def test_map_is_80_by_43(engine: Engine) -> None:
    assert (engine.game_map.width, engine.game_map.height) == (80, 43)
    assert engine.game_map.tiles.shape == (80, 43)


def test_intersects() -> None:
    """Rooms that overlap or share a wall intersect; rooms a tile apart do not."""
    room = RectangularRoom(10, 10, 6, 6)  # Walls from 10 to 16.
    assert room.intersects(RectangularRoom(12, 12, 2, 2))  # Inside it.
    assert room.intersects(RectangularRoom(14, 14, 6, 6))  # Corner overlap.
    assert room.intersects(RectangularRoom(16, 10, 6, 6))  # Shared wall.
    assert not room.intersects(RectangularRoom(17, 10, 6, 6))
    assert not room.intersects(RectangularRoom(10, 17, 6, 6))


def test_rooms_never_overlap(dungeons: list[Dungeon]) -> None:
    for _, rooms in dungeons:
        for a, b in itertools.combinations(rooms, 2):
            assert not a.intersects(b)
            # And by geometry alone: the outer rectangles, walls included, are apart.
            assert a.x2 < b.x1 or b.x2 < a.x1 or a.y2 < b.y1 or b.y2 < a.y1


def test_room_sizes_and_count(dungeons: list[Dungeon]) -> None:
    """Rooms are 6 to 10 tiles a side, at most 30, and stay inside the map."""
    for game_map, rooms in dungeons:
        assert 1 <= len(rooms) <= 30
        for room in rooms:
            assert 6 <= room.x2 - room.x1 <= 10
            assert 6 <= room.y2 - room.y1 <= 10
            assert room.x1 >= 0 and room.x2 < game_map.width
            assert room.y1 >= 0 and room.y2 < game_map.height


def test_border_is_all_wall(dungeons: list[Dungeon]) -> None:
    for game_map in all_maps(dungeons):
        border = np.ones((game_map.width, game_map.height), dtype=bool)
        border[1:-1, 1:-1] = False
        assert not game_map.tiles["walkable"][border].any()
        assert not game_map.tiles["transparent"][border].any()


def test_every_floor_tile_is_reachable_from_the_player(dungeons: list[Dungeon]) -> None:
    for game_map in all_maps(dungeons):
        player = game_map.engine.player
        walkable = game_map.tiles["walkable"]
        distance = tcod.path.maxarray(walkable.shape, dtype=np.int32)
        distance[player.x, player.y] = 0
        tcod.path.dijkstra2d(distance, walkable.astype(np.int32), cardinal=1, diagonal=1, out=distance)
        unreachable = walkable & (distance == np.iinfo(np.int32).max)
        assert not unreachable.any(), np.argwhere(unreachable)[:5]


def test_entities_are_placed_on_floor_each_on_its_own_tile(dungeons: list[Dungeon]) -> None:
    for game_map in all_maps(dungeons):
        positions = [(entity.x, entity.y) for entity in game_map.entities]
        assert len(positions) > 1  # The player, and something else.
        assert len(set(positions)) == len(positions)
        for x, y in positions:
            assert game_map.in_bounds(x, y)
            assert game_map.tiles["walkable"][x, y]


def test_exactly_one_down_staircase_at_downstairs_location(dungeons: list[Dungeon]) -> None:
    """The tutorial also left a stray '>' at (0, 0) on every floor."""
    for game_map, rooms in dungeons:
        stairs = np.argwhere(game_map.tiles["light"]["ch"] == ord(">"))
        assert [tuple(xy) for xy in stairs.tolist()] == [game_map.downstairs_location]
        assert game_map.downstairs_location == rooms[-1].center
        assert game_map.tiles["light"]["ch"][0, 0] != ord(">")
