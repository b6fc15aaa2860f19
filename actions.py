"""Actions: each turn's intent, performed against the engine.

An action either changes the game and takes a turn, or raises
`exceptions.Impossible` with the reason it can't be done, and takes none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import color
import exceptions
import message_log
from words.grammar import plural, with_article

if TYPE_CHECKING:
    from engine import Engine
    from entity import Actor, Entity, Item


def describe_underfoot(engine: Engine, items: bool = True) -> None:
    """Say what lies where the player stepped: items (unless not `items`: a
    gathering walk's pick-up names them next), the stairs (the tutorial said nothing)."""
    player, game_map = engine.player, engine.game_map
    names = [with_article(item.name) for item in game_map.items_at(player.x, player.y)]
    if names and items:
        engine.message_log.add_message(f"You see here {' and '.join(names)}.")
    if (player.x, player.y) == game_map.downstairs_location:
        engine.message_log.add_message("There are stairs down here.")


class Action:
    """Something an actor does with its turn."""

    def __init__(self, entity: Actor) -> None:
        super().__init__()
        self.entity = entity

    @property
    def engine(self) -> Engine:
        """Return the engine this action belongs to."""
        return self.entity.gamemap.engine

    def perform(self) -> None:
        """Perform this action as `self.entity`, in `self.engine`; subclasses must override it."""
        raise NotImplementedError()


class PickupAction(Action):
    """Pickup an item and add it to the inventory, if there is room for it."""

    def perform(self) -> None:
        actor_location_x = self.entity.x
        actor_location_y = self.entity.y
        inventory = self.entity.inventory

        for item in self.engine.game_map.items:
            if actor_location_x == item.x and actor_location_y == item.y:
                if len(inventory.items) >= inventory.capacity:
                    raise exceptions.Impossible("Your inventory is full.")

                self.engine.game_map.entities.remove(item)
                item.dropped_by_player = False
                inventory.add(item)

                # Differs from the tutorial: one line with the item's letter, as in DCSS.
                self.engine.message_log.add_message(inventory.listed_as(item))
                return

        raise exceptions.Impossible("There is nothing here to pick up.")


class ItemAction(Action):
    """Use an item, on its target tile (the user's own by default)."""

    def __init__(
        self, entity: Actor, item: Item, target_xy: tuple[int, int] | None = None
    ):
        super().__init__(entity)
        self.item = item
        if not target_xy:
            target_xy = entity.x, entity.y
        self.target_xy = target_xy

    @property
    def target_actor(self) -> Actor | None:
        """Return the actor at this actions destination."""
        return self.engine.game_map.get_actor_at_location(*self.target_xy)

    def perform(self) -> None:
        """Invoke the items ability, this action will be given to provide context."""
        if self.item.consumable:
            self.item.consumable.activate(self)


class DropItem(ItemAction):
    """Drop an item, taking it off first if it is worn."""

    def perform(self) -> None:
        if self.entity.equipment.item_is_equipped(self.item):
            self.entity.equipment.toggle_equip(self.item)

        self.entity.inventory.drop(self.item)


class EquipAction(Action):
    """Put an item on, or take it off."""

    def __init__(self, entity: Actor, item: Item):
        super().__init__(entity)

        self.item = item

    def perform(self) -> None:
        self.entity.equipment.toggle_equip(self.item)


class WaitAction(Action):
    """Let a turn pass."""

    def perform(self) -> None:
        pass


class TakeStairsAction(Action):
    """Go down the stairs the actor stands on."""

    def perform(self) -> None:
        """Take the stairs, if any exist at the entity's location."""
        if (self.entity.x, self.entity.y) == self.engine.game_map.downstairs_location:
            self.engine.game_world.generate_floor()
            self.engine.message_log.add_message(
                "You descend the staircase.", color.descend
            )
        else:
            raise exceptions.Impossible("There are no stairs here.")


class ActionWithDirection(Action):
    """An action toward the tile (dx, dy) away from the actor."""

    def __init__(self, entity: Actor, dx: int, dy: int):
        super().__init__(entity)

        self.dx = dx
        self.dy = dy

    @property
    def dest_xy(self) -> tuple[int, int]:
        """Returns this actions destination."""
        return self.entity.x + self.dx, self.entity.y + self.dy

    @property
    def blocking_entity(self) -> Entity | None:
        """Return the blocking entity at this actions destination.."""
        return self.engine.game_map.get_blocking_entity_at_location(*self.dest_xy)

    @property
    def target_actor(self) -> Actor | None:
        """Return the actor at this actions destination."""
        return self.engine.game_map.get_actor_at_location(*self.dest_xy)

    def perform(self) -> None:
        raise NotImplementedError()


class MeleeAction(ActionWithDirection):
    """Attack the actor in that direction."""

    def perform(self) -> None:
        target = self.target_actor
        if not target:
            raise exceptions.Impossible("Nothing to attack.")

        damage = self.entity.fighter.damage_to(target.fighter)

        attack_desc = f"{self.entity.name.capitalize()} attacks {target.name}"
        is_player = self.entity is self.engine.player
        attack_color = color.player_atk if is_player else color.enemy_atk

        if damage > 0:
            self.tell(f"{attack_desc} for {damage} {plural('hit point', damage)}.", attack_color, target)
            target.fighter.take_damage(damage, by=self.entity.name_with_article)
        else:
            self.tell(f"{attack_desc} but does no damage.", attack_color, target)

    def tell(self, text: str, fg: tuple[int, int, int], target: Actor) -> None:
        """Log the blow if the player can tell it happened: in it, or seeing either side."""
        # Differs from the tutorial: a fight out of the player's view is not told.
        if self.engine.game_map.sees(self.entity) or self.engine.game_map.sees(target):
            self.engine.message_log.add_message(text, fg, about=message_log.about(self.entity, target))


class MovementAction(ActionWithDirection):
    """Step in that direction, if nothing blocks the way; the player is told
    what lies there, but not of items `to_pick_up` (a gathering walk's, whose
    pick-up names them next)."""

    def __init__(self, entity: Actor, dx: int, dy: int, to_pick_up: bool = False):
        super().__init__(entity, dx, dy)
        self.to_pick_up = to_pick_up

    def perform(self) -> None:
        dest_x, dest_y = self.dest_xy
        game_map = self.engine.game_map

        if not game_map.in_bounds(dest_x, dest_y):
            raise exceptions.Impossible("That way is blocked.")
        if not game_map.tiles["walkable"][dest_x, dest_y]:
            raise exceptions.Impossible("That way is blocked.")
        if game_map.get_blocking_entity_at_location(dest_x, dest_y):
            raise exceptions.Impossible("That way is blocked.")

        self.entity.move(self.dx, self.dy)
        if self.entity is self.engine.player:
            describe_underfoot(self.engine, items=not self.to_pick_up)


class BumpAction(ActionWithDirection):
    """Attack whoever stands in that direction, else step there."""

    def perform(self) -> None:
        if self.target_actor:
            return MeleeAction(self.entity, self.dx, self.dy).perform()

        else:
            return MovementAction(self.entity, self.dx, self.dy).perform()
