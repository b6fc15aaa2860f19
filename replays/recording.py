"""Recordings: a game as its seed, then each input event it acted on, one text line each.

All of the game's randomness comes from the seed, so the same lines replay the same game.
This module holds the format (an event to its line and back; docs/formats.md describes
every line) and the recording's file.  Play only adds lines (`record`) to the game's
`Lines`; the main loop appends them to the file after each frame (`write_new`), and the
game keeps none of them after: its memory does not grow with its length.  A save names
the file and how far it was written (lines, bytes and their SHA-256), so Continue reads
only what comes after.  A replay, `--verify` and `--follow` write none.
"""

from __future__ import annotations

import dataclasses
import datetime
import itertools
import os
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Final, TypeVar, overload

import tcod.event
from tcod.event import KeySym, Modifier, MouseButton

import color
from controls import keys
from replays import rules
from replays.rules import Rule
from saving import paths, safe_io
from window.options import Settings
from words import program

if TYPE_CHECKING:
    from engine import Engine
    from input_handlers import BaseEventHandler

FORMAT_NAME: Final = "recording"
FORMAT_VERSION: Final = 4
# Format 1 is format 2 without `text` lines; format 2 is format 3 played
# with the tutorial's inventory letters; format 3 is format 4 without its
# bindings and options (`rules`), replayed by the viewer's.
READABLE_VERSIONS: Final = (1, 2, 3, 4)
LETTERS_BY_KIND_SINCE: Final = 3
SUFFIX: Final = ".rec"
NOT_WRITTEN: Final = (
    "The recording could not be written ({reason}): what is played from here is kept with "
    "the game and saved with it, but a crash before the next save would lose it."
)
# The most lines a recording holds, its first and its claim included: what every
# reader takes (a replay, `--verify`, `--follow`, Continue), and where play stops
# recording, having said so `WARN_BEFORE` lines ahead.
MAX_LINES: Final = 1_000_000
WARN_BEFORE: Final = 10_000
NEARLY_FULL: Final = (
    "The recording holds {lines:,} events of the {most:,} it can: after that, the game goes "
    "on and is saved, but is not recorded, so it can't be replayed or verified."
)
FULL: Final = (
    "The recording is full ({most:,} events): the game goes on and is saved, but from here "
    "it is not recorded, so it can't be replayed or verified."
)
# The comment after the seed that says a game is the daily game of a date
# (`replays.daily`): a comment, so every format reads it.
DAILY_PREFIX: Final = "# daily "

# Each modifier word, and what a replayed event holds: the left key, as SDL
# reports a real press.
MODIFIER_WORDS: Final[dict[str, tuple[Modifier, Modifier]]] = {
    "shift": (Modifier.SHIFT, Modifier.LSHIFT),
    "ctrl": (Modifier.CTRL, Modifier.LCTRL),
    "alt": (Modifier.ALT, Modifier.LALT),
}

# A `click` with no button word is the left button.
BUTTON_WORDS: Final[dict[str, MouseButton]] = {
    button.name.lower(): button for button in MouseButton if button is not MouseButton.LEFT
}

# Bounds on what reading a recording may cost: lines of at most `MAX_LINE`
# characters, `MAX_LINES` of them.  Read line by line (`stream`), a recording
# costs time in proportion to its length and memory that does not grow with it.
MAX_LINE: Final = 200
MAX_BYTES: Final = MAX_LINES * (MAX_LINE + 1)
# The largest seed the game's generators take (as `--seed` checks).
MAX_SEED: Final = 2**64 - 1
MAX_NUMBER: Final = 1_000_000

RecordedEvent = (
    tcod.event.KeyDown | tcod.event.TextInput | tcod.event.MouseButtonDown | tcod.event.MouseMotion
)

# Format 1 recorded `>` and `?` as these US keys with Shift.
US_SHIFTED: Final[dict[KeySym, str]] = {KeySym.PERIOD: ">", KeySym.SLASH: "?"}


@dataclasses.dataclass(frozen=True)
class Steps:
    """A `steps N` line: the walk under way stopped after `count` steps."""

    count: int

    def line(self) -> str:
        return f"steps {self.count}"


@dataclasses.dataclass(frozen=True)
class Autofight:
    """An `autofight DX DY` line: autofight's key bumped that way (`controls.autofight`);
    `autofight` alone: it was refused, at no cost."""

    direction: tuple[int, int] | None = None

    def line(self) -> str:
        if self.direction is None:
            return "autofight"
        dx, dy = self.direction
        return f"autofight {dx} {dy}"


