"""`--verify FILE`: whether a recording, or the one a morgue file names, replays to
exactly the ending it claims.

A finished game's recording ends with its claim (`# ending depth=... cause=...`,
written at the death); its morgue file and hall-of-fame entry name the recording
and its SHA-256.  Verifying replays the recording headless, as `--replay` does,
and checks that the replay records every line the file holds, no more and no
less, and dies with the claimed ending.  It proves that the game was played by
the rules, not who played it.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import os
import re
import time
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Final

from replays import record_format, record_reader, recording, replay
from replays.record_reader import RecordingError
from replays.recovery import PROGRESS_AFTER
from saving import hall_of_fame, morgue, paths, safe_io
from window.options import Settings
from words import program
from words.game_over import Claim, ending_of

if TYPE_CHECKING:
    from engine import Engine

# A morgue file is a few kilobytes; a recording is read line by line (`record_reader.stream`).
MAX_MORGUE_BYTES: Final = 1 << 20
# Events played between two comparisons of the lines (a few kilobytes held meanwhile).
COMPARE_EVERY: Final = 256
# How much of a recording's end is read for its claim: its last line, and blank lines after.
TAIL_BYTES: Final = 4096
MAX_NOTE: Final = 4 * 4096  # A morgue note's longest: a program and two paths.


class NotVerified(Exception):
    """A file that does not reach the ending it claims; `str()` says why."""


@dataclasses.dataclass(frozen=True)
class Verified:
    """A recording that reaches the ending it claims."""

    claim: Claim
    seed: int
    events: int

    def line(self, source: Path) -> str:
        return (
            f"verified: {source} reaches the ending it claims: {self.claim.story()} "
            f"(seed {self.seed}, {self.events} events)"
        )


def _cannot_read(path: Path, exc: Exception) -> NotVerified:
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not a text file"
    return NotVerified(f"{path}: cannot read it: {reason}")


def verify(path: Path, settings: Settings | None = None) -> Verified:
    """Verify a recording, or a morgue file's recording; NotVerified saying why not."""
    try:
        start = safe_io.read_head(path, len(morgue.FIRST_WORDS))
    except OSError as exc:
        raise _cannot_read(path, exc) from None
    if start != morgue.FIRST_WORDS.encode():
        return verify_file(path, str(path), settings)
    try:
        text = safe_io.read_bytes(path, MAX_MORGUE_BYTES).decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise _cannot_read(path, exc) from None
    named = morgue.read_kept(text)
    if named is None:
        raise NotVerified(f"{path}: the morgue file names no recording")
    name, sha256, claim = named
    if Path(name).name != name or not name.endswith(recording.SUFFIX) or claim is None:
        raise NotVerified(f"{path}: the morgue file's Recording section is damaged")
    check_kept(path.parent / name, sha256)
    story = functools.partial(check_morgue, text, path)
    return verify_file(path.parent / name, name, settings, claim, story)


def check_kept(path: Path, sha256: str) -> None:
    """NotVerified unless the file is the one a morgue file or a score names by its
    SHA-256 (read in pieces: any length costs no more memory)."""
    hasher = recording.new_hash()
    try:
        with safe_io.open_text(path) as file:
            while chunk := file.read(1 << 18):
                hasher.update(chunk)
    except OSError as exc:
        raise _cannot_read(path, exc) from None
    if hasher.hexdigest() != sha256:
        raise NotVerified(f"{path}: its SHA-256 is not the one named for it: changed since")


def claim_of(last_lines: list[str], source: str) -> Claim:
    """The ending a recording's last line claims."""
    lines = [line for line in last_lines if line.strip()]
    claim = Claim.parse(lines[-1]) if lines else None
    if claim is None:
        raise NotVerified(
            f"{source}: claims no ending (its last line is no '# ending ...'): "
            "cut short, or a game not over"
        )
    return claim


def verify_file(
    path: Path,
    source: str,
    settings: Settings | None = None,
    expected: Claim | None = None,
    then: Callable[[Engine], None] | None = None,
) -> Verified:
    """Replay a recording file, read line by line, and check it against its claim (and
    `expected`'s); `then` checks the replayed game further (a morgue file's story)."""
    try:
        with safe_io.open_text(path) as file:
            size = os.fstat(file.fileno()).st_size
            file.seek(max(0, size - TAIL_BYTES))
            tail = file.read(TAIL_BYTES).decode("utf-8", errors="replace").splitlines()
    except OSError as exc:
        raise _cannot_read(path, exc) from None
    try:
        reader = record_reader.stream(path, keep_lines=True, source=source)
    except RecordingError as exc:
        raise NotVerified(f"refused: {exc}") from None
    return _verify(reader, claim_of(tail, source), source, settings, expected, then)


