"""Walks (auto-explore, travel, running): where the next step goes and when a
walk must stop.  Each step is an ordinary turn that the dungeon takes
(`MainGameEventHandler.advance`), so a walk can do nothing the player's own keys could not."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Final

import numpy as np
import tcod

from entity import Item
from words.grammar import capitalized, listed, with_article

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from engine import Engine
    from entity import Entity
    from game_map import GameMap

# A straight step costs 2, a diagonal one 3: paths go straight where they can,
# as a player would walk, and the tie-breaking between equal paths is stable.
CARDINAL_COST: Final = 2
DIAGONAL_COST: Final = 3
UNREACHABLE: Final = np.iinfo(np.int32).max

NOTHING_TO_EXPLORE: Final = "Nothing left to explore."
NO_WAY: Final = "There is no way there."
NO_STAIRS: Final = "You haven't found the stairs."
FULL: Final = "Your inventory is full: exploring goes on without picking up."


# Not tuples, which a `Direction` is: a walk tells its turns and its end apart by their types.
@dataclasses.dataclass(frozen=True)
class Stop:
    """A walk's end: the message saying why, or None when it simply arrived."""

    reason: str | None = None


Direction = tuple[int, int]


class PickUp:
    """A walk's turn spent picking up the item underfoot (exploring's gathering)."""


PICK_UP: Final = PickUp()

# What a walk does with its next turn.
Step = Direction | PickUp


def distance_map(game_map: GameMap, goals: NDArray[np.bool_]) -> NDArray[np.int32]:
    """How far each explored floor tile is from the nearest goal, else `UNREACHABLE`.

    Only explored floor counts: a walk never guesses at what it hasn't seen.
    """
    known_floor = game_map.tiles["walkable"] & game_map.explored
    distance = np.full(goals.shape, UNREACHABLE, dtype=np.int32)
    distance[goals & known_floor] = 0
    cost = known_floor.astype(np.int8)
    tcod.path.dijkstra2d(distance, cost, CARDINAL_COST, DIAGONAL_COST, out=distance)
    return distance


def step_toward(game_map: GameMap, goals: NDArray[np.bool_], x: int, y: int) -> Direction | None:
    """The first step from (x, y) toward the nearest goal; None if none is reachable or here."""
    distance = distance_map(game_map, goals)
    if distance[x, y] in (0, UNREACHABLE):
        return None
    path = tcod.path.hillclimb2d(distance, (x, y), True, True)
    next_x, next_y = path[1].tolist()
    return next_x - x, next_y - y


def frontier(game_map: GameMap) -> NDArray[np.bool_]:
    """The explored floor tiles next to an unexplored tile: where exploring goes."""
    unknown = np.pad(~game_map.explored, 1, constant_values=False)
    width, height = game_map.width, game_map.height
    near_unknown = np.zeros_like(game_map.explored)
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            near_unknown |= unknown[1 + dx : 1 + dx + width, 1 + dy : 1 + dy + height]
    goals: NDArray[np.bool_] = near_unknown & game_map.explored & game_map.tiles["walkable"]
    return goals


def only(game_map: GameMap, x: int, y: int) -> NDArray[np.bool_]:
    """A goal map with the single goal (x, y)."""
    goals = np.zeros((game_map.width, game_map.height), dtype=bool, order="F")
    goals[x, y] = True
    return goals


def stairs_known(game_map: GameMap) -> bool:
    """Whether the player has seen the stairs down."""
    return bool(game_map.explored[game_map.downstairs_location])


class Walk:
    """Where a walk goes next: a step, or why it stops."""

    # Whether an item coming into view is news that stops the walk.
    stops_for_items = True

    def next_step(self, engine: Engine) -> Step | Stop:
        """The walk's next turn, or why it ends."""
        raise NotImplementedError()

    def stops_underfoot(self, engine: Engine) -> bool:
        """Whether the walk stops where the player now stands: on items or the stairs."""
        return underfoot(engine)

    def picks_up_at(self, engine: Engine, x: int, y: int) -> bool:
        """Whether the walk will pick up what lies at (x, y) once there; none does but exploring."""
        return False


def gatherable(engine: Engine) -> list[Item]:
    """The items seen lying about, but not those the player dropped, which stay put."""
    explored = engine.game_map.explored
    return [
        item
        for item in engine.game_map.items
        if explored[item.x, item.y] and not item.dropped_by_player
    ]