@dataclasses.dataclass(frozen=True)
class Resume:
    """A `resume` line: the game left on a menu goes on from its save, on the dungeon's screen."""

    def line(self) -> str:
        return "resume"


Recorded = RecordedEvent | Steps | Resume | Autofight | Rule
RULE_WORDS: Final = ("bind ", "option ")


class RecordingError(Exception):
    """A recording that can't be replayed; `str()` names the file and the line at fault."""


@dataclasses.dataclass(frozen=True)
class Script:
    """A recording read from text: the game's seed, the rules its header names
    (what its keys meant when it started), and its events in order."""

    seed: int
    events: list[Recorded]
    version: int = FORMAT_VERSION
    rules: tuple[Rule, ...] = ()
    daily: str | None = None  # The date of a daily game, as its `# daily` line says.


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
    # It holds `MAX_LINES`: no more are recorded.
    full: bool = dataclasses.field(default=False, init=False, compare=False)
    # False for a replay's own, which no one writes: nothing held.
    keep: bool = dataclasses.field(default=True, init=False, compare=False)

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


HEAD_LINES: Final = 2  # A recording's format and seed.


def letters_by_kind(version: int) -> bool:
    """Whether a recording of this format kept inventory letters by kind, not by place."""
    return version >= LETTERS_BY_KIND_SINCE


def header(
    seed: int,
    version: int = FORMAT_VERSION,
    in_force: Iterable[Rule] = (),
    daily: str | None = None,
) -> list[str]:
    """The first lines of every recording: the format, the game's seed (and a
    daily game's date), then the rules `in_force` (from format 4 on)."""
    dated = [] if daily is None else [f"{DAILY_PREFIX}{daily}"]
    return [f"{FORMAT_NAME} {version}", f"seed {seed}", *dated, *(rule.line() for rule in in_force)]


def line_of(event: tcod.event.Event | Recorded) -> str | None:
    """The line that records `event`, or None for a kind of event never recorded.

    Mouse events must be in tile coordinates, as `context.convert_event` leaves them.
    """
    match event:
        case Steps() | Resume() | Autofight() | rules.Bind() | rules.SetOption():
            return event.line()
        case tcod.event.KeyDown():
            words = [event.sym.name.lower()]
            mod = int(event.mod)  # Ints' `&`: a Modifier's makes a new flag in Python, three an event.
            words += [word for word, (held, _) in MODIFIER_WORDS.items() if mod & int(held)]
            return "key " + " ".join(words)
        case tcod.event.TextInput() if keys.is_symbol(event.text):
            return f"text {event.text}"
        case tcod.event.MouseButtonDown():
            x, y = event.integer_position
            button = "" if event.button is MouseButton.LEFT else f" {event.button.name.lower()}"
            return f"click {x} {y}{button}"
        case tcod.event.MouseMotion():
            x, y = event.integer_position
            return f"move {x} {y}"
    return None


def _tile(x: int, y: int) -> dict[str, tcod.event.Point[float] | tcod.event.Point[int]]:
    """A mouse event's position arguments for tile (x, y): the pointer mid-tile."""
    return {"position": tcod.event.Point(x + 0.5, y + 0.5), "tile": tcod.event.Point(x, y)}


def _number(word: str, low: int = -MAX_NUMBER, high: int = MAX_NUMBER) -> int:
    """The whole number `word`, from `low` to `high`; ValueError saying why not."""
    try:
        number = int(word) if len(word) <= len(str(high)) + 1 else None
    except ValueError:
        raise ValueError(f"{word[:20]!r} is not a whole number") from None
    if number is None or not low <= number <= high:
        raise ValueError(f"{word[:20]!r} is not a whole number from {low} to {high}")
    return number


def event_of(line: str) -> Recorded:
    """The event a line records (the inverse of `line_of`); ValueError saying what is wrong."""
    command, *words = line.split()
    match command:
        case "key":
            return _key_event(words)
        case "text":
            if len(words) != 1 or not keys.is_symbol(words[0]):
                raise ValueError("'text' takes one symbol, such as >")
            return tcod.event.TextInput(text=words[0])
        case "click":
            return _click_event(words)
        case "move":
            if len(words) != 2:
                raise ValueError("'move' takes X Y")
            x, y = _number(words[0]), _number(words[1])
            return tcod.event.MouseMotion(**_tile(x, y))  # type: ignore[arg-type]
        case "steps":
            if len(words) != 1:
                raise ValueError("'steps' takes N")
            return Steps(_number(words[0], 0))
        case "resume":
            if words:
                raise ValueError("'resume' takes nothing")
            return Resume()
        case "autofight":
            return _autofight(words)
        case "bind" | "option":
            return rules.rule_of(command, words)
    raise ValueError(
        f"unknown event {command[:20]!r} (key, text, click, move, steps, resume, autofight, bind or option)"
    )


