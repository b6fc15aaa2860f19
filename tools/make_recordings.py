"""Make the recorded games of tests/recordings/ by letting a simple player play them.

    python tools/make_recordings.py            # all of them
    python tools/make_recordings.py death      # one

Each recording is a game this player plays through the real handlers, as
`--replay` does, searching the seeds from 1 up for the first game that ends
the way the recording is meant to:

- `death.rec`: walks up to the nearest monster and waits there until it dies,
  on floor 1;
- `descent.rec`: fights every monster on each floor, drinks a potion when
  hurt, takes the first level-up's Constitution, and goes down the stairs
  until it reaches floor 3 having levelled up;
- `scroll.rec`: dives for the first Confusion Scroll, picks it up, and aims
  it with the mouse (pointer onto a monster in view, then a click).

Each is also written as format 2 played it, in tests/recordings/format-2/:
the same events under `recording 2`, which a replay plays with the tutorial's
inventory letters, by place; and as format 3 in tests/recordings/format-3/:
the same events without the header's keys and options, which a replay plays
by the viewer's.  The seed taken is the first whose game ends
the same either way (it never carries two of a kind when a letter is pressed).

The tests (tests/test_recorded_games.py, tests/test_window_layouts.py) replay
them and check where each ends.  A change to the game's rules or data (a new
monster or item in the spawn tables) changes what a recorded game does: when
a test says so and the change is meant, run this again.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
import tcod

import input_handlers
from controls import keys
from engine import Engine
from entity import Actor, Item
from replays import record_format, record_reader, replay, replay_lines, rules
from saving import paths
from screens.stack import Screens

FOLDER = Path(__file__).resolve().parent.parent / "tests" / "recordings"
FORMAT_2 = FOLDER / "format-2"
FORMAT_3 = FOLDER / "format-3"
SEEDS = range(1, 500)

# The vi keys, by direction: a recording a person can read.
STEP_KEYS = {
    direction: sym.name.lower() for sym, direction in keys.MOVE_KEYS.items() if len(sym.name) == 1
}

Handler = input_handlers.BaseEventHandler


def foes(engine: Engine) -> list[Actor]:
    player = engine.player
    return [actor for actor in engine.game_map.actors if actor is not player and actor.is_alive]


def in_view(engine: Engine) -> list[Actor]:
    return engine.game_map.monsters_in_view


def distance(engine: Engine, actor: Actor) -> int:
    return max(abs(actor.x - engine.player.x), abs(actor.y - engine.player.y))


def step_towards(engine: Engine, goals: list[tuple[int, int]]) -> str | None:
    """The key of the first step of a shortest walk to the nearest of `goals`."""
    player = engine.player
    if not goals:
        return None
    cost = engine.game_map.tiles["walkable"].astype(np.int8)
    path = tcod.path.path2d(
        cost, start_points=[(player.x, player.y)], end_points=goals, cardinal=1, diagonal=1
    )
    if len(path) < 2:
        return None
    x, y = path[1].tolist()
    return f"key {STEP_KEYS[x - player.x, y - player.y]}"


def letter_of(engine: Engine, name: str) -> str | None:
    for letter, stack in engine.player.inventory.listing():
        if stack[0].name == name:
            return f"key {letter}"
    return None


def hurt(engine: Engine) -> bool:
    return engine.player.fighter.hp <= engine.player.fighter.max_hp // 2


def underfoot(engine: Engine, name: str) -> Item | None:
    player = engine.player
    for item in engine.game_map.items:
        if item.name == name and (item.x, item.y) == (player.x, player.y):
            return item
    return None


@dataclass
class Player:
    """A simple player: what it hunts, and whether it is after a scroll."""

    hunts: bool = True
    wants_scroll: str | None = None

    def next_line(self, handler: Handler, engine: Engine) -> str | None:
        """The next event, as a recording's line; None to give up."""
        match handler:
            case input_handlers.LevelUpEventHandler():
                return "key a"
            case input_handlers.SingleRangedAttackHandler():
                targets = sorted(in_view(engine), key=lambda actor: distance(engine, actor))
                if not targets:
                    return "key escape"
                x, y = targets[0].x, targets[0].y
                return f"move {x} {y}" if engine.mouse_location != (x, y) else f"click {x} {y}"
            case input_handlers.InventoryActivateHandler():
                if hurt(engine) and letter_of(engine, "Health Potion"):
                    return letter_of(engine, "Health Potion")
                if self.wants_scroll and letter_of(engine, self.wants_scroll):
                    return letter_of(engine, self.wants_scroll)
                return "key escape"
            case input_handlers.MainGameEventHandler():
                return self.in_the_dungeon(engine)
        return None

    def in_the_dungeon(self, engine: Engine) -> str | None:
        player = engine.player
        if hurt(engine) and letter_of(engine, "Health Potion"):
            return "key i"
        carried = self.wants_scroll is not None and letter_of(engine, self.wants_scroll)
        if carried and in_view(engine):
            return "key i"
        for actor in foes(engine):
            if distance(engine, actor) == 1:
                return f"key {STEP_KEYS[actor.x - player.x, actor.y - player.y]}"
        if self.wants_scroll and not carried:
            if underfoot(engine, self.wants_scroll):
                return "key g"
            scrolls = [(i.x, i.y) for i in engine.game_map.items if i.name == self.wants_scroll]
            if scrolls:
                return step_towards(engine, scrolls)
        if self.hunts or carried:
            step = step_towards(engine, [(a.x, a.y) for a in foes(engine)])
            if step is not None:
                return step
        if underfoot(engine, "Health Potion") and len(player.inventory.items) < player.inventory.capacity:
            return "key g"
        if (player.x, player.y) == engine.game_map.downstairs_location:
            return "text >"
        return step_towards(engine, [engine.game_map.downstairs_location])


