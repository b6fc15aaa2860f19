"""What a piece of equipment adds, and the four pieces the game has."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from components.base_component import BaseComponent
from equipment_types import EquipmentType
from saving.save_fields import MAX_NUMBER, Choice, Fields, Int

if TYPE_CHECKING:
    from entity import Item


class Equippable(BaseComponent):
    parent: Item
    saved_fields: ClassVar[Fields] = {
        "equipment_type": Choice(EquipmentType),
        "power_bonus": Int(0, MAX_NUMBER),
        "defense_bonus": Int(0, MAX_NUMBER),
    }

    def __init__(
        self,
        equipment_type: EquipmentType,
        power_bonus: int = 0,
        defense_bonus: int = 0,
    ):
        self.equipment_type = equipment_type

        self.power_bonus = power_bonus
        self.defense_bonus = defense_bonus

    def describe(self) -> str:
        """What wearing it adds, as "+4 power", from its own bonuses."""
        bonuses = [
            f"{bonus:+d} {attribute}"
            for bonus, attribute in ((self.power_bonus, "power"), (self.defense_bonus, "defense"))
            if bonus
        ]
        return ", ".join(bonuses) or "no bonus"


class Dagger(Equippable):
    def __init__(self) -> None:
        super().__init__(equipment_type=EquipmentType.WEAPON, power_bonus=2)


class Sword(Equippable):
    def __init__(self) -> None:
        super().__init__(equipment_type=EquipmentType.WEAPON, power_bonus=4)


class LeatherArmor(Equippable):
    def __init__(self) -> None:
        super().__init__(equipment_type=EquipmentType.ARMOR, defense_bonus=1)


class ChainMail(Equippable):
    def __init__(self) -> None:
        super().__init__(equipment_type=EquipmentType.ARMOR, defense_bonus=3)
