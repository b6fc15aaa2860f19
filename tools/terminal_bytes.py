"""Measure what `--terminal` sends: bytes per frame, and the time a frame costs.

    python tools/terminal_bytes.py                       # tests/recordings/descent.rec
    python tools/terminal_bytes.py some-game.rec
    python tools/terminal_bytes.py --rows 24             # In an 80x24 terminal (`terminal.view`).

Plays a recording through the real handlers, with no window, drawing every frame
the terminal would draw (each event's, and each step of a walk) into the
terminal's `drawing.Screen` (of a terminal of `--rows` rows, 50 by default: what its
view shows), in 24-bit colour and in 256 colours.  Prints, for
each: the first frame of the dungeon, a step (a frame where the player moved one
tile on the same floor), a new floor (the frame after the stairs), and any frame
sent whole (what a resized terminal gets); the median and the largest, in bytes.
Then the time a frame costs, median: drawing the console (the game's own work, as
in the window) and turning it into bytes.  Its folder's files go to a temporary
folder, then away.

    python tools/terminal_bytes.py --write               # docs/performance.md's table

With ``--write`` it measures the descent in a terminal of 50 rows and of 24 and writes
the table into docs/performance.md (`doc_section`): the bytes are the same at every
run, as the game is; the times are this machine's, at its load.
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import doc_section
import tcod

from replays import record_format, record_reader, replay, replay_lines
from screens.stack import Screens
from terminal import drawing, view

DEFAULT = Path(__file__).resolve().parent.parent / "tests" / "recordings" / "descent.rec"


@dataclass
class Figures:
    """Bytes per kind of frame, and the times, for one colour mode."""

    screen: drawing.Screen
    bytes: dict[str, list[int]] = field(default_factory=lambda: {"first": [], "step": [], "floor": [], "whole": []})
    render: list[float] = field(default_factory=list)
    encode: list[float] = field(default_factory=list)


class Meter:
    """Draws each frame of the game into both screens and files its bytes by kind."""

    def __init__(self, rows: int = 50) -> None:
        self.rows = rows  # The terminal's.
        self.console = tcod.console.Console(80, 50, order="F")
        self.modes = {"24-bit": Figures(drawing.Screen(truecolor=True)), "256": Figures(drawing.Screen(truecolor=False))}
        self.where: tuple[int, int, int] | None = None

    def frame(self, screens: Screens) -> None:
        start = time.perf_counter()
        self.console.clear()
        screens.draw(self.console)
        rendered = time.perf_counter() - start
        engine = screens.engine_in_play()
        where = None if engine is None else (engine.game_world.current_floor, engine.player.x, engine.player.y)
        kind = self.kind(where)
        self.where = where
        for figures in self.modes.values():
            start = time.perf_counter()
            cells = view.view_of(self.rows, self.console.rgb.T, screens.map_focus()).cells(self.console.rgb.T)
            sent = figures.screen.frame(cells)
            figures.encode.append(time.perf_counter() - start)
            figures.render.append(rendered)
            if kind is not None:
                figures.bytes[kind].append(len(sent))
            whole = drawing.Screen(figures.screen.truecolor).frame(cells)
            figures.bytes["whole"].append(len(whole))

    def kind(self, where: tuple[int, int, int] | None) -> str | None:
        if where is None or self.where is None:
            return "first" if where is not None and self.where is None else None
        if where[0] != self.where[0]:
            return "floor"
        if max(abs(where[1] - self.where[1]), abs(where[2] - self.where[2])) == 1:
            return "step"
        return None


def play(path: Path, meter: Meter) -> None:
    """Every line of the recording, a frame after each, and after each step of a walk."""
    script = record_reader.read(path)
    first = replay.start(script)
    screens = replay.over_menu(first, first.engine.settings)
    meter.frame(screens)
    for recorded in script.events:
        # A walk's steps: all of them, or as many as a `steps N` line says.
        limit = recorded.count if isinstance(recorded, record_format.Steps) else None
        while (steps := screens.walk_steps()) is not None and (limit is None or steps < limit):
            screens.step()
            meter.frame(screens)
        try:
            replay_lines.replay_line(screens, recorded)
        except Exception:
            break
        if screens.quitting is not None or screens.in_menu:  # The game was left.
            break
        meter.frame(screens)


def measured(rows: int, recording: Path = DEFAULT) -> Meter:
    """The recording's frames in a terminal of `rows` rows."""
    meter = Meter(max(view.MIN_ROWS, min(rows, 50)))
    play(recording, meter)
    return meter


