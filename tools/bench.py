#!/usr/bin/env python3
"""Measure the figures a player feels, and check them against one frame at 60 Hz.

Usage: ``python tools/bench.py [--quick]``, from any folder; ``python tools/bench.py
--startup [--runs N] [--write]`` counts start-up's instructions alone, N runs of each
program after a warm-up (the median, the least and the greatest), and with ``--write``
puts them in docs/performance.md's table.

The figures:

* **key press to frame**: how long the game takes from a key press to its
  answer drawn and presented in the window, as the main loop does it
  (`loop.handle_event` on the converted event, then clear, draw, present):
  p50, p99 and the maximum, which must stay under 16.7 ms, one frame at
  60 Hz.  Measured twice: over a long scripted game (a simple player that
  fights what it sees, drinks potions when hurt, picks things up, opens the
  other screens now and then, takes the stairs, and starts a new game from
  the menu when it dies), and in a crowd of 40 monsters awake around the
  player, all acting on every key press;
* **a descent's frame**: taking the stairs saves the game (`autosave`), after
  the frame is presented; the descent's key press to frame must stay under
  16.7 ms as every other, and the save's own time is given beside it;
* **start-up**: ``python main.py`` next to the floor no game can beat
  (python, numpy and tcod, the tile sheet, an 80x50 window, the main menu's
  picture presented once): the instructions (valgrind's callgrind, which
  the machine's load does not change) to the first frame presented and
  until ready for the first key (SDL first waiting for events), the latter
  within 1.2 times the floor's; and the CPU time until ready (the process
  goes quiet, waiting), run in turn with the floor; a bare
  ``python -c "import tcod"`` beside them;
* **start-up of the packaged build** (``python tools/build.py`` makes it in
  dist/; not measured without one), in CPU time the same way: within 1.5
  times ``python main.py``'s;
* **idle CPU** at the main menu while nothing happens (0% expected: the loop
  blocks waiting for input);
* **the path of a walk's step**: what auto-explore (`travel.Explore`)
  takes to choose each step while it explores a whole 80x43 floor and then
  walks to the stairs; under 2 ms, so that a walk's 40 steps a second leave
  the frame its time;
* **peak memory** of a process that plays a game down to floor 10 and draws
  it, next to a bare ``import tcod``.

The window figures need a screen: the bench starts its own ``Xvfb`` (the
game's window then is a real X11 window, drawn by SDL's software renderer);
without Xvfb the key presses and start-up are timed under SDL's dummy driver
and idle CPU is not measured.  Start-up's instructions need valgrind.

``--quick`` takes few samples, for the smoke test (tests/test_bench.py).
Exit status: 1 if a figure misses its target, unless ``--quick``; else 0.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
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
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parent.parent
MAIN_PY = ROOT / "main.py"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if str(ROOT / "tools") not in sys.path:
    sys.path.insert(0, str(ROOT / "tools"))

import doc_section  # noqa: E402

if TYPE_CHECKING:  # The game is imported once the video driver is chosen.
    import tcod

    import input_handlers
    from engine import Engine
    from screens.stack import Screens

SEED = 20200616
OWN_MS = 8.3  # The game's own work on a key press: within one frame at 120 Hz.
START_RATIO = 1.2  # Start-up until ready for a key, against the floor's.
STARTUP_RUNS = 3  # Runs of start-up's instructions, each (1 with --quick).
CROWD = 40
CROWD_RADIUS = 7  # The crowd stands within this distance of the player, all in view.
SCREEN = (1024, 768)


@dataclass
class Row:
    """One line of the table."""

    label: str
    values: str
    target: str = "-"
    missed: bool | None = None  # None: no target.


# ------------------------------------------------------------- the screen


@contextmanager
def virtual_display() -> Iterator[str | None]:
    """A private Xvfb's display name (black root window), or None without Xvfb.

    Xvfb picks a free display number itself (``-displayfd``), so the bench
    never takes a display someone else uses; ``-noreset`` keeps it from
    resetting (and refusing connections meanwhile) when the game's window
    closes.
    """
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        yield None
        return
    read_end, write_end = os.pipe()
    width, height = SCREEN
    with subprocess.Popen(
        [xvfb, "-displayfd", str(write_end), "-screen", "0", f"{width}x{height}x24",
         "-br", "-noreset", "-nolisten", "tcp"],
        pass_fds=(write_end,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    ) as server:
        os.close(write_end)
        try:
            with os.fdopen(read_end) as pipe:
                number = pipe.readline().strip()
            yield f":{number}" if number else None
        finally:
            server.terminate()


def child_env(display: str | None) -> dict[str, str]:
    """The environment for a game process: on `display` (else no video), no sound,
    bytecode cached as a player's would be."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["SDL_AUDIODRIVER"] = "dummy"
    if display is None:
        env["SDL_VIDEODRIVER"] = "dummy"
    else:
        env["SDL_VIDEODRIVER"] = "x11"
        env["DISPLAY"] = display
    return env


