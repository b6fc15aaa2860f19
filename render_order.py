"""The order entities are drawn in."""

from enum import Enum, auto


class RenderOrder(Enum):
    """An entity's drawing layer: a later one is drawn over an earlier one."""

    CORPSE = auto()
    ITEM = auto()
    ACTOR = auto()
