"""The order entities are drawn in."""

from enum import IntEnum, auto


class RenderOrder(IntEnum):
    """An entity's drawing layer: a later one is drawn over an earlier one.

    An IntEnum, where the tutorial's was an Enum: layers compare as numbers,
    so the map sorts its entities by the layer itself each frame; an Enum's
    `.value`, read for each entity, is a Python-level property (docs/performance.md).
    """

    CORPSE = auto()
    ITEM = auto()
    ACTOR = auto()
