"""Hit points, attack and defense, and what happens at zero hit points."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import color
from components.base_component import BaseComponent
from render_order import RenderOrder
from saving.save_fields import MAX_STAT, Fields, Int

if TYPE_CHECKING:
    from entity import Actor


class Fighter(BaseComponent):
    parent: Actor
    saved_fields: ClassVar[Fields] = {
        "max_hp": Int(1, MAX_STAT),
        "_hp": Int(0, MAX_STAT),
        "base_defense": Int(0, MAX_STAT),
        "base_power": Int(0, MAX_STAT),
    }

    def __init__(self, hp: int, base_defense: int, base_power: int):
        self.max_hp = hp
        self._hp = hp
        self.base_defense = base_defense
        self.base_power = base_power

    @property
    def hp(self) -> int:
        return self._hp

    @hp.setter
    def hp(self, value: int) -> None:
        self._hp = max(0, min(value, self.max_hp))
        if self._hp == 0 and self.parent.ai:
            self.die()

    @property
    def defense(self) -> int:
        return self.base_defense + self.defense_bonus

    @property
    def power(self) -> int:
        return self.base_power + self.power_bonus

    @property
    def defense_bonus(self) -> int:
        return self.parent.equipment.defense_bonus

    @property
    def power_bonus(self) -> int:
        return self.parent.equipment.power_bonus

    def damage_to(self, target: Fighter) -> int:
        """The hit points one blow of this fighter takes from `target` (none below 0)."""
        return max(0, self.power - target.defense)

    def die(self) -> None:
        """Turn the actor into a corpse that no longer blocks, thinks or acts."""
        if self.engine.player is self.parent:
            death_message = "You died!"
            death_message_color = color.player_die
        else:
            death_message = f"{self.parent.name} is dead!"
            death_message_color = color.enemy_die
            kills = self.engine.kills
            kills[self.parent.name] = kills.get(self.parent.name, 0) + 1

        self.parent.char = "%"
        self.parent.color = color.corpse
        self.parent.blocks_movement = False
        self.parent.ai = None
        self.parent.name = f"remains of {self.parent.name}"
        self.parent.render_order = RenderOrder.CORPSE

        # Differs from the tutorial: a death out of the player's view is not told.
        if self.engine.game_map.sees(self.parent):
            self.engine.message_log.add_message(death_message, death_message_color, stack=False)

        self.engine.player.level.add_xp(self.parent.level.xp_given)

    def heal(self, amount: int) -> int:
        """Recover up to `amount` hit points; return how many were recovered."""
        if self.hp == self.max_hp:
            return 0

        new_hp_value = min(self.hp + amount, self.max_hp)
        amount_recovered = new_hp_value - self.hp
        self.hp = new_hp_value
        return amount_recovered

    def take_damage(self, amount: int, by: str = "") -> None:
        """Lose `amount` hit points to `by` ("a Troll", "their own fireball").

        Whatever takes the player's last hit points is the cause of death the
        game-over screen, the morgue file and the hall of fame name.
        """
        if self.parent is self.engine.player and amount >= self.hp > 0 and by:
            self.engine.killer = by
        self.hp -= amount
