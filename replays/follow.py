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
rewritten (Continue rewrites it from the save), plays the whole file again
from its start, at full speed.
"""

from __future__ import annotations

import errno
import os
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import tcod

import color
import exceptions
import input_handlers
from controls import keys
from replays import recording, replay, replay_lines
from replays.recording import Recorded, RecordingError, Steps
from screens.base import Content
from window.front_end import FrontEnd
from window.options import Options, Settings
from words.game_over import Claim

# The biggest recording file followed: a game of a million events, the most a save holds.
MAX_FILE_BYTES: Final = 32 << 20
# How often the file is read again, in seconds: what a follower lags by, at most,
# beyond the time to play what it read.
POLL_SECONDS: Final = 0.05


class FollowError(Exception):
    """A followed file that can't be read or is not a recording; `str()` says why."""


@dataclass
class Follower:
    """A game played from a recording that is still being written."""

    path: Path
    settings: Settings | None = None
    lines: list[str] = field(default_factory=list)  # The file's whole lines played so far.
    handler: input_handlers.BaseEventHandler | None = None
    first: input_handlers.MainGameEventHandler | None = None  # Its game's first screen.
    ended: bool = False  # The recording claims its game's ending: no line will follow.
    restarts: int = 0  # How often the game was played again from the file's start.
    walked: int = 0  # The steps walked since the last line played, ahead of the file.

    read_to: int = 0  # The bytes of the file's whole lines read so far.
    identity: tuple[int, int] | None = (
        None  # The file read (device, inode): a rewrite makes a new one.
    )

    def read(self) -> tuple[list[str], bool]:
        """The file's whole lines new since the last read (a line being written is left
        for the next); or all of them, and True, if the file was rewritten since.

        Only a regular file is read, at most `MAX_FILE_BYTES` of it, and only its new
        bytes each time, so following costs the same on a long game, and over a network.
        """
        try:
            fd = os.open(
                self.path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
            )
            try:
                data, rewritten = self._new_bytes(fd)
            finally:
                os.close(fd)
            return data[: data.rfind(b"\n") + 1].decode("utf-8").splitlines(), rewritten
        except (OSError, UnicodeDecodeError) as exc:
            reason = (
                exc.strerror if isinstance(exc, OSError) and exc.strerror else "not a text file"
            )
            raise FollowError(f"{self.path}: cannot read it: {reason}") from None

    def _new_bytes(self, fd: int) -> tuple[bytes, bool]:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        if info.st_size > MAX_FILE_BYTES:
            raise OSError(errno.EFBIG, f"bigger than {MAX_FILE_BYTES:,} bytes")
        rewritten = (info.st_dev, info.st_ino) != self.identity or info.st_size < self.read_to
        if rewritten:
            self.identity, self.read_to = (info.st_dev, info.st_ino), 0
        os.lseek(fd, self.read_to, os.SEEK_SET)
        data = os.read(fd, info.st_size - self.read_to)
        self.read_to += data.rfind(b"\n") + 1
        return data, rewritten

    def poll(self, finish_walks: bool = False) -> int:
        """Read the file, and play the lines new since the last poll; how many were new.

        `finish_walks`: take a walk's remaining steps at once, as a headless replay
        does at its end, rather than at the window's pace (`step_walk`).
        """
        lines, rewritten = self.read()
        if self.handler is None or (rewritten and lines[: len(self.lines)] != self.lines):
            self.restart(lines)
        else:
            if rewritten:
                lines = lines[len(self.lines) :]  # The same lines, and more.
            self.play(lines)
        while finish_walks and self.handler is not None and self.handler.walking:
            self.step_walk()
        return len(lines)

    def restart(self, lines: list[str]) -> None:
        """Play the game again from the start of `lines`, at full speed."""
        self.restarts += 1
        self.lines = []
        self.walked = 0
        try:
            script = recording.parse("".join(line + "\n" for line in lines), str(self.path))
        except RecordingError as exc:
            if len([line for line in lines if line.strip()]) < 2:
                self.identity = None  # Its first lines are still to come: read it all again.
                return
            raise FollowError(str(exc)) from None
        self.first = replay.start(script, self.settings)
        self.handler = self.advanced(self.first, script.events)
        self.ended = any(Claim.parse(line) is not None for line in lines[-1:])
        self.lines = lines

    def play(self, lines: list[str]) -> None:
        """Play `lines`, the file's next."""
        for index, line in enumerate(lines):
            event = self.event_of(line, len(self.lines) + 1)
            if isinstance(event, Steps) and self.walked > event.count:
                # Walked past where the player's walk stopped: play it all again.
                self.restart(self.lines + lines[index:])
                return
            self.lines.append(line)
            if event is not None and self.handler is not None:
                self.handler = self.advanced(self.handler, [event])
                self.walked = 0

    def advanced(
        self, handler: input_handlers.BaseEventHandler, events: list[Recorded]
    ) -> input_handlers.BaseEventHandler:
        """The screen after `events`, more to come (a walk they start goes on)."""
        try:
            return replay_lines.play_lines(handler, events, to_the_end=False)
        except exceptions.BackToMainMenu:  # No recorded line leaves a finished game.
            return handler

    def event_of(self, line: str, number: int) -> Recorded | None:
        """The event a line records; None for a comment (the claim ends the game)."""
        text = line.strip()
        if Claim.parse(text) is not None:
            self.ended = True
        if not text or text.startswith("#"):
            return None
        if len(text) > recording.MAX_LINE:
            raise FollowError(
                f"{self.path}, line {number}: longer than {recording.MAX_LINE} characters"
            )
        try:
            return recording.event_of(text)
        except ValueError as exc:
            raise FollowError(f"{self.path}, line {number}: {exc}") from None

    def step_walk(self) -> None:
        """Take the next step of a walk under way (the window's pace)."""
        if self.handler is not None and self.handler.walking:
            self.handler = self.handler.advance()
            self.walked += 1

    def status(self) -> str:
        """The line the window shows while following."""
        if self.ended:
            return "The game is over. Esc: leave"
        return f"Following {self.path.name}: {len(self.lines)} lines. Esc: stop watching"


