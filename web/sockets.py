"""The sockets a page talks to the server through: the player's own game (its frames on the
canvas page, in a terminal, or as lines for a screen reader), a game watched, a verified game
replayed, a game's chat, and the lobby.

Only a signed-in player's session opens one, but the lobby's (public, read-only).  What a page
sends is cut to what its socket takes (the canvas page's events, checked by `events`; the
terminal's keys; a replay's three keys) and to `limits`' rate.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Final

import tornado.web
import tornado.websocket

from web import accounts, chat, events, lines, live
from web.guard import Secured
from web.hub import Subscriber
from web.limits import (
    EVENTS_BURST,
    EVENTS_PER_SECOND,
    INPUT_BURST,
    INPUT_BYTES_PER_SECOND,
    MAX_LOBBY_SOCKETS,
    MOVES_BURST,
    MOVES_PER_SECOND,
    Bucket,
)
from web.nodes import socket_on
from web.pty_process import PtyProcess
from web.sessions import session_player
from web.state import State

# The keys a replay takes: pause, faster, slower.
REPLAY_KEYS: Final = frozenset(" +=-")


class Socket(Secured, tornado.websocket.WebSocketHandler):
    """A page's socket; only for a signed-in player.  Frames and a terminal's bytes go to the
    page as binary messages; what becomes of its game goes as JSON `{"status", "message"}`."""

    def initialize(self, state: State) -> None:
        self.state = state
        self.rate = Bucket(INPUT_BYTES_PER_SECOND, INPUT_BURST)
        self.closed = False

    async def get(self, *args: Any, **kwargs: Any) -> None:
        self.current_user = await session_player(self, self.state)
        if self.current_user is None:
            raise tornado.web.HTTPError(403)
        await super().get(*args, **kwargs)

    def send(self, message: bytes | str, binary: bool = False) -> asyncio.Future[None] | None:
        """Put `message` on the socket; the future is done once the socket has taken it
        (None if the socket is gone)."""
        if self.closed or self.ws_connection is None:
            return None
        try:
            future = self.write_message(message, binary=binary)
        except tornado.websocket.WebSocketClosedError:
            return None
        future.add_done_callback(lambda done: done.exception())
        return future

    def send_output(self, data: bytes) -> None:
        self.send(data, binary=True)

    def send_frame(self, message: bytes) -> asyncio.Future[None] | None:
        return self.send(message, binary=True)

    def status(self, status: str, message: str, **more: str) -> None:
        self.send(json.dumps({"status": status, "message": message, **more}))

    def told(self, status: str, message: str) -> None:
        """Say what became of the page's program, and close."""
        self.status(status, message)
        if not self.closed:
            self.close()

    def refused(self, refusal: live.Refusal) -> None:
        """Say why not; a game run by another node: the same socket there (`nodes`)."""
        if refusal.node is not None:
            self.status(refusal.status, refusal.message, socket=socket_on(refusal.node, self.request.path))
            self.close()
            return
        self.told(refusal.status, refusal.message)

    def on_close(self) -> None:
        self.closed = True


class PlaySocket(Socket):
    """The player's own game on the canvas page: its frames out, checked events in."""

    mode: live.Mode = "canvas"
    game: live.Game | None = None

    def page(self) -> live.Page:
        return live.Page(self.send_output, Subscriber(self.send_frame, lambda: None), self.told)

    async def open(self, *args: str, **kwargs: str) -> None:
        player = self.current_user
        assert isinstance(player, str)
        self.events = Bucket(EVENTS_PER_SECOND, EVENTS_BURST)
        self.moves = Bucket(MOVES_PER_SECOND, MOVES_BURST)
        self.shown = self.page()
        address = self.request.remote_ip or ""
        started = await self.state.live.play(player, self.mode, self.shown, address)
        if isinstance(started, live.Refusal):
            return self.refused(started)
        self.game = started
        if self.closed:  # The page left while the game started.
            self.state.live.detach(started, self.shown)

    def on_message(self, message: str | bytes) -> None:
        line = events.checked(message) if isinstance(message, str) else None
        if line is None or self.game is None:
            return
        bucket = self.moves if line.startswith(b'{"move"') else self.events
        if bucket.take(1):
            self.state.live.typed(self.game, line)

    def on_close(self) -> None:
        super().on_close()
        if self.game is not None:
            self.state.live.detach(self.game, self.shown)


class TerminalSocket(PlaySocket):
    """The player's own game in xterm.js: the terminal's bytes out, every key in."""

    mode: live.Mode = "terminal"

    def page(self) -> live.Page:
        return live.Page(self.send_output, None, self.told)

    def on_message(self, message: str | bytes) -> None:
        text = message.decode("utf-8", errors="replace") if isinstance(message, bytes) else message
        data = text.encode("utf-8")
        if data and self.game is not None and self.rate.take(len(data)):
            self.state.live.typed(self.game, data)


class ReaderSocket(TerminalSocket):
    """The player's own game as lines for a screen reader."""

    mode: live.Mode = "screen reader"

    def page(self) -> live.Page:
        self.splitter = lines.LineSplitter()
        return live.Page(self.send_lines, None, self.told)

    def send_lines(self, data: bytes) -> None:
        said = self.splitter.feed(data)
        if said:
            self.send(json.dumps({"lines": said}))


