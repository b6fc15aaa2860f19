"""Experience, levels, and the three ways to grow when a level is gained."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, Final, NamedTuple

from components.base_component import BaseComponent
from saving.save_fields import MAX_LEVEL, MAX_STAT, Fields, Int
from words.grammar import plural

if TYPE_CHECKING:
    from components.fighter import Fighter
    from entity import Actor


class Level(BaseComponent):
    parent: Actor
    saved_fields: ClassVar[Fields] = {
        "current_level": Int(1, MAX_LEVEL),
        "current_xp": Int(0, MAX_STAT),
        "level_up_base": Int(0, MAX_STAT),
        "level_up_factor": Int(0, MAX_STAT),
        "xp_given": Int(0, MAX_STAT),
    }

    def __init__(
        self,
        current_level: int = 1,
        current_xp: int = 0,
        level_up_base: int = 0,
        level_up_factor: int = 150,
        xp_given: int = 0,
    ):
        self.current_level = current_level
        self.current_xp = current_xp
        self.level_up_base = level_up_base
        self.level_up_factor = level_up_factor
        self.xp_given = xp_given

    @property
    def experience_to_next_level(self) -> int:
        return self.level_up_base + self.current_level * self.level_up_factor

    @property
    def total_xp(self) -> int:
        """All the experience gained in the game.

        `current_xp` drops at each level-up by what the level cost; this adds
        back what every level gained so far cost.
        """
        spent = sum(
            self.level_up_base + level * self.level_up_factor
            for level in range(1, self.current_level)
        )
        return spent + self.current_xp

    @property
    def requires_level_up(self) -> bool:
        """Whether enough experience for the next level is gained.

        The tutorial used `>`, so the level came one point after the
        character screen's "XP for next Level"; reaching it is enough here.
        """
        return self.current_xp >= self.experience_to_next_level

    @property
    def next_level_total_xp(self) -> int:
        """The total experience (`total_xp`) at which the next level comes."""
        return self.total_xp - self.current_xp + self.experience_to_next_level

    @property
    def level_reached(self) -> int:
        """The level the status bar names: while its growth is being chosen (the level-up
        menu), the level gained, not `current_level`, which counts it once chosen."""
        return self.current_level + 1 if self.requires_level_up else self.current_level

    @property
    def xp_to_go(self) -> int:
        """The experience the level after `level_reached` still needs; 0 while it waits too."""
        left = self.current_xp - (self.experience_to_next_level if self.requires_level_up else 0)
        return max(0, self.level_up_base + self.level_reached * self.level_up_factor - left)

    def add_xp(self, xp: int) -> None:
        """Gain experience; only actors with a `level_up_base` (the player) collect it."""
        if xp == 0 or self.level_up_base == 0:
            return

        self.current_xp += xp

        self.engine.message_log.add_message(f"You gain {xp} experience {plural('point', xp)}.")

        if self.requires_level_up:
            self.engine.message_log.add_message(
                f"You advance to level {self.current_level + 1}!"
            )

    def increase_level(self) -> None:
        self.current_xp -= self.experience_to_next_level

        self.current_level += 1

    def increase_max_hp(self, amount: int = 20) -> None:
        self.parent.fighter.max_hp += amount
        self.parent.fighter.hp += amount

        self.engine.message_log.add_message("Your health improves!")

        self.increase_level()

    def increase_power(self, amount: int = 1) -> None:
        self.parent.fighter.base_power += amount

        self.engine.message_log.add_message("You feel stronger!")

        self.increase_level()

    def increase_defense(self, amount: int = 1) -> None:
        self.parent.fighter.base_defense += amount

        self.engine.message_log.add_message("Your movements are getting swifter!")

        self.increase_level()


class LevelUpChoice(NamedTuple):
    """One way to grow when a level is gained: its line on the level-up screen, and what it does."""

    describe: Callable[[Fighter], str]
    grow: Callable[[Level], None]


def constitution(fighter: Fighter) -> str:
    return f"Constitution (+20 HP, from {fighter.max_hp})"


def strength(fighter: Fighter) -> str:
    return f"Strength (+1 attack, from {fighter.power})"


def agility(fighter: Fighter) -> str:
    return f"Agility (+1 defense, from {fighter.defense})"


LEVEL_UP_CHOICES: Final = (
    LevelUpChoice(constitution, Level.increase_max_hp),
    LevelUpChoice(strength, Level.increase_power),
    LevelUpChoice(agility, Level.increase_defense),
)