def wait_for_end(follower: Follower) -> None:
    """Follow headless until the game ends."""
    while not follower.ended:
        follower.poll(finish_walks=True)
        time.sleep(POLL_SECONDS)


class Watching(input_handlers.Overlay):
    """The followed game's screen (`parent`) as a screen reader tells it, after a
    line on the following itself (`notice`); the window draws its status line
    instead (`draw`).  One for the whole watch, kept up to date, so that the
    reader says only what changed."""

    def __init__(self, parent: input_handlers.BaseEventHandler, notice: str):
        super().__init__(parent)
        self.notice = notice

    def content(self) -> Content:
        """The following's notice, then what the followed game's screen shows."""
        below = self.parent.content() or Content()
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
    watching: Watching | None = None
    while True:
        if follower.handler is not None:
            if watching is None:
                watching = Watching(follower.handler, "")
            watching.parent, watching.notice = follower.handler, notice(follower, problem)
        draw(front, console, follower, problem, watching)
        now = time.monotonic()
        due = (
            next_poll
            if follower.handler is None or not follower.handler.walking
            else min(next_poll, next_step)
        )
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
        if follower.handler is not None and follower.handler.walking and now >= next_step:
            next_step = now + 1 / follower.handler.settings.options.walk_speed
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
    if follower.handler is not None:
        follower.handler.on_render(console)
    status = (
        follower.status() if problem is None else f"{problem[: console.width - 12]}. Esc: leave"
    )
    console.print(0, 0, status, fg=color.white, bg=color.black)
    options = follower.settings.options if follower.settings is not None else Options()
    front.present(console, options, watching)
