#!/usr/bin/env python3
"""Measure what the game costs, and check it against the project's targets.

Usage: ``python tools/bench.py [--quick] [--only KEY]...``, from any folder.

Prints the machine's CPU and how busy the machine was (other work slows
every figure: measure on a quiet machine), then a table of medians over
repeated runs: the figure, its median, the target, the tutorial's own figure
(its design, measured on this machine kind, 2 cores), and ``ok`` or
``MISS``.  The figures:

* start-up: a fresh ``python main.py`` (dummy video driver) to its first
  presented frame.  main.py's hidden ``--bench-first-frame`` option makes it
  print a line and quit as soon as that frame is presented.  The game is timed
  as a player runs it, with its bytecode cached: one untimed run first, with
  writing bytecode allowed (``__pycache__/`` is git-ignored).  Below it, for
  scale, a process that only imports tcod: what start-up costs before any
  of the game's own code runs;
* idle: the CPU the game uses at the main menu while nothing happens.  This
  needs a real event source, so it runs under a private ``Xvfb`` when one is
  installed; SDL's dummy driver has no way to sleep until an event and polls,
  so without Xvfb the figure is shown but not checked;
* one floor generated, at the tutorial's 80x43 and at 240x129 (nine times the
  area, nine times the rooms);
* field of view, at 80x43 and 240x129;
* one turn on floor 1: the player waits, every monster acts, FOV is
  recomputed;
* a crowd turn: the same with 40 monsters awake around the player, in an open
  room, at 80x43 and at 240x129;
* one frame: the 80x50 console cleared and drawn with a whole floor in view
  (not presented: that is SDL's work, and it is in the start-up figure);
* saving a floor-1 game (including its flush to disk), loading it back, and
  the save's size.

``--quick`` takes few samples, for the smoke test (tests/test_bench.py).
``--only KEY`` measures only the figures whose key (see `FIGURES`) starts
with KEY, e.g. ``--only crowd``.

Exit status: 1 if any figure misses its target, unless ``--quick`` (few
samples are too noisy to fail on); 0 otherwise.  A missed target is marked
``MISS`` in the table either way.
"""

from __future__ import annotations

import argparse
import copy
import gc
import math
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
MAIN_PY = ROOT / "main.py"

# Before tcod is first imported (nothing here opens a window; this is for
# safety should anything try).
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import tcod  # noqa: E402

import entity_factories  # noqa: E402
import procgen  # noqa: E402
import save_data  # noqa: E402
import setup_game  # noqa: E402
import tile_types  # noqa: E402
from actions import WaitAction  # noqa: E402
from engine import Engine  # noqa: E402
from game_map import GameWorld  # noqa: E402

T = TypeVar("T")

SEED = 20200616
# The tutorial's 80x43 map, and one nine times its area with nine times the rooms.
SMALL = (setup_game.MAP_WIDTH, setup_game.MAP_HEIGHT)
LARGE = (240, 129)
CROWD = 40
# The crowd stands within this distance of the player, all in view.
CROWD_RADIUS = 7


@dataclass(frozen=True)
class Figure:
    """One row of the table: what is measured, in which unit, and its limits."""

    key: str
    label: str
    unit: str  # "s", "ms", "B" or "%"
    target: float | None = None  # The median must be below this.
    tutorial: float | None = None  # The tutorial's design, measured here.
    note: str = ""


FIGURES: tuple[Figure, ...] = (
    Figure("startup", "start-up to first frame", "s", 0.2, 0.25),
    Figure("startup_tcod", "  of which python + import tcod", "s"),
    Figure("idle", "idle CPU at the menu", "%", 1.0),
    Figure("floor_small", "floor generated, 80x43", "ms", 1.2, 1.3),
    Figure("floor_large", "floor generated, 240x129", "ms", 15, 19),
    Figure("fov_small", "FOV, 80x43", "ms"),
    Figure("fov_large", "FOV, 240x129", "ms"),
    Figure("turn", "one turn, floor 1", "ms"),
    Figure("crowd_small", "crowd turn, 40 awake, 80x43", "ms", 1.0, 4.9),
    Figure("crowd_large", "crowd turn, 40 awake, 240x129", "ms", 1.5, 6.8),
    Figure("frame", "frame, 80x50, floor in view", "ms", 0.15, 0.18),
    Figure("save", "save floor 1, with flush", "ms", 20),
    Figure("load", "load floor 1", "ms", 1.0, 0.3, "tutorial: no safety checks"),
    Figure("size", "save size", "B", 4096, 2560),
)


@dataclass
class Result:
    """A figure as measured."""

    figure: Figure
    value: float
    checked: bool = True  # False: shown, but not held to the target.
    note: str = ""

    @property
    def missed(self) -> bool:
        target = self.figure.target
        return self.checked and target is not None and not self.value < target


