"""How monsters decide what to do on their turn."""

from __future__ import annotations

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
    for entity in gamemap.entities:
        if entity.blocks_movement and x0 <= entity.x < x1 and y0 <= entity.y < y1:
            cost[entity.x - x0, entity.y - y0] += BLOCKER_COST
    return cost


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
        only falls back to the whole map when the window holds no path.
        """
        gamemap = self.entity.gamemap
        start = self.entity.x, self.entity.y
        for margin in (PATH_MARGIN, max(gamemap.width, gamemap.height)):
            x0 = max(0, min(start[0], dest_x) - margin)
            y0 = max(0, min(start[1], dest_y) - margin)
            x1 = min(gamemap.width, max(start[0], dest_x) + margin + 1)
            y1 = min(gamemap.height, max(start[1], dest_y) + margin + 1)
            path = tcod.path.path2d(
                path_cost(gamemap, x0, y0, x1, y1),
                start_points=[(start[0] - x0, start[1] - y0)],
                end_points=[(dest_x - x0, dest_y - y0)],
                cardinal=2,
                diagonal=3,
            )
            if len(path):
                # Convert from a window array to a list of map positions,
                # leaving out the starting point.
                return [(x + x0, y + y0) for x, y in path[1:].tolist()]
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
        target = self.engine.player
        dx = target.x - self.entity.x
        dy = target.y - self.entity.y
        distance = max(abs(dx), abs(dy))  # Chebyshev distance.

        if self.engine.game_map.visible[self.entity.x, self.entity.y]:
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
