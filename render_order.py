"""Drawing layers: entities with a higher order are drawn on top."""

from enum import Enum, auto


class RenderOrder(Enum):
    CORPSE = auto()
    ITEM = auto()
    ACTOR = auto()
