"""The map of one floor, and the world of floors the player descends through."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, MutableSet, Sequence
from typing import TYPE_CHECKING, ClassVar, Final

import numpy as np
import tcod

import tile_types
from components.inventory import LETTERS
from entity import Actor, Item
from replays import record_format
from saving.save_fields import (
    Bits,
    Fields,
    Int,
    Link,
    ListOf,
    Maybe,
    OneOf,
    Point,
    Ref,
    Text,
    Tiles,
)
from saving.savefile import DamagedSaveError

if TYPE_CHECKING:
    from engine import Engine
    from entity import Entity


# The tutorial's map settings: every floor the game makes is made with these,
# and a save's world and maps are held to them.
MAP_WIDTH: Final = 80
MAP_HEIGHT: Final = 43
ROOM_MAX_SIZE: Final = 10
ROOM_MIN_SIZE: Final = 6
MAX_ROOMS: Final = 30
# A floor holds at most every room at `procgen`'s most monsters and items (5
# and 2), the player, and a full pack dropped (`save_data` checks the sum).
MAX_ENTITIES: Final = MAX_ROOMS * (5 + 2) + 1 + len(LETTERS)
MAX_FLOOR: Final = 1_000_000
# The most daily games of one date a player is said to have tried.
MAX_TRIES: Final = 1_000_000


class EntitySet(MutableSet["Entity"]):
    """The entities of a map: a set that remembers the order they were added
    in, and files them by where they stand.

    The tutorial used a plain `set`, whose order follows memory addresses and
    so changes from run to run: monsters then took their turns in a different
    order each time, and a seeded game could not be replayed.  It found what
    stands on a tile by looking at every entity, several times a turn; here
    `at` looks in one drawer.  An entity on a map changes place only through
    `place` (its own `move`, `place` and `spawn` come here), the one place
    that keeps the drawers right.
    """

    def __init__(self, entities: Iterable[Entity] = ()) -> None:
        self._entities: dict[Entity, None] = {}
        self._at: dict[tuple[int, int], list[Entity]] = {}
        for entity in entities:
            self.add(entity)

    def __contains__(self, entity: object) -> bool:
        return entity in self._entities

    def __iter__(self) -> Iterator[Entity]:
        return iter(self._entities)

    def __len__(self) -> int:
        return len(self._entities)

    def add(self, entity: Entity) -> None:
        if entity not in self._entities:
            self._entities[entity] = None
            self._at.setdefault((entity.x, entity.y), []).append(entity)

    def discard(self, entity: Entity) -> None:
        if entity in self._entities:
            del self._entities[entity]
            self._unfile(entity)

    def place(self, entity: Entity, x: int, y: int) -> None:
        """Set `entity` at (x, y) on this map: added if new, else moved, its
        place in the order kept (the monsters' turns go by it)."""
        if entity in self._entities:
            self._unfile(entity)
        else:
            self._entities[entity] = None
        entity.x, entity.y = x, y
        self._at.setdefault((x, y), []).append(entity)

    def at(self, x: int, y: int) -> Sequence[Entity]:
        """The entities standing at (x, y), in the order they came there."""
        return self._at.get((x, y), ())

    def _unfile(self, entity: Entity) -> None:
        here = self._at[entity.x, entity.y]
        here.remove(entity)
        if not here:
            del self._at[entity.x, entity.y]


def remembered(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    """The colour of something remembered out of view: faded halfway to grey,
    so that it reads as memory and still stands out on the remembered floor."""
    r, g, b = rgb
    return (r + 128) // 2, (g + 128) // 2, (b + 128) // 2


class GameMap:
    # The monster last aimed at on this floor: the next aim starts on it while
    # it lives in view (see `targeting`).  Kept with its floor, so it goes
    # when the floor does.
    last_target: Actor | None = None
    saved_fields: ClassVar[Fields] = {
        "engine": Link(),
        # At most the size of the floors the game makes: a bigger map would not fit the screen.
        "width": Int(1, MAP_WIDTH),
        "height": Int(1, MAP_HEIGHT),
        "tiles": Tiles(),
        "visible": Bits(),
        "explored": Bits(),
        "downstairs_location": Point(),
        "entities": ListOf(OneOf(Actor, Item), MAX_ENTITIES, into=EntitySet),
        "last_target": Maybe(Ref("entities")),
    }

    def __init__(
        self, engine: Engine, width: int, height: int, entities: Iterable[Entity] = ()
    ):
        self.engine = engine
        self.width, self.height = width, height
        self.entities = EntitySet(entities)
        self.tiles = np.full((width, height), fill_value=tile_types.wall, order="F")

        self.visible = np.full(
            (width, height), fill_value=False, order="F"
        )  # Tiles the player can currently see
        self.explored = np.full(
            (width, height), fill_value=False, order="F"
        )  # Tiles the player has seen before

        self.downstairs_location = (0, 0)

    @property
    def gamemap(self) -> GameMap:
        return self

    def check_loaded(self, what: str) -> None:
        """What a save's fields must say together: all of it on the map."""
        for number, entity in enumerate(self.entities):
            self.check_on_map(entity.x, entity.y, f"entry {number} of the entities of {what}")
        self.check_on_map(*self.downstairs_location, f"the downstairs_location of {what}")
        if self.last_target is not None and not isinstance(self.last_target, Actor):
            raise DamagedSaveError(f"the last_target of {what} is not an actor")

    def check_on_map(self, x: int, y: int, what: str) -> None:
        if not self.in_bounds(x, y):
            raise DamagedSaveError(f"{what} is off the map")

    @property
    def actors(self) -> Iterator[Actor]:
        """Iterate over this maps living actors."""
        yield from (
            entity
            for entity in self.entities
            if isinstance(entity, Actor) and entity.is_alive
        )

    def sees(self, actor: Actor) -> bool:
        """Whether the player knows what `actor` does: it is the player, or in view."""
        return actor is self.engine.player or bool(self.visible[actor.x, actor.y])

    @property
    def monsters_in_view(self) -> list[Actor]:
        """The living monsters the player sees, in the map's order: what
        stops a walk, what aiming starts on, what a replay reports."""
        player = self.engine.player
        return [actor for actor in self.actors if actor is not player and self.visible[actor.x, actor.y]]

    @property
    def items(self) -> Iterator[Item]:
        yield from (entity for entity in self.entities if isinstance(entity, Item))

    def items_at(self, x: int, y: int) -> list[Item]:
        """The items lying at (x, y), in the order they came there."""
        return [entity for entity in self.entities.at(x, y) if isinstance(entity, Item)]

    def get_blocking_entity_at_location(
        self, location_x: int, location_y: int
    ) -> Entity | None:
        for entity in self.entities.at(location_x, location_y):
            if entity.blocks_movement:
                return entity

        return None

    def get_actor_at_location(self, x: int, y: int) -> Actor | None:
        for entity in self.entities.at(x, y):
            if isinstance(entity, Actor) and entity.is_alive:
                return entity

        return None

    def in_bounds(self, x: int, y: int) -> bool:
        """Return True if x and y are inside of the bounds of this map."""
        return 0 <= x < self.width and 0 <= y < self.height

    def render(self, console: tcod.console.Console) -> None:
        """Renders the map.

        If a tile is in the "visible" array, then draw it with the "light" colors.
        If it isn't, but it's in the "explored" array, then draw it with the "dark" colors.
        Otherwise, the default is "SHROUD".
        All in the colours of the palette the options choose (`palettes`).
        """
        palette = self.engine.settings.options.palette
        console.rgb[0 : self.width, 0 : self.height] = palette.recolor(
            np.select(
                condlist=[self.visible, self.explored],
                choicelist=[self.tiles["light"], self.tiles["dark"]],
                default=tile_types.SHROUD,
            )
        )

        entities_sorted_for_rendering = sorted(
            self.entities, key=lambda x: x.render_order
        )

        for entity in entities_sorted_for_rendering:
            # Only print entities that are in the FOV
            if self.visible[entity.x, entity.y]:
                console.print(x=entity.x, y=entity.y, text=entity.char, fg=palette.glyph(entity.color))
            elif isinstance(entity, Item) and self.explored[entity.x, entity.y]:
                # Items stay where the player saw them: drawn from memory,
                # faded.  Monsters move, so they are shown only while seen.
                console.print(
                    x=entity.x,
                    y=entity.y,
                    text=entity.char,
                    fg=remembered(palette.glyph(entity.color)),
                )


class GameWorld:
    """Holds the settings for the GameMap, and generates new maps when moving down the stairs."""

    saved_fields: ClassVar[Fields] = {
        "engine": Link(),
        "map_width": Int(1, MAP_WIDTH),
        "map_height": Int(1, MAP_HEIGHT),
        "max_rooms": Int(1, MAX_ROOMS),
        "room_min_size": Int(2, ROOM_MAX_SIZE),
        "room_max_size": Int(2, ROOM_MAX_SIZE),
        "current_floor": Int(1, MAX_FLOOR),
        "seed": Int(0, record_format.MAX_SEED),
        "daily": Maybe(Text(10), default=None),
        "daily_try": Int(0, MAX_TRIES, default=0),
    }

    def __init__(
        self,
        *,
        engine: Engine,
        map_width: int,
        map_height: int,
        max_rooms: int,
        room_min_size: int,
        room_max_size: int,
        current_floor: int = 0,
        seed: int | None = None,
    ):
        self.engine = engine

        self.map_width = map_width
        self.map_height = map_height

        self.max_rooms = max_rooms

        self.room_min_size = room_min_size
        self.room_max_size = room_max_size

        self.current_floor = current_floor

        # Each floor is generated from the seed and its number alone, so the
        # same seed gives the same floors however the player got there.
        self.seed = seed if seed is not None else random.getrandbits(32)
        # The date of a daily game ("2026-11-25", see `replays.daily`), and which
        # of the player's games of that date it is (from 1; 0 when not known).
        self.daily: str | None = None
        self.daily_try = 0

    def check_loaded(self, what: str) -> None:
        """The settings floors are made with: the next floor can be made."""
        Int(self.room_min_size, ROOM_MAX_SIZE).read(self.room_max_size, f"the room_max_size of {what}", self)
        Int(self.room_max_size + 2, MAP_WIDTH).read(self.map_width, f"the map_width of {what}", self)
        Int(self.room_max_size + 2, MAP_HEIGHT).read(self.map_height, f"the map_height of {what}", self)

    def generate_floor(self) -> None:
        from procgen import generate_dungeon

        self.current_floor += 1

        self.engine.game_map = generate_dungeon(
            max_rooms=self.max_rooms,
            room_min_size=self.room_min_size,
            room_max_size=self.room_max_size,
            map_width=self.map_width,
            map_height=self.map_height,
            engine=self.engine,
            rng=random.Random(f"{self.seed}/{self.current_floor}"),
        )