def verify_text(
    text: str,
    source: str,
    settings: Settings | None = None,
    expected: Claim | None = None,
    then: Callable[[Engine], None] | None = None,
) -> Verified:
    """Replay a recording's text and check it against its claim (and `expected`'s); `then`
    checks the replayed game further (a morgue file's story: `check_morgue`)."""
    try:
        reader = record_reader.Reader(text.splitlines(), source, keep_lines=True)
    except RecordingError as exc:
        raise NotVerified(f"refused: {exc}") from None
    return _verify(reader, claim_of(text.splitlines()[-10:], source), source, settings, expected, then)


def _verify(
    reader: record_reader.Reader,
    claim: Claim,
    source: str,
    settings: Settings | None,
    expected: Claim | None,
    then: Callable[[Engine], None] | None = None,
) -> Verified:
    """Replay what `reader` reads, each line the game records again compared with the
    file's as it comes; then its ending with the claim, and `then` with the game."""
    script = reader.script
    if expected is not None and claim != expected:
        raise NotVerified(f"{source}: claims {claim.story()}, not {expected.story()}")
    if claim.daily is not None and claim.daily != replay.daily_of(script):
        raise NotVerified(f"{source}: seed {script.seed} is not the daily game of {claim.daily}")
    first = replay.start(script, settings)
    compared = Compared(reader, first.engine.recording, source)
    try:
        replay.play_recording(first, compared.checked(reader.events()))
    except RecordingError as exc:
        raise NotVerified(f"refused: {exc}") from None
    check_ending(first.engine, claim, source)
    compared.finish()
    if then is not None:
        then(first.engine)
    return Verified(claim, script.seed, compared.events)


def check_ending(engine: Engine, claim: Claim, source: str) -> None:
    """NotVerified unless the replayed game ends as claimed."""
    if engine.player.is_alive:
        raise NotVerified(
            f"{source}: the replay ends alive on dungeon level {engine.game_world.current_floor} "
            f"after {engine.turns} turns, not as claimed: {claim.story()}"
        )
    reached = ending_of(engine, datetime.datetime.now()).claim
    if reached != claim:
        raise NotVerified(f"{source}: claims {claim.story()}; the replay reaches {reached.story()}")


class Compared:
    """The lines the replayed game records, compared as they come with those the
    file holds (comments and blank lines skipped, as a replay skips them; the claim
    is checked by itself): neither kept beyond the events under way."""

    def __init__(self, reader: record_reader.Reader, lines: recording.Lines, source: str) -> None:
        assert reader.played is not None, "a reader that keeps the lines it plays"
        self.file, self.lines, self.source = reader.played, lines, source
        self.events = 0
        self.in_file = self.recorded = 0
        self.waiting: deque[str] = deque()  # Recorded again, their line in the file still to come.

    def checked(self, events: Iterator[record_format.Recorded]) -> Iterator[record_format.Recorded]:
        """`events`, each compared once played (when the next is asked for)."""
        for event in events:
            self.events += 1
            yield event
            if self.events % COMPARE_EVERY == 0:
                self.compare()

    def compare(self) -> None:
        """NotVerified at the first line of the file the replayed game did not record."""
        held = [line for line in self.lines.held if line and not line.startswith("#")]
        self.recorded += len(held)
        self.lines.written += len(self.lines.held)
        self.lines.held.clear()
        self.waiting.extend(held)
        while self.waiting and self.file:
            number, line = self.file.popleft()
            again = self.waiting.popleft()
            self.in_file += 1
            if line != again:
                raise NotVerified(
                    f"{self.source}, line {number}: {line[:40]!r} is not what the game recorded there "
                    f"({again[:40]!r})"
                )

    def finish(self) -> None:
        """NotVerified unless the file and the replayed game hold as many lines."""
        self.compare()
        in_file, recorded = self.in_file + len(self.file), self.recorded
        if in_file != recorded:
            raise NotVerified(f"{self.source}: {in_file} lines of events, where the game recorded {recorded}")


