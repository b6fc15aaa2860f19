"""The slots a piece of equipment can fill."""

from enum import Enum, auto


class EquipmentType(Enum):
    """The slot a piece of equipment fills; one item per slot."""

    WEAPON = auto()
    ARMOR = auto()