@dataclass(frozen=True)
class Goal:
    about: str
    player: Player
    done: Callable[[Handler, Engine], bool]
    max_events: int


def died_on_floor_1(handler: Handler, engine: Engine) -> bool:
    return isinstance(handler, input_handlers.GameOverEventHandler) and engine.game_world.current_floor == 1


def floor_3_levelled_up(handler: Handler, engine: Engine) -> bool:
    return (
        type(handler) is input_handlers.MainGameEventHandler
        and engine.game_world.current_floor == 3
        and engine.player.level.current_level >= 2
    )


def confused_a_monster(handler: Handler, engine: Engine) -> bool:
    return type(handler) is input_handlers.MainGameEventHandler and any(
        "look vacant" in message.plain_text for message in engine.message_log.messages[-3:]
    )


class Waits(Player):
    """Walks up to the nearest monster and lets it hit until the end."""

    def in_the_dungeon(self, engine: Engine) -> str | None:
        if any(distance(engine, actor) == 1 for actor in foes(engine)):
            return "text ."
        return step_towards(engine, [(a.x, a.y) for a in foes(engine)])


GOALS: dict[str, Goal] = {
    "death": Goal("a death on floor 1", Waits(), died_on_floor_1, 600),
    "descent": Goal("a descent to floor 3 with a level-up", Player(), floor_3_levelled_up, 4000),
    "scroll": Goal(
        "a Confusion Scroll aimed with the mouse",
        Player(hunts=False, wants_scroll="Confusion Scroll"),
        confused_a_monster,
        4000,
    ),
}


def play(goal: Goal, seed: int) -> list[str] | None:
    """The recording of the game with `seed`, if it reaches the goal."""
    screens = started(record_reader.Script(seed, []))
    for _ in range(goal.max_events):
        engine = screens.engine
        assert engine is not None
        if goal.done(screens.top, engine):
            return list(engine.recording)
        line = goal.player.next_line(screens.top, engine)
        if line is None:
            return None
        replay_lines.replay_line(screens, record_format.event_of(line))
    return None


def started(script: record_reader.Script) -> Screens:
    """The screens a replay of `script` starts on: its game, over a main menu."""
    first = replay.start(script)
    return replay.over_menu(first, first.engine.settings)


def as_format(lines: list[str], version: int) -> list[str]:
    """The lines of a recording as format `version` wrote them: before 4, without its rules."""
    script = record_reader.parse("\n".join(lines), "<made>")
    if version >= rules.SINCE_VERSION:
        return record_format.header(script.seed, version, script.rules) + lines[len(script.rules) + 2 :]
    return record_format.header(script.seed, version) + lines[len(script.rules) + 2 :]


def replayed(lines: list[str], version: int) -> dict[str, object]:
    """Where the recorded game ends when replayed as format `version`."""
    script = record_reader.parse("\n".join(as_format(lines, version)), "<made>")
    screens = started(script)
    for event in script.events:
        replay_lines.replay_line(screens, event)
    return replay.summary(screens)


def as_format_2_too(lines: list[str]) -> bool:
    """Whether the game ends the same replayed with letters by place (format 2)."""
    return replayed(lines, 2) == replayed(lines, record_format.FORMAT_VERSION)


def write(path: Path, version: int, comment: str, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    first, *rest = as_format(lines, version)
    text = "\n".join([first, comment, *rest]) + "\n"
    path.write_text(text, encoding="utf-8")


def make(name: str) -> Path:
    goal = GOALS[name]
    for seed in SEEDS:
        lines = play(goal, seed)
        if lines is not None and as_format_2_too(lines):
            break
    else:
        raise SystemExit(f"make_recordings.py: no seed in {SEEDS} gives {goal.about}")
    path = FOLDER / f"{name}.rec"
    comment = f"# {goal.about.capitalize()}: made by tools/make_recordings.py."
    write(path, record_format.FORMAT_VERSION, comment, lines)
    write(FORMAT_2 / f"{name}.rec", 2, comment, lines)
    write(FORMAT_3 / f"{name}.rec", 3, comment, lines)
    events = len(as_format(lines, 3)) - 2
    print(f"{path}, {FORMAT_2.name}/ and {FORMAT_3.name}/: seed {seed}, {events} events")
    return path


if __name__ == "__main__":
    # The games played to find each recording die, and a death writes a
    # morgue file and a score: those go to a folder thrown away after.
    with tempfile.TemporaryDirectory() as scratch:
        paths.use_data_dir(Path(scratch))
        for name in sys.argv[1:] or list(GOALS):
            make(name)
