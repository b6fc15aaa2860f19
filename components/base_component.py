"""The base every component shares: a parent, and from it the map and engine."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from saving.save_fields import Fields, Link

if TYPE_CHECKING:
    from engine import Engine
    from entity import Entity
    from game_map import GameMap


class BaseComponent:
    parent: Entity
    # What a save holds of each component (see save_fields); each class adds its own.
    saved_fields: ClassVar[Fields] = {"parent": Link()}

    @property
    def gamemap(self) -> GameMap:
        return self.parent.gamemap

    @property
    def engine(self) -> Engine:
        return self.gamemap.engine
