"""How monsters decide what to do on their turn."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

import numpy as np
import tcod

from actions import Action, BumpAction, MeleeAction, MovementAction, WaitAction

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from entity import Actor
    from game_map import GameMap

# How far around the two ends of a path the first, local search looks.
PATH_MARGIN: Final = 10
# How far around its destination a shared distance map reaches (see
# `shared_paths`): monsters see the player from 8 tiles away at most (the
# FOV radius), and their paths get `PATH_MARGIN` to spare.
SHARED_RADIUS: Final = 8 + PATH_MARGIN
# Extra cost of stepping onto a tile that another actor stands on: monsters
# prefer to walk around each other rather than queue behind one another.
BLOCKER_COST: Final = 10

DIRECTIONS: Final = (
    (-1, -1),  # Northwest
    (0, -1),  # North
    (1, -1),  # Northeast
    (-1, 0),  # West
    (1, 0),  # East
    (-1, 1),  # Southwest
    (0, 1),  # South
    (1, 1),  # Southeast
)


def path_cost(gamemap: GameMap, x0: int, y0: int, x1: int, y1: int) -> NDArray[np.int16]:
    """The cost of walking each tile of the window [x0:x1, y0:y1] of the map.

    Walls cost 0 (impassable), floors 1, and tiles with a blocking entity
    `BLOCKER_COST` more.
    """
    cost = gamemap.tiles["walkable"][x0:x1, y0:y1].astype(np.int16)
    for entity in gamemap.blocking_entities_in(x0, y0, x1, y1):
        cost[entity.x - x0, entity.y - y0] += BLOCKER_COST
    return cost


class DistanceMap:
    """How far each tile of a window of the map is from one destination.

    Walking costs as in `path_cost`, a step across twice and a diagonal step
    three times the cost of the tile.  One search of the window serves every
    path to the destination from inside it.
    """

    def __init__(
        self, gamemap: GameMap, dest_x: int, dest_y: int, x0: int, y0: int, x1: int, y1: int
    ) -> None:
        self.gamemap = gamemap
        self.dest = dest_x, dest_y
        self.x0, self.y0 = x0, y0
        self.cost = path_cost(gamemap, x0, y0, x1, y1)
        # libtcod's Dijkstra, several times faster here than `dijkstra2d`.
        self._dijkstra = tcod.path.Dijkstra(self.cost, diagonal=1.5)
        self._dijkstra.set_goal(dest_x - x0, dest_y - y0)

    @classmethod
    def around(cls, gamemap: GameMap, dest_x: int, dest_y: int, radius: int) -> DistanceMap:
        """A distance map of the window within `radius` of the destination."""
        return cls(
            gamemap,
            dest_x,
            dest_y,
            max(0, dest_x - radius),
            max(0, dest_y - radius),
            min(gamemap.width, dest_x + radius + 1),
            min(gamemap.height, dest_y + radius + 1),
        )

    def path_from(self, x: int, y: int) -> list[tuple[int, int]] | None:
        """The path from (x, y) to the destination, without (x, y).

        None when (x, y) is outside the window or no path inside it leads there.
        """
        if (x, y) == self.dest:
            return []
        i, j = x - self.x0, y - self.y0
        width, height = self.cost.shape
        if not (0 <= i < width and 0 <= j < height):
            return None
        # From the tile next to the destination back to (x, y), inclusive.
        steps = self._dijkstra.get_path(i, j)
        if not steps:
            return None
        path = [(step_i + self.x0, step_j + self.y0) for step_i, step_j in reversed(steps[:-1])]
        path.append(self.dest)
        return path

    def blocked_since(self, x: int, y: int) -> bool:
        """Whether (x, y) was free when this map was made, and is blocked now."""
        return (
            self.cost[x - self.x0, y - self.y0] <= 1
            and self.gamemap.get_blocking_entity_at_location(x, y) is not None
        )


@contextlib.contextmanager
def shared_paths(gamemap: GameMap) -> Iterator[None]:
    """Let the paths to one destination on `gamemap` share a distance map
    while the block runs.

    For the monsters' turns (see `Engine.handle_enemy_turns`): the monsters
    closing in on the player then cost one search of the map around the player
    between them, not one search each.  The shared map holds the blocking
    entities where they stood when it was made; when a monster finds the first
    step of its path blocked since, the map is made anew.  (A step freed since
    was the best step already, and is only better now.)

    The maps are kept in `gamemap.shared_distances` meanwhile, and dropped
    after, so a save never holds them.
    """
    if gamemap.shared_distances is not None:  # Already sharing.
        yield
        return
    gamemap.shared_distances = {}
    try:
        yield
    finally:
        del gamemap.shared_distances  # Back to the class's default: None.


def _shared_path(
    gamemap: GameMap, x: int, y: int, dest_x: int, dest_y: int
) -> list[tuple[int, int]] | None:
    """The path from (x, y) on the shared distance map to (dest_x, dest_y), if any."""
    shared = gamemap.shared_distances
    assert shared is not None
    distances = shared.get((dest_x, dest_y))
    if distances is None:
        distances = shared[dest_x, dest_y] = DistanceMap.around(
            gamemap, dest_x, dest_y, SHARED_RADIUS
        )
    path = distances.path_from(x, y)
    if path and distances.blocked_since(*path[0]):
        distances = shared[dest_x, dest_y] = DistanceMap.around(
            gamemap, dest_x, dest_y, SHARED_RADIUS
        )
        path = distances.path_from(x, y)
    return path


class BaseAI(Action):
    entity: Actor

    def perform(self) -> None:
        raise NotImplementedError()

    def get_path_to(self, dest_x: int, dest_y: int) -> list[tuple[int, int]]:
        """Compute and return a path to the target position.

        If there is no valid path then returns an empty list.

        The tutorial rebuilt a cost array of the whole map for every monster
        on every turn.  This searches a window around both ends first, so the
        cost follows the distance walked rather than the size of the map, and
        only falls back to the whole map when the window holds no path.  While
        the monsters take their turns, paths to the same place share one
        search (see `shared_paths`).
        """
        gamemap = self.entity.gamemap
        x, y = self.entity.x, self.entity.y
        if gamemap.shared_distances is not None:
            path = _shared_path(gamemap, x, y, dest_x, dest_y)
            if path is not None:
                return path
        for margin in (PATH_MARGIN, max(gamemap.width, gamemap.height)):
            path = DistanceMap(
                gamemap,
                dest_x,
                dest_y,
                max(0, min(x, dest_x) - margin),
                max(0, min(y, dest_y) - margin),
                min(gamemap.width, max(x, dest_x) + margin + 1),
                min(gamemap.height, max(y, dest_y) + margin + 1),
            ).path_from(x, y)
            if path is not None:
                return path
        return []


class ConfusedEnemy(BaseAI):
    """A confused enemy will stumble around aimlessly for a given number of turns, then revert back to its previous AI.

    If an actor occupies a tile it is randomly moving into, it will attack.
    """

    def __init__(self, entity: Actor, previous_ai: BaseAI | None, turns_remaining: int):
        super().__init__(entity)

        self.previous_ai = previous_ai
        self.turns_remaining = turns_remaining

    def perform(self) -> None:
        # Revert the AI back to the original state if the effect has run its course.
        if self.turns_remaining <= 0:
            self.engine.message_log.add_message(
                f"The {self.entity.name} is no longer confused."
            )
            self.entity.ai = self.previous_ai
        else:
            # Pick a random direction
            direction_x, direction_y = DIRECTIONS[self.engine.rng.integers(len(DIRECTIONS))]

            self.turns_remaining -= 1

            # The actor will either try to move or attack in the chosen random direction.
            # It's possible the actor will just bump into the wall, wasting a turn.
            return BumpAction(self.entity, direction_x, direction_y).perform()


class HostileEnemy(BaseAI):
    def __init__(self, entity: Actor):
        super().__init__(entity)
        self.path: list[tuple[int, int]] = []

    def perform(self) -> None:
        # Most monsters on a floor are out of sight and wait: that costs the
        # least that it can, since each of them does it every turn.
        engine = self.engine
        if engine.game_map.visible[self.entity.x, self.entity.y]:
            target = engine.player
            dx = target.x - self.entity.x
            dy = target.y - self.entity.y
            distance = max(abs(dx), abs(dy))  # Chebyshev distance.
            if distance <= 1:
                return MeleeAction(self.entity, dx, dy).perform()

            self.path = self.get_path_to(target.x, target.y)

        if self.path:
            dest_x, dest_y = self.path.pop(0)
            dx, dy = dest_x - self.entity.x, dest_y - self.entity.y
            # The tutorial stepped to the next point even when it was no
            # longer next to the monster (after a blocked step, or stumbling
            # while confused), so the monster jumped the gap.  Such a path is
            # lost: wait instead.
            if max(abs(dx), abs(dy)) == 1:
                return MovementAction(self.entity, dx, dy).perform()
            self.path = []

        return WaitAction(self.entity).perform()
