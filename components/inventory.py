"""What an actor carries, up to its capacity, under letters that stay put.

As in DCSS, identical potions and scrolls share one letter and are listed
once with a count ("Health Potion (x3)"), and an item kind keeps its letter
while any of it is carried: drinking or dropping one thing never moves the
letter of another, so a practised key press stays right.  Weapons and armour
never stack; each keeps a letter of its own.  (The tutorial lettered items
by their place in the pack, so every use moved the letters below it.)
"""

from __future__ import annotations

import string
from typing import TYPE_CHECKING, Final

from components.base_component import BaseComponent

if TYPE_CHECKING:
    from entity import Actor, Item

LETTERS: Final = string.ascii_lowercase  # The inventory screens' keys; at most 26 kinds.


def stack_name(stack: list[Item]) -> str:
    """How the inventory screens name a stack: "Health Potion (x3)", or just the name of one."""
    name = stack[0].name
    return f"{name} (x{len(stack)})" if len(stack) > 1 else name


def stacks_with(item: Item, other: Item) -> bool:
    """Whether two items are one kind that shares a letter: potions and
    scrolls of one name do; whatever can be worn does not."""
    return item.equippable is None and other.equippable is None and item.name == other.name


class Inventory(BaseComponent):
    parent: Actor

    def __init__(self, capacity: int, by_kind: bool = True):
        self.capacity = capacity
        # Each carried item, in the order picked up, and the letter of its kind;
        # the one record of what is carried.
        self.letters: dict[Item, str] = {}
        # False in a game begun before letters were kept by kind (a save or a
        # recording of an earlier format): it keeps the tutorial's letters, by
        # place in the pack, so that its recorded key presses mean what they did.
        self.by_kind = by_kind

    @property
    def items(self) -> list[Item]:
        """Every carried item, in the order picked up."""
        return list(self.letters)

    def listing(self) -> list[tuple[str, list[Item]]]:
        """The letters in use and what each stands for, in alphabetical order:
        the inventory screens' lines."""
        if not self.by_kind:
            return [(letter, [item]) for letter, item in zip(LETTERS, self.letters, strict=False)]
        stacks: dict[str, list[Item]] = {}
        for item, letter in self.letters.items():
            stacks.setdefault(letter, []).append(item)
        return sorted(stacks.items())

    def stack(self, letter: str) -> list[Item]:
        """What `letter` stands for; empty when it stands for nothing carried."""
        return dict(self.listing()).get(letter, [])

    def letter_of(self, item: Item) -> str:
        """The letter `item` is listed under."""
        for letter, stack in self.listing():
            if any(carried is item for carried in stack):
                return letter
        raise ValueError(f"the {item.name} is not carried")

    def letter_for(self, item: Item) -> str:
        """The letter `item` would take if picked up now: its kind's, or the first free one."""
        for carried, letter in self.letters.items():
            if stacks_with(item, carried):
                return letter
        free = [letter for letter in LETTERS if letter not in self.letters.values()]
        if not free:
            raise ValueError(f"no letter is free for the {item.name}")
        return free[0]

    def add(self, item: Item, letter: str | None = None) -> None:
        """Put `item` in the pack: the one way an item comes to be carried
        (picked up, the starting gear, a loaded game), so each is carried alike.

        It goes under its kind's letter, or the first free one; a loaded game
        gives the `letter` it was saved under (checked by the loader).
        """
        item.parent = self
        self.letters[item] = letter or self.letter_for(item)

    def remove(self, item: Item) -> None:
        """Take `item` out of the pack (used up or dropped); a letter left
        with nothing under it is free again."""
        del self.letters[item]

    def drop(self, item: Item) -> None:
        """Removes an item from the inventory and restores it to the game map, at the player's current location."""
        self.remove(item)
        item.place(self.parent.x, self.parent.y, self.gamemap)
        item.dropped_by_player = True

        self.engine.message_log.add_message(f"You dropped the {item.name}.")