def kilobytes(sizes: list[int]) -> str:
    return f"{min(sizes) / 1000:.1f} to {max(sizes) / 1000:.1f} KB"


def byte_rows(meter: Meter) -> list[str]:
    """The table's rows of bytes, a column a colour mode: the same at every run."""
    steps, floors, wholes = ([meter.modes[mode].bytes[kind] for mode in ("24-bit", "256")] for kind in ("step", "floor", "whole"))
    return [
        "| a step (the player moves a tile) | " + " | ".join(
            f"median {statistics.median(sizes):.0f} B, largest {max(sizes):,} B" for sizes in steps) + " |",
        "| a new floor | " + " | ".join(kilobytes(sizes) for sizes in floors) + " |",
        "| the whole screen (the first frame, or after a resize) | " + " | ".join(
            f"median {statistics.median(sizes) / 1000:.1f} KB, largest {max(sizes) / 1000:.1f} KB" for sizes in wholes) + " |",
    ]  # fmt: skip


def section(meters: dict[int, Meter], day: str, commit: str) -> str:
    """docs/performance.md's table of what the terminal sends (`doc_section`)."""
    frames = len(meters[50].modes["24-bit"].encode)
    tables = "".join(
        f"In a terminal of {rows} rows:\n\n| frame | 24-bit colour | 256 colours |\n| --- | --- | --- |\n"
        + "".join(row + "\n" for row in byte_rows(meter)) + "\n"
        for rows, meter in meters.items()
    )
    figures = meters[50].modes["24-bit"]
    return (
        f"Made by `python tools/terminal_bytes.py --write` on {day}, this game at commit {commit}: the "
        f"recorded descent to floor 3 (`tests/recordings/descent.rec`, {frames} frames). The bytes are the "
        "same at every run.\n\n" + tables
        + f"A frame took {statistics.median(figures.render) * 1000:.2f} ms to draw the console (as in the "
        f"window) and {statistics.median(figures.encode) * 1000:.2f} ms to turn into bytes (medians, 50 rows, "
        f"24-bit; this machine, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}).\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="Measure what --terminal sends, per frame.")
    parser.add_argument("recording", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--rows", type=int, default=50, help="the terminal's rows (24 to 50)")
    parser.add_argument("--write", action="store_true", help="the descent at 50 rows and 24: docs/performance.md's table")
    args = parser.parse_args()
    if args.write:
        meters = {rows: measured(rows) for rows in (50, 24)}
        today = datetime.date.today().isoformat()
        doc_section.write("terminal bytes", "tools/terminal_bytes.py", section(meters, today, doc_section.commit()))
        print(f"written: {doc_section.PAGE}")
        return
    meter = measured(args.rows, args.recording)
    for mode, figures in meter.modes.items():
        print(f"{mode} colour:")
        for kind, sizes in figures.bytes.items():
            if sizes:
                print(f"  {kind:5}: median {statistics.median(sizes):>6.0f} B, largest {max(sizes):>6} B ({len(sizes)} frames)")
        print(
            f"  a frame: {statistics.median(figures.render) * 1000:.2f} ms drawing the console, "
            f"{statistics.median(figures.encode) * 1000:.2f} ms its bytes (median of {len(figures.encode)})"
        )


if __name__ == "__main__":
    main()
