"""Dungeon generation: rooms and tunnels, and what is placed in them by depth."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

import numpy as np
import tcod

import entity_factories
import tile_types
from game_map import GameMap

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from engine import Engine
    from entity import Entity

# (first floor, value) pairs: from that floor down, the value holds.
max_items_by_floor: Final = [
    (1, 1),
    (4, 2),
]

max_monsters_by_floor: Final = [
    (1, 2),
    (4, 3),
    (6, 5),
]

# From each floor down, these weights are added; a later weight for the same
# kind replaces the earlier one.
item_chances: Final[dict[int, list[tuple[Entity, int]]]] = {
    0: [(entity_factories.health_potion, 35)],
    2: [(entity_factories.confusion_scroll, 10)],
    4: [(entity_factories.lightning_scroll, 25), (entity_factories.sword, 5)],
    6: [(entity_factories.fireball_scroll, 25), (entity_factories.chain_mail, 15)],
}

enemy_chances: Final[dict[int, list[tuple[Entity, int]]]] = {
    0: [(entity_factories.orc, 80)],
    3: [(entity_factories.troll, 15)],
    5: [(entity_factories.troll, 30)],
    7: [(entity_factories.troll, 60)],
}


def _rng(rng: random.Random | None) -> random.Random:
    """The generator to draw from: the one given, or one drawn from the global
    `random` state, so that `random.seed` still makes a run repeatable."""
    return rng if rng is not None else random.Random(random.getrandbits(64))


def get_max_value_for_floor(
    max_value_by_floor: list[tuple[int, int]], floor: int
) -> int:
    current_value = 0

    for floor_minimum, value in max_value_by_floor:
        if floor_minimum > floor:
            break
        current_value = value

    return current_value


def get_entities_at_random(
    weighted_chances_by_floor: dict[int, list[tuple[Entity, int]]],
    number_of_entities: int,
    floor: int,
    rng: random.Random | None = None,
) -> list[Entity]:
    entity_weighted_chances: dict[Entity, int] = {}

    for key, values in sorted(weighted_chances_by_floor.items()):
        if key > floor:
            break
        for entity, weighted_chance in values:
            entity_weighted_chances[entity] = weighted_chance

    entities = list(entity_weighted_chances.keys())
    entity_weighted_chance_values = list(entity_weighted_chances.values())

    return _rng(rng).choices(
        entities, weights=entity_weighted_chance_values, k=number_of_entities
    )


class RectangularRoom:
    def __init__(self, x: int, y: int, width: int, height: int):
        self.x1 = x
        self.y1 = y
        self.x2 = x + width
        self.y2 = y + height

    @property
    def center(self) -> tuple[int, int]:
        center_x = int((self.x1 + self.x2) / 2)
        center_y = int((self.y1 + self.y2) / 2)

        return center_x, center_y

    @property
    def inner(self) -> tuple[slice, slice]:
        """Return the inner area of this room as a 2D array index."""
        return slice(self.x1 + 1, self.x2), slice(self.y1 + 1, self.y2)

    def intersects(self, other: RectangularRoom) -> bool:
        """Return True if this room overlaps with another RectangularRoom."""
        return (
            self.x1 <= other.x2
            and self.x2 >= other.x1
            and self.y1 <= other.y2
            and self.y2 >= other.y1
        )


def place_entities(
    room: RectangularRoom,
    dungeon: GameMap,
    floor_number: int,
    rng: random.Random | None = None,
) -> None:
    rng = _rng(rng)
    number_of_monsters = rng.randint(
        0, get_max_value_for_floor(max_monsters_by_floor, floor_number)
    )
    number_of_items = rng.randint(
        0, get_max_value_for_floor(max_items_by_floor, floor_number)
    )

    monsters = get_entities_at_random(enemy_chances, number_of_monsters, floor_number, rng)
    items = get_entities_at_random(item_chances, number_of_items, floor_number, rng)

    for entity in monsters + items:
        x = rng.randint(room.x1 + 1, room.x2 - 1)
        y = rng.randint(room.y1 + 1, room.y2 - 1)

        if not any(other.x == x and other.y == y for other in dungeon.entities):
            entity.spawn(dungeon, x, y)


def tunnel_points(
    start: tuple[int, int], end: tuple[int, int], rng: random.Random | None = None
) -> NDArray[np.intc]:
    """The points of an L-shaped tunnel between these two points, as (x, y) rows."""
    x1, y1 = start
    x2, y2 = end
    if _rng(rng).random() < 0.5:  # 50% chance.
        # Move horizontally, then vertically.
        corner_x, corner_y = x2, y1
    else:
        # Move vertically, then horizontally.
        corner_x, corner_y = x1, y2

    # Generate the coordinates for this tunnel.
    return np.concatenate(
        [
            tcod.los.bresenham((x1, y1), (corner_x, corner_y)),
            tcod.los.bresenham((corner_x, corner_y), (x2, y2)),
        ]
    )


def tunnel_between(
    start: tuple[int, int], end: tuple[int, int], rng: random.Random | None = None
) -> Iterator[tuple[int, int]]:
    """Return an L-shaped tunnel between these two points."""
    yield from ((x, y) for x, y in tunnel_points(start, end, rng).tolist())


def generate_dungeon(
    max_rooms: int,
    room_min_size: int,
    room_max_size: int,
    map_width: int,
    map_height: int,
    engine: Engine,
    rng: random.Random | None = None,
) -> GameMap:
    """Generate a new dungeon map."""
    rng = _rng(rng)
    player = engine.player
    dungeon = GameMap(engine, map_width, map_height, entities=[player])

    rooms: list[RectangularRoom] = []
    # The tiles of the rooms, their walls included, and the tiles dug out.
    # Floor is set from `dug` once, at the end: setting a structured tile
    # costs much less done for many at once than one by one.
    taken = np.zeros((map_width, map_height), dtype=bool, order="F")
    dug = np.zeros((map_width, map_height), dtype=bool, order="F")
    for _ in range(max_rooms):
        room_width = rng.randint(room_min_size, room_max_size)
        room_height = rng.randint(room_min_size, room_max_size)

        # The room's outer edge stays inside the map, so the border is wall.
        x = rng.randint(0, dungeon.width - room_width - 1)
        y = rng.randint(0, dungeon.height - room_height - 1)

        new_room = RectangularRoom(x, y, room_width, room_height)

        # See if it intersects with the other rooms (as `RectangularRoom.intersects`
        # does): whether any tile of it, walls included, is already taken.
        outline = slice(new_room.x1, new_room.x2 + 1), slice(new_room.y1, new_room.y2 + 1)
        if taken[outline].any():
            continue  # This room intersects, so go to the next attempt.
        taken[outline] = True

        # Dig out this rooms inner area.
        dug[new_room.inner] = True

        if len(rooms) == 0:
            # The first room, where the player starts.
            player.place(*new_room.center, dungeon)
        else:  # All rooms after the first.
            # Dig out a tunnel between this room and the previous one.
            tunnel_x, tunnel_y = tunnel_points(rooms[-1].center, new_room.center, rng).T
            dug[tunnel_x, tunnel_y] = True

        place_entities(new_room, dungeon, engine.game_world.current_floor, rng)

        rooms.append(new_room)

    dungeon.tiles[dug] = tile_types.floor

    # The tutorial set the stairs inside the loop above, before the last room
    # was known, which left a stray '>' at (0, 0) on every floor.  Set them
    # once, at the centre of the last room.
    dungeon.downstairs_location = rooms[-1].center
    dungeon.tiles[dungeon.downstairs_location] = tile_types.down_stairs

    return dungeon