def _autofight(words: list[str]) -> Autofight:
    """The press of `autofight [DX DY]`: a bump to a neighbouring tile, or none."""
    if not words:
        return Autofight()
    if len(words) != 2:
        raise ValueError("'autofight' takes DX DY (each -1, 0 or 1), or nothing")
    direction = _number(words[0], -1, 1), _number(words[1], -1, 1)
    if direction == (0, 0):
        raise ValueError("'autofight 0 0' bumps no neighbour")
    return Autofight(direction)


def _key_event(words: list[str]) -> tcod.event.KeyDown | tcod.event.TextInput:
    """The event of `key NAME [MODIFIER...]`."""
    if not words:
        raise ValueError("'key' needs a key name")
    name, *modifiers = words
    try:
        sym = KeySym[name.upper()]
    except KeyError:
        raise ValueError(f"unknown key name {name[:40]!r}") from None
    mod = Modifier.NONE
    for word in modifiers:
        if word not in MODIFIER_WORDS:
            raise ValueError(f"unknown modifier {word[:20]!r} (shift, ctrl or alt)")
        mod |= MODIFIER_WORDS[word][1]
    symbol = legacy_symbol(sym, mod)
    if symbol is not None:
        return tcod.event.TextInput(text=symbol)
    return tcod.event.KeyDown(scancode=tcod.event.Scancode.UNKNOWN, sym=sym, mod=mod)


def _click_event(words: list[str]) -> tcod.event.MouseButtonDown:
    """The event of `click X Y [BUTTON]`."""
    if len(words) not in (2, 3):
        raise ValueError("'click' takes X Y and optionally a button")
    x, y = _number(words[0]), _number(words[1])
    button = MouseButton.LEFT
    if len(words) == 3:
        if words[2] not in BUTTON_WORDS:
            raise ValueError(f"unknown button {words[2][:20]!r}")
        button = BUTTON_WORDS[words[2]]
    return tcod.event.MouseButtonDown(**_tile(x, y), button=button)  # type: ignore[arg-type]


def legacy_symbol(sym: KeySym, mod: Modifier) -> str | None:
    """The symbol a format-1 `key` line stands for (`key period shift` is `>`), else None.

    A symbol's KeyDown does nothing now (`keys.does_nothing`), its text does,
    so such a line is read as the text the US keys type.
    """
    if not keys.types_symbol(sym):
        return None
    if mod & Modifier.SHIFT and sym in US_SHIFTED:
        return US_SHIFTED[sym]
    return chr(sym.value)


_T = TypeVar("_T")


class Reader:
    """A recording read one line at a time, in memory that does not grow with it:
    its first lines (format, seed, a daily game's date, the rules in force) as it
    is made (`script`, with no events), then its events as they are asked for
    (`events`).  Each line is parsed once; RecordingError names `source` and the
    line at fault, when it comes.  With `keep_lines`, the number and text of each
    line a replay plays (`played`) waits in `played` for `--verify` to compare."""

    def __init__(self, lines: Iterable[str], source: str, *, keep_lines: bool = False) -> None:
        self.lines, self.source = iter(lines), source
        self.number = 0
        self.played: deque[tuple[int, str]] | None = deque() if keep_lines else None
        self.first: Recorded | None = None  # The first event, read with the header.
        version = seed = None
        daily: str | None = None
        in_header: list[Rule] = []
        while self.first is None and (line := self._next()) is not None:
            if line.startswith(DAILY_PREFIX) and seed is not None:
                daily = line.removeprefix(DAILY_PREFIX)
            if not _plays(line):
                continue
            if version is None:
                version = self._parsed(line, _check_version)
            elif seed is None:
                seed = self._parsed(line, _seed_of)
            elif isinstance(event := self._parsed(line, event_of), Rule):
                in_header.append(event)
            else:
                self.first = event
        if version is None:
            raise RecordingError(f"{source}, line {self.number + 1}: the file is empty, not a recording")
        if seed is None:
            raise RecordingError(f"{source}, line {self.number + 1}: the 'seed N' line is missing")
        self.script = Script(seed, [], version, tuple(in_header), daily)

    def _next(self) -> str | None:
        """The next line, stripped; None at the end."""
        raw = next(self.lines, None)
        if raw is None:
            return None
        self.number += 1
        if self.number > MAX_LINES:
            raise RecordingError(f"{self.source}, line {self.number}: more lines than any game records ({MAX_LINES:,})")
        line = raw.strip()
        if len(line) > MAX_LINE:
            raise RecordingError(f"{self.source}, line {self.number}: longer than {MAX_LINE} characters")
        if self.played is not None and _plays(line):
            self.played.append((self.number, line))
        return line

    def _parsed(self, line: str, parse_line: Callable[[str], _T]) -> _T:
        try:
            return parse_line(line)
        except ValueError as exc:
            raise RecordingError(f"{self.source}, line {self.number}: {exc}") from None

    def events(self) -> Iterator[Recorded]:
        """The events after the first lines, each read and parsed as it is asked for."""
        if self.first is not None:
            yield self.first
        while (line := self._next()) is not None:
            if _plays(line):
                yield self._parsed(line, event_of)