# ---------------------------------------------------------------- timing


def median_time(
    run: Callable[[T], object], prepare: Callable[[], T], repeats: int
) -> float:
    """The median of `repeats` timings of `run(prepare())`, in seconds.

    Only `run` is timed; `prepare` makes its fresh input each time.
    """
    samples = []
    for _ in range(repeats):
        arg = prepare()
        start = time.perf_counter()
        run(arg)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def nothing() -> None:
    """A `prepare` for `median_time` when there is nothing to prepare."""
    return None


# ----------------------------------------------------------------- games


def new_engine(size: tuple[int, int] = SMALL, seed: int = SEED) -> Engine:
    """A new game as the menu starts it, on a map of `size`.

    Other sizes than the tutorial's keep its room sizes and scale the number of
    rooms with the map's area.
    """
    random.seed(seed)
    engine = setup_game.new_game(seed)
    if size != SMALL:
        width, height = size
        engine.game_world = GameWorld(
            engine=engine,
            map_width=width,
            map_height=height,
            max_rooms=round(setup_game.MAX_ROOMS * width * height / (SMALL[0] * SMALL[1])),
            room_min_size=setup_game.ROOM_MIN_SIZE,
            room_max_size=setup_game.ROOM_MAX_SIZE,
            seed=seed,
        )
        engine.game_world.generate_floor()
        engine.update_fov()
    return engine


def crowd_engine(size: tuple[int, int], seed: int = SEED) -> Engine:
    """A game with the player in the middle of an open room among `CROWD` orcs.

    The room is carved at the centre of the map, cleared of what stood there,
    and every orc in it is in view: all of them act on the next turn.
    """
    engine = new_engine(size, seed)
    game_map = engine.game_map
    player = engine.player
    cx, cy = game_map.width // 2, game_map.height // 2
    half = CROWD_RADIUS + 3
    x0, x1, y0, y1 = cx - half, cx + half + 1, cy - half, cy + half + 1
    for entity in list(game_map.entities):
        if entity is not player and x0 <= entity.x < x1 and y0 <= entity.y < y1:
            game_map.entities.remove(entity)
    game_map.tiles[x0:x1, y0:y1] = tile_types.floor
    player.place(cx, cy)
    spots = [
        (x, y)
        for x in range(cx - CROWD_RADIUS, cx + CROWD_RADIUS + 1)
        for y in range(cy - CROWD_RADIUS, cy + CROWD_RADIUS + 1)
        if (x, y) != (cx, cy) and math.hypot(x - cx, y - cy) <= CROWD_RADIUS
    ]
    for x, y in random.Random(seed).sample(spots, CROWD):
        entity_factories.orc.spawn(game_map, x, y)
    engine.update_fov()
    awake = sum(
        1 for actor in game_map.actors if actor is not player and game_map.visible[actor.x, actor.y]
    )
    assert awake == CROWD, f"{awake} monsters in view, not {CROWD}"
    return engine


def take_turn(engine: Engine) -> None:
    """One turn as the game plays it: the player waits, then the rest."""
    WaitAction(engine.player).perform()
    engine.handle_enemy_turns()
    engine.update_fov()


def copies(engine: Engine) -> Callable[[], Engine]:
    """A `prepare` for `median_time`: a fresh copy of `engine` each time."""
    return lambda: copy.deepcopy(engine)


# ------------------------------------------------------------- in-process


def bench_floor(size: tuple[int, int], repeats: int) -> float:
    """Generate floor 1 of a new game at `size`, once per seed."""
    engine = new_engine(size)
    world = engine.game_world
    world.current_floor = 1
    seeds: Iterator[int] = iter(range(repeats))

    def generate(seed: int) -> None:
        procgen.generate_dungeon(
            max_rooms=world.max_rooms,
            room_min_size=world.room_min_size,
            room_max_size=world.room_max_size,
            map_width=world.map_width,
            map_height=world.map_height,
            engine=engine,
            rng=random.Random(f"{seed}/1"),
        )

    return median_time(generate, lambda: next(seeds), repeats)


def bench_fov(size: tuple[int, int], repeats: int) -> float:
    """Recompute the field of view in a new game at `size`."""
    engine = new_engine(size)
    return median_time(lambda _: engine.update_fov(), nothing, repeats)


def bench_frame(repeats: int) -> float:
    """Clear the console and draw a new game on it, as the main loop does,
    with the whole floor in view."""
    engine = new_engine()
    engine.game_map.visible[:] = True
    engine.game_map.explored[:] = True
    console = tcod.console.Console(80, 50, order="F")

    def frame(_: None) -> None:
        console.clear()
        engine.render(console)

    return median_time(frame, nothing, repeats)


