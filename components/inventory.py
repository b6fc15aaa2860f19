"""What an actor carries, up to its capacity, under letters that stay put.

As in DCSS, identical potions and scrolls share one letter and are listed
once with a count ("Health Potion (x3)"), and an item kind keeps its letter
while any of it is carried: drinking or dropping one thing never moves the
letter of another, so a practised key press stays right.  Weapons and armour
never stack; each keeps a letter of its own.  (The tutorial lettered items
by their place in the pack, so every use moved the letters below it.)

`items` is the one record of what is carried, a plain list as in the
tutorial: `items.append(item)` picks up, `items.remove(item)` uses up or
drops.  The letters are a memo made from it whenever they are read.
"""

from __future__ import annotations

import string
from typing import TYPE_CHECKING, Any, ClassVar, Final

from components.base_component import BaseComponent
from entity import Item
from saving.save_fields import Bool, Field, Fields, Int, ListOf, OneOf
from saving.savefile import DamagedSaveError
from words.grammar import with_article

if TYPE_CHECKING:
    from entity import Actor

LETTERS: Final = string.ascii_lowercase  # The inventory screens' keys; at most 26 kinds.


def stack_name(stack: list[Item]) -> str:
    """How the inventory screens name a stack: "Health Potion (x3)", or just the name of one."""
    name = stack[0].name
    return f"{name} (x{len(stack)})" if len(stack) > 1 else name


def stacks_with(item: Item, other: Item) -> bool:
    """Whether two items are one kind that shares a letter: potions and
    scrolls of one name do; whatever can be worn does not."""
    return item.equippable is None and other.equippable is None and item.name == other.name


def letter_among(lettered: dict[Item, str], item: Item) -> str:
    """The letter `item` takes beside `lettered`: its kind's, or the first free one."""
    for carried, letter in lettered.items():
        if stacks_with(item, carried):
            return letter
    used = set(lettered.values())
    free = [letter for letter in LETTERS if letter not in used]
    if not free:
        raise ValueError(f"no letter is free for the {item.name}")
    return free[0]


class SavedLetters(Field):
    """The letters as a text, one per item carried, in order: read, the
    letters the game could have given, checked against the items."""

    def write(self, value: Any, owner: Any) -> object:
        letters = owner.letters
        return "".join(letters[item] for item in owner.items)

    def read(self, value: object, what: str, owner: Any) -> dict[Item, str]:
        items: list[Item] = owner.items
        if type(value) is not str or len(value) != len(items) or not set(value) <= set(LETTERS):
            raise DamagedSaveError(f"{what} are not one letter a to z for each item")
        lettered: dict[Item, str] = {}
        for item, letter in zip(items, value, strict=True):
            for carried, carried_letter in lettered.items():
                if (carried_letter == letter) != stacks_with(item, carried):
                    alike = "like items under two letters" if carried_letter != letter else "unlike items under one letter"
                    raise DamagedSaveError(f"{what} put {alike}")
            lettered[item] = letter
        return lettered


class Inventory(BaseComponent):
    parent: Actor
    saved_fields: ClassVar[Fields] = {
        "capacity": Int(0, len(LETTERS)),
        "items": ListOf(OneOf(Item), len(LETTERS)),
        "by_kind": Bool(),
        "kept_letters": SavedLetters(default={}),  # None kept: the order carried gives them.
    }

    def __init__(self, capacity: int, by_kind: bool = True):
        self.capacity = capacity
        # Each carried item, in the order picked up: the one record of what is carried.
        self.items: list[Item] = []
        # False in a game begun before letters were kept by kind (a save or a
        # recording of an earlier format): it keeps the tutorial's letters, by
        # place in the pack, so that its recorded key presses mean what they did.
        self.by_kind = by_kind
        # The letters last given, so that a kind keeps its own (see `letters`).
        self.kept_letters: dict[Item, str] = {}

    def check_loaded(self, what: str) -> None:
        if len(self.items) > self.capacity:
            raise DamagedSaveError(f"the items of {what} are more than its capacity")

    @property
    def letters(self) -> dict[Item, str]:
        """Each carried item, in the order of `items`, and the letter of its kind.

        Made from `items` at each reading, so nothing has to be kept in step:
        a kind still carried keeps its letter; the letter of a kind no longer
        carried is free; a kind new to the pack takes the first free letter.
        """
        kept: dict[Item, str] = {}
        for item in self.items:
            letter = self.kept_letters.get(item)
            # Kept unless an unlike item holds it, or a like one holds another.
            if letter is not None and not any(
                (used == letter) != stacks_with(item, other) for other, used in kept.items()
            ):
                kept[item] = letter
        for item in self.items:
            if item not in kept:
                kept[item] = letter_among(kept, item)
        self.kept_letters = {item: kept[item] for item in self.items}
        return self.kept_letters

    def listing(self) -> list[tuple[str, list[Item]]]:
        """The letters in use and what each stands for, in alphabetical order:
        the inventory screens' lines."""
        if not self.by_kind:
            return [(letter, [item]) for letter, item in zip(LETTERS, self.items, strict=False)]
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

    def listed_as(self, item: Item) -> str:
        """How a pick-up names `item` (DCSS's words): "b - a Health Potion",
        "b - Health Potion (x2)" when it joined others of its kind."""
        letter = self.letter_of(item)
        stack = self.stack(letter)
        return f"{letter} - {with_article(item.name) if len(stack) == 1 else stack_name(stack)}"

    def letter_for(self, item: Item) -> str:
        """The letter `item` would take if picked up now: its kind's, or the first free one."""
        return letter_among(self.letters, item)

    def add(self, item: Item) -> None:
        """Put `item` in the pack, as the tutorial's pickup does: under its
        kind's letter, or the first free one."""
        item.parent = self
        self.items.append(item)

    def remove(self, item: Item) -> None:
        """Take `item` out of the pack (used up or dropped); a letter left
        with nothing under it is free again."""
        self.items.remove(item)

    def drop(self, item: Item) -> None:
        """Removes an item from the inventory and restores it to the game map, at the player's current location."""
        self.remove(item)
        item.place(self.parent.x, self.parent.y, self.gamemap)
        item.dropped_by_player = True

        self.engine.message_log.add_message(f"You dropped the {item.name}.")
