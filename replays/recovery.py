"""Recovery: Continue plays what the recording holds after the last save.

Each line reaches the recording's file as the game acts on it, while the save
holds the lines up to when it was made.  After a kill or a crash, Continue loads
the save and plays the extra lines through the real handlers, so the game is the
one a headless replay of the whole file gives, only faster.  A line cut short,
a damaged line and all after it are left out.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import tcod

import input_handlers
import render_functions
from engine import Engine
from replays import recording, replay_lines, rules
from saving import paths
from window.options import Settings

# The biggest recording file read: a game of a million events, the most a save holds.
MAX_FILE_BYTES: Final = 32 << 20
# A recovery that takes longer than this shows its progress, every `PROGRESS_EVERY` events.
PROGRESS_AFTER: Final = 0.5
PROGRESS_EVERY: Final = 500

# Called with the share of the events played so far, to show it.
Progress = Callable[[float], None]


@dataclass(frozen=True)
class Recovered:
    """A game brought back: the screen it is on, and what was played after its save."""

    handler: input_handlers.BaseEventHandler
    events: int
    turns: int

    def message(self) -> str:
        """What the player is told."""
        if self.turns == 0:
            return f"Recovered what was done after the last save ({self.events} key presses)."
        turns = "1 turn" if self.turns == 1 else f"{self.turns} turns"
        return f"Recovered {turns} played after the last save."


def unsaved_lines(engine: Engine) -> list[str]:
    """The whole lines of the game's recording file after those its save holds.

    Empty when the file holds nothing more, can't be read, or is not this
    save's recording carried on (its first lines differ from the save's).
    """
    if engine.recording_file is None:
        return []
    lines = whole_lines(paths.recordings_dir() / engine.recording_file)
    saved = engine.recording
    if len(lines) <= len(saved) or lines[: len(saved)] != saved:
        return []
    return lines[len(saved) :]


def whole_lines(path: Path) -> list[str]:
    """The lines of a file that end in a line break; none for a file that can't be read.

    Only a regular file is read, at most `MAX_FILE_BYTES` of it.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return []
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FILE_BYTES:
            return []
        data = os.read(fd, MAX_FILE_BYTES + 1)
    except OSError:
        return []
    finally:
        os.close(fd)
    if len(data) > MAX_FILE_BYTES:
        return []
    text = data[: data.rfind(b"\n") + 1].decode("utf-8", errors="replace")
    return text.splitlines()


def events_of(lines: list[str]) -> list[recording.Recorded]:
    """The events of `lines`, up to the first that is not one (damaged)."""
    events = []
    for line in lines:
        try:
            events.append(recording.event_of(line))
        except ValueError:
            break
    return events


def recover(engine: Engine, progress: Progress | None = None) -> Recovered | None:
    """Play on `engine` (just loaded) what its recording holds after its save; None if nothing.

    Those events play by the keys and options the recording names, whatever the
    player's are now; then the game goes on with the player's (`go_on_with`).
    The file is rewritten from the game's lines, so the two agree again.
    """
    player = engine.settings
    engine.settings = recording.settings_recorded(engine.recording, player)
    events = events_of(unsaved_lines(engine))
    turns = engine.turns
    file_name, engine.recording_file = engine.recording_file, None  # Its lines are there.
    try:
        handler = replay_lines.play_lines(
            input_handlers.next_screen(engine), paced(events, progress)
        )
    finally:
        go_on_with(engine, player)
        engine.recording_file = file_name
    recording.resume_file(engine)
    return Recovered(handler, len(events), engine.turns - turns) if events else None


def go_on_with(engine: Engine, player: Settings) -> None:
    """Play by the player's keys and options from now on, the recording saying
    which of them differ from those it played by (from format 4 on)."""
    played_by, engine.settings = engine.settings, player
    if recording.version_of(engine.recording) < rules.SINCE_VERSION:
        return  # A recording of a format that keeps none.
    for rule in rules.rules_for(player, played_by):
        recording.record(engine, rule.line())


def paced(events: list[recording.Recorded], progress: Progress | None) -> Iterator[recording.Recorded]:
    """`events` one by one, showing how far they are played once that takes a while."""
    start = time.monotonic()
    for number, event in enumerate(events):
        late = number % PROGRESS_EVERY == 0 and time.monotonic() - start > PROGRESS_AFTER
        if progress is not None and late:
            progress(number / len(events))
        yield event


def progress_bar(
    present: Callable[[tcod.console.Console], None],
    console: tcod.console.Console,
    doing: str = "Recovering what was played after the last save...",
) -> Callable[[float], None]:
    """A `Progress` that draws how far a long recovery (or what it is `doing`) has come,
    shown by `present` (in the window, or the terminal)."""

    def show(share: float) -> None:
        console.clear()
        render_functions.render_progress(console, doing, share)
        present(console)

    return show
