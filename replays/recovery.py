"""Recovery: Continue plays what the recording holds after the last save.

Each line reaches the recording's file after the frame it was played in, while the save
names how far the file went when it was made (lines, bytes and their SHA-256), a stretch
that ends on the save's own line (`recording.save_line`, from save format 12).  After a
kill or a crash, Continue loads the save, checks that the file still begins with what
the save wrote (one pass of SHA-256 over it: 10 MB, a million events, in under 10 ms)
and that it ends on the line of the game loaded (not another save's stretch), and plays the lines after it through the real handlers, so the game is the one a
headless replay of the whole file gives, only faster.  A line cut short ends them (the
last, after a power cut); a bad line stops them and is named, and the file is left as
it is, every line kept: the game goes on in a new file made of what was good.
"""

from __future__ import annotations

import dataclasses
import os
import stat
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO, Final, NamedTuple

from engine import Engine
from replays import record_format, record_reader, recording, replay_lines, rules
from saving import paths, safe_io
from screens.base import BaseEventHandler
from screens.stack import Screens, next_screen
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


@dataclasses.dataclass(frozen=True)
class Unsaved:
    """What a game's recording file holds after its save: the events to play,
    and a line for the player about what was left out, if anything was."""

    events: list[record_format.Recorded] = dataclasses.field(default_factory=list)
    left_out: str | None = None
    _: dataclasses.KW_ONLY
    # The file is no part of this game (a link, another game's recording): left as it is.
    foreign: bool = False
    # The lines of those events as the file holds them, and their bytes (a save that
    # names how far its file went: those need not be written again).
    lines: list[str] = dataclasses.field(default_factory=list)
    data: bytes = b""
    # Whether the file goes on past them: a bad line, or too many (left as it is).
    stopped: bool = False
    # The file is gone, or no longer begins with what the save wrote: the game can't be recorded.
    lost: bool = False


class Recovered(NamedTuple):
    """A game brought back: the screens it is on (none: its recording went on past
    the game's end, back to the menu), what was played after its save, and what of
    the file was left out, if anything."""

    screens: list[BaseEventHandler]
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
    """The events of the game's recording file after what its save holds or names.

    Read line by line, in memory that does not grow with the file: a line cut
    short (the last, after a power cut) ends them, a bad line or the cap
    (`cap`) stops them.  None when the file holds nothing more; none, and
    `foreign`, when it is a link or not this save's recording carried on, which
    is then left as it is; none, and `lost`, when the save named how far the file
    went and the file is gone or no longer begins so.
    """
    lines = engine.recording
    if engine.recording_file is None:
        if lines.written:
            return Unsaved(left_out=UNWRITTEN, lost=True)
        if not _ends_as_saved(engine, None):
            return Unsaved(left_out=ELSEWHERE.format(recording="its recording"), lost=True)
        return Unsaved()
    path = paths.recordings_dir() / engine.recording_file
    try:
        with open_recording(path) as file:
            last = _begins_as_saved(file, lines) if lines.written else None
            if last is None and lines.written:
                return Unsaved(left_out=LOST.format(name=path.name), lost=True)
            if not _ends_as_saved(engine, last):
                return Unsaved(left_out=ELSEWHERE.format(recording=f"the recording {path.name}"), lost=True)
            if not lines.written and not all(_next_line(file) == line for line in lines.held):
                return Unsaved(left_out=OTHER_GAMES.format(name=path.name), foreign=True)
            return _events_after(file, cap(engine), lines.written or len(lines.held), path.name)
    except LinkedRecording:
        goes_on = UNRECORDED if lines.written else IN_A_NEW_FILE
        return Unsaved(left_out=LINKED.format(name=path.name, goes_on=goes_on), foreign=True, lost=bool(lines.written))
    except OSError:
        if lines.written:
            return Unsaved(left_out=LOST.format(name=path.name), lost=True)
        return Unsaved()  # Gone or unreadable: written anew from the save's lines.


