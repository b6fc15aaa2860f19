"""The map of one floor, and the world of floors the player descends through."""

from __future__ import annotations

import contextlib
import random
import weakref
from collections.abc import Iterable, Iterator, MutableSet
from typing import TYPE_CHECKING, Any

import numpy as np
import tcod

import tile_types
from entity import Actor, Item

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from components.ai import DistanceMap
    from engine import Engine
    from entity import Entity


class EntitySet(MutableSet["Entity"]):
    """A set of entities that remembers the order they were added in.

    The tutorial used a plain `set`, whose order follows memory addresses and
    so changes from run to run: monsters then took their turns in a different
    order each time, and a seeded game could not be replayed.
    """

    def __init__(self, entities: Iterable[Entity] = ()) -> None:
        self._entities: dict[Entity, None] = dict.fromkeys(entities)

    def __contains__(self, entity: object) -> bool:
        return entity in self._entities

    def __iter__(self) -> Iterator[Entity]:
        return iter(self._entities)

    def __len__(self) -> int:
        return len(self._entities)

    def add(self, entity: Entity) -> None:
        self._entities[entity] = None

    def discard(self, entity: Entity) -> None:
        self._entities.pop(entity, None)


class PositionIndex:
    """The actors and blocking entities of a map, by where they stand.

    Made by `GameMap.tracking_positions`, and right as long as every move is
    reported to `moved`.  Whoever asks still checks each entity's own position
    and state, so an entity that died or was moved away is never wrongly
    found; only one moved without a report could be missed.
    """

    def __init__(self, game_map: GameMap) -> None:
        self.at: dict[tuple[int, int], list[Entity]] = {}
        for entity in game_map.entities:
            if entity.blocks_movement or (isinstance(entity, Actor) and entity.is_alive):
                self.at.setdefault((entity.x, entity.y), []).append(entity)

    def moved(self, entity: Entity, old_x: int, old_y: int) -> None:
        entities = self.at.get((old_x, old_y))
        if entities is None or entity not in entities:
            return  # Not one of the indexed entities.
        entities.remove(entity)
        if not entities:
            del self.at[old_x, old_y]
        self.at.setdefault((entity.x, entity.y), []).append(entity)

    def in_area(self, x0: int, y0: int, x1: int, y1: int) -> list[Entity]:
        """The entities indexed on a tile of [x0:x1, y0:y1].

        Looks through every tile indexed: a few times faster than any search
        by area for the few hundred entities a floor holds.
        """
        return [
            entity
            for (x, y), entities in self.at.items()
            if x0 <= x < x1 and y0 <= y < y1
            for entity in entities
        ]


class TileGraphics:
    """What a console shows for each tile of a map: lit, remembered or unknown.

    Held in the console's own layout (`tcod.console.rgba_graphic`, three
    32-bit words a cell), so that drawing the map is one gather of whole
    cells, not a conversion of each field of each tile on every frame.
    """

    def __init__(self, tiles: NDArray[Any]) -> None:
        self.key = self.key_of(tiles)
        width, height = tiles.shape
        count = width * height
        graphics = np.concatenate(
            [
                tiles["light"].reshape(-1, order="F"),
                tiles["dark"].reshape(-1, order="F"),
                tile_types.SHROUD.reshape(1),
            ]
        )
        cells = np.empty(graphics.shape, dtype=tcod.console.rgba_graphic)
        cells["ch"] = graphics["ch"]
        cells["fg"][:, :3] = graphics["fg"]
        cells["bg"][:, :3] = graphics["bg"]
        cells["fg"][:, 3] = cells["bg"][:, 3] = 255
        self.cells = cells.view(np.uint32).reshape(-1, 3)
        # Where in `cells` each tile's lit and remembered looks are, and the shroud.
        self.light = np.arange(count).reshape(tiles.shape, order="F")
        self.dark = self.light + count
        self.shroud = 2 * count

    @staticmethod
    def key_of(tiles: NDArray[Any]) -> tuple[object, ...]:
        """All of `tiles`, cheap to take and compare (a copy of its memory)."""
        return tiles.shape, tiles.flags.f_contiguous, tiles.tobytes(order="A")

    def fits(self, tiles: NDArray[Any]) -> bool:
        """Whether these are still the graphics of `tiles`."""
        return self.key_of(tiles) == self.key


# Each map's tile graphics, made again whenever its tiles change.
_tile_graphics: weakref.WeakKeyDictionary[GameMap, TileGraphics] = weakref.WeakKeyDictionary()


