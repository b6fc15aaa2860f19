"""Dungeon generation: rooms and tunnels, and what is placed in them by depth."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

import tcod

import entity_factories
import tile_types
from game_map import GameMap

if TYPE_CHECKING:
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


def most(table: list[tuple[int, int]]) -> int:
    """The largest value a (first floor, value) table gives, on any floor."""
    return max(value for _, value in table)


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
    """The generator given, or a new one drawn from the global `random` state,
    so that `random.seed` still makes a run repeatable."""
    return rng if rng is not None else random.Random(random.getrandbits(64))


def get_max_value_for_floor(
    max_value_by_floor: list[tuple[int, int]], floor: int
) -> int:
    """The value a (first floor, value) table gives on `floor`."""
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
    """`number_of_entities` kinds drawn by the weights that hold on `floor`."""
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
    """A room: its walls run along the rectangle's edges."""

    def __init__(self, x: int, y: int, width: int, height: int):
        self.x1 = x
        self.y1 = y
        self.x2 = x + width
        self.y2 = y + height

    @property
    def center(self) -> tuple[int, int]:
        """The room's middle tile."""
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
    """Put the monsters and items of a room, drawn by depth, on free tiles of it."""
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


def tunnel_between(
    start: tuple[int, int], end: tuple[int, int], rng: random.Random | None = None
) -> Iterator[tuple[int, int]]:
    """Return an L-shaped tunnel between these two points."""
    x1, y1 = start
    x2, y2 = end
    if _rng(rng).random() < 0.5:
        # Move horizontally, then vertically.
        corner_x, corner_y = x2, y1
    else:
        # Move vertically, then horizontally.
        corner_x, corner_y = x1, y2

    for x, y in tcod.los.bresenham((x1, y1), (corner_x, corner_y)).tolist():
        yield x, y
    for x, y in tcod.los.bresenham((corner_x, corner_y), (x2, y2)).tolist():
        yield x, y


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

    for _ in range(max_rooms):
        room_width = rng.randint(room_min_size, room_max_size)
        room_height = rng.randint(room_min_size, room_max_size)

        x = rng.randint(0, dungeon.width - room_width - 1)
        y = rng.randint(0, dungeon.height - room_height - 1)

        new_room = RectangularRoom(x, y, room_width, room_height)

        if any(new_room.intersects(other_room) for other_room in rooms):
            continue

        dungeon.tiles[new_room.inner] = tile_types.floor

        if len(rooms) == 0:
            player.place(*new_room.center, dungeon)
        else:
            for x, y in tunnel_between(rooms[-1].center, new_room.center, rng):
                dungeon.tiles[x, y] = tile_types.floor

        place_entities(new_room, dungeon, engine.game_world.current_floor, rng)

        rooms.append(new_room)

    # Differs from the tutorial: set once the last room is known (no stray '>' at (0, 0)).
    dungeon.downstairs_location = rooms[-1].center
    dungeon.tiles[dungeon.downstairs_location] = tile_types.down_stairs

    return dungeon
