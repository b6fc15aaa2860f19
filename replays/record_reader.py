"""A recording read: its text, or its file line by line in time in proportion to its
length and in memory that does not grow with it, into its first lines (`Script`) and
its events; a line at fault named, with its file, in a `RecordingError`.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import BinaryIO, Final, TypeVar

from replays.record_format import (
    DAILY_PREFIX,
    FORMAT_VERSION,
    Recorded,
    check_version,
    event_of,
    seed_of,
)
from replays.rules import Rule
from saving import safe_io

# The most lines a recording holds, its first and its claim included: what every
# reader takes (a replay, `--verify`, `--follow`, Continue), and where play stops
# recording, having said so `recording.WARN_BEFORE` lines ahead.
MAX_LINES: Final = 1_000_000
# Bounds on what reading a recording may cost: lines of at most `MAX_LINE`
# characters, `MAX_LINES` of them.  Read line by line (`stream`), a recording
# costs time in proportion to its length and memory that does not grow with it.
MAX_LINE: Final = 200
MAX_BYTES: Final = MAX_LINES * (MAX_LINE + 1)


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
                version = self._parsed(line, check_version)
            elif seed is None:
                seed = self._parsed(line, seed_of)
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


def read(path: Path) -> Script:
    """Read a recording file whole; RecordingError for a missing, unreadable or bad one."""
    reader = stream(path)
    return dataclasses.replace(reader.script, events=list(reader.events()))


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
