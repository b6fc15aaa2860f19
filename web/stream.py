"""The game's frames written to a pipe (`--frames-fd N`), for the web server to pass on: the
console's cells as `frames` encodes them, after each frame any front end presents.

The first frame goes whole, then only the cells that changed, and a STATUS whenever what the
game is (the menu, a game in play or over; its level, floor and turns) changed, for the lobby.
The reader going away ends the frames, never the game: the player keeps playing where they
play (a terminal), and the game still saves when its input ends.
The game imports this: only `frames`, the standard library and the game's own modules.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

import tcod

from web import frames

if TYPE_CHECKING:
    from screens.stack import Screens
    from window.front_end import FrontEnd
    from window.options import Options


def status_of(screens: Screens) -> dict[str, object]:
    """What the game shown is, for the lobby: the menu, or the game's screen ("playing" or
    "dead") with the character's level, the dungeon's floor and the turns played."""
    engine = screens.engine
    if engine is None:
        return {"screen": "menu"}
    player = engine.player
    return {
        "screen": "playing" if player.is_alive else "dead",
        "level": player.level.current_level,
        "depth": engine.game_world.current_floor,
        "turns": engine.turns,
    }


class FramesWriter:
    """Writes each frame presented to a file descriptor, as framed messages (`frames.framed`).

    The descriptor is blocking: a write waits until the reader takes it all, so that a message
    is never cut.  A write that fails (the reader gone: EPIPE) stops the frames for good, with
    one line in the log.
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.frame: frames.Frame | None = None  # The last frame written.
        self.status: dict[str, object] | None = None  # The last status written.
        self.broken = False

    def present(self, console: tcod.console.Console, options: Options, screens: Screens | None) -> None:
        """Write what changed of `console` since the last frame (all of it at first, or in a new
        tile size), and the game's status if it changed; `screens` None (a progress bar) tells none."""
        if self.broken:
            return
        frame = frames.frame_of(console, options.tile_size)
        changes = frames.encode_changes(self.frame, frame)
        out = b"" if changes is None else frames.framed(changes)
        status = None if screens is None else status_of(screens)
        if status is not None and status != self.status:
            out += frames.framed(frames.encode_status(status))
            self.status = status
        self.frame = frame
        if out:
            self.write(out)

    def beside(self, front: FrontEnd) -> Streamed:
        """`front`, each of its frames written by this too (the terminal's, the screen reader's)."""
        return Streamed(front, self)

    def write(self, data: bytes) -> None:
        """All of `data`, in as many writes as the pipe takes; on a failure, no more frames."""
        view = memoryview(data)
        while view and not self.broken:
            try:
                written = os.write(self.fd, view)
            except OSError as exc:
                self.broken = True
                print(f"frames: stopped, file {self.fd} can't be written ({exc.strerror or exc})", file=sys.stderr)
                return
            view = view[written:]


class Streamed:
    """A front end (`window.front_end.FrontEnd`) whose frames are also written by `writer`:
    the terminal's or the screen reader's, with `--frames-fd`."""

    def __init__(self, front: FrontEnd, writer: FramesWriter) -> None:
        self.front, self.writer = front, writer

    @property
    def context(self) -> tcod.context.Context | None:
        return self.front.context

    def present(self, console: tcod.console.Console, options: Options, screens: Screens | None = None) -> None:
        self.front.present(console, options, screens)
        self.writer.present(console, options, screens)

    def events(self, timeout: float | None = None) -> Iterable[tcod.event.Event]:
        return self.front.events(timeout)
