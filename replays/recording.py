"""A game's recording: its seed, then each input event it acted on, one text line
each (`record_format` says how each becomes a line), and the file that keeps them.

All of the game's randomness comes from the seed, so the same lines replay the same game.
Play only adds lines (`record`) to the game's `Lines`; the main loop appends them to the
file after each frame (`write_new`), and the game keeps none of them after: its memory
does not grow with its length.  A save names the file and how far it was written (lines,
bytes and their SHA-256), so Continue reads only what comes after; from save format 12 that
stretch ends on the save's own line (`save_line`: `# saved ...`, a comment a replay skips),
which says which game the save holds, so a save naming another stretch is told apart.  A
replay, `--verify` and `--follow` write none (`record_reader` reads a recording).
"""

from __future__ import annotations

import dataclasses
import datetime
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, overload

import color
from replays import record_format, record_reader, rules
from replays.record_format import DAILY_PREFIX, HEAD_LINES, RULE_WORDS, SAVED_PREFIX, Recorded
from saving import paths, safe_io
from words import program

if TYPE_CHECKING:
    from engine import Engine
    from window.options import Settings

SUFFIX: Final = ".rec"
NOT_WRITTEN: Final = (
    "The recording could not be written ({reason}): what is played from here is kept with "
    "the game and saved with it, but a crash before the next save would lose it."
)
# Play stops recording at `record_reader.MAX_LINES`, having said so this many lines ahead.
WARN_BEFORE: Final = 10_000
NEARLY_FULL: Final = (
    "The recording holds {lines:,} events of the {most:,} it can: after that, the game goes "
    "on and is saved, but is not recorded, so it can't be replayed or verified."
)
FULL: Final = (
    "The recording is full ({most:,} events): the game goes on and is saved, but from here "
    "it is not recorded, so it can't be replayed or verified."
)
EMPTY_SHA256: Final = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def new_hash(data: bytes = b"") -> Any:
    """A SHA-256 of `data`, to go on with (OpenSSL: loaded when a recording is
    first written or checked, not by every start)."""
    import hashlib

    return hashlib.sha256(data)


