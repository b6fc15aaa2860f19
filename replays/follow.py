"""`--replay FILE --follow`: watch a game while it is played, from its recording.

The game appends each event's line to its recording as it acts on it, so a
follower that reads the file again and again, and plays each new whole line
through the real handlers (`replay_lines`), shows the player's game as it goes.
It only reads the file (no lock, no write: its own game's files go to a
replay folder), and ends with the game: the recording's last line, the ending
it claims, is written at the death.

A walk's steps are not in the recording, only where a key stopped it; the
follower walks at its own pace and, if the player's walk turns out to have
stopped sooner (a `steps N` line it has already walked past), or the file was
rewritten with other lines (Continue of an older save rewrites it from the save;
`cp` rewrites it in place), plays the whole file again from its start, at full
speed.  A file that is no recording is refused as soon as its first lines say so.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Final

import tcod

import color
import input_handlers
from controls import keys
from replays import record_format, record_reader, recording, replay, replay_lines
from replays.record_format import Recorded, Steps
from replays.record_reader import RecordingError
from saving import safe_io
from screens.base import Content
from screens.stack import Screens
from window.front_end import FrontEnd
from window.options import Options, Settings
from words.game_over import Claim

# How much of the file is read at a time: following holds no more of it, whatever its length.
CHUNK_BYTES: Final = 1 << 20
# The bytes before where the follower has read, and the file's first, read again
# at each poll: a file rewritten in place (as `cp` does) no longer holds them there.
TAIL_BYTES: Final = 256
# How often the file is read again, in seconds: what a follower lags by, at most,
# beyond the time to play what it read.
POLL_SECONDS: Final = 0.05


class FollowError(Exception):
    """A followed file that can't be read or is not a recording; `str()` says why."""


