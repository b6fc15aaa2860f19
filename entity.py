"""Everything that sits on the map: the generic `Entity`, and `Actor` and `Item`."""

from __future__ import annotations

import copy
import math
from typing import TYPE_CHECKING, ClassVar, TypeVar

from components.ai import Mind
from components.equipment import Equipment
from components.equippable import Equippable
from components.fighter import Fighter
from components.level import Level
from render_order import RenderOrder
from saving.save_fields import (
    MAX_SIDE,
    Bool,
    Choice,
    Color,
    Fields,
    Int,
    Link,
    Maybe,
    OneOf,
    Part,
    Text,
)
from saving.savefile import DamagedSaveError
from words.grammar import with_article

if TYPE_CHECKING:
    from components.ai import BaseAI
    from components.consumable import Consumable
    from components.inventory import Inventory
    from game_map import GameMap

T = TypeVar("T", bound="Entity")


class Entity:
    """A generic object to represent players, enemies, items, etc."""

    parent: GameMap | Inventory
    saved_fields: ClassVar[Fields] = {
        "parent": Link(),
        "x": Int(0, MAX_SIDE),
        "y": Int(0, MAX_SIDE),
        "char": Text(1, exact=True),
        "color": Color(),
        "name": Text(),
        "blocks_movement": Bool(),
        "render_order": Choice(RenderOrder),
    }

    def __init__(
        self,
        parent: GameMap | None = None,
        x: int = 0,
        y: int = 0,
        char: str = "?",
        color: tuple[int, int, int] = (255, 255, 255),
        name: str = "<Unnamed>",
        blocks_movement: bool = False,
        render_order: RenderOrder = RenderOrder.CORPSE,
    ):
        self.x = x
        self.y = y
        self.char = char
        self.color = color
        self.name = name
        self.blocks_movement = blocks_movement
        self.render_order = render_order
        if parent:
            # If parent isn't provided now then it will be set later.
            self.parent = parent
            parent.entities.add(self)

    @property
    def gamemap(self) -> GameMap:
        return self.parent.gamemap

    @property
    def name_with_article(self) -> str:
        """The name as a sentence uses it: "an Orc", "a Troll"."""
        return with_article(self.name)

    def spawn(self: T, gamemap: GameMap, x: int, y: int) -> T:
        """Spawn a copy of this instance at the given location."""
        clone = copy.deepcopy(self)
        clone.place(x, y, gamemap)
        return clone

    def place(self, x: int, y: int, gamemap: GameMap | None = None) -> None:
        """Place this entity at a new location.  Handles moving across GameMaps.

        Every change of place of an entity on a map comes here (`move` and
        `spawn` too) and goes through the map, which files its entities by
        where they stand (`EntitySet.place`): set `x` and `y` by hand, and
        the map would look for it where it was.
        """
        # `parent` is possibly uninitialized, or an inventory.
        here = self.parent if hasattr(self, "parent") and self.parent is self.gamemap else None
        there = gamemap or here
        if here is not None and here is not there:
            here.entities.remove(self)
        if there is None:
            self.x, self.y = x, y
        else:
            self.parent = there
            there.entities.place(self, x, y)

    def distance(self, x: int, y: int) -> float:
        """Return the distance between the current entity and the given (x, y) coordinate."""
        return math.sqrt((x - self.x) ** 2 + (y - self.y) ** 2)

    def move(self, dx: int, dy: int) -> None:
        # Move the entity by a given amount
        self.place(self.x + dx, self.y + dy)


class Actor(Entity):
    """An entity that takes turns: it fights, thinks, carries and grows."""

    saved_fields: ClassVar[Fields] = {
        "fighter": Part(Fighter),
        "inventory": Part("components.inventory.Inventory"),  # Named: its module imports this one.
        "equipment": Part(Equipment),
        "level": Part(Level),
        "ai": Mind(),
    }

    def __init__(
        self,
        *,
        x: int = 0,
        y: int = 0,
        char: str = "?",
        color: tuple[int, int, int] = (255, 255, 255),
        name: str = "<Unnamed>",
        ai_cls: type[BaseAI],
        equipment: Equipment,
        fighter: Fighter,
        inventory: Inventory,
        level: Level,
    ):
        super().__init__(
            x=x,
            y=y,
            char=char,
            color=color,
            name=name,
            blocks_movement=True,
            render_order=RenderOrder.ACTOR,
        )

        self.ai: BaseAI | None = ai_cls(self)

        self.equipment = equipment
        self.equipment.parent = self

        self.fighter = fighter
        self.fighter.parent = self

        self.inventory = inventory
        self.inventory.parent = self

        self.level = level
        self.level.parent = self

    @property
    def is_alive(self) -> bool:
        """Returns True as long as this actor can perform actions."""
        return bool(self.ai)

    def check_loaded(self, what: str) -> None:
        if self.fighter.hp > self.fighter.max_hp:
            raise DamagedSaveError(f"the _hp of the fighter of {what} is more than its max_hp")
        if (self.fighter.hp == 0) != (self.ai is None):
            raise DamagedSaveError(f"{what} is either dead and acting, or alive and not")


class Item(Entity):
    """An entity that can be picked up, and used or worn."""

    saved_fields: ClassVar[Fields] = {
        # Named: the consumables' module imports this one, through the handlers they open.
        "consumable": Maybe(OneOf("components.consumable.Consumable", abstract=["components.consumable.Consumable"])),
        "equippable": Maybe(OneOf(Equippable)),
        "dropped_by_player": Bool(),
    }

    def __init__(
        self,
        *,
        x: int = 0,
        y: int = 0,
        char: str = "?",
        color: tuple[int, int, int] = (255, 255, 255),
        name: str = "<Unnamed>",
        consumable: Consumable | None = None,
        equippable: Equippable | None = None,
    ):
        super().__init__(
            x=x,
            y=y,
            char=char,
            color=color,
            name=name,
            blocks_movement=False,
            render_order=RenderOrder.ITEM,
        )

        self.consumable = consumable
        if self.consumable:
            self.consumable.parent = self

        self.equippable = equippable
        if self.equippable:
            self.equippable.parent = self

        # Dropped by the player, so exploring leaves it (see `travel.gatherable`).
        self.dropped_by_player = False
