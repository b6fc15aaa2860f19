"""The dungeon's news for a player who can't see the map (`words.reading`): what a
sighted player takes in at a glance, told when it changes.

After each key the news holds the new messages, then what the map showed
changing: the player's HP, the floor reached, each monster come into view (one
line each, however many came at once), a monster in view drawn closer or struck
by a state (confused), and, when nothing else is told, the step taken or the
turn waited, so that no key passes in silence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from controls import travel
from controls.targeting import enemies_in_view
from words.descriptions import state_name, state_words
from words.grammar import capitalized
from words.questions import COMPASS, offset_from_player, offset_words

if TYPE_CHECKING:
    from engine import Engine
    from entity import Actor

BACK: Final = "Back to the dungeon."
"""Said when a screen closes onto the dungeon, whatever closed it."""

WAITED: Final = "A turn passes."

# The name of each one-step move: "east".
STEP_NAMES: Final = {step: name for name, step in COMPASS}


def steps_between(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Steps from a to b, a diagonal counting one, as monsters and the player move."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


@dataclass
class Monster:
    """A monster in view as last told: how many steps from the player, and its state."""

    steps: int
    state: str | None


@dataclass
class Glance:
    """What the player saw when the news was last told."""

    floor: int
    place: tuple[int, int]
    turns: int
    hp: int
    monsters: dict[Actor, Monster] = field(default_factory=dict)


def glance(engine: Engine) -> Glance:
    """What the player sees now."""
    player = engine.player
    place = (player.x, player.y)
    return Glance(
        engine.game_world.current_floor,
        place,
        engine.turns,
        player.fighter.hp,
        {
            actor: Monster(steps_between(place, (actor.x, actor.y)), state_name(actor))
            for actor in enemies_in_view(engine)
        },
    )


def told(
    engine: Engine, before: Glance | None, lines: list[str], walking: bool = False
) -> tuple[list[str], Glance]:
    """The messages `lines`, then what changed since `before` (None: a game just
    started or loaded, its monsters all new); and what is seen now, for next time.
    During a walk (`walking`) its steps are not told one by one: the walk's end
    tells the way come, if nothing else is said."""
    now = glance(engine)
    lines = list(lines)
    if before is not None and now.hp != before.hp:
        fighter = engine.player.fighter
        lines.append(f"HP {fighter.hp} of {fighter.max_hp}.")
    if before is not None and now.floor != before.floor:
        lines.append(f"Dungeon level {now.floor}.")
        before = None  # Another floor: its monsters are all new, no step was taken.
    lines = monster_news(engine, before, lines)
    if before is not None and walking:
        now.place, now.turns = before.place, before.turns  # Told when the walk ends.
    elif before is not None and not lines:
        lines = quiet_news(before, now)
    return lines, now


def monster_news(engine: Engine, before: Glance | None, lines: list[str]) -> list[str]:
    """Each monster come into view, and each in view drawn closer or struck by a state."""
    seen = {} if before is None else before.monsters
    in_view = enemies_in_view(engine)
    lines = told_in_view(engine, [actor for actor in in_view if actor not in seen], lines)
    player = engine.player
    moved = before is not None and before.place != (player.x, player.y)
    for actor in in_view:
        was = seen.get(actor)
        if was is None:
            continue
        where = offset_from_player(actor, engine)
        steps = steps_between((player.x, player.y), (actor.x, actor.y))
        state = state_words(actor) if state_name(actor) not in (None, was.state) else None
        if steps < was.steps and moved:
            lines.append(f"Toward the {actor.name}, {where}{with_state(state)}.")
        elif steps < was.steps:
            lines.append(f"{actor.name}, {where}, closer{with_state(state)}.")
        elif state:
            lines.append(f"{actor.name}, {where}{with_state(state)}.")
    return lines


def with_state(state: str | None) -> str:
    """A state to end a monster's line: ", confused, 3 turns", or nothing."""
    return f", {state}" if state else ""


def told_in_view(engine: Engine, new: list[Actor], lines: list[str]) -> list[str]:
    """`lines` with each monster come into view told on a line of its own with
    where it is: in place of the walk's message if a walk stopped for them."""
    told = [f"{travel.comes_into_view(actor).removesuffix('.')}, {offset_from_player(actor, engine)}." for actor in new]
    stop = travel.comes_into_view(*engine.game_map.monsters_in_view) if new else None
    if stop in lines:
        index = lines.index(stop)
        return [*lines[:index], *told, *lines[index + 1 :]]
    return [*lines, *told]


def quiet_news(before: Glance, now: Glance) -> list[str]:
    """When nothing else is told: the step taken ("East."), the way come by a
    longer move ("Moved 5 east."), or a turn waited."""
    dx, dy = now.place[0] - before.place[0], now.place[1] - before.place[1]
    if (dx, dy) in STEP_NAMES:
        return [f"{capitalized(STEP_NAMES[dx, dy])}."]
    if (dx, dy) != (0, 0):
        return [f"Moved {offset_words(dx, dy)}."]
    if now.turns != before.turns:
        return [WAITED]
    return []