def _begins_as_saved(file: BinaryIO, lines: recording.Lines) -> str | None:
    """The last line of what the save names of `file`, if the file begins with those
    bytes (their SHA-256), else None; the hash then goes on from there as the game
    writes on.  ("" for a last line longer than any recording's.)"""
    hasher = recording.new_hash()
    left = lines.size
    tail = b""
    while left and (chunk := file.read(min(left, CHUNK))):
        hasher.update(chunk)
        left -= len(chunk)
        tail = (tail + chunk if len(chunk) < TAIL else chunk)[-TAIL:]
    if left or hasher.hexdigest() != lines.sha256:
        return None
    lines.hasher = hasher
    _, found, last = tail[:-1].rpartition(b"\n")
    whole = bool(found) or len(tail) < TAIL
    return last.decode("utf-8", errors="replace") if whole else ""


def _ends_as_saved(engine: Engine, last_in_file: str | None) -> bool:
    """Whether the stretch of the recording the save names (the file's part, whose last
    line is `last_in_file`, then the lines the save holds) ends on the line the save
    made of the game it holds (`recording.save_line`): not a stretch that ends earlier
    or later, each part of which agrees with itself.  Saves of format 11 and before
    made no such line, and a full recording takes none: those are not asked."""
    lines = engine.recording
    if not lines.ends_on_save or len(lines) >= record_reader.MAX_LINES:
        return True
    last = lines.held[-1] if lines.held else last_in_file
    return last == recording.save_line(engine)


def cap(engine: Engine) -> int:
    """The most events played after the save: `MAX_UNSAVED`, fewer near the recording's cap."""
    room = record_reader.MAX_LINES - SPARE_LINES - len(engine.recording)
    return max(0, min(MAX_UNSAVED, room))


def _events_after(file: BinaryIO, most: int, before: int, name: str) -> Unsaved:
    """The events of the lines left in `file` (the `before`th line of the recording the
    last before them), up to the first that is not one, or `most`."""
    events: list[record_format.Recorded] = []
    lines: list[str] = []
    data = bytearray()

    def stopped(why: str) -> Unsaved:
        return Unsaved([event for event in events if event is not COMMENT], why, lines=lines, data=bytes(data), stopped=True)

    while (line := _next_line(file)) is not None:
        if line == TOO_LONG:
            return stopped(BAD_LINE.format(name=name, number=before + len(lines) + 1, why=f"longer than {record_reader.MAX_LINE} characters"))
        if len(events) == most:
            return stopped(TOO_MANY.format(most=most, name=name))
        try:
            events.append(record_format.event_of(line) if line.strip() and not line.startswith("#") else COMMENT)
        except ValueError as exc:
            return stopped(BAD_LINE.format(name=name, number=before + len(lines) + 1, why=exc))
        lines.append(line)
        data += line.encode("utf-8") + b"\n"
    return Unsaved([event for event in events if event is not COMMENT], lines=lines, data=bytes(data))


def _next_line(file: BinaryIO) -> str | None:
    """The next whole line of `file`, without its line break; None at its end, or
    for a line cut short (the last, after a power cut); `TOO_LONG` for one longer
    than any recording's (only so much of it is read)."""
    raw = file.readline(record_reader.MAX_LINE + 2)
    if not raw.endswith(b"\n"):
        return TOO_LONG if len(raw) > record_reader.MAX_LINE + 1 else None
    return raw[:-1].decode("utf-8", errors="replace")


TOO_LONG: Final = "\n"  # No line read holds a line break: this one stands for a line too long.