class Explore(Walk):
    """Auto-explore (Brogue's `x`, DCSS's `o`): to the nearest unexplored place or,
    when `gather`, item seen; then to the stairs, if known."""

    def __init__(self, gather: bool = True) -> None:
        self.finished = False
        self.gather = gather
        self.said_full = False
        # Gathering walks to the items it sees: seeing one is no news.
        self.stops_for_items = not gather

    def items_wanted(self, engine: Engine) -> list[Item]:
        """The items to gather, if any; with no room left, none (said once)."""
        items = gatherable(engine) if self.gather else []
        inventory = engine.player.inventory
        if items and len(inventory.items) >= inventory.capacity:
            if not self.said_full:
                self.said_full = True
                engine.message_log.add_message(FULL)
            return []
        return items

    def picks_up_at(self, engine: Engine, x: int, y: int) -> bool:
        return any((item.x, item.y) == (x, y) for item in self.items_wanted(engine))

    def next_step(self, engine: Engine) -> Step | Stop:
        game_map, player = engine.game_map, engine.player
        goals = frontier(game_map)
        for item in self.items_wanted(engine):
            if (item.x, item.y) == (player.x, player.y):
                return PICK_UP
            goals[item.x, item.y] = True
        step = step_toward(game_map, goals, player.x, player.y)
        if step is not None:
            return step
        if not stairs_known(game_map):
            return Stop(NOTHING_TO_EXPLORE)
        step = step_toward(game_map, only(game_map, *game_map.downstairs_location), player.x, player.y)
        if step is None:
            return Stop(NOTHING_TO_EXPLORE)
        if not self.finished:
            self.finished = True  # Said once, as the walk turns to the stairs.
            engine.message_log.add_message(NOTHING_TO_EXPLORE)
        return step

    def stops_underfoot(self, engine: Engine) -> bool:
        """Gathering stops on the stairs only: items underfoot are its to pick up or pass."""
        if not self.gather:
            return underfoot(engine)
        player = engine.player
        return (player.x, player.y) == engine.game_map.downstairs_location


class Travel(Walk):
    """To one explored tile: where the player clicked, or the stairs."""

    def __init__(self, x: int, y: int) -> None:
        self.dest = x, y

    def next_step(self, engine: Engine) -> Direction | Stop:
        game_map, player = engine.game_map, engine.player
        if (player.x, player.y) == self.dest:
            return Stop()
        x, y = self.dest
        if not (game_map.in_bounds(x, y) and game_map.explored[x, y] and walkable(game_map, x, y)):
            return Stop(NO_WAY)
        step = step_toward(game_map, only(game_map, *self.dest), player.x, player.y)
        return Stop(NO_WAY) if step is None else step


class Run(Walk):
    """Shift and a direction (NetHack, DCSS): straight on until a wall is
    ahead, or the tiles either side change (an opening, or the end of one)."""

    def __init__(self, dx: int, dy: int) -> None:
        self.direction = dx, dy
        self.sides: tuple[bool, bool] | None = None

    def open_sides(self, engine: Engine) -> tuple[bool, bool]:
        """Whether the tiles left and right of the player, across the way, are floor."""
        (dx, dy), player = self.direction, engine.player
        return (
            walkable(engine.game_map, player.x - dy, player.y + dx),
            walkable(engine.game_map, player.x + dy, player.y - dx),
        )

    def next_step(self, engine: Engine) -> Direction | Stop:
        player, (dx, dy) = engine.player, self.direction
        sides = self.open_sides(engine)
        first = self.sides is None
        if not first and sides != self.sides:
            return Stop()
        self.sides = sides
        if not walkable(engine.game_map, player.x + dx, player.y + dy):
            return Stop("That way is blocked." if first else None)
        return self.direction


def walkable(game_map: GameMap, x: int, y: int) -> bool:
    """Whether (x, y) is on the map and can be walked on (floor, the stairs)."""
    return game_map.in_bounds(x, y) and bool(game_map.tiles["walkable"][x, y])




class Watch:
    """What a walk watches between steps: the player's HP, monsters and what is seen.

    No list of monsters seen is kept: a walk starts with none in view
    (`refusal`), so any monster in view is news.
    """

    def __init__(self, engine: Engine, items: bool = True) -> None:
        self.items = items
        self.hp = engine.player.fighter.hp
        self.explored = engine.game_map.explored.copy()

    def news(self, engine: Engine) -> str | None:
        """What changed since the last look, as the message that stops the walk."""
        game_map = engine.game_map
        reason = self._compare(engine)
        self.hp = engine.player.fighter.hp
        self.explored = game_map.explored.copy()
        return reason

    def _compare(self, engine: Engine) -> str | None:
        game_map = engine.game_map
        if game_map.explored.shape != self.explored.shape:
            return None  # Another floor: the walk is over anyway.
        if engine.player.fighter.hp < self.hp:
            return "You are hurt."
        monsters = game_map.monsters_in_view
        if monsters:
            return comes_into_view(*monsters)
        newly_seen = game_map.visible & ~self.explored
        for item in game_map.items if self.items else []:
            if newly_seen[item.x, item.y]:
                return comes_into_view(item)
        if newly_seen[game_map.downstairs_location]:
            return "The stairs come into view."
        return None


def comes_into_view(*entities: Entity) -> str:
    """The news of monsters or an item seen, each told: "An Orc comes into view.",
    "2 Orcs and a Troll come into view."."""
    verb = "comes" if len(entities) == 1 else "come"
    return f"{capitalized(listed([entity.name for entity in entities]))} {verb} into view."


def refusal(engine: Engine) -> str | None:
    """Why no walk can start now: a monster in view."""
    monsters = engine.game_map.monsters_in_view
    if monsters:
        return f"Not with {with_article(monsters[0].name)} in view."
    return None


def underfoot(engine: Engine) -> bool:
    """Whether items or the stairs are where the player stands."""
    game_map, player = engine.game_map, engine.player
    if (player.x, player.y) == game_map.downstairs_location:
        return True
    return any(item.x == player.x and item.y == player.y for item in game_map.items)
