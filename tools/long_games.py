"""Measure what a long game costs against issue 46's targets: saves and recordings.

    python tools/long_games.py [EVENTS]

Prints each target, the figure measured and whether it is met.  EVENTS (a
million by default) is the length of the long game; a smaller one is quicker,
and its figures are not the targets'.  CPU time (`time.process_time`), not the
wall clock: the machine may be shared.  Memory is what Python allocates,
traced (`tracemalloc`).  Each function can be imported by the bench.

The long game is a real one: a new game whose recording is written as play
writes it, then made as long as asked with key presses that do nothing
(`key f2`, recorded as any press is) and saved, as the autosave saves it, with a
full log.  The
game that verifies is `tests/recordings/death.rec` with as many such presses
before its first event: the same death, a million events long.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import tcod

import color
import input_handlers
import message_log
import setup_game
from engine import Engine
from replays import recording, recovery, verify
from saving import paths
from screens.stack import Screens

ROOT = Path(__file__).resolve().parent.parent
DEATH = ROOT / "tests" / "recordings" / "death.rec"
NOTHING = "key f2"  # A key press the game records and that does nothing.
EVENTS = 1_000_000
SEED = 3


@dataclass(frozen=True)
class Target:
    """One of the issue's targets, and the figure measured for it."""

    name: str
    figure: float
    unit: str
    met: bool
    goal: str = ""  # The target, as the bench's table shows it.

    def line(self) -> str:
        return f"{self.name}: {self.figure:,.1f} {self.unit}: {'met' if self.met else 'NOT met'}"


def long_game(events: int) -> Engine:
    """A new game saved with `events` lines recorded, its file written as play writes it,
    and its log full (`message_log.HISTORY` messages), as a long game's is."""
    engine = setup_game.new_game(seed=SEED)
    for number in range(message_log.HISTORY):
        text = f"Orc attacks Player for {number % 7} hit points."
        engine.message_log.add_message(text, color.enemy_atk, about=f"Orc {number % 80},{number % 43}")
    recording.write_new(engine)
    while len(engine.recording) < events:  # In pieces, as frames write them.
        engine.recording.extend([NOTHING] * min(100_000, events - len(engine.recording)))
        recording.write_new(engine)
    engine.save_as(paths.save_path())
    return engine


def cpu(action: Callable[[], object]) -> float:
    """The CPU seconds `action` takes."""
    start = time.process_time()
    action()
    return time.process_time() - start


def peak(action: Callable[[], object]) -> int:
    """The most memory `action` holds at once, in bytes (what Python allocates)."""
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def continue_game() -> None:
    """What Continue does: load the save, and play what its recording holds after it."""
    engine = setup_game.load_game(paths.save_path())
    recovery.recover(engine, setup_game.MainMenu())


def continue_cost() -> tuple[float, int]:
    """Continue's CPU seconds (the least of three) and its peak memory, on the saved game."""
    return min(cpu(continue_game) for _ in range(3)), peak(continue_game)


def autosave_cost(engine: Engine) -> float:
    """The CPU seconds of one save of `engine` (the median of five)."""
    return statistics.median(cpu(lambda: engine.save_as(paths.save_path())) for _ in range(5))


def play_events(screens: Screens, count: int) -> tuple[Screens, int]:
    """Play `count` events as the main loop does, the file written after each: the
    inventory opened and closed, the pointer moved (events of a real game that take
    no turn, so that the player lives through any number of them)."""
    engine = screens.engine_in_play()
    assert engine is not None
    for played in range(count):
        match played % 3:
            case 0:
                event: tcod.event.Event = tcod.event.KeyDown(
                    scancode=tcod.event.Scancode.UNKNOWN, sym=tcod.event.KeySym.I, mod=tcod.event.Modifier.NONE
                )
            case 1:
                event = tcod.event.KeyDown(
                    scancode=tcod.event.Scancode.UNKNOWN, sym=tcod.event.KeySym.ESCAPE, mod=tcod.event.Modifier.NONE
                )
            case _:
                x, y = 1 + played % 40, 1 + played % 20
                event = tcod.event.MouseMotion(position=(x + 0.5, y + 0.5), tile=(x, y))  # type: ignore[arg-type]
        screens.press(event)
        recording.write_new(engine)
    return screens, count


def memory_growth(events: int = 30_000, warm_up: int = 3_000) -> float:
    """Bytes of memory held more for each event played, as play writes its file after
    each (`play_events`), after a `warm_up`."""
    engine = setup_game.new_game(seed=SEED)
    recording.write_new(engine)
    game = Screens(setup_game.MainMenu(engine.settings), input_handlers.MainGameEventHandler(engine))
    screens, _ = play_events(game, warm_up)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        screens, played = play_events(screens, events)
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return (after - before) / played


def million_event_death(folder: Path, events: int) -> Path:
    """`death.rec` made `events` lines long with presses that do nothing before its first event."""
    lines = DEATH.read_text().splitlines()
    first = next(n for n, line in enumerate(lines) if line.startswith(("text", "key", "move", "click")))
    path = folder / "long-death.rec"
    with path.open("w") as file:
        file.writelines(line + "\n" for line in lines[:first])
        file.writelines(f"{NOTHING}\n" for _ in range(events - len(lines)))
        file.writelines(line + "\n" for line in lines[first:])
    return path


def verify_cost(path: Path) -> tuple[bool, float, int]:
    """Whether the recording at `path` verifies, the CPU seconds it took, and its events."""
    outcome: list[int] = []

    def run() -> None:
        try:
            outcome.append(verify.verify(path).events)
        except verify.NotVerified as exc:
            print(f"  not verified: {exc}")

    seconds = cpu(run)
    return bool(outcome), seconds, outcome[0] if outcome else 0


def measure(events: int) -> list[Target]:
    """Every target, measured on a game of `events` events."""
    targets = []
    with tempfile.TemporaryDirectory(prefix="long-games-") as folder:
        paths.use_data_dir(Path(folder))
        engine = long_game(events)
        seconds, memory = continue_cost()
        targets.append(Target(f"Continue at {events:,} events: CPU", seconds * 1000, "ms", seconds <= 0.050, "<= 50 ms"))
        targets.append(Target(f"Continue at {events:,} events: memory", memory / 2**20, "MiB", memory <= 64 << 20, "<= 64 MiB"))
        seconds = autosave_cost(engine)
        targets.append(Target(f"An autosave at {events:,} events: CPU", seconds * 1000, "ms", seconds <= 0.010, "<= 10 ms"))
        del engine
        growth = memory_growth(min(events, 30_000), min(events, 3_000))
        targets.append(Target("Memory growth in play", growth, "bytes an event", growth < 10, "< 10 bytes an event"))
        verified, seconds, played = verify_cost(million_event_death(Path(folder), events))
        speed = played / seconds if verified else 0.0
        targets.append(Target(f"--verify of a {events:,}-event game: CPU", speed, "events a second", speed >= 30_000, ">= 30,000 a second"))
        targets.append(Target(f"A {events:,}-event game verifies", float(verified), "(1: yes)", verified, "verifies"))
    return targets


def bench_rows(quick: bool) -> list[tuple[str, str, str, bool]]:
    """The targets as `tools/bench.py` shows them: (label, figure, target, missed); a
    quick bench measures a game of 5,000 events, else the issue's million."""
    return [
        (target.name, f"{target.figure:,.1f} {target.unit}", target.goal, not target.met)
        for target in measure(5_000 if quick else EVENTS)
    ]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    events = int(args[0]) if args else EVENTS
    for target in measure(events):
        print(target.line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