# A comment after the save (a claim, say): played as nothing.
COMMENT: Final = record_format.Resume()
CHUNK: Final = 1 << 18
TAIL: Final = record_reader.MAX_LINE + 2  # A line's longest, with the line break before and after.
LINKED: Final = (
    "The recording {name} is a link, not a file: it was left as it is, nothing after the "
    "last save was recovered, and {goes_on}."
)
IN_A_NEW_FILE: Final = "this game is recorded in a new file"
UNRECORDED: Final = "the game goes on unrecorded (it can't be replayed or verified)"
OTHER_GAMES: Final = (
    "The recording {name} does not carry on this save's game: it was left as it is, and "
    "this game is recorded in a new file."
)
LOST: Final = (
    "The recording {name} is gone, or changed since the last save: nothing after the save "
    "was recovered, and the game goes on unrecorded (it can't be replayed or verified)."
)
ELSEWHERE: Final = (
    "The save names a part of {recording} that does not end with the game it holds (another "
    "save's part, or none): nothing after the save was recovered, the file is left as it is, "
    "and the game goes on unrecorded (it can't be replayed or verified)."
)
UNWRITTEN: Final = (
    "The recording could not be written before the last save: the game goes on "
    "unrecorded (it can't be replayed or verified)."
)
BAD_LINE: Final = (
    "The recording {name} stops making sense at line {number:,} ({why}): what came before it "
    "was played; the file is left as it is, and this game goes on in a new file."
)
TOO_MANY: Final = (
    "The recording {name} goes on past {most:,} events after the last save: those were "
    "played; the file is left as it is, and this game goes on in a new file."
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


def recover(engine: Engine, menu: BaseEventHandler, progress: Progress | None = None) -> Recovered | None:
    """Play on `engine` (just loaded, over `menu`) what its recording holds after its
    save; None if nothing.

    Those events play by the keys and options the recording names, whatever the
    player's are now; then the game goes on with the player's (`go_on_with`).
    Then the recording goes on where it should (`settle`).
    """
    player = engine.settings
    engine.settings = recording.settings_recorded(engine.recording, player)
    found = unsaved(engine)
    events = found.events
    turns = engine.turns
    screens = Screens(menu, next_screen(engine))
    try:
        replay_lines.play_lines(screens, paced(events, progress))
    finally:
        go_on_with(engine, player)
    settle(engine, found)
    if not events and found.left_out is None:
        return None
    return Recovered(screens.stack[1:], len(events), engine.turns - turns, found.left_out)


def settle(engine: Engine, found: Unsaved) -> None:
    """Where the recovered game's recording goes on: its file, appended to, if it held
    just what was played (the lines played again were recorded as the file has them);
    a new file, if the file was another's, or went on past what was played (left as
    it is); none, if what the save wrote is gone."""
    lines = engine.recording
    if found.lost:
        lines.lost, engine.recording_file = True, None
        lines.held.clear()
    elif found.foreign:
        engine.recording_file = None  # Left as it is: this game is recorded in a new file.
    elif lines.written and not found.stopped and (played := _accounted(lines.held, found.lines)) is not None:
        rest = lines.held[played:]
        lines.held[:] = found.lines
        lines.wrote(found.data)  # Those the file holds already.
        lines.held += rest
        _cut_to(paths.recordings_dir() / str(engine.recording_file), lines.size)
    elif lines.written:
        lines.fork_from = engine.recording_file  # Left as it is, every line kept.
    elif found.stopped:
        engine.recording_file = None  # An older save's: its lines go to a new file.


def _accounted(held: list[str], in_file: list[str]) -> int | None:
    """How many of the lines `held` (the save's, then those the recovery recorded) the
    lines the file holds after the save are, in order; None if those differ.  Save
    lines (comments) need not be in both: a later save's in the file (a game continued
    from the save before) is no line a recovery records, and stays where it is; the
    save's own, held, may not have reached the file before the kill."""
    played = 0
    for line in in_file:
        while played < len(held) and held[played] != line and _is_save_line(held[played]):
            played += 1
        if played < len(held) and held[played] == line:
            played += 1
        elif not _is_save_line(line):
            return None
    return played


def _is_save_line(line: str) -> bool:
    return line.startswith(record_format.SAVED_PREFIX)


def _cut_to(path: Path, size: int) -> None:
    """Cut off the file's last line if it was cut short (written half, as the power
    went): no line, and the game's next would follow it on the same line."""
    try:
        if os.stat(path, follow_symlinks=False).st_size > size:
            safe_io.truncate(path, size)
    except OSError:
        pass  # Written after it then, as a line of its own: the next write says if it fails.


def go_on_with(engine: Engine, player: Settings) -> None:
    """Play by the player's keys and options from now on, the recording saying
    which of them differ from those it played by (from format 4 on)."""
    played_by, engine.settings = engine.settings, player
    if record_format.version_of(engine.recording.head) < rules.SINCE_VERSION:
        return  # A recording of a format that keeps none.
    for rule in rules.rules_for(player, played_by):
        recording.record(engine, rule.line())


def paced(events: list[record_format.Recorded], progress: Progress | None) -> Iterator[record_format.Recorded]:
    """`events` one by one, showing how far they are played once that takes a while."""
    start = time.monotonic()
    for number, event in enumerate(events):
        late = number % PROGRESS_EVERY == 0 and time.monotonic() - start > PROGRESS_AFTER
        if progress is not None and late:
            progress(number / len(events))
        yield event