@dataclass
class Follower:
    """A game played from a recording that is still being written.

    The file is read in pieces of its whole lines, each played as it comes, so
    following keeps nothing of the file but how far it was read (its bytes, and
    their SHA-256), whatever its length."""

    path: Path
    settings: Settings | None = None
    screens: Screens | None = None
    first: input_handlers.MainGameEventHandler | None = None  # Its game's first screen.
    ended: bool = False  # The recording claims its game's ending: no line will follow.
    restarts: int = 0  # How often the game was played again from the file's start.
    walked: int = 0  # The steps walked since the last line played, ahead of the file.
    played: int = 0  # The file's lines played (or read, before its game could start).

    read_to: int = 0  # The bytes of the file's whole lines read so far.
    hasher: Any = None  # Their SHA-256.
    identity: tuple[int, int] | None = None  # The file read (device, inode): a rewrite makes a new one.
    tail: bytes = b""  # The bytes just before `read_to`, as read,
    head: bytes = b""  # and the first ones.
    waiting: list[str] = field(default_factory=list)  # The first lines, until they make a game.
    heads: list[str] = field(default_factory=list)  # Its format and seed lines, as they come.

    def poll(self, finish_walks: bool = False) -> int:
        """Read the file, and play the lines new since the last poll; how many were new.

        `finish_walks`: take a walk's remaining steps at once, as a headless replay
        does at its end, rather than at the window's pace (`step_walk`).
        """
        try:
            with safe_io.open_text(self.path) as file:
                new = self._read_new(file)
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not a text file"
            raise FollowError(f"{self.path}: cannot read it: {reason}") from None
        while finish_walks and self.screens is not None and self.screens.walking:
            self.step_walk()
        return new

    def _read_new(self, file: BinaryIO) -> int:
        """Play the whole lines of `file` after those played; how many there were."""
        info = os.fstat(file.fileno())
        if info.st_size > record_reader.MAX_BYTES:
            raise FollowError(f"{self.path}: bigger than any recording ({record_reader.MAX_BYTES:,} bytes)")
        if self.hasher is None or self._rewritten(file, info):
            if self.hasher is not None and not self._begins_as_read(file):
                self.restart()
            self.identity = (info.st_dev, info.st_ino)
        new = 0
        file.seek(self.read_to)
        while chunk := file.read(CHUNK_BYTES):
            whole = chunk[: chunk.rfind(b"\n") + 1]
            if not whole:
                break  # A line still being written (or longer than any: refused below).
            if not self._play_whole(whole):
                file.seek(0)  # Played again from the start.
                new = 0
                continue
            new += whole.count(b"\n")
            file.seek(self.read_to)
        file.seek(self.read_to)
        if len(rest := file.read(record_reader.MAX_LINE + 2)) > record_reader.MAX_LINE + 1 and b"\n" not in rest:
            raise FollowError(f"{self.path}, line {self.played + 1}: longer than {record_reader.MAX_LINE} characters")
        return new

    def _rewritten(self, file: BinaryIO, info: os.stat_result) -> bool:
        """Whether the file may no longer begin with what was read: a new file under
        the name, a shorter one, or bytes before `read_to` that changed."""
        if (info.st_dev, info.st_ino) != self.identity or info.st_size < self.read_to:
            return True
        file.seek(0)
        if file.read(len(self.head)) != self.head:
            return True
        file.seek(self.read_to - len(self.tail))
        return file.read(len(self.tail)) != self.tail

    def _begins_as_read(self, file: BinaryIO) -> bool:
        """Whether the file begins with the bytes read so far (then it is followed on)."""
        hasher, left = recording.new_hash(), self.read_to
        file.seek(0)
        while left and (chunk := file.read(min(left, CHUNK_BYTES))):
            hasher.update(chunk)
            left -= len(chunk)
        return not left and hasher.hexdigest() == self.hasher.hexdigest()

    def restart(self) -> None:
        """Play the game again from the file's start, at full speed."""
        self.screens = self.first = None
        self.read_to = self.played = self.walked = 0
        self.hasher, self.head, self.tail, self.waiting, self.heads = recording.new_hash(), b"", b"", [], []

    def _play_whole(self, data: bytes) -> bool:
        """Play the whole lines `data`; False if the game must be played again from
        the start (`restart` done: a walk walked past where the player's stopped)."""
        if self.hasher is None:
            self.hasher = recording.new_hash()
        start = 0
        for raw in data.splitlines(keepends=True):
            line = raw.decode("utf-8")
            if not self.take(line):
                self.restart()
                return False
            start += len(raw)
            self.hasher.update(raw)
        if self.read_to < TAIL_BYTES:
            self.head = (self.head + data)[:TAIL_BYTES]
        self.read_to += start
        self.tail = (self.tail + data)[-TAIL_BYTES:]
        if self.screens is None and self.waiting:
            self.start_game()
        return True

    def take(self, line: str) -> bool:
        """Play one line of the file; False if the game must be played again from the start."""
        self.played += 1
        if self.screens is None:
            self._wait_for_start(line)
            return True
        event = self.event_of(line, self.played)
        if isinstance(event, Steps) and self.walked > event.count:
            return False  # Walked past where the player's walk stopped.
        if event is not None:
            replay_lines.play_lines(self.screens, [event], to_the_end=False)
            self.walked = 0
        return True

    def _wait_for_start(self, line: str) -> None:
        """Keep one of the first lines; start the game at its first event."""
        self.waiting.append(line)
        text = line.strip()
        if not text or text.startswith("#"):
            return
        if len(self.heads) < 2:
            self.heads.append(text)
            self._check_first()
        elif not text.startswith(record_format.RULE_WORDS):
            self.start_game()

    def _check_first(self) -> None:
        """Refuse at once a file whose first lines are no recording's (not wait on it)."""
        try:
            record_reader.Reader(self.heads, str(self.path))
        except RecordingError as exc:
            if len(self.heads) == 2 or "is missing" not in str(exc):
                raise FollowError(str(exc)) from None

    def start_game(self) -> None:
        """Start the game once its first lines (format and seed) are read, and play the rest read."""
        try:
            reader = record_reader.Reader(self.waiting, str(self.path))
        except RecordingError as exc:
            if "is missing" in str(exc):
                return  # Its seed is still to come.
            raise FollowError(str(exc)) from None
        self.restarts += 1
        self.ended = any(Claim.parse(line.strip()) is not None for line in self.waiting[-1:])
        self.waiting, self.heads = [], []
        self.first = replay.start(reader.script, self.settings)
        self.first.engine.recording.forget()  # A follower's game keeps none of its lines.
        self.walked = 0
        self.screens = replay.over_menu(self.first, self.first.engine.settings)
        try:  # The first events, if any; more to come (a walk they start goes on).
            replay_lines.play_lines(self.screens, list(reader.events()), to_the_end=False)
        except RecordingError as exc:
            raise FollowError(str(exc)) from None

    def event_of(self, line: str, number: int) -> Recorded | None:
        """The event a line records; None for a comment (the claim ends the game)."""
        text = line.strip()
        if Claim.parse(text) is not None:
            self.ended = True
        if not text or text.startswith("#"):
            return None
        if len(text) > record_reader.MAX_LINE:
            raise FollowError(
                f"{self.path}, line {number}: longer than {record_reader.MAX_LINE} characters"
            )
        try:
            return record_format.event_of(text)
        except ValueError as exc:
            raise FollowError(f"{self.path}, line {number}: {exc}") from None

    def step_walk(self) -> None:
        """Take the next step of a walk under way (the window's pace)."""
        if self.screens is not None and self.screens.walking:
            self.screens.step()
            self.walked += 1

    def status(self) -> str:
        """The line the window shows while following."""
        if self.ended:
            return "The game is over. Esc: leave"
        return f"Following {self.path.name}: {self.played} lines. Esc: stop watching"


