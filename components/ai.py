"""How monsters decide what to do on their turn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final

import numpy as np
import tcod

from actions import Action, BumpAction, MeleeAction, MovementAction, WaitAction
from saving.save_fields import (
    MAX_NUMBER,
    MAX_TILES,
    Field,
    Fields,
    Int,
    Link,
    ListOf,
    OneOf,
    Point,
    Wrapped,
    fields_of,
)
from saving.savefile import DamagedSaveError

if TYPE_CHECKING:
    from entity import Actor

MAX_CONFUSION: Final = 100  # Confusions piled on one monster.
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


class BaseAI(Action):
    entity: Actor
    # What a save holds of each AI (see save_fields); each class adds its own.
    saved_fields: ClassVar[Fields] = {"entity": Link()}

    def perform(self) -> None:
        raise NotImplementedError()

    def get_path_to(self, dest_x: int, dest_y: int) -> list[tuple[int, int]]:
        """Compute and return a path to the target position.

        If there is no valid path then returns an empty list.
        """
        # Copy the walkable array.
        cost = np.array(self.entity.gamemap.tiles["walkable"], dtype=np.int8)

        for entity in self.entity.gamemap.entities:
            # Check that an enitiy blocks movement and the cost isn't zero (blocking.)
            if entity.blocks_movement and cost[entity.x, entity.y]:
                # Add to the cost of a blocked position.
                # A lower number means more enemies will crowd behind each other in
                # hallways.  A higher number means enemies will take longer paths in
                # order to surround the player.
                cost[entity.x, entity.y] += 10

        # The tutorial made a `SimpleGraph(cost, cardinal=2, diagonal=3)` and a
        # `Pathfinder` here.  libtcod's A* takes the same costs (a diagonal step
        # 1.5 times a straight one) and finds paths just as short, in a sixth of
        # the time: with 40 monsters awake that is what keeps a turn within one
        # frame (see the README's Performance section).  It does not weigh the
        # tile it ends on, the player's, which a monster attacks and never enters.
        astar = tcod.path.AStar(cost, diagonal=1.5)
        return astar.get_path(self.entity.x, self.entity.y, dest_x, dest_y)


class ConfusedEnemy(BaseAI):
    """A confused enemy will stumble around aimlessly for a given number of turns, then revert back to its previous AI.

    If an actor occupies a tile it is randomly moving into, it will attack.
    """

    saved_fields: ClassVar[Fields] = {"previous_ai": Wrapped(), "turns_remaining": Int(0, MAX_NUMBER)}

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
    saved_fields: ClassVar[Fields] = {"path": ListOf(Point(), MAX_TILES)}

    def __init__(self, entity: Actor, path: list[tuple[int, int]] | None = None):
        super().__init__(entity)
        # The steps to where it last saw the player, saved: a loaded monster
        # goes on the way it was going.
        self.path: list[tuple[int, int]] = [] if path is None else path

    def perform(self) -> None:
        engine = self.engine  # Found through the map: asked once a turn.
        target = engine.player
        dx = target.x - self.entity.x
        dy = target.y - self.entity.y
        distance = max(abs(dx), abs(dy))  # Chebyshev distance.

        if engine.game_map.visible[self.entity.x, self.entity.y]:
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


class Mind(Field):
    """An actor's AI as a list of layers, outermost first: confusions over the
    real AI (the layer each `Wrapped` field holds), so that no save nests
    deeper with each confusion.  Empty for the dead."""

    layer = OneOf(BaseAI, abstract=[BaseAI])

    @staticmethod
    def wrapped(ai: object) -> str | None:
        """The field of `ai` holding the AI it wraps, if any."""
        return next((name for name, field in fields_of(type(ai)).items() if isinstance(field, Wrapped)), None)

    def write(self, value: Any, owner: Any) -> object:
        layers = []
        while value is not None:
            layers.append(self.layer.write(value, owner))
            wraps = self.wrapped(value)
            value = None if wraps is None else getattr(value, wraps)
        return layers

    def read(self, value: object, what: str, owner: Any) -> object:
        if type(value) is not list or len(value) > MAX_CONFUSION + 1:
            raise DamagedSaveError(f"{what} is not a list of at most {MAX_CONFUSION + 1} entries")
        ai = None
        for number in reversed(range(len(value))):
            layer_what = f"layer {number + 1} of {what}"
            layer = self.layer.read(value[number], layer_what, owner)
            wraps = self.wrapped(layer)
            if wraps is not None:
                setattr(layer, wraps, ai)
            elif ai is not None:
                raise DamagedSaveError(f"{layer_what} is over another, but wraps none")
            ai = layer
        return ai
