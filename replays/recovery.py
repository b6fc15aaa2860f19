"""Recovery: Continue plays what the recording holds after the last save.

Each line reaches the recording's file after the frame it was played in, while the save
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Final

import tcod

import input_handlers
import render_functions
from engine import Engine
from replays import recording, replay_lines, rules
from saving import paths, save_fields
from window.options import Settings

# At most this many events after the save are played: five times the most
# the game lets pass between two saves (`autosave.CHECKPOINT_LINES`), so that a
# file grown by other means costs seconds, not minutes.
MAX_UNSAVED: Final = 50_000
# Lines kept free under the save's cap on a recording, for the lines the game
# adds after a recovery (its keys and options, `resume`): it can be saved again.
SPARE_LINES: Final = 1_000
# A recovery that takes longer than this shows its progress, every `PROGRESS_EVERY` events.
PROGRESS_AFTER: Final = 0.5
PROGRESS_EVERY: Final = 500

# Called with the share of the events played so far, to show it.
Progress = Callable[[float], None]


@dataclass(frozen=True)
class Unsaved:
    """What a game's recording file holds after its save: the events to play,
    and a line for the player about what was left out, if anything was."""

    events: list[recording.Recorded] = field(default_factory=list)
    left_out: str | None = None
    # The file is no part of this game (a link, another game's recording): left as it is.
    foreign: bool = False


@dataclass(frozen=True)
class Recovered:
    """A game brought back: the screen it is on, what was played after its save,
    and what of the file was left out, if anything."""

    handler: input_handlers.BaseEventHandler
    events: int
    turns: int
    left_out: str | None = None

    def message(self) -> str:
        """What the player is told."""
        if self.events == 0:
            said = ""
        elif self.turns == 0:
            said = f"Recovered what was done after the last save ({self.events} key presses)."
        else:
            turns = "1 turn" if self.turns == 1 else f"{self.turns} turns"
            said = f"Recovered {turns} played after the last save."
        return "\n".join(text for text in (said, self.left_out) if text)


def unsaved(engine: Engine) -> Unsaved:
    """The events of the game's recording file after the lines its save holds.

    Read line by line, in memory that does not grow with the file: a line cut
    short (the last, after a power cut), too long or damaged ends them, and so
    does the cap (`cap`).  None when the file holds nothing more or can't be
    read; none, and `foreign`, when it is a link or not this save's recording
    carried on (its first lines differ), which is then left as it is.
    """
    if engine.recording_file is None:
        return Unsaved()
    path = paths.recordings_dir() / engine.recording_file
    try:
        with open_recording(path) as file:
            if not all(_next_line(file) == line for line in engine.recording):
                return Unsaved(left_out=OTHER_GAMES.format(name=path.name), foreign=True)
            return _events_after(file, cap(engine))
    except LinkedRecording:
        return Unsaved(left_out=LINKED.format(name=path.name), foreign=True)
    except OSError:
        return Unsaved()  # Gone or unreadable: written anew from the save's lines.


def cap(engine: Engine) -> int:
    """The most events played after the save: `MAX_UNSAVED`, fewer near the save's cap."""
    room = save_fields.MAX_RECORDING - SPARE_LINES - len(engine.recording)
    return max(0, min(MAX_UNSAVED, room))


def _events_after(file: BinaryIO, most: int) -> Unsaved:
    """The events of the lines left in `file`, up to the first that is not one, or `most`."""
    events: list[recording.Recorded] = []
    while (line := _next_line(file)) is not None:
        if len(events) == most:
            return Unsaved(events, f"The recording goes on past {most:,} events after the last "
                           "save: those were played, the rest left out.")
        try:
            events.append(recording.event_of(line))
        except ValueError:
            break
    return Unsaved(events)


def _next_line(file: BinaryIO) -> str | None:
    """The next whole line of `file`, without its line break; None at its end, or
    for a line cut short or longer than any recording's."""
    raw = file.readline(recording.MAX_LINE + 2)
    if not raw.endswith(b"\n"):
        return None
    return raw[:-1].decode("utf-8", errors="replace")


LINKED: Final = (
    "The recording {name} is a link, not a file: it was left as it is, nothing after the "
    "last save was recovered, and this game is recorded in a new file."
)
OTHER_GAMES: Final = (
    "The recording {name} does not carry on this save's game: it was left as it is, and "
    "this game is recorded in a new file."
)


class LinkedRecording(Exception):
    """The recording's name is a symbolic link: never followed."""


def open_recording(path: Path) -> BinaryIO:
    """The recording file at `path` open for reading: only a regular file, never
    through a link (LinkedRecording), never waiting on a FIFO."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        if path.is_symlink():
            raise LinkedRecording() from None
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file")
    except OSError:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def recover(engine: Engine, progress: Progress | None = None) -> Recovered | None:
    """Play on `engine` (just loaded) what its recording holds after its save; None if nothing.

    Those events play by the keys and options the recording names, whatever the
    player's are now; then the game goes on with the player's (`go_on_with`).
    The main loop then writes the file again from the game's lines, so the two
    agree again (`recording.write_new`).
    """
    player = engine.settings
    engine.settings = recording.settings_recorded(engine.recording, player)
    found = unsaved(engine)
    events = found.events
    turns = engine.turns
    try:
        handler = replay_lines.play_lines(
            input_handlers.next_screen(engine), paced(events, progress)
        )
    finally:
        go_on_with(engine, player)
    if found.foreign:
        engine.recording_file = None  # Left as it is: this game is recorded in a new file.
    if not events and found.left_out is None:
        return None
    return Recovered(handler, len(events), engine.turns - turns, found.left_out)


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