def bench_save(folder: Path, repeats: int) -> tuple[float, float, int]:
    """Save timing, load timing and size of a new game's save."""
    engine = new_engine()
    path = str(folder / "bench.sav")
    save = median_time(lambda _: save_data.save(engine, path), nothing, repeats)
    load = median_time(lambda _: setup_game.load_game(path), nothing, repeats)
    return save, load, os.path.getsize(path)


# ------------------------------------------------------------ processes


def child_env(**extra: str) -> dict[str, str]:
    """The environment for a game process: no sound, bytecode cached."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["SDL_AUDIODRIVER"] = "dummy"
    env.update(extra)
    return env


# What start-up costs before the game's own code runs: a process that only
# imports tcod, and says so as main.py does on its first frame.
IMPORT_TCOD = "import tcod; print('first frame', flush=True)"


def bench_startup(folder: Path, repeats: int, *arguments: str) -> float:
    """Seconds from spawning `python main.py` to its first presented frame.

    Or from spawning `python *arguments` to its printing "first frame".
    """
    env = child_env(SDL_VIDEODRIVER="dummy")
    command = [sys.executable, *(arguments or (str(MAIN_PY), "--bench-first-frame"))]

    def run() -> float:
        """One start-up; the process's exit is not part of it."""
        start = time.perf_counter()
        with subprocess.Popen(
            command,
            cwd=folder,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        ) as process:
            assert process.stdout is not None
            line = process.stdout.readline()
            seconds = time.perf_counter() - start
            if line.strip() != "first frame":
                process.kill()
                raise RuntimeError(f"{command} did not present a frame (it printed {line!r})")
        if process.returncode != 0:
            raise RuntimeError(f"{command} failed after its first frame ({process.returncode})")
        return seconds

    run()  # Untimed: compiles and caches the bytecode.
    return statistics.median(run() for _ in range(repeats))


def cpu_seconds(pid: int) -> float:
    """The CPU time used so far by every thread of process `pid`."""
    total = 0.0
    for task in Path(f"/proc/{pid}/task").iterdir():
        schedstat = task / "schedstat"
        if schedstat.exists():  # Nanoseconds on the CPU.
            total += int(schedstat.read_text().split()[0]) / 1e9
        else:  # Clock ticks in user and system mode.
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


@contextmanager
def virtual_display() -> Iterator[str | None]:
    """A private Xvfb's display name, or None when Xvfb is not installed."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        yield None
        return
    number = next(
        n
        for n in range(90, 1000)
        if not Path(f"/tmp/.X11-unix/X{n}").exists() and not Path(f"/tmp/.X{n}-lock").exists()
    )
    with subprocess.Popen(
        [xvfb, f":{number}", "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    ) as server:
        try:
            deadline = time.monotonic() + 10
            while not Path(f"/tmp/.X11-unix/X{number}").exists():
                if server.poll() is not None or time.monotonic() > deadline:
                    yield None
                    return
                time.sleep(0.05)
            yield f":{number}"
        finally:
            server.terminate()


def bench_idle(folder: Path, seconds: float) -> tuple[float, bool, str]:
    """Percent of one CPU the game uses at the menu while nothing happens.

    Returns the figure, whether it is meaningful, and a note.
    """
    with virtual_display() as display:
        if display is None:
            env = child_env(SDL_VIDEODRIVER="dummy")
            note = "no Xvfb: SDL's dummy driver polls, not checked"
        else:
            env = child_env(SDL_VIDEODRIVER="x11", DISPLAY=display)
            note = "under Xvfb"
        with subprocess.Popen(
            [sys.executable, str(MAIN_PY)],
            cwd=folder,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        ) as process:
            try:
                # Let start-up finish: wait until the CPU time stops growing.
                deadline = time.monotonic() + 20
                last = cpu_seconds(process.pid)
                while time.monotonic() < deadline:
                    time.sleep(0.3)
                    now = cpu_seconds(process.pid)
                    if now - last < 0.003:
                        break
                    last = now
                if process.poll() is not None:
                    raise RuntimeError(f"main.py exited at start-up ({process.returncode})")
                before = cpu_seconds(process.pid)
                time.sleep(seconds)
                used = cpu_seconds(process.pid) - before
            finally:
                process.terminate()
    return 100 * used / seconds, display is not None, note


# ------------------------------------------------------------------ table


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def load_average() -> str:
    """The machine's load average over the last minute, if the system says."""
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:
        return "unknown"


def show(value: float | None, unit: str) -> str:
    """`value` with its unit, to the precision that the figure needs."""
    if value is None:
        return "-"
    if unit == "s":
        return f"{value:.3f} s"
    if unit == "ms":
        return f"{value:.3f} ms" if value < 10 else f"{value:.1f} ms"
    if unit == "B":
        return f"{value:.0f} B"
    return f"{value:.1f} %"