class GameMap:
    # While the monsters take their turns (see `tracking_positions`), whether
    # entities are looked up by position, and the index once first needed;
    # neither is kept the rest of the time, nor in saves.
    _tracking = False
    _index: PositionIndex | None = None
    # While the monsters take their turns, the distance maps their paths share
    # (see `components.ai.shared_paths`); None the rest of the time.
    shared_distances: dict[tuple[int, int], DistanceMap] | None = None
    # The monster last aimed at on this floor: the next aim starts on it while
    # it lives in view (see `targeting`).  Kept with its floor, so it goes
    # when the floor does.
    last_target: Actor | None = None

    def __init__(
        self, engine: Engine, width: int, height: int, entities: Iterable[Entity] = ()
    ):
        self.engine = engine
        self.width, self.height = width, height
        self.entities = EntitySet(entities)
        # As `np.full(..., fill_value=tile_types.wall)`: `take` copies the
        # tile whole, ten times faster than `full` does a structured one.
        self.tiles = (
            tile_types.wall.reshape(1)
            .take(np.zeros(width * height, dtype=np.intp))
            .reshape((width, height), order="F")
        )

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

    @property
    def actors(self) -> Iterator[Actor]:
        """Iterate over this maps living actors."""
        return iter(
            [entity for entity in self.entities if isinstance(entity, Actor) and entity.is_alive]
        )

    @property
    def items(self) -> Iterator[Item]:
        yield from (entity for entity in self.entities if isinstance(entity, Item))

    @contextlib.contextmanager
    def tracking_positions(self) -> Iterator[None]:
        """Look entities up by position in constant time while the block runs.

        For the monsters' turns (see `Engine.handle_enemy_turns`), so that the
        cost of a monster's move or attack does not grow with the number of
        entities on the map.  Inside the block, a change of an entity's
        position must be reported to `moved`.
        """
        if self._tracking:  # Already tracking.
            yield
            return
        self._tracking = True
        try:
            yield
        finally:
            # Back to the class's defaults.
            del self._tracking
            self.__dict__.pop("_index", None)

    def moved(self, entity: Entity, old_x: int, old_y: int) -> None:
        """Report that `entity` moved from (old_x, old_y), if positions are tracked."""
        if self._index is not None:
            self._index.moved(entity, old_x, old_y)

    def _position_index(self) -> PositionIndex | None:
        """The index of entities by position, made when first needed, if tracking."""
        if self._index is None and self._tracking:
            # Made from where the entities stand now: moves until now need no report.
            self._index = PositionIndex(self)
        return self._index

    def _entities_at(self, x: int, y: int) -> Iterable[Entity]:
        """Every entity that may stand at (x, y); callers check which do."""
        index = self._position_index()
        if index is None:
            return self.entities
        return index.at.get((x, y), ())

    def blocking_entities_in(self, x0: int, y0: int, x1: int, y1: int) -> list[Entity]:
        """The entities that block movement on the window [x0:x1, y0:y1] of the map."""
        index = self._position_index()
        candidates = self.entities if index is None else index.in_area(x0, y0, x1, y1)
        return [
            entity
            for entity in candidates
            if entity.blocks_movement and x0 <= entity.x < x1 and y0 <= entity.y < y1
        ]

    def get_blocking_entity_at_location(
        self, location_x: int, location_y: int
    ) -> Entity | None:
        for entity in self._entities_at(location_x, location_y):
            if (
                entity.blocks_movement
                and entity.x == location_x
                and entity.y == location_y
            ):
                return entity

        return None

    def get_actor_at_location(self, x: int, y: int) -> Actor | None:
        for entity in self._entities_at(x, y):
            if isinstance(entity, Actor) and entity.is_alive and entity.x == x and entity.y == y:
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
        """
        graphics = _tile_graphics.get(self)
        if graphics is None or not graphics.fits(self.tiles):
            graphics = _tile_graphics[self] = TileGraphics(self.tiles)
        index = np.where(
            self.visible, graphics.light, np.where(self.explored, graphics.dark, graphics.shroud)
        )
        # The console's cells by row, as 32-bit words (in an order "F" console,
        # as the game's are, `rgba` is the transpose of its rows).
        rows = console.rgba.T
        cells = rows.view(np.uint32).reshape(*rows.shape, 3)
        np.take(graphics.cells, index.T, axis=0, out=cells[: self.height, : self.width])

        entities_sorted_for_rendering = sorted(
            self.entities, key=lambda x: x.render_order.value
        )

        # Only entities that are in the FOV, the last drawn on a tile showing,
        # set as `console.print` would leave them (at a quarter of its cost).
        shown: dict[tuple[int, int], Entity] = {}
        for entity in entities_sorted_for_rendering:
            if self.visible[entity.x, entity.y]:
                shown[entity.x, entity.y] = entity
        glyphs, colors = console.rgb["ch"], console.rgb["fg"]
        for (x, y), entity in shown.items():
            glyphs[x, y] = ord(entity.char)
            colors[x, y] = entity.color


class GameWorld:
    """Holds the settings for the GameMap, and generates new maps when moving down the stairs."""

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