def cpu_seconds(pid: int) -> float:
    """The CPU time used so far by process `pid`, all its threads (ended ones too)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


QUIET = 0.3  # Seconds without CPU time: the process waits for its first key.


def settled_cpu(process: subprocess.Popen[bytes], deadline: float = 30) -> float:
    """The CPU seconds `process` used until it went quiet, waiting for its first
    key (the game and the floor block in `tcod.event.wait`, using none)."""
    start = time.monotonic()
    last, quiet_since = cpu_seconds(process.pid), time.monotonic()
    while time.monotonic() - quiet_since < QUIET:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args!r} exited at start-up ({process.returncode})")
        if time.monotonic() - start > deadline:
            raise RuntimeError(f"{process.args!r} was still busy after {deadline} s")
        time.sleep(0.02)
        now = cpu_seconds(process.pid)
        if now != last:
            last, quiet_since = now, time.monotonic()
    return last


def time_startup(
    display: str | None, folder: Path, repeats: int, program: Sequence[str] = (sys.executable, str(MAIN_PY))
) -> float:
    """Median CPU seconds ``python main.py`` (or `program`) takes until ready for its first key."""
    return time_startups(display, folder, repeats, [program])[0]


def time_startups(
    display: str | None, folder: Path, repeats: int, programs: Sequence[Sequence[str]]
) -> list[float]:
    """Median CPU seconds each of `programs` takes from its start until it waits for
    its first key, run in turn (A B A B ...), so that the machine's drift weighs on
    each alike.  CPU time, not the wall clock: other programs on a busy machine
    inflate the wall clock much more; and no look at the screen, which would take
    the bench's own time from the game's.

    Each start gets a data folder of its own inside `folder`, removed after it:
    the game remembers its window in the options file when it is closed, and the
    bench leaves nothing behind."""

    def once(program: Sequence[str]) -> float:
        with tempfile.TemporaryDirectory(dir=folder) as data, subprocess.Popen(
            [*program, "--data-dir", data],
            cwd=data,
            env=child_env(display),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        ) as process:
            try:
                return settled_cpu(process)
            finally:
                process.terminate()

    for program in programs:
        once(program)  # Untimed: compiles and caches the bytecode.
    samples: list[list[float]] = [[] for _ in programs]
    for _ in range(repeats):
        for program, times in zip(programs, samples, strict=True):
            times.append(once(program))
    return [statistics.median(times) for times in samples]


# SDL's call that waits for events: the process is ready for its first key.
WAITS = "SDL_WaitEvent*"
# libtcod's call that presents a frame.
PRESENTS = "TCOD_context_present"


def instructions_to_ready(program: Sequence[str], folder: Path, hash_seed: int = 0) -> tuple[int, int]:
    """The instructions `program` runs to its first frame presented and to its first
    wait for a key, as valgrind's callgrind counts them (under SDL's dummy video
    driver: what the game does is the same, and no OpenGL is drawn by the CPU), with
    ``PYTHONHASHSEED`` `hash_seed`.  `program` starts with `sys.executable`, the
    interpreter itself: valgrind would count a launcher script (pyenv's shim) instead.

    Callgrind writes its counts so far each time libtcod presents a frame and
    before SDL first waits for events; the process is ended at the first wait.
    """
    with tempfile.TemporaryDirectory(dir=folder) as data:
        out = Path(data) / "callgrind.out"
        with subprocess.Popen(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
             f"--dump-after={PRESENTS}", f"--dump-before={WAITS}", *program, "--data-dir", data],
            cwd=data,
            env=dict(child_env(None), PYTHONHASHSEED=str(hash_seed)),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        ) as process:
            try:
                return _counted_to_wait(out, process)
            finally:
                process.kill()


def _counted_to_wait(out: Path, process: subprocess.Popen[bytes]) -> tuple[int, int]:
    """The instructions to the first present and to the first wait, from callgrind's
    dumps ``out.1``, ``out.2`` ... (each counts from the one before), as they come."""
    total, first_frame, part = 0, None, 1
    deadline = time.monotonic() + 600
    while True:
        dump = out.with_name(f"{out.name}.{part}")
        text = dump.read_text() if dump.exists() else ""
        if "\ntotals:" not in text:  # Not yet written whole.
            if process.poll() is not None:
                raise RuntimeError(f"{process.args!r} exited before waiting for a key")
            if time.monotonic() > deadline:
                raise RuntimeError(f"{process.args!r} did not wait for a key in 600 s")
            time.sleep(0.2)
            continue
        total += int(text.split("\ntotals:")[1].split()[0])
        trigger = text.split("\ndesc: Trigger:")[1].split("\n")[0]
        if PRESENTS in trigger and first_frame is None:
            first_frame = total
        if "SDL_Wait" in trigger:
            return first_frame or total, total
        part += 1


# The floor no game can beat: python, numpy and tcod, one tile sheet (the
# game's default), an 80x50 window and the main menu's picture (its backdrop,
# title, credit and choices, as `window.title` draws them) presented once;
# then it waits for its window's events, as the game does, so that the
# bench's SIGTERM (which SDL turns into a Quit event) ends it at once.
FLOOR = f"""
import numpy, tcod
tileset = tcod.tileset.load_tilesheet({str(ROOT / "dejavu10x10_gs_tc.png")!r}, 32, 8, tcod.tileset.CHARMAP_TCOD)
console = tcod.console.Console(80, 50, order="F")
backdrop = numpy.asarray(tcod.image.Image.from_file({str(ROOT / "menu_background.png")!r}))[:, :, :3]
console.draw_semigraphics(backdrop, 0, 0)
console.print(40, 21, "TOMBS OF THE ANCIENT KINGS", fg=(255, 255, 63), alignment=tcod.constants.CENTER)
console.print(40, 48, "After the Yet Another Roguelike Tutorial (2020), for tcod today",
              fg=(255, 255, 63), alignment=tcod.constants.CENTER)
choices = ["[N] Play a new game", "[D] Daily dungeon", "[H] Hall of fame", "[O] Options", "[Q] Quit"]
console.rgb[28:52, 23:23 + len(choices)]["bg"] //= 4
for i, text in enumerate(choices):
    console.print(28, 23 + i, text, fg=(255, 255, 255))
with tcod.context.new(columns=80, rows=50, tileset=tileset, vsync=False) as context:
    context.present(console)
    while not any(isinstance(event, tcod.event.Quit) for event in tcod.event.wait()):
        pass
"""
GAME = (sys.executable, str(MAIN_PY))
# The floor takes `--data-dir` as the game does (and ignores it).
FLOOR_PROGRAM = (sys.executable, "-c", FLOOR, "--", "-")


@dataclass
class StartupCounts:
    """Start-up in instructions, one figure a run; run i of the game and of the floor
    have the same hash seed (i)."""

    game_frame: list[int]
    game_ready: list[int]
    floor_frame: list[int]
    floor_ready: list[int]

    def ratios(self, game: list[int], floor: list[int]) -> tuple[float, float, float]:
        """The medians' ratio, and the least and greatest of the runs'."""
        each = [a / b for a, b in zip(game, floor, strict=True)]
        return statistics.median(game) / statistics.median(floor), min(each), max(each)


def startup_instructions(folder: Path, runs: int, warm_up: bool = True) -> StartupCounts:
    """The game's and the floor's instructions to the first frame and until ready, `runs`
    times each (hash seeds 0 to runs - 1) after one uncounted warm-up run of each (which
    compiles and caches the bytecode and brings the files into memory; not `warm_up`
    where they have just run); the runs side by side, one a core: callgrind counts the
    same on a busy machine."""
    for program in (GAME, FLOOR_PROGRAM) if warm_up else ():
        instructions_to_ready(program, folder)
    with ThreadPoolExecutor(os.cpu_count()) as pool:
        game = list(pool.map(lambda seed: instructions_to_ready(GAME, folder, seed), range(runs)))
        floor = list(pool.map(lambda seed: instructions_to_ready(FLOOR_PROGRAM, folder, seed), range(runs)))
    return StartupCounts(
        [frame for frame, _ in game], [ready for _, ready in game],
        [frame for frame, _ in floor], [ready for _, ready in floor],
    )  # fmt: skip


def millions(counts: Sequence[int]) -> str:
    """The median in millions, and the least and greatest in brackets when they differ."""
    low, middle, high = min(counts) / 1e6, statistics.median(counts) / 1e6, max(counts) / 1e6
    return f"{middle:,.0f} M" + ("" if round(low) == round(high) else f" ({low:,.0f} to {high:,.0f})")


def times_the_floor(ratios: tuple[float, float, float]) -> str:
    middle, low, high = ratios
    return f"{middle:.3f}x the floor ({low:.3f} to {high:.3f}x)"


PAGE = ROOT / "docs" / "performance.md"
SECTIONS = ("start-up", "bench")  # Its sections of the page (`doc_section`): start-up's, the report's.


def startup_section(counts: StartupCounts, commit: str, day: str) -> str:
    """docs/performance.md's table of start-up's instructions (its section's text)."""
    runs = len(counts.game_ready)
    frame = counts.ratios(counts.game_frame, counts.floor_frame)
    ready = counts.ratios(counts.game_ready, counts.floor_ready)
    return (
        f"Made by `python tools/bench.py --startup --write` on {day}, this game at commit "
        f"{commit}: instructions (callgrind, SDL's dummy video driver, bytecode cached by a "
        f"warm-up run), the median of {runs} runs of each (`PYTHONHASHSEED` 0 to {runs - 1}), "
        "the least and greatest in brackets where they differ; a ratio is the medians', with "
        "the least and greatest of the runs' (run i of each).\n\n"
        "| | the floor | the game | the game / the floor |\n| --- | --- | --- | --- |\n"
        f"| first frame presented | {millions(counts.floor_frame)} | {millions(counts.game_frame)} "
        f"| {times_the_floor(frame).replace(' the floor', '')} |\n"
        f"| ready for the first key | {millions(counts.floor_ready)} | {millions(counts.game_ready)} "
        f"| {times_the_floor(ready).replace(' the floor', '')} (target: under {START_RATIO}x) |\n"
    )


def write(page: Path, text: str, section: str = "start-up") -> None:
    """Put `text` in place of `page`'s section (start-up's, or the whole bench's: "bench")."""
    doc_section.write(section, "tools/bench.py", text, page)


def report_section(report: str, commit: str, day: str) -> str:
    """docs/performance.md's copy of the whole bench's report (its section's text)."""
    return f"Its last run, `python tools/bench.py --write` on {day}, this game at commit {commit}:\n\n```text\n{report}\n```\n"


def commit_of() -> str:
    return doc_section.commit()


def startup_rows(display: str | None, folder: Path, repeats: int) -> tuple[float, list[Row]]:
    """``python main.py``'s start-up next to the floor's: in instructions to its
    first frame and until ready for its first key, and in CPU time until ready."""
    game, floor = time_startups(display, folder, repeats, [GAME, FLOOR_PROGRAM])
    cpu = Row(
        "start-up, CPU until ready for a key (python main.py)",
        f"{game:.3f} s, {game / floor:.2f}x the floor",
        f"< {START_RATIO}x",
        not game < START_RATIO * floor,
    )
    floor_row = Row("  the floor: numpy, tcod, tile sheet, 80x50 window, the menu's picture", f"{floor:.3f} s")
    if shutil.which("valgrind") is None:
        return game, [Row("start-up, instructions", "not measured: no valgrind"), cpu, floor_row]
    # time_startups has just run each program once untimed: the warm-up.
    counts = startup_instructions(folder, 1 if repeats == 1 else STARTUP_RUNS, warm_up=False)
    ready = counts.ratios(counts.game_ready, counts.floor_ready)
    return game, [
        Row(
            "start-up, instructions to the first frame",
            f"{millions(counts.game_frame)}, {times_the_floor(counts.ratios(counts.game_frame, counts.floor_frame))}",
        ),
        Row(
            "start-up, instructions until ready for a key",
            f"{millions(counts.game_ready)}, {times_the_floor(ready)}",
            f"< {START_RATIO}x",
            not ready[0] < START_RATIO,
        ),
        Row(
            "  the floor's, to its frame and until ready",
            f"{millions(counts.floor_frame)}, {millions(counts.floor_ready)}",
        ),
        cpu,
        floor_row,
    ]


def time_import_tcod(repeats: int) -> float:
    """Median seconds from spawning ``python -c "import tcod"`` to its exit."""
    samples = []
    for _ in range(repeats + 1):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import tcod"], env=child_env(None), check=True)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples[1:])


def idle_cpu(display: str, folder: Path, seconds: float) -> float:
    """Percent of one CPU that ``python main.py`` uses at the menu, untouched."""
    with subprocess.Popen(
        [sys.executable, str(MAIN_PY)],
        cwd=folder,
        env=child_env(display),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    ) as process:
        try:
            before = settled_cpu(process)  # Start-up is over.
            time.sleep(seconds)
            return 100 * (cpu_seconds(process.pid) - before) / seconds
        finally:
            process.terminate()


# ------------------------------------------------------------------ memory

# A game played down to floor 10 (by the stairs, as `>` takes them) and drawn
# in a window; prints the process's peak resident memory in KiB (VmHWM: unlike
# `ru_maxrss`, it does not count what the process held before `exec`).
FLOOR_10 = f"""
import random, sys
sys.path.insert(0, {str(ROOT)!r})
import tcod
import main, setup_game
from window import assets, options
from actions import TakeStairsAction
random.seed({SEED})
engine = setup_game.new_game(seed={SEED})
while engine.game_world.current_floor < 10:
    engine.player.place(*engine.game_map.downstairs_location)
    TakeStairsAction(engine.player).perform()
console = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
with main.open_window(assets.load_tileset(), options.Settings()) as context:
    engine.render(console)
    context.present(console)
print(open("/proc/self/status").read().split("VmHWM:")[1].split()[0])
"""
IMPORT_TCOD = 'import tcod; print(open("/proc/self/status").read().split("VmHWM:")[1].split()[0])'


def peak_memory_mib(code: str, display: str | None) -> float:
    """The peak resident memory of ``python -c code``, in MiB."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=child_env(display),
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout.split()[-1]) / 1024


# --------------------------------------------------------------- key presses


def key(sym: tcod.event.KeySym, mod: tcod.event.Modifier | None = None) -> tcod.event.KeyDown:
    import tcod

    return tcod.event.KeyDown(
        scancode=tcod.event.Scancode.UNKNOWN,
        sym=sym,
        mod=tcod.event.Modifier.NONE if mod is None else mod,
    )


class DiskWaits:
    """Counts every sync to disk (`os.fsync`) this process makes, and the time it waits in them."""

    def __init__(self) -> None:
        self.real_fsync = os.fsync
        os.fsync = self.fsync
        self.reset()

    def reset(self) -> None:
        self.syncs, self.seconds = 0, 0.0

    def fsync(self, fd: Any) -> None:  # An fd, or what has one.
        start = time.perf_counter()
        try:
            self.real_fsync(fd)
        finally:
            self.syncs += 1
            self.seconds += time.perf_counter() - start


DISK = DiskWaits()


class Window:
    """The game's real window and root console, answering key presses as the
    main loop does; every answer is timed."""

    def __init__(self) -> None:
        import tcod

        import main
        from window import assets, options, windowed
        windowed.quiet_library_logs()
        gc.freeze()  # As the loop does once the game is loaded (`loop.play_in`).
        self.context = main.open_window(assets.load_tileset(), options.Settings())
        self.console = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
        self.samples: list[float] = []
        # Of each descent: its answer, and the save made after it was presented.
        self.descent_samples: list[float] = []
        self.descent_cpu_samples: list[float] = []
        self.save_samples: list[float] = []
        self.cpu_samples: list[float] = []
        self.present_samples: list[float] = []  # Of each answer, SDL's presenting.
        self.game_samples: list[float] = []  # Of each answer, the game's own CPU time.
        self.disk_samples: list[float] = []  # Of each answer, the wait for the disk (fsync).
        self.synced_presses = 0  # Answers that waited for the disk at all.
        self.after_samples: list[float] = []  # After each frame: syncs and the autosave.
        # The answer of most own work so far: its time, the key and the screen it was pressed on.
        self.slowest = (0.0, "")

    def show(self, screens: Screens) -> None:
        """Draw and present the screens, untimed, as the loop shows its first frame."""
        from window import loop

        self.console.clear()
        screens.draw(self.console)
        loop.front_end_of(self.context).present(self.console, screens.settings.options, screens)

    def press(self, screens: Screens, event: tcod.event.KeyDown | tcod.event.TextInput) -> None:
        """The screens after `event`, its frame presented, then saved if due (`autosave`)."""
        from replays import record_format
        from saving import autosave, effects, safe_io
        from window import loop
        before = screens.top
        floor = self.floor(screens)
        DISK.reset()
        start, start_cpu, start_game = time.perf_counter(), time.process_time(), time.thread_time()
        loop.handle_event(self.context, screens, self.context.convert_event(event))
        self.console.clear()
        screens.draw(self.console)
        drawn = time.perf_counter()
        own = time.thread_time() - start_game
        self.game_samples.append(own)
        self.context.present(self.console, keep_aspect=True)
        seconds = time.perf_counter() - start
        self.present_samples.append(seconds - (drawn - start))
        self.cpu_samples.append(time.process_time() - start_cpu)
        self.disk_samples.append(DISK.seconds)
        self.synced_presses += DISK.syncs > 0
        self.samples.append(seconds)
        if own > self.slowest[0]:
            self.slowest = own, f"{record_format.line_of(event)} on {type(before).__name__}"
        saving = autosave.due(screens) is not None
        start = time.perf_counter()
        safe_io.sync_pending()  # As the main loop does once the frame is presented.
        effects.save_or_get_ready(screens)  # As the main loop does (`effects.after_frame`).
        self.after_samples.append(time.perf_counter() - start)
        if saving:
            self.save_samples.append(time.perf_counter() - start)
        if floor is not None and self.floor(screens) not in (None, floor):
            self.descent_samples.append(seconds)
            self.descent_cpu_samples.append(self.cpu_samples[-1])

    @staticmethod
    def floor(screens: Screens) -> int | None:
        engine = screens.engine_in_play()
        return None if engine is None else engine.game_world.current_floor

    def close(self) -> None:
        self.context.close()


class ScriptedPlayer:
    """A simple, seeded player: its choice of key is not timed, only the answer."""

    def __init__(self, seed: int) -> None:
        import tcod

        KeySym = tcod.event.KeySym
        self.rng = random.Random(seed)
        # Directions as the game's vi keys.
        self.moves = {
            (-1, 0): KeySym.H, (1, 0): KeySym.L, (0, -1): KeySym.K, (0, 1): KeySym.J,
            (-1, -1): KeySym.Y, (1, -1): KeySym.U, (-1, 1): KeySym.B, (1, 1): KeySym.N,
        }
        self.wait = tcod.event.TextInput(text=".")
        self.stairs = tcod.event.TextInput(text=">")
        self.pickup = key(KeySym.G)
        self.inventory = key(KeySym.I)
        self.escape = key(KeySym.ESCAPE)
        self.screens: list[tcod.event.KeyDown | tcod.event.TextInput] = [key(KeySym.V), key(KeySym.C), tcod.event.TextInput(text="/"), key(KeySym.F1)]
        self.choices = [key(KeySym.A), key(KeySym.B), key(KeySym.C)]
        self.drinking = False

    def choose(self, handler: input_handlers.BaseEventHandler) -> tcod.event.KeyDown | tcod.event.TextInput | None:
        """The key to press on `handler`'s screen; None when the game is over."""
        import input_handlers
        import setup_game

        match handler:
            case setup_game.MainMenu():
                return key(tcod_keysym("N"))
            case input_handlers.GameOverEventHandler():
                return None
            case input_handlers.LevelUpEventHandler():
                return self.rng.choice(self.choices)
            case input_handlers.InventoryActivateHandler() if self.drinking:
                self.drinking = False
                return key(tcod_keysym(chr(ord("A") + self.potion(handler.engine))))
            case input_handlers.MainGameEventHandler():
                return self.play(handler.engine)
        return self.escape  # Leaves every other screen.

    @staticmethod
    def potion(engine: Engine) -> int:
        """The inventory index of a health potion, or -1."""
        names = [item.name for item in engine.player.inventory.items]
        return names.index("Health Potion") if "Health Potion" in names else -1

    def play(self, engine: Engine) -> tcod.event.KeyDown | tcod.event.TextInput:
        player, game_map = engine.player, engine.game_map
        if self.rng.random() < 0.03:
            return self.rng.choice(self.screens)
        if player.fighter.hp < player.fighter.max_hp // 2 and self.potion(engine) >= 0:
            self.drinking = True
            return self.inventory
        monsters = [
            actor
            for actor in game_map.actors
            if actor is not player and game_map.visible[actor.x, actor.y]
        ]
        if monsters:
            nearest = min(monsters, key=lambda m: max(abs(m.x - player.x), abs(m.y - player.y)))
            goal = nearest.x, nearest.y
        elif any((item.x, item.y) == (player.x, player.y) for item in game_map.items) and (
            len(player.inventory.items) < player.inventory.capacity
        ):
            return self.pickup
        elif (player.x, player.y) == game_map.downstairs_location:
            return self.stairs
        else:
            goal = game_map.downstairs_location
        step = self.step_towards(engine, goal)
        return self.wait if step is None else key(self.moves[step])

    @staticmethod
    def step_towards(engine: Engine, goal: tuple[int, int]) -> tuple[int, int] | None:
        """The first step of a shortest walk to `goal`, around other monsters."""
        import numpy as np
        import tcod

        player, game_map = engine.player, engine.game_map
        cost = game_map.tiles["walkable"].astype(np.int32)
        for entity in game_map.entities:
            if entity.blocks_movement and entity is not player and (entity.x, entity.y) != goal:
                cost[entity.x, entity.y] = 0
        path = tcod.path.path2d(
            cost, start_points=[(player.x, player.y)], end_points=[goal],
            cardinal=1, diagonal=1,
        )
        if len(path) < 2:
            return None
        x, y = path[1].tolist()
        return x - player.x, y - player.y


def tcod_keysym(letter: str) -> tcod.event.KeySym:
    import tcod

    return tcod.event.KeySym[letter]


def scripted_game(window: Window, presses: int) -> tuple[int, int]:
    """Play `presses` key presses from the main menu; the deepest floor reached
    and how many games were played."""
    import setup_game
    from screens.stack import Screens

    player = ScriptedPlayer(SEED)
    random.seed(SEED)
    screens = Screens(setup_game.MainMenu(seed=SEED))
    window.show(screens)
    games, deepest, pressed = 1, 1, 0
    while pressed < presses:
        event = player.choose(screens.top)
        if event is None:  # Dead: back to a fresh menu, as a player starting again.
            games += 1
            screens = Screens(setup_game.MainMenu(seed=SEED + games))
            window.show(screens)
            continue
        window.press(screens, event)
        pressed += 1
        engine = screens.engine_in_play()
        if engine is not None:
            deepest = max(deepest, engine.game_world.current_floor)
    return deepest, games


def crowd_engine(seed: int = SEED) -> Engine:
    """A new game with the player in the middle of an open room among `CROWD` orcs,
    every one of them in view: all of them act on every key press."""
    import entity_factories
    import setup_game
    import tile_types

    random.seed(seed)
    engine = setup_game.new_game(seed=seed)
    game_map, player = engine.game_map, engine.player
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
    return engine


def crowd(window: Window, presses: int) -> None:
    """Wait `presses` turns in the crowd; the player is healed between presses
    (untimed), so the crowd stays 40 strong and awake."""
    import input_handlers
    import setup_game
    from screens.stack import Screens

    engine = crowd_engine()
    screens = Screens(setup_game.MainMenu(engine.settings), input_handlers.MainGameEventHandler(engine))
    wait = ScriptedPlayer(SEED).wait
    window.show(screens)
    for _ in range(presses):
        engine.player.fighter.hp = engine.player.fighter.max_hp
        window.press(screens, wait)
        awake = sum(
            1 for actor in engine.game_map.actors
            if actor is not engine.player and engine.game_map.visible[actor.x, actor.y]
        )
        assert awake == CROWD, f"{awake} monsters awake, not {CROWD}"


def percentiles(samples: Sequence[float]) -> tuple[float, float, float]:
    """p50, p99 and the maximum of `samples` (seconds), in milliseconds."""
    ms = sorted(1e3 * sample for sample in samples)
    p99 = ms[min(len(ms) - 1, math.ceil(0.99 * len(ms)) - 1)]
    return statistics.median(ms), p99, ms[-1]


def latency_rows(label: str, window: Window) -> list[Row]:
    """The window's answers: first the game's own work, the CPU time of handling
    the key and drawing the console, each held to a frame at 120 Hz; then SDL
    presenting the frame (under Xvfb, OpenGL drawn by the CPU: a graphics card
    does it in a fraction), the wait for the disk within the answer (none: what
    a key press writes is synced after its frame), and the answer as the player
    waits for it, which other programs on a busy machine inflate; then what
    comes after the frame (syncs, the autosave), which delays only a key
    pressed meanwhile."""
    def spread(samples: Sequence[float]) -> str:
        return "p50 {:.2f} ms, p99 {:.2f} ms, max {:.2f} ms".format(*percentiles(samples))

    own_top = percentiles(window.game_samples)[2]
    misses = sum(sample * 1e3 > OWN_MS for sample in window.game_samples)
    return [
        Row(
            f"{label}, the game's own work, CPU",
            f"{spread(window.game_samples)} ({window.slowest[1]}); {misses} over {OWN_MS} ms",
            f"max < {OWN_MS} ms",
            not own_top < OWN_MS,
        ),
        Row("  SDL presenting the frame", spread(window.present_samples)),
        Row(
            "  waiting for the disk within the answer",
            f"{spread(window.disk_samples)}; {window.synced_presses} presses synced",
            "no sync",
            window.synced_presses > 0,
        ),
        Row("  key press to frame, wall clock", spread(window.samples)),
        Row("  CPU time of the same", spread(window.cpu_samples)),
        Row("  after the frame: syncs and autosave, wall clock", spread(window.after_samples)),
    ]


def descent_rows(window: Window) -> list[Row]:
    """Taking the stairs saves the game (`autosave`) after the descent's frame is
    presented: the frame within the budget, then the save, which delays only a
    key pressed during it."""
    if not window.descent_samples:
        return [Row("descent with its autosave", "no descent in the scripted game")]
    p50, _, top = percentiles(window.descent_samples)
    save_p50, _, save_top = percentiles(window.save_samples)
    return [
        Row(
            f"  of which descents ({len(window.descent_samples)}), key press to frame",
            f"p50 {p50:.2f} ms, max {top:.2f} ms",
        ),
        Row(
            "    CPU time of the same",
            "p50 {:.2f} ms, max {:.2f} ms".format(*percentiles(window.descent_cpu_samples)[::2]),
        ),
        Row(
            f"  the autosave after a new game's or descent's frame ({len(window.save_samples)})",
            f"p50 {save_p50:.2f} ms, max {save_top:.2f} ms",
        ),
    ]


# -------------------------------------------------------------- walks


PATH_MS = 2.0  # The path of one step of a walk (see `travel`).


def walk_path_samples(seed: int = SEED) -> tuple[list[float], list[float]]:
    """The time `travel.Explore` takes to choose each step while it explores
    a whole floor of the tutorial's 80x43 (monsters taken away, so that it
    never stops), then walks to the stairs: one distance map over the
    explored floor a step, two once all is explored.  As the wall clock
    says, and in CPU time, which other programs on a busy machine inflate
    much less."""
    import actions
    import setup_game
    from controls import travel
    random.seed(seed)
    engine = setup_game.new_game(seed=seed)
    for actor in list(engine.game_map.actors):
        if actor is not engine.player:
            engine.game_map.entities.remove(actor)
    walk, samples, cpu_samples = travel.Explore(), [], []
    while True:
        start, cpu_start = time.perf_counter(), time.thread_time()
        step = walk.next_step(engine)
        samples.append(time.perf_counter() - start)
        cpu_samples.append(time.thread_time() - cpu_start)
        if isinstance(step, travel.Stop):
            return samples, cpu_samples
        if isinstance(step, travel.PickUp):
            actions.PickupAction(engine.player).perform()
        else:
            actions.MovementAction(engine.player, *step).perform()
        engine.update_fov()


# --------------------------------------------------------- the packaged build


def packaged_startup(
    display: str | None, folder: Path, repeats: int, source: float, dist: Path = ROOT / "dist"
) -> Row:
    """The packaged build's start-up (``python tools/build.py``'s, in `dist`), measured as
    ``python main.py``'s (`source` seconds) is: within 1.5 times it.  Not measured when
    there is no build; a build older than the source measures the old game."""
    # tools/build.py names the build.  tools/ is on the path when this runs as a
    # script, not when a test loads it.
    if str(ROOT / "tools") not in sys.path:
        sys.path.insert(0, str(ROOT / "tools"))
    from build import program_path

    program = program_path(dist)
    label = "start-up, CPU until ready for a key (the packaged build)"
    if not program.exists():
        return Row(label, "not measured: no build (python tools/build.py)")
    seconds = time_startup(display, folder, repeats, (str(program),))
    return Row(
        label,
        f"{seconds:.3f} s, {seconds / source:.2f}x python main.py",
        "< 1.5x",
        not seconds < 1.5 * source,
    )


# ------------------------------------------------------------- long games


LONG_GAMES = ROOT / "tools" / "long_games.py"


def long_game_rows(quick: bool) -> list[Row]:
    """The long games' figures (Continue, autosaves, memory, ``--verify`` at a
    million events), when ``tools/long_games.py`` is there to measure them: its
    ``bench_rows(quick)`` gives (label, measured, target, missed) for each."""
    if not LONG_GAMES.exists():
        return []
    spec = importlib.util.spec_from_file_location("long_games", LONG_GAMES)
    if spec is None or spec.loader is None:
        return []
    module = importlib.util.module_from_spec(spec)
    sys.modules["long_games"] = module  # Its dataclasses look their module up by name.
    spec.loader.exec_module(module)
    bench_rows = getattr(module, "bench_rows", None)
    if bench_rows is None:
        return [Row("long games", "not measured: tools/long_games.py has no bench_rows")]
    return [Row(*row) for row in bench_rows(quick)]


# ------------------------------------------------------------------- table


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def table(rows: Sequence[Row]) -> str:
    header = Row("figure", "measured", "target")
    widths = [max(len(getattr(row, name)) for row in [header, *rows]) for name in ("label", "values", "target")]
    lines = []
    for row in [header, *rows]:
        verdict = "" if row.missed is None else ("MISS" if row.missed else "ok")
        cells = [row.label.ljust(widths[0]), row.values.ljust(widths[1]), row.target.ljust(widths[2])]
        lines.append("  ".join([*cells, verdict]).rstrip())
        if row is header:
            lines.append("-" * len(lines[0]))
    return "\n".join(lines)


def measure(quick: bool) -> list[Row]:
    presses, crowd_presses, repeats = (150, 20, 1) if quick else (5000, 500, 10)
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="yarl-bench-") as name, virtual_display() as display:
        folder = Path(name)
        # The game in this process draws on the private screen, if there is one.
        os.environ.update(child_env(display))
        os.chdir(folder)  # Where a game over deletes the save: nothing of ours.
        window = Window()
        try:
            deepest, games = scripted_game(window, presses)
            rows += latency_rows(
                f"key press to frame, scripted game ({presses} presses, "
                f"{games} games, floors 1-{deepest})",
                window,
            )
            rows += descent_rows(window)
            window.samples, window.cpu_samples, window.present_samples = [], [], []
            window.game_samples, window.disk_samples, window.after_samples = [], [], []
            window.synced_presses = 0
            window.slowest = (0.0, "")
            crowd(window, crowd_presses)
            rows += latency_rows(
                f"key press to frame, {CROWD} monsters awake ({crowd_presses} presses)", window
            )
        finally:
            window.close()
        samples, cpu_samples = walk_path_samples()
        p50, p99, top = percentiles(cpu_samples)
        rows.append(
            Row(
                f"path of a walk's step, exploring 80x43 ({len(samples)} steps), CPU",
                f"p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {top:.2f} ms",
                f"max < {PATH_MS:.1f} ms",
                not top < PATH_MS,
            )
        )
        p50, p99, top = percentiles(samples)
        rows.append(
            Row("  wall clock of the same", f"p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {top:.2f} ms")
        )
        startup, startup_table = startup_rows(display, folder, repeats)
        rows += startup_table
        rows.append(packaged_startup(display, folder, repeats, startup))
        rows.append(Row('  bare python -c "import tcod"', f"{time_import_tcod(repeats):.3f} s"))
        if display is None:
            rows.append(Row("idle CPU at the menu", "not measured: no Xvfb"))
        else:
            idle = idle_cpu(display, folder, 0.5 if quick else 3.0)
            rows.append(Row("idle CPU at the menu", f"{idle:.1f} %", "< 0.5 %", not idle < 0.5))
        rows.append(
            Row("peak memory, a game on floor 10", f"{peak_memory_mib(FLOOR_10, display):.1f} MiB")
        )
        rows.append(
            Row('  bare python -c "import tcod"', f"{peak_memory_mib(IMPORT_TCOD, None):.1f} MiB")
        )
        os.chdir(ROOT)
    return rows + long_game_rows(quick)


def startup_only(runs: int, write_page: bool) -> int:
    """``--startup``: start-up's instructions, the game's and the floor's, `runs` times each."""
    if shutil.which("valgrind") is None:
        raise SystemExit("bench.py --startup: needs valgrind")
    with tempfile.TemporaryDirectory(prefix="yarl-bench-") as name:
        counts = startup_instructions(Path(name), runs)
    frame = counts.ratios(counts.game_frame, counts.floor_frame)
    ready = counts.ratios(counts.game_ready, counts.floor_ready)
    print(f"start-up in instructions, the median of {runs} runs (least to greatest):")
    print(f"first frame: the game {millions(counts.game_frame)}, the floor {millions(counts.floor_frame)}, "
          f"{times_the_floor(frame)}")  # fmt: skip
    print(f"ready:       the game {millions(counts.game_ready)}, the floor {millions(counts.floor_ready)}, "
          f"{times_the_floor(ready)}, target < {START_RATIO}x")  # fmt: skip
    if write_page:
        write(PAGE, startup_section(counts, commit_of(), time.strftime("%Y-%m-%d")))
        print(f"written: {PAGE.relative_to(ROOT)}")
    return 1 if not ready[0] < START_RATIO else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="few samples: a smoke test")
    parser.add_argument("--startup", action="store_true", help="start-up's instructions alone (valgrind)")
    parser.add_argument("--runs", type=int, default=5, help="with --startup: runs of each program")
    parser.add_argument("--write", action="store_true", help="write the report (or start-up's table) into docs/performance.md")
    args = parser.parse_args(argv)
    if args.write and args.quick:
        parser.error("--write takes the full run's figures, not --quick's")
    if args.startup:
        return startup_only(args.runs, args.write)
    load_before = os.getloadavg()[0]
    rows = measure(args.quick)
    import numpy as np
    import tcod

    report = "\n".join([
        f"CPU: {cpu_name()} ({os.cpu_count()} cores)",
        f"Python {sys.version.split()[0]}, tcod {tcod.__version__}, numpy {np.__version__}"
        + (", quick: few samples" if args.quick else ""),
        # Other work on the machine slows every figure: say how busy it was.
        f"Load average (1 min): {load_before:.2f} before, {os.getloadavg()[0]:.2f} after",
        table(rows),
    ])  # fmt: skip
    report += "\n\n" + verdict(rows)
    print(report)
    if args.write:
        write(PAGE, report_section(report, commit_of(), time.strftime("%Y-%m-%d")), "bench")
        print(f"written: {PAGE.relative_to(ROOT)}")
    return 1 if any(row.missed for row in rows) and not args.quick else 0


def verdict(rows: Sequence[Row]) -> str:
    """The targets a run missed, in words under its table: the page never reads as met."""
    missed = [row.label.strip() for row in rows if row.missed]
    return f"Targets missed in this run: {'; '.join(missed)}." if missed else "Every target met in this run."


if __name__ == "__main__":
    sys.exit(main())