@dataclasses.dataclass
class Lines:
    """A game's recording: what its file holds (`written` lines, `size` bytes, and
    their SHA-256), and the lines played since, `held` until the main loop appends
    them (`write_new`).  Its first lines (format, seed, a daily game's date) and
    every rule line are kept aside too: a replay and Continue ask for them.

    As a sequence it is the lines held; its length is every line's.  Equal to
    another recording of the same lines, held and written.
    """

    held: list[str] = dataclasses.field(default_factory=list)
    written: int = 0
    size: int = 0
    sha256: str = EMPTY_SHA256  # Of the `size` bytes written, as the save says.
    head: list[str] = dataclasses.field(default_factory=list)
    rules: list[str] = dataclasses.field(default_factory=list)
    # The running SHA-256 of what is written; None until known.
    hasher: Any = dataclasses.field(default=None, init=False, repr=False, compare=False)
    # Whether this session has written its file yet (`write_new`).
    started: bool = dataclasses.field(default=False, init=False, compare=False)
    # A file whose written part begins this game's new file.
    fork_from: str | None = dataclasses.field(default=None, init=False, compare=False)
    # No longer recorded: its file is gone or changed since the save.
    lost: bool = dataclasses.field(default=False, init=False, compare=False)
    # It holds `record_reader.MAX_LINES`: no more are recorded.
    full: bool = dataclasses.field(default=False, init=False, compare=False)
    # False for a replay's own, which no one writes: nothing held.
    keep: bool = dataclasses.field(default=True, init=False, compare=False)
    # Whether its save ends what it names on its own `save_line` (saves of format 12 on).
    ends_on_save: bool = dataclasses.field(default=True, init=False, compare=False)
    # The last line added this session, if any.
    last: str | None = dataclasses.field(default=None, init=False, compare=False)

    @classmethod
    def of(cls, lines: Iterable[str]) -> Lines:
        """A recording of `lines`, none of them written yet."""
        made = cls()
        made.extend(lines)
        return made

    def append(self, line: str) -> None:
        """Add a line (to the head and the rules too, if it is one of theirs)."""
        if len(self.head) < HEAD_LINES or (
            len(self.head) == HEAD_LINES and len(self) == HEAD_LINES and line.startswith(DAILY_PREFIX)
        ):
            self.head.append(line)
        if line.startswith(RULE_WORDS):
            self.rules.append(line)
        self.last = line
        if self.keep:
            self.held.append(line)
        else:
            self.written += 1

    def extend(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.append(line)

    def __iadd__(self, lines: Iterable[str]) -> Lines:
        self.extend(lines)
        return self

    def pop(self) -> str:
        return self.held.pop()

    def forget(self) -> None:
        """Keep no line from now on (a replay's own recording, which no one writes)."""
        self.written += len(self.held)
        self.held.clear()
        self.keep = False

    def wrote(self, data: bytes) -> None:
        """Note that the lines held are now in the file, as `data`."""
        if self.hasher is None:
            self.hasher = new_hash()
        self.hasher.update(data)
        self.sha256 = str(self.hasher.hexdigest())
        self.written += len(self.held)
        self.size += len(data)
        self.held.clear()

    def __len__(self) -> int:
        return self.written + len(self.held)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        """A line held (from the end once some are written: the rest is in the file)."""
        if self.written and not (isinstance(index, int) and -len(self.held) <= index < 0):
            raise IndexError("only the lines not yet written are held: read the file for the rest")
        return self.held[index]

    def __iter__(self) -> Iterator[str]:
        if self.written:
            raise IndexError("only the lines not yet written are held: read the file for the rest")
        return iter(self.held)


class Checked:
    """A recording file read through once before it is shown, each line checked and
    none kept: its first lines (`script`, with no events) and how many events it
    holds (`count`).  `events` reads it again as a replay plays it, so that a
    recording of any length is refused before the window opens, or played, in
    memory that does not grow with it."""

    def __init__(self, path: Path) -> None:
        reader = record_reader.stream(path)
        self.path, self.script = path, reader.script
        self.count = sum(1 for _ in reader.events())

    def events(self) -> Iterator[Recorded]:
        """The events, read again as they are asked for: RecordingError, when one comes, for
        a line the file holds now that it did not when checked."""
        return record_reader.stream(self.path, source=self.path.name).events()  # Named short: a status line says it.


def new_file_name(seed: int, now: datetime.datetime | None = None) -> str:
    """`game-YYYYMMDD-HHMMSS-<seed>.rec`: sorted by date, and saying which game."""
    now = datetime.datetime.now() if now is None else now
    return f"game-{now:%Y%m%d-%H%M%S}-{seed}{SUFFIX}"


def _text(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


def _warn(engine: Engine, exc: OSError) -> None:
    """Say, in the message log and on stderr, that the file can't be written, and forget it:
    said once, since a game with no file writes none.

    The lines not written stay with the game, and its saves keep them.
    """
    reason = exc.strerror or str(exc)
    print(
        f"{program.name()}: could not write the recording {engine.recording_file}: "
        f"{reason}; it is kept with the game",
        file=sys.stderr,
    )
    engine.message_log.add_message(NOT_WRITTEN.format(reason=reason), color.error)
    engine.recording_file = None


def write_new(engine: Engine) -> None:
    """Append the lines held to the game's file: the main loop's, after each frame.

    The first time in a session, a game none of whose lines are written gets a
    file of its own (`start_file`), or, continued from a save that held them
    all (format 10 and before), its own file again (`resume_file`); one whose
    file went on past a bad line goes on in a copy of what its save had written
    (`fork_file`).  A game whose file could not be written writes no more
    (`_warn` said so).
    """
    lines = engine.recording
    if not lines.started:
        lines.started = True
        if lines.fork_from is not None:
            fork_file(engine)
            return
        if not lines.written:
            resume_file(engine)
            return
    if engine.recording_file is None or not lines.held:
        return
    if lines.hasher is None and lines.written and not _hash_written(engine):
        lines.lost, engine.recording_file = True, None  # Changed since the save: nothing to go on from.
        return
    data = _text(lines.held).encode("utf-8")
    try:
        safe_io.append(paths.recordings_dir() / engine.recording_file, data)
    except OSError as exc:
        _warn(engine, exc)
        return
    lines.wrote(data)


def _hash_written(engine: Engine) -> bool:
    """Take up the SHA-256 of what the file of a game loaded without Continue's check
    holds of it (`recovery` checks it too); False if it no longer begins so."""
    lines = engine.recording
    hasher, left = new_hash(), lines.size
    try:
        with safe_io.open_text(paths.recordings_dir() / str(engine.recording_file)) as file:
            while left and (chunk := file.read(min(left, 1 << 18))):
                hasher.update(chunk)
                left -= len(chunk)
    except OSError:
        return False
    if left or hasher.hexdigest() != lines.sha256:
        return False
    lines.hasher = hasher
    return True


def start_file(engine: Engine, first: bytes = b"") -> None:
    """Give the game in play a new file in `paths.recordings_dir()`: `first` (what
    another file held of it), then its lines held."""
    stem = new_file_name(engine.game_world.seed).removesuffix(SUFFIX)
    names = safe_io.numbered(stem, SUFFIX, first_bare=True)
    data = _text(engine.recording.held).encode("utf-8")
    try:
        paths.recordings_dir().mkdir(parents=True, exist_ok=True)
        path = safe_io.write_first_free(paths.recordings_dir(), names, first + data)
    except OSError as exc:
        _warn(engine, exc)
        return
    engine.recording_file = path.name
    engine.recording.wrote(data)


def resume_file(engine: Engine) -> None:
    """Write the file of a game whose lines are all held: a new game's, or one
    continued from a save that held them all, its own file rewritten from them.

    Whatever that file held after the save (play that was never saved) is not
    part of this game any more, so the file and the save agree again.
    """
    if engine.recording_file is None:
        start_file(engine)
        return
    path = paths.recordings_dir() / engine.recording_file
    data = _text(engine.recording.held).encode("utf-8")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        safe_io.write_atomic(path, data)
    except OSError as exc:
        _warn(engine, exc)
        return
    engine.recording.wrote(data)


def fork_file(engine: Engine) -> None:
    """Go on in a new file made of what the save had written of `fork_from` (which
    is left as it is, every line kept), then the lines held."""
    lines = engine.recording
    source, lines.fork_from = lines.fork_from, None
    try:
        first = safe_io.read_bytes(paths.recordings_dir() / str(source), record_reader.MAX_BYTES)[: lines.size]
    except OSError as exc:
        _warn(engine, exc)
        return
    if len(first) != lines.size or new_hash(first).hexdigest() != lines.sha256:
        lines.lost = True  # Changed since it was checked: nothing of it can be trusted.
        engine.recording_file = None
        return
    start_file(engine, first)


def record(engine: Engine, line: str) -> None:
    """Add a line to the game's recording; the main loop writes it to the file
    after the frame (`write_new`), so that a process killed at any moment loses at
    most the events of one frame.  A full recording takes no more, and says so
    `WARN_BEFORE` lines ahead."""
    lines = engine.recording
    if lines.lost or lines.full:
        return
    if len(lines) >= record_reader.MAX_LINES:
        lines.full = True
        engine.message_log.add_message(FULL.format(most=record_reader.MAX_LINES), color.error)
        return
    if len(lines) == record_reader.MAX_LINES - WARN_BEFORE:
        engine.message_log.add_message(NEARLY_FULL.format(lines=len(lines), most=record_reader.MAX_LINES), color.error)
    lines.append(line)


def save_line(engine: Engine) -> str:
    """The line a save adds to its recording (`# saved ...`): which game it holds, as the
    saved game itself says (turns, floor, the player's place, hit points, level and
    experience, and the random generator's state, which every draw moves on), so that Continue can
    tell the stretch a save names from another stretch of the same file.  A comment:
    replays, `--verify` and `--follow` skip it."""
    player = engine.player
    state = int(engine.rng.bit_generator.state["state"]["state"])
    return (
        f"{SAVED_PREFIX}turn {engine.turns} floor {engine.game_world.current_floor} at {player.x} {player.y} "
        f"hp {player.fighter.hp} level {player.level.current_level} xp {player.level.current_xp} rng {state:032x}"
    )


def record_save(engine: Engine) -> Callable[[], None]:
    """Record the game's `save_line`, as a save of it is made (once: a game saved again
    as it was, quitting right after an autosave, says so once); what takes it back,
    should that save fail (a full disk: the player may try again)."""
    line = save_line(engine)
    lines = engine.recording
    if (lines.held[-1] if lines.held else lines.last) == line:
        return lambda: None
    last = lines.last
    record(engine, line)

    def take_back() -> None:
        if lines.keep and lines.held and lines.held[-1] == line:
            lines.pop()
            lines.last = last  # Or a retry would take the line for recorded, and record none.

    return take_back


def record_unrecorded(engine: Engine) -> None:
    """Record the line of the event being handled, if not yet recorded."""
    line, engine.unrecorded = engine.unrecorded, None
    if line is not None:
        record(engine, line)


def end(engine: Engine, claim: str) -> None:
    """A finished game's last lines: the event that ended it, then the ending it
    claims (a comment, which replays skip, and `--verify` checks)."""
    record_unrecorded(engine)
    record(engine, claim)


def data_of(engine: Engine) -> bytes | None:
    """The recording's bytes, as its file holds them and the lines held after;
    None if it is no longer recorded (`Lines.lost`) or its file can't be read."""
    lines = engine.recording
    if lines.lost:
        return None
    first = b""
    if lines.written and engine.recording_file is not None:
        try:
            first = safe_io.read_bytes(paths.recordings_dir() / engine.recording_file, record_reader.MAX_BYTES)[: lines.size]
        except OSError:
            return None
    elif lines.written:
        return None
    return first + _text(lines.held).encode("utf-8")


def sync(engine: Engine) -> None:
    """Flush the game's recording file to the disk (at each save, against power cuts)."""
    if engine.recording_file is None:
        return
    try:
        safe_io.sync(paths.recordings_dir() / engine.recording_file)
    except OSError as exc:
        _warn(engine, exc)


def write_crash(engine: Engine) -> Path:
    """Keep the recording up to an unexpected error as `crash-NNN.rec` in the data folder."""
    names = safe_io.numbered("crash", SUFFIX)
    return safe_io.write_first_free(paths.data_dir(), names, data_of(engine) or b"")


def settings_recorded(lines: Lines, viewer: Settings) -> Settings:
    """The keys and options a game's recording leaves it playing by (see
    `rules.settings_of`): those its rules name, or the viewer's before format 4."""
    found = [rule for line in lines.rules for rule in record_format.rule_of(line)]
    return rules.settings_of(record_format.version_of(lines.head), found, viewer)