def wait_for_end(follower: Follower) -> None:
    """Follow headless until the game ends."""
    while not follower.ended:
        follower.poll(finish_walks=True)
        time.sleep(POLL_SECONDS)


class Watching(Screens):
    """The followed game's screens as a screen reader tells them, after a line on the
    following itself (`notice`); the window draws its status line instead (`draw`)."""

    def __init__(self, followed: Screens, notice: str):
        super().__init__(followed.menu)
        self.stack, self.engine = followed.stack, followed.engine  # The same screens and game.
        self.notice = notice

    def content(self) -> Content:
        """The following's notice, then what the followed game's screens show."""
        below = super().content() or Content()
        title = [below.title] if below.title else []
        return Content(self.notice, [*title, *below.lines], below.focus, below.keys)


def notice(follower: Follower, problem: str | None) -> str:
    """What the following is at, to be said once: the status line without its count."""
    if problem is not None:
        return f"{problem}. Esc: leave"
    if follower.ended:
        return follower.status()
    return f"Following {follower.path.name}. Esc: stop watching"


def watch(front: FrontEnd, console: tcod.console.Console, follower: Follower) -> None:
    """Follow in the window or the terminal (`front`) until the viewer leaves
    (Escape, or closing the window or the terminal).

    The file is read every `POLL_SECONDS`; a walk is drawn step by step at the
    walk speed of the viewer's options.
    """
    next_poll = next_step = 0.0
    problem: str | None = None
    while True:
        followed = follower.screens
        watching = None if followed is None else Watching(followed, notice(follower, problem))
        draw(front, console, follower, problem, watching)
        now = time.monotonic()
        due = next_poll if followed is None or not followed.walking else min(next_poll, next_step)
        for event in front.events(None if problem else max(0.0, due - now)):
            if isinstance(event, tcod.event.Quit) or _stops(event):
                return
        now = time.monotonic()
        if problem is None and now >= next_poll:
            next_poll = now + POLL_SECONDS
            try:
                follower.poll()
            except FollowError as exc:
                problem = str(exc)
        followed = follower.screens
        if followed is not None and followed.walking and now >= next_step:
            next_step = now + 1 / followed.settings.options.walk_speed
            follower.step_walk()


def _stops(event: tcod.event.Event) -> bool:
    """Whether a viewer's event stops following: Escape."""
    if not isinstance(event, tcod.event.KeyDown) or keys.does_nothing(event):
        return False
    return keys.PLAYBACK_KEYS.get(keys.key_of(event)) is keys.Command.STOP_REPLAY


def draw(
    front: FrontEnd,
    console: tcod.console.Console,
    follower: Follower,
    problem: str | None,
    watching: Watching | None = None,
) -> None:
    """The followed game's screen, under a status line; `watching` is what a
    screen reader says of it."""
    console.clear()
    if follower.screens is not None:
        follower.screens.draw(console)
    status = (
        follower.status() if problem is None else f"{problem[: console.width - 12]}. Esc: leave"
    )
    console.print(0, 0, status, fg=color.white, bg=color.black)
    options = follower.settings.options if follower.settings is not None else Options()
    front.present(console, options, watching)