def _plays(line: str) -> bool:
    """Whether a recording's line is one a replay reads (not blank, not a comment)."""
    return bool(line) and not line.startswith("#")


def parse(text: str, source: str) -> Script:
    """Read a recording's text; RecordingError names `source` and the line at fault."""
    reader = Reader(text.splitlines(), source)
    return dataclasses.replace(reader.script, events=list(reader.events()))


def _check_version(line: str) -> int:
    """The format version the first line names, if one this game reads."""
    words = line.split()
    if len(words) != 2 or words[0] != FORMAT_NAME:
        raise ValueError(f"not a recording: the first line must be '{FORMAT_NAME} {FORMAT_VERSION}'")
    if words[1] not in [str(version) for version in READABLE_VERSIONS]:
        raise ValueError(
            f"a recording of format version {words[1][:20]}; this game reads versions "
            f"{', '.join(map(str, READABLE_VERSIONS))}"
        )
    return int(words[1])


def _seed_of(line: str) -> int:
    words = line.split()
    if len(words) != 2 or words[0] != "seed":
        raise ValueError("the second line must be 'seed N'")
    return _number(words[1], 0, MAX_SEED)


def settings_recorded(lines: Lines, viewer: Settings) -> Settings:
    """The keys and options a game's recording leaves it playing by (see
    `rules.settings_of`): those its rules name, or the viewer's before format 4."""
    found = [rule for line in lines.rules for rule in _rule_of(line)]
    return rules.settings_of(version_of(lines.head), found, viewer)


def version_of(lines: Sequence[str]) -> int:
    """The format of a game's recording, from its first lines (a save's, checked when loaded)."""
    return _check_version(lines[0]) if lines else FORMAT_VERSION


def _rule_of(line: str) -> list[Rule]:
    """The rule a line records, if it is one (a save's lines are checked when loaded)."""
    event = event_of(line)
    return [event] if isinstance(event, Rule) else []


def read(path: Path) -> Script:
    """Read a recording file whole; RecordingError for a missing, unreadable or bad one."""
    reader = stream(path)
    return dataclasses.replace(reader.script, events=list(reader.events()))


class Checked:
    """A recording file read through once before it is shown, each line checked and
    none kept: its first lines (`script`, with no events) and how many events it
    holds (`count`).  `events` reads it again as a replay plays it, so that a
    recording of any length is refused before the window opens, or played, in
    memory that does not grow with it."""

    def __init__(self, path: Path) -> None:
        reader = stream(path)
        self.path, self.script = path, reader.script
        self.count = sum(1 for _ in reader.events())

    def events(self) -> Iterator[Recorded]:
        """The events, read again as they are asked for: RecordingError, when one comes, for
        a line the file holds now that it did not when checked."""
        return stream(self.path, source=self.path.name).events()  # Named short: a status line says it.


def stream(path: Path, *, keep_lines: bool = False, source: str | None = None) -> Reader:
    """A recording file read line by line (`Reader`); RecordingError for a missing,
    unreadable or bad one.  Only a regular file is read, never waiting on a FIFO,
    and at most `MAX_LINE` characters of a line, so any file is read or refused in
    time in proportion to its lines and in bounded memory."""
    try:
        file = safe_io.open_text(path)
        lines = _count_lines(file)
    except OSError as exc:
        raise RecordingError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    source = str(path) if source is None else source
    if lines > MAX_LINES:
        file.close()
        raise RecordingError(f"{source}: {lines:,} lines, more than any game records ({MAX_LINES:,})")
    return Reader(_file_lines(file, source), source, keep_lines=keep_lines)


