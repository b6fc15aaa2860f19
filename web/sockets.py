"""The sockets a page talks to a program through: the player's own game (in a terminal or as
lines for a screen reader), a game watched, and a verified game replayed.

Only a signed-in player's session opens one; what the page types is cut to the keys the
socket takes, and to `limits`' rate.
"""

from __future__ import annotations

import json
import time
from typing import Any, Final

import tornado.web
import tornado.websocket

from web import accounts, lines, live
from web.limits import INPUT_BURST, INPUT_BYTES_PER_SECOND, Bucket
from web.pty_process import PtyProcess
from web.sessions import session_player
from web.state import State

# The keys a replay takes: pause, faster, slower.
REPLAY_KEYS: Final = frozenset(" +=-")


class Socket(tornado.websocket.WebSocketHandler):
    """A page's socket to a program in a pseudo-terminal; only for a signed-in player.

    Output goes to the page as binary messages (the terminal's bytes) or, for the screen
    reader's page, as JSON lines; what the program's state becomes goes as a JSON `status`.
    """

    keys: frozenset[str] | None = None  # None: every key; else only these (empty: none).

    def initialize(self, state: State) -> None:
        self.state = state
        self.process: PtyProcess | None = None
        self.rate = Bucket(INPUT_BYTES_PER_SECOND, INPUT_BURST)
        self.closed = False

    def get_current_user(self) -> str | None:
        return session_player(self, self.state)

    async def get(self, *args: Any, **kwargs: Any) -> None:
        if self.current_user is None:
            raise tornado.web.HTTPError(403)
        await super().get(*args, **kwargs)

    def sink(self) -> live.Sink:
        return live.Sink(self.send_output, self.program_ended)

    def send(self, message: bytes | str, binary: bool = False) -> None:
        if self.closed or self.ws_connection is None:
            return
        try:
            future = self.write_message(message, binary=binary)
        except tornado.websocket.WebSocketClosedError:
            return
        future.add_done_callback(lambda done: done.exception())

    def status(self, status: str, message: str) -> None:
        self.send(json.dumps({"status": status, "message": message}))

    def send_output(self, data: bytes) -> None:
        self.send(data, binary=True)

    def program_ended(self, status: int) -> None:
        self.status("ended", "The game has ended.")
        if not self.closed:
            self.close()

    def refused(self, refusal: live.Refusal) -> None:
        self.status(refusal.status, refusal.message)
        self.close()

    def on_message(self, message: str | bytes) -> None:
        if self.process is None or self.keys == frozenset():
            return
        text = message.decode("utf-8", errors="replace") if isinstance(message, bytes) else message
        if self.keys is not None:
            text = "".join(key for key in text if key in self.keys)
        data = text.encode("utf-8")
        if data and self.rate.take(len(data)):
            self.typed()
            self.process.write(data)

    def typed(self) -> None:
        """A key went to the program."""

    def on_close(self) -> None:
        self.closed = True
        if self.process is not None:
            self.process.hangup()


class PlaySocket(Socket):
    """The player's own game."""

    mode: live.Mode = "terminal"
    game: live.Game

    async def open(self, *args: str, **kwargs: str) -> None:
        player = self.current_user
        assert isinstance(player, str)
        started = await self.state.live.play(player, self.mode, self.sink())
        if isinstance(started, live.Refusal):
            return self.refused(started)
        self.game = started
        self.process = started.process
        if self.closed:  # The page left while the game started.
            self.process.hangup()

    def typed(self) -> None:
        self.game.last_input = time.time()


class ReaderSocket(PlaySocket):
    """The player's own game as lines for a screen reader."""

    mode: live.Mode = "screen reader"

    async def open(self, *args: str, **kwargs: str) -> None:
        self.splitter = lines.LineSplitter()
        await super().open(*args, **kwargs)

    def send_output(self, data: bytes) -> None:
        said = self.splitter.feed(data)
        if said:
            self.send(json.dumps({"lines": said}))


class WatchSocket(Socket):
    """Another player's game, followed from its recording; nothing typed is sent."""

    keys = frozenset()

    def open(self, name: str) -> None:
        try:
            watched = accounts.checked_name(name)
        except accounts.BadName:
            return self.refused(live.Refusal("ended", "No such player."))
        viewer = self.current_user
        assert isinstance(viewer, str)
        started = self.state.live.watch(watched, viewer, self.sink())
        if isinstance(started, live.Refusal):
            return self.refused(started)
        self.process = started


class ReplaySocket(Socket):
    """A verified game's recording replayed; only the replay's own keys are sent."""

    keys = REPLAY_KEYS

    def open(self, game_id: str) -> None:
        text = self.state.store.recording(int(game_id)) if len(game_id) < 12 else None
        if text is None:
            return self.refused(live.Refusal("ended", "No such game."))
        viewer = self.current_user
        assert isinstance(viewer, str)
        started = self.state.live.replay(text, viewer, self.sink())
        if isinstance(started, live.Refusal):
            return self.refused(started)
        self.process = started
