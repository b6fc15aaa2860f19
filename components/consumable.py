"""Items that are used up: the potion and the three scrolls."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import actions
import color
import components.inventory
from components.ai import ConfusedEnemy
from components.base_component import BaseComponent
from controls.blast import in_blast
from exceptions import Impossible
from input_handlers import (
    ActionOrHandler,
    AreaRangedAttackHandler,
    SingleRangedAttackHandler,
)
from saving.save_fields import MAX_NUMBER, Fields, Int
from screens.base import Push
from words.grammar import listed

if TYPE_CHECKING:
    from entity import Actor, Item


def aim_prompt(item: Item, reach: str, in_view: list[Actor]) -> str:
    """What aiming says: the item, how far it reaches, the keys that end it, and
    what is in view to aim at ("Fireball Scroll, radius 3 (Enter casts, Esc
    cancels), at an Orc and a Troll in view"): the list last, as a prompt too long
    for its row loses its end.  The tutorial said only "Select a target location."."""
    names = [monster.name for monster in in_view]
    return f"{item.name}, {reach} (Enter casts, Esc cancels), at {listed(names)} in view"


class Consumable(BaseComponent):
    parent: Item
    # How it is used, for the verbs' keys: a potion is quaffed (`q`); every
    # other consumable, a scroll, is read (`r`).  A class's own declaration,
    # not a saved field.
    quaffed: ClassVar[bool] = False

    def get_action(self, consumer: Actor) -> ActionOrHandler | None:
        """Try to return the action for this item."""
        return actions.ItemAction(consumer, self.parent)

    def describe(self) -> str:
        """What using the item does, in a few words, from its own numbers."""
        raise NotImplementedError()

    def activate(self, action: actions.ItemAction) -> None:
        """Invoke this items ability.

        `action` is the context for this activation.
        """
        raise NotImplementedError()

    def consume(self) -> None:
        """Remove the consumed item from its containing inventory."""
        entity = self.parent
        inventory = entity.parent
        if isinstance(inventory, components.inventory.Inventory):
            inventory.remove(entity)


class ConfusionConsumable(Consumable):
    saved_fields: ClassVar[Fields] = {"number_of_turns": Int(0, MAX_NUMBER)}

    def __init__(self, number_of_turns: int):
        self.number_of_turns = number_of_turns

    def describe(self) -> str:
        return f"confuses, {self.number_of_turns} turns"

    def get_action(self, consumer: Actor) -> Push:
        return Push(SingleRangedAttackHandler(
            self.engine,
            callback=lambda xy: actions.ItemAction(consumer, self.parent, xy),
            prompt=aim_prompt(self.parent, "one creature", self.engine.game_map.monsters_in_view),
        ))

    def activate(self, action: actions.ItemAction) -> None:
        consumer = action.entity
        target = action.target_actor

        if not self.engine.game_map.visible[action.target_xy]:
            raise Impossible("You cannot target an area that you cannot see.")
        if not target:
            raise Impossible("You must select an enemy to target.")
        if target is consumer:
            raise Impossible("You cannot confuse yourself!")

        self.engine.message_log.add_message(
            f"The eyes of the {target.name} look vacant, as it starts to stumble around!",
            color.status_effect_applied,
        )
        target.ai = ConfusedEnemy(
            entity=target,
            previous_ai=target.ai,
            turns_remaining=self.number_of_turns,
        )
        self.consume()


class FireballDamageConsumable(Consumable):
    saved_fields: ClassVar[Fields] = {"damage": Int(0, MAX_NUMBER), "radius": Int(0, MAX_NUMBER)}

    def __init__(self, damage: int, radius: int):
        self.damage = damage
        self.radius = radius

    def describe(self) -> str:
        return f"{self.damage} damage, radius {self.radius}"

    def get_action(self, consumer: Actor) -> Push:
        return Push(AreaRangedAttackHandler(
            self.engine,
            radius=self.radius,
            callback=lambda xy: actions.ItemAction(consumer, self.parent, xy),
            prompt=aim_prompt(self.parent, f"radius {self.radius}", self.engine.game_map.monsters_in_view),
        ))

    def activate(self, action: actions.ItemAction) -> None:
        target_xy = action.target_xy

        if not self.engine.game_map.visible[target_xy]:
            raise Impossible("You cannot target an area that you cannot see.")

        targets_hit = False
        # A list, because the damage below can change who counts as an actor.
        for actor in list(self.engine.game_map.actors):
            if in_blast(target_xy, self.radius, actor.x, actor.y):
                self.engine.message_log.add_message(
                    f"The {actor.name} is engulfed in a fiery explosion, taking {self.damage} damage!"
                )
                actor.fighter.take_damage(self.damage, by="their own fireball")
                targets_hit = True

        if not targets_hit:
            raise Impossible("There are no targets in the radius.")
        self.consume()


class HealingConsumable(Consumable):
    quaffed = True
    saved_fields: ClassVar[Fields] = {"amount": Int(0, MAX_NUMBER)}

    def __init__(self, amount: int):
        self.amount = amount

    def describe(self) -> str:
        return f"heals {self.amount} HP"

    def activate(self, action: actions.ItemAction) -> None:
        consumer = action.entity
        amount_recovered = consumer.fighter.heal(self.amount)

        if amount_recovered > 0:
            self.engine.message_log.add_message(
                f"You consume the {self.parent.name}, and recover {amount_recovered} HP!",
                color.health_recovered,
            )
            self.consume()
        else:
            raise Impossible("Your health is already full.")


class LightningDamageConsumable(Consumable):
    saved_fields: ClassVar[Fields] = {"damage": Int(0, MAX_NUMBER), "maximum_range": Int(0, MAX_NUMBER)}

    def __init__(self, damage: int, maximum_range: int):
        self.damage = damage
        self.maximum_range = maximum_range

    def describe(self) -> str:
        return f"{self.damage} damage, range {self.maximum_range}"

    def activate(self, action: actions.ItemAction) -> None:
        consumer = action.entity
        target = None
        closest_distance = self.maximum_range + 1.0

        for actor in self.engine.game_map.actors:
            if actor is not consumer and self.parent.gamemap.visible[actor.x, actor.y]:
                distance = consumer.distance(actor.x, actor.y)

                if distance < closest_distance:
                    target = actor
                    closest_distance = distance

        if target:
            self.engine.message_log.add_message(
                f"A lightning bolt strikes the {target.name} with a loud thunder, for {self.damage} damage!"
            )
            target.fighter.take_damage(self.damage)
            self.consume()
        else:
            raise Impossible("No enemy is close enough to strike.")
