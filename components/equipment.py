"""The two slots an actor wears things in, and the bonuses they give."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

from components.base_component import BaseComponent
from equipment_types import EquipmentType
from saving.save_fields import Fields, Maybe, Ref
from saving.savefile import DamagedSaveError

if TYPE_CHECKING:
    from entity import Actor, Item

# Which attribute of `Equipment` holds each type of equipment.
SLOT_FOR_TYPE: Final = {EquipmentType.WEAPON: "weapon", EquipmentType.ARMOR: "armor"}


class Equipment(BaseComponent):
    parent: Actor
    # What is worn, as one of the items carried.
    saved_fields: ClassVar[Fields] = {"weapon": Maybe(Ref("parent.inventory.items")), "armor": Maybe(Ref("parent.inventory.items"))}

    def __init__(self, weapon: Item | None = None, armor: Item | None = None):
        self.weapon = weapon
        self.armor = armor

    def check_loaded(self, what: str) -> None:
        for kind, slot in SLOT_FOR_TYPE.items():
            item = getattr(self, slot)
            if item is not None and (item.equippable is None or item.equippable.equipment_type is not kind):
                raise DamagedSaveError(f"the {slot} of {what} is not worn in that slot")

    def _worn(self) -> list[Item]:
        return [item for item in (self.weapon, self.armor) if item is not None]

    @property
    def defense_bonus(self) -> int:
        return sum(item.equippable.defense_bonus for item in self._worn() if item.equippable)

    @property
    def power_bonus(self) -> int:
        return sum(item.equippable.power_bonus for item in self._worn() if item.equippable)

    def item_is_equipped(self, item: Item) -> bool:
        return self.weapon is item or self.armor is item

    def unequip_message(self, item_name: str) -> None:
        self.parent.gamemap.engine.message_log.add_message(f"You remove the {item_name}.")

    def equip_message(self, item_name: str) -> None:
        self.parent.gamemap.engine.message_log.add_message(f"You equip the {item_name}.")

    def equip_to_slot(self, slot: str, item: Item, add_message: bool) -> None:
        current_item = getattr(self, slot)

        if current_item is not None:
            self.unequip_from_slot(slot, add_message)

        setattr(self, slot, item)

        if add_message:
            self.equip_message(item.name)

    def unequip_from_slot(self, slot: str, add_message: bool) -> None:
        current_item = getattr(self, slot)

        if add_message and current_item is not None:
            self.unequip_message(current_item.name)

        setattr(self, slot, None)

    def toggle_equip(self, equippable_item: Item, add_message: bool = True) -> None:
        """Wear the item, swapping out what held its slot, or take it off if it is worn."""
        if equippable_item.equippable is None:
            return
        slot = SLOT_FOR_TYPE[equippable_item.equippable.equipment_type]

        if getattr(self, slot) is equippable_item:
            self.unequip_from_slot(slot, add_message)
        else:
            self.equip_to_slot(slot, equippable_item, add_message)