def table(results: Sequence[Result]) -> str:
    """The results as a table with a header, one line each."""
    rows = [("figure", "median", "target", "tutorial", "")]
    for result in results:
        figure = result.figure
        target = "-" if figure.target is None else "< " + show(figure.target, figure.unit)
        if figure.target is None or not result.checked:
            verdict = ""
        else:
            verdict = "MISS" if result.missed else "ok"
        notes = "; ".join(note for note in (figure.note, result.note) if note)
        if notes:
            verdict = f"{verdict:4}  ({notes})"
        rows.append(
            (
                figure.label,
                show(result.value, figure.unit),
                target,
                show(figure.tutorial, figure.unit),
                verdict,
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = []
    for row in rows:
        numbers = [cell.rjust(width) for cell, width in zip(row[1:4], widths[1:], strict=True)]
        lines.append("  ".join([row[0].ljust(widths[0]), *numbers, row[4]]).rstrip())
        if len(lines) == 1:
            lines.append("-" * len(lines[0]))
    return "\n".join(lines)


def measure(quick: bool, only: Sequence[str] = ()) -> list[Result]:
    """Every figure, in the order of `FIGURES`; only those with a key starting
    with one of `only`, if given."""
    by_key = {figure.key: figure for figure in FIGURES}
    few, some, many = (3, 5, 20) if quick else (15, 60, 400)
    results: dict[str, Result] = {}
    with tempfile.TemporaryDirectory(prefix="yarl-bench-") as name:
        folder = Path(name)

        def idle() -> list[tuple[float, bool, str]]:
            return [bench_idle(folder, 1.0 if quick else 2.0)]

        def turn(engine: Engine) -> list[float]:
            return [1e3 * median_time(take_turn, copies(engine), some)]

        def save() -> list[float]:
            seconds_save, seconds_load, size = bench_save(folder, few if quick else 25)
            return [1e3 * seconds_save, 1e3 * seconds_load, size]

        steps: list[tuple[tuple[str, ...], Callable[[], Sequence[float | tuple[float, bool, str]]]]] = [
            (("startup",), lambda: [bench_startup(folder, few)]),
            (("startup_tcod",), lambda: [bench_startup(folder, few, "-c", IMPORT_TCOD)]),
            (("idle",), idle),
            (("floor_small",), lambda: [1e3 * bench_floor(SMALL, many // 2)]),
            (("floor_large",), lambda: [1e3 * bench_floor(LARGE, some)]),
            (("fov_small",), lambda: [1e3 * bench_fov(SMALL, many)]),
            (("fov_large",), lambda: [1e3 * bench_fov(LARGE, many)]),
            (("turn",), lambda: turn(new_engine())),
            (("crowd_small",), lambda: turn(crowd_engine(SMALL))),
            (("crowd_large",), lambda: turn(crowd_engine(LARGE))),
            (("frame",), lambda: [1e3 * bench_frame(many)]),
            (("save", "load", "size"), save),
        ]
        for keys, step in steps:
            if only and not any(key.startswith(prefix) for key in keys for prefix in only):
                continue
            gc.collect()
            for key, outcome in zip(keys, step(), strict=True):
                value, checked, note = outcome if isinstance(outcome, tuple) else (outcome, True, "")
                results[key] = Result(by_key[key], value, checked, note)
                print(f"  {by_key[key].label}: {show(value, by_key[key].unit)}", file=sys.stderr)
    return [results[figure.key] for figure in FIGURES if figure.key in results]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="few samples: a smoke test")
    parser.add_argument(
        "--only",
        metavar="KEY",
        action="append",
        default=[],
        help="measure only the figures whose key starts with KEY ("
        + ", ".join(figure.key for figure in FIGURES)
        + "); may be repeated",
    )
    args = parser.parse_args(argv)
    print("measuring...", file=sys.stderr)
    load_before = load_average()
    results = measure(args.quick, args.only)
    print(f"CPU: {cpu_name()} ({os.cpu_count()} cores)")
    print(
        f"Python {sys.version.split()[0]}, tcod {tcod.__version__}, numpy {np.__version__}"
        + (", quick: few samples" if args.quick else "")
    )
    # Other work on the machine slows every figure: say how busy it was.
    print(f"Load average (1 min): {load_before} before, {load_average()} after")
    print(table(results))
    missed = [result.figure.label for result in results if result.missed]
    if missed:
        print(f"\nMISSED: {', '.join(missed)}")
    return 1 if missed and not args.quick else 0


if __name__ == "__main__":
    sys.exit(main())
