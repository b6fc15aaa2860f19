"""How a game ended: the story the game-over window, the morgue file and the
hall of fame all tell, taken from the engine once, at the player's death."""

from __future__ import annotations

import dataclasses
import datetime
import re
from typing import TYPE_CHECKING, Final, NamedTuple

from words.descriptions import daily_name
from words.grammar import plural

if TYPE_CHECKING:
    from engine import Engine


# The recording's last line, as `Claim.line` writes it.  Compiled by `re` when first
# matched (and kept in its cache): only a replay or check of a finished game reads one.
CLAIM_PATTERN: Final = (
    r"# ending depth=(\d{1,7}) level=(\d{1,7}) xp=(\d{1,10}) turns=(\d{1,10})"
    r"(?: daily=(\d{4}-\d\d-\d\d))? cause=([ -~]{1,80})"
)


class Claim(NamedTuple):
    """The ending a finished game's recording claims, in its last line: what
    `--verify` replays the recording to check."""

    depth: int
    level: int
    xp: int
    turns: int
    cause: str  # "Killed by a Troll"
    daily: str | None = None  # The date of a daily game: "2026-11-25".

    def line(self) -> str:
        daily = "" if self.daily is None else f" daily={self.daily}"
        return (
            f"# ending depth={self.depth} level={self.level} xp={self.xp} "
            f"turns={self.turns}{daily} cause={self.cause}"
        )

    @classmethod
    def parse(cls, line: str) -> Claim | None:
        """The claim a line states, or None if it states none."""
        match = re.fullmatch(CLAIM_PATTERN, line.strip())
        if match is None:
            return None
        depth, level, xp, turns, daily, cause = match.groups()
        return cls(int(depth), int(level), int(xp), int(turns), cause, daily)

    def story(self) -> str:
        """In words: "Killed by a Troll on dungeon level 4, level 2, 45 XP, 300 turns"."""
        daily = "" if self.daily is None else f"Daily {self.daily}: "
        return (
            f"{daily}{self.cause} on dungeon level {self.depth}, character level {self.level}, "
            f"{self.xp} XP, {self.turns} {plural('turn', self.turns)}"
        )


@dataclasses.dataclass(frozen=True)
class Ending:
    """The facts of one finished game."""

    cause: str  # "Killed by a Troll"
    depth: int  # The dungeon level the player died on.
    character_level: int
    xp: int
    turns: int
    kills: dict[str, int]  # Monsters killed, by name.
    seed: int
    when: datetime.datetime
    daily: str | None = None  # The date of a daily game.
    daily_try: int = 0  # Which of the player's games of that date (from 1; 0: not known).

    @property
    def claim(self) -> Claim:
        """What the game's recording claims of this ending."""
        return Claim(self.depth, self.character_level, self.xp, self.turns, self.cause, self.daily)

    @property
    def story(self) -> str:
        """One line: "Killed by a Troll on dungeon level 4"."""
        return f"{self.cause} on dungeon level {self.depth}"

    def kills_text(self) -> str:
        """"3 Orcs, 1 Troll", most killed first; "none" for none."""
        counts = sorted(self.kills.items(), key=lambda kill: (-kill[1], kill[0]))
        return ", ".join(f"{count} {plural(name, count)}" for name, count in counts) or "none"

    def summary_lines(self) -> list[str]:
        """The story and its figures, a line each, that the game-over window and
        the morgue file both begin with."""
        return [
            f"{self.story}.",
            f"Character level {self.character_level}, {self.xp} XP, "
            f"{self.turns} {plural('turn', self.turns)} played.",
            f"Monsters killed: {self.kills_text()}.",
            f"Seed: {self.seed}",
            *([] if self.daily is None else [f"{daily_name(self.daily, self.daily_try)}."]),
        ]



def ending_of(engine: Engine, when: datetime.datetime) -> Ending:
    """The ending of `engine`'s game, whose player has just died at `when`."""
    player = engine.player
    return Ending(
        cause=f"Killed by {engine.killer}" if engine.killer else "Died",
        depth=engine.game_world.current_floor,
        character_level=player.level.current_level,
        xp=player.level.total_xp,
        turns=engine.turns,
        kills=dict(engine.kills),
        seed=engine.game_world.seed,
        when=when,
        daily=engine.game_world.daily,
        daily_try=engine.game_world.daily_try,
    )