def _count_lines(file: BinaryIO) -> int:
    """The lines of `file`, counted in pieces (a pass at the speed of memory), the
    file then read again from its start: one too many is refused before any is played."""
    count = 0
    while chunk := file.read(1 << 18):
        count += chunk.count(b"\n")
    file.seek(0)
    return count


def _file_lines(file: BinaryIO, path: str) -> Iterator[str]:
    """The lines of `file`, each read no further than a recording's longest (then
    refused), closed at the end."""
    with file:
        for number in itertools.count(1):
            raw = file.readline(MAX_LINE + 2)
            if not raw:
                return
            if len(raw) > MAX_LINE + 1 or (len(raw) == MAX_LINE + 2 and not raw.endswith(b"\n")):
                raise RecordingError(f"{path}, line {number}: longer than {MAX_LINE} characters")
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError:
                raise RecordingError(f"{path}, line {number}: not text") from None


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
        first = safe_io.read_bytes(paths.recordings_dir() / str(source), MAX_BYTES)[: lines.size]
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
    if len(lines) >= MAX_LINES:
        lines.full = True
        engine.message_log.add_message(FULL.format(most=MAX_LINES), color.error)
        return
    if len(lines) == MAX_LINES - WARN_BEFORE:
        engine.message_log.add_message(NEARLY_FULL.format(lines=len(lines), most=MAX_LINES), color.error)
    lines.append(line)


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
            first = safe_io.read_bytes(paths.recordings_dir() / engine.recording_file, MAX_BYTES)[: lines.size]
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
        with (paths.recordings_dir() / engine.recording_file).open("a", encoding="utf-8") as file:
            os.fsync(file.fileno())
    except OSError as exc:
        _warn(engine, exc)


def write_crash(engine: Engine) -> Path:
    """Keep the recording up to an unexpected error as `crash-NNN.rec` in the data folder."""
    names = safe_io.numbered("crash", SUFFIX)
    return safe_io.write_first_free(paths.data_dir(), names, data_of(engine) or b"")


def handle_and_record(handler: BaseEventHandler, event: tcod.event.Event) -> BaseEventHandler:
    """Let the handler act on `event`, and record it if it belongs to the game in play.

    Recorded, while a game is in play: keys and symbols typed (not what
    `keys.does_nothing`), clicks, and pointer moves that changed the game's mouse
    location; not an event that quits, since the save ends there.  An event that
    raises is recorded too, so that the recording replays the error.
    """
    engine = handler.engine_in_play()
    press = None if engine is None else handler.autofight_press(event)
    if engine is not None and press is not None:
        # Kept as what it did, not as the key (see `controls.autofight`).
        record(engine, press.line())
        return handler.play_autofight(press)
    line = None if engine is None or keys.does_nothing(event) else line_of(event)
    # The steps of a walk under way, which the event may stop.
    walked = Steps(handler.walk_steps) if handler.walking else None
    if engine is None or (line is None and walked is None):
        return handler.handle_events(event)
    return _handle_kept(handler, engine, event, line, walked)


def _handle_kept(
    handler: BaseEventHandler,
    engine: Engine,
    event: tcod.event.Event,
    line: str | None,
    walked: Steps | None,
) -> BaseEventHandler:
    """Handle an event of the game in play, then record what replays it."""
    pointer = engine.mouse_location
    # Should the event end the game, its death records it first (`end`).
    engine.unrecorded = line
    try:
        after = handler.handle_events(event)
    except SystemExit:  # Leaving the game stops a walk too.
        engine.unrecorded = None
        if walked is not None:
            record(engine, walked.line())
        raise
    except Exception:
        record_unrecorded(engine)
        raise
    line, engine.unrecorded = engine.unrecorded, None
    if walked is not None and not after.walking:
        # The key or click stopped the walk and did nothing else: what
        # replays it is the number of steps the walk took.
        record(engine, walked.line())
    elif walked is not None and after is handler and not isinstance(event, tcod.event.MouseMotion):
        pass  # Ignored by the walk, which goes on (a click on where it is going): nothing to replay.
    elif line is not None and (
        not isinstance(event, tcod.event.MouseMotion) or engine.mouse_location != pointer
    ):
        record(engine, line)
    return after