def check_morgue(text: str, path: Path, engine: Engine) -> None:
    """NotVerified naming the first line of a morgue file's `text` that is not the line the
    replayed game's own morgue file has there: its whole story, not only its Recording
    section.  Not in the recording, taken from the file: the moment of death (its first
    line), which daily try it was, and the paths in its note (see `morgue_note`)."""
    lines = text.splitlines()
    try:
        when = datetime.datetime.strptime(lines[0], f"{morgue.FIRST_WORDS} {morgue.TIME}")
    except ValueError:
        raise NotVerified(f"{path}, line 1: {lines[0][:40]!r} is no morgue file's first line") from None
    named = morgue.read_kept(text)
    assert named is not None  # `verify` checked it.
    name, sha256, _ = named
    ending = dataclasses.replace(ending_of(engine, when), daily_try=daily_try_of(lines))
    kept = morgue.KeptRecording(name, sha256, morgue_note(lines, name))
    made = morgue.morgue_text(engine, ending, kept).splitlines()
    for number, (line, again) in enumerate(zip(lines, made, strict=False), start=1):
        if line != again:
            raise NotVerified(
                f"{path}, line {number}: {line[:40]!r} is not what the replayed game's morgue "
                f"file says there ({again[:40]!r})"
            )
    if len(lines) != len(made):
        raise NotVerified(f"{path}: {len(lines)} lines, where the replayed game's morgue file has {len(made)}")


def daily_try_of(lines: list[str]) -> int:
    """Which try of its date a daily game was, as its morgue file says ("Daily DATE, try 2").
    Not in the recording: the player's recordings folder counted it."""
    for line in lines:
        if found := re.fullmatch(r"Daily [0-9]{4}-[0-9]{2}-[0-9]{2}, try ([0-9]{1,4})\.", line):
            return int(found[1])
    return 0


def morgue_note(lines: list[str], name: str) -> str:
    """The morgue's note on its recording (the line after its claim: the commands that replay
    and verify it), if it is one: its program and paths are where the game ran, which the
    replay can't know.  Else the note of `name` as this game writes it, which then differs."""
    mark = "@@"  # Where each path and the program are in the note's shape (no shell quotes it).
    shape = morgue.replay_note(Path(mark), Path(mark)).replace(program.command(), mark, 1)
    pattern = re.compile(".+".join(re.escape(part) for part in shape.split(mark)))
    claimed = [n for n, line in enumerate(lines[:-1]) if line.startswith(morgue.CLAIM_LABEL)]
    note = lines[claimed[-1] + 1] if claimed else ""
    # Paths are short; a line of megabytes would cost the pattern's backtracking seconds.
    if len(note) <= MAX_NOTE and pattern.fullmatch(note):
        return note
    return morgue.replay_note(Path(name), Path(name))


# What the hall of fame's recordings were found to be, by SHA-256 and claim:
# each is replayed once a session.
_verdicts: dict[tuple[str, Claim], bool] = {}


def entry_verified(entry: hall_of_fame.Entry, settings: Settings | None = None) -> bool | None:
    """Whether a hall-of-fame entry's recording, in the morgue folder, is the file
    it names and replays to its ending; None for an entry that names none."""
    if not entry.recording:
        return None
    path = paths.morgue_dir() / entry.recording
    try:
        if Path(entry.recording).name != entry.recording:
            raise NotVerified("not a file's name")
        check_kept(path, entry.sha256)
    except NotVerified:
        return False
    key = (entry.sha256, entry.claim())
    if key not in _verdicts:
        try:
            verify_file(path, entry.recording, settings, entry.claim())
            _verdicts[key] = True
        except NotVerified:
            _verdicts[key] = False
    return _verdicts[key]


def entries_verified(
    entries: list[hall_of_fame.Entry],
    settings: Settings,
    progress: Callable[[float], None] | None = None,
) -> list[bool | None]:
    """`entry_verified` for each entry (the hall of fame screen's marks); once that
    takes a while, `progress` is told the share done before each."""
    start = time.monotonic()
    marks = []
    for done, entry in enumerate(entries):
        if progress is not None and time.monotonic() - start > PROGRESS_AFTER:
            progress(done / len(entries))
        marks.append(entry_verified(entry, settings))
    return marks


def answer(path: Path, settings: Settings) -> int:
    """`--verify FILE`: one line on whether it reaches the ending it claims; 0 if it does."""
    try:
        verified = verify(path, settings)
    except NotVerified as exc:
        print(f"{program.name()}: not verified: {exc}")
        return 1
    print(f"{program.name()}: {verified.line(path)}")
    return 0