class WatchSocket(Socket):
    """Another player's game: its hub's frames, or its relay's where another node runs it;
    nothing the page sends goes anywhere."""

    subscriber: Subscriber | None = None

    async def open(self, name: str) -> None:
        try:
            self.watched = accounts.checked_name(name)
        except accounts.BadName:
            return self.refused(live.Refusal("ended", "No such player."))
        viewer = self.current_user
        assert isinstance(viewer, str)
        subscriber = Subscriber(self.send_frame, self.game_ended)
        refusal = self.state.live.watch(self.watched, viewer, subscriber)
        if refusal is not None and refusal.status == "ended":  # Not here: on another node?
            refusal = await self.watch_elsewhere(viewer, subscriber)
        if refusal is not None:
            return self.refused(refusal)
        self.subscriber = subscriber  # Only once watching: a refused socket's close lets go of nothing.
        if self.closed:  # The page left while the game was looked for.
            self.let_go()

    async def watch_elsewhere(self, viewer: str, subscriber: Subscriber) -> live.Refusal | None:
        """Watch the game through a relay of its node's frames, if a node runs it."""
        refusal = self.state.live.count_watcher(viewer, subscriber)
        if refusal is not None:
            return refusal
        if await self.state.relays.watch(self.watched, subscriber):
            return None
        self.state.live.unwatch(self.watched, subscriber)
        return live.Refusal("ended", f"{self.watched} is not playing now.")

    def game_ended(self) -> None:
        watched = self.watched
        self.status("ended", f"{watched}'s game has ended.", player=watched)
        if not self.closed:
            self.close()

    def on_message(self, message: str | bytes) -> None:
        """Dropped: a watcher types nothing into the game."""

    def on_close(self) -> None:
        super().on_close()
        self.let_go()

    def let_go(self) -> None:
        if self.subscriber is not None:
            self.state.live.unwatch(self.watched, self.subscriber)
            self.state.relays.unwatch(self.watched, self.subscriber)


class ChatSocket(Socket):
    """A game's chat (`chat`): its state and lines out; in, `{"say": text}`, or from the
    player whose game it is `{"open": bool}`.  What is refused is said: `{"refused": why}`."""

    room: chat.Room | None = None

    def open(self, name: str) -> None:
        try:
            player = accounts.checked_name(name)
        except accounts.BadName:
            return self.refused(live.Refusal("ended", "No such player."))
        self.room = self.state.chat.join(player, self.tell)

    def tell(self, message: dict[str, object]) -> None:
        self.send(json.dumps(message))

    def on_message(self, message: str | bytes) -> None:
        try:
            asked = json.loads(message) if isinstance(message, str) else None
        except ValueError:
            asked = None
        if self.room is None or not isinstance(asked, dict):
            return
        speaker = self.current_user
        assert isinstance(speaker, str)
        refusal = None
        if isinstance(asked.get("say"), str):
            refusal = self.state.chat.say(self.room, speaker, asked["say"])
        elif isinstance(asked.get("open"), bool):
            refusal = self.state.chat.turn(self.room, speaker, asked["open"])
        if refusal is not None:
            self.tell({"refused": refusal})

    def on_close(self) -> None:
        super().on_close()
        if self.room is not None:
            self.state.chat.leave(self.room, self.tell)


class ReplaySocket(Socket):
    """A verified game's recording replayed in a pseudo-terminal; only the replay's own keys
    are sent."""

    process: PtyProcess | None = None

    async def open(self, game_id: str) -> None:
        text = await self.state.store.recording(int(game_id)) if len(game_id) < 12 else None
        if text is None:
            return self.refused(live.Refusal("ended", "No such game."))
        if self.closed:  # The page left while the recording was read.
            return
        viewer = self.current_user
        assert isinstance(viewer, str)
        sink = live.Sink(self.send_output, lambda status: self.told("ended", "The game has ended."))
        started = self.state.live.replay(text, viewer, sink)
        if isinstance(started, live.Refusal):
            return self.refused(started)
        self.process = started

    def on_message(self, message: str | bytes) -> None:
        text = message.decode("utf-8", errors="replace") if isinstance(message, bytes) else message
        data = "".join(key for key in text if key in REPLAY_KEYS).encode("utf-8")
        if data and self.process is not None and self.rate.take(len(data)):
            self.process.write(data)

    def on_close(self) -> None:
        super().on_close()
        if self.process is not None:
            self.process.hangup()


class LobbySocket(Secured, tornado.websocket.WebSocketHandler):
    """The lobby of every node, pushed (public, read-only): `{"games": [...]}` at once, then
    whenever it changes, at most once a second (`lobby.Lobby.changed`)."""

    def initialize(self, state: State) -> None:
        self.state = state
        self.listening = False

    async def open(self, *args: str, **kwargs: str) -> None:
        if len(self.state.lobby.listeners) >= MAX_LOBBY_SOCKETS:
            self.close()
            return
        self.state.lobby.listeners.add(self.push)
        self.listening = True
        self.push(await self.state.lobby.rows())

    def push(self, games: list[dict[str, object]]) -> None:
        if self.ws_connection is None:
            return
        try:
            future = self.write_message(json.dumps({"games": games}))
        except tornado.websocket.WebSocketClosedError:
            return
        future.add_done_callback(lambda done: done.exception())

    def on_message(self, message: str | bytes) -> None:
        """Dropped: the lobby's socket only listens."""

    def on_close(self) -> None:
        if self.listening:
            self.state.lobby.listeners.discard(self.push)
