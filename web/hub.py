"""One game's frames, read once and sent on to every page that shows it: the player's canvas
and every watcher's (and, through `relay`, other nodes').

The hub reads the game's frames pipe from tornado's loop (`frames.Unframer`), keeps the frame
as it stands (`frames.apply`) and the game's latest STATUS, and sends each message's bytes as
the game made them to each subscriber.  A subscriber that joins gets the whole frame first.
A subscriber whose socket falls behind (more than `MAX_BACKLOG` bytes sent it and not yet
flushed) is sent nothing more until its socket has caught up, then the frame whole: a slow page
skips frames and never grows the server's memory.  A watcher costs no process and no polling:
a subscriber is a socket and a count.  `Fan` is what the hub and a relay of another node's
game have in common: the frame kept, and the subscribers each sent its bytes.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
from collections.abc import Callable
from typing import Any, Final

from tornado.ioloop import IOLoop

from web import frames

LOG: Final = logging.getLogger("web.hub")
READ_BYTES: Final = 1 << 16
# What one page may have been sent and not yet taken, at most: a few whole frames.
MAX_BACKLOG: Final = 128 << 10


class Subscriber:
    """One page's share of a hub's stream: `send` puts a message on its socket (a future
    that is done once the socket has taken it, or None if the socket is gone); `ended` is
    told once the game has ended."""

    def __init__(
        self, send: Callable[[bytes], asyncio.Future[Any] | None], ended: Callable[[], None]
    ) -> None:
        self.send = send
        self.ended = ended
        self.pending = 0  # Bytes sent to the socket and not yet flushed by it.
        self.behind = False
        self.hub: Fan | None = None

    def deliver(self, message: bytes) -> None:
        """Send `message` now, counted until its socket has taken it."""
        sent = self.send(message)
        if sent is None:
            return
        self.pending += len(message)
        sent.add_done_callback(functools.partial(self._taken, len(message)))

    def _taken(self, size: int, done: asyncio.Future[Any]) -> None:
        self.pending -= size
        if not done.cancelled():
            done.exception()  # Looked at: a socket closed meanwhile is no error of the server's.
        if self.behind and self.pending == 0 and self.hub is not None:
            self.behind = False
            self.hub.whole(self)


class Fan:
    """A game's stream as it stands (the frame, the latest STATUS) and the pages it is sent
    to: fed whole messages, from the game's pipe (`Hub`) or from another node (`relay`)."""

    def __init__(self, name: str, on_status: Callable[[], None] = lambda: None) -> None:
        self.name = name
        self.on_status = on_status
        self.frame: frames.Frame | None = None
        self.status: dict[str, object] | None = None
        self.status_message: bytes | None = None
        self.subscribers: set[Subscriber] = set()
        self.ended = False

    def take(self, message: bytes) -> None:
        """Apply one message to the frame and send it on; FrameError if it is not a frame."""
        self.frame = frames.apply(message, self.frame)
        status = frames.status_of(message)
        if status is not None:
            self.status, self.status_message = status, message
        self._send(message)
        if status is not None:
            self.on_status()

    def _send(self, message: bytes) -> None:
        for subscriber in list(self.subscribers):
            if subscriber.behind:
                continue
            if subscriber.pending + len(message) > MAX_BACKLOG:
                subscriber.behind = True  # Caught up later with the frame whole (`_taken`).
                continue
            subscriber.deliver(message)

    def whole(self, subscriber: Subscriber) -> None:
        """Send `subscriber` the frame as it stands and the latest status."""
        if self.frame is not None:
            subscriber.deliver(frames.encode_full(self.frame))
        if self.status_message is not None:
            subscriber.deliver(self.status_message)

    def subscribe(self, subscriber: Subscriber) -> None:
        """Add a page: the frame whole first, then what follows."""
        subscriber.hub = self
        subscriber.behind = False
        self.subscribers.add(subscriber)
        self.whole(subscriber)

    def unsubscribe(self, subscriber: Subscriber) -> None:
        subscriber.hub = None
        self.subscribers.discard(subscriber)

    def end(self) -> None:
        """The game has ended: tell every subscriber."""
        self.ended = True
        for subscriber in list(self.subscribers):
            self.unsubscribe(subscriber)
            subscriber.ended()


class Hub(Fan):
    """A game's frames pipe, read from the loop, fanned out to its subscribers."""

    def __init__(self, name: str, on_status: Callable[[], None] = lambda: None) -> None:
        super().__init__(name, on_status)
        self.on_read: Callable[[], None] = lambda: None  # After each read of the pipe.
        self.unframer = frames.Unframer()
        self.fd: int | None = None
        self.loop = IOLoop.current()

    def read_from(self, fd: int) -> None:
        """Read the frames pipe's read end `fd` as it fills (it is the hub's to close)."""
        os.set_blocking(fd, False)
        self.fd = fd
        self.loop.add_handler(fd, self._ready, IOLoop.READ)

    def _ready(self, fd: int, events: int) -> None:
        try:
            data = os.read(fd, READ_BYTES)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if data:
            self.feed(data)
            self.on_read()
        else:
            self._stop_reading()

    def _stop_reading(self) -> None:
        if self.fd is not None:
            self.loop.remove_handler(self.fd)
            os.close(self.fd)
            self.fd = None

    def feed(self, data: bytes) -> None:
        """Take bytes read from the pipe: each message it completes is applied and sent on.
        A message that is not a frame stops the stream (logged), never the server."""
        try:
            for message in self.unframer.feed(data):
                self.take(message)
        except frames.FrameError as exc:
            LOG.warning("%s's frames stopped: %s", self.name, exc)
            self._stop_reading()

    def finish(self) -> None:
        """The game has ended: read what is left in the pipe, then tell every subscriber."""
        while self.fd is not None:
            try:
                data = os.read(self.fd, READ_BYTES)
            except OSError:
                data = b""
            if not data:
                self._stop_reading()
                break
            self.feed(data)
        self.end()
