"""The slots a piece of equipment can fill."""

from enum import Enum, auto


class EquipmentType(Enum):
    WEAPON = auto()
    ARMOR = auto()
