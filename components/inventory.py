"""What an actor carries, up to its capacity."""

from __future__ import annotations

from typing import TYPE_CHECKING

from components.base_component import BaseComponent

if TYPE_CHECKING:
    from entity import Actor, Item


class Inventory(BaseComponent):
    parent: Actor

    def __init__(self, capacity: int):
        self.capacity = capacity
        self.items: list[Item] = []

    def add(self, item: Item) -> None:
        """Put `item` in the pack: the one way an item comes to be carried
        (picked up, the starting gear, a loaded game), so each is carried alike."""
        item.parent = self
        self.items.append(item)

    def drop(self, item: Item) -> None:
        """Removes an item from the inventory and restores it to the game map, at the player's current location."""
        self.items.remove(item)
        item.place(self.parent.x, self.parent.y, self.gamemap)
        item.dropped_by_player = True

        self.engine.message_log.add_message(f"You dropped the {item.name}.")
