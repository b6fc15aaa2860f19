"""`q`, `r` and `w`, as NetHack and DCSS have them: what each asks, what it lists of
what is carried, and what it says when nothing fits.  A new verb is a line here and
its key (`controls.keys`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final, NamedTuple

from controls.keys import Command

if TYPE_CHECKING:
    from entity import Item


class Verb(NamedTuple):
    """The inventory's screen for one verb: its title, and what it lists."""

    title: str
    nothing: str  # Said, at no cost, when nothing carried fits.
    fits: Callable[[Item], bool]


def quaffed(item: Item) -> bool:
    """A potion: drunk, not read."""
    consumable = item.consumable
    return consumable is not None and consumable.quaffed


def read(item: Item) -> bool:
    """A scroll: any consumable not drunk."""
    consumable = item.consumable
    return consumable is not None and not consumable.quaffed


def worn(item: Item) -> bool:
    """What is worn or wielded."""
    return item.equippable is not None


VERBS: Final[dict[Command, Verb]] = {
    Command.QUAFF: Verb("Quaff which potion?", "You have nothing to quaff.", quaffed),
    Command.READ: Verb("Read which scroll?", "You have nothing to read.", read),
    Command.WEAR: Verb("Wear or wield which?", "You have nothing to wear or wield.", worn),
}
