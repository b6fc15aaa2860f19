"""Taking connections in: at most so many open at once, below the process's file limit, and
accept's failures waited out instead of retried at once.

tornado's own accept handler takes every connection waiting; when accept fails for want of a
descriptor (EMFILE), the error escapes into the loop, which logs a traceback and, the listening
socket being still readable, calls it again at once: a core spun and the log flooded while the
descriptors stay taken.  Here, at the cap or on such an error, the listening sockets leave the
loop for `PAUSE_SECONDS` (the kernel keeps what comes meanwhile in its backlog), and one log line
a minute at most says so.  The header and body timeouts (`cli.serve`) close half-sent requests,
which gives their descriptors back.
"""

from __future__ import annotations

import errno
import logging
import math
import os
import resource
import socket
import time
from typing import Final

import tornado.httpserver
import tornado.netutil
from tornado.ioloop import IOLoop
from tornado.iostream import IOStream

LOG: Final = logging.getLogger("web.connections")
DEFAULT_MAX: Final = 2000
PAUSE_SECONDS: Final = 0.5
LOG_SECONDS: Final = 60.0
BATCH: Final = 128  # Connections taken in one call, so that the loop's other work goes on.
# Accept's errors that say the process or the system is out of something: waited out.
OUT_OF_ROOM: Final = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
# Descriptors kept for what is not a connection: the server's own and its database's, and
# each game's, watcher's or replay's pipes and terminal.
SPARE_FIXED: Final = 64
SPARE_EACH: Final = 6


def connection_cap(asked: int | None, programs: int) -> int:
    """The connections open at once at most: `asked`, or by default as many as the file limit
    leaves beside `programs` games and watchers (up to `DEFAULT_MAX`); the soft file limit is
    raised towards the hard one for it."""
    spare = SPARE_FIXED + SPARE_EACH * programs
    wanted = (DEFAULT_MAX if asked is None else asked) + spare
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted and soft != resource.RLIM_INFINITY:
        soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    room = max(1, soft - spare)
    if asked is None:
        return min(DEFAULT_MAX, room)
    if asked > room:
        LOG.warning("--max-connections %d is more than the file limit (%d) leaves: accepting "
                    "pauses when descriptors run out", asked, soft)  # fmt: skip
    return asked


class Doors:
    """The listening sockets of `server`, taking at most `cap` connections open at once."""

    def __init__(self, server: tornado.httpserver.HTTPServer, cap: int, buffer: int) -> None:
        self.server = server
        self.cap = cap
        self.buffer = buffer
        self.sockets: list[socket.socket] = []
        self.streams: set[IOStream] = set()
        self.paused = False
        self.closed = False
        self.said = -math.inf
        self.unsaid = 0

    def listen(self, port: int, host: str) -> None:
        self.sockets = tornado.netutil.bind_sockets(port, address=host)
        self._watch()

    def close(self) -> None:
        if not self.paused:
            self._unwatch()
        self.closed = True
        for listening in self.sockets:
            listening.close()

    def _watch(self) -> None:
        for listening in self.sockets:
            IOLoop.current().add_handler(listening, self._accept, IOLoop.READ)

    def _unwatch(self) -> None:
        for listening in self.sockets:
            IOLoop.current().remove_handler(listening)

    def _accept(self, listening: socket.socket, events: int) -> None:
        for _ in range(BATCH):
            if self._full():
                return self._pause(f"{self.cap} connections open")
            try:
                connection, address = listening.accept()
            except BlockingIOError:
                return None
            except ConnectionAbortedError:
                continue
            except OSError as error:
                if error.errno not in OUT_OF_ROOM:
                    raise
                return self._pause(f"accept failed: {os.strerror(error.errno)}")
            stream = IOStream(connection, max_buffer_size=self.buffer)
            self.streams.add(stream)
            self.server.handle_stream(stream, address)
        return None

    def _full(self) -> bool:
        if len(self.streams) < self.cap:
            return False
        self.streams = {stream for stream in self.streams if not stream.closed()}
        return len(self.streams) >= self.cap

    def _pause(self, why: str) -> None:
        now = time.monotonic()
        if now - self.said >= LOG_SECONDS:
            more = f" ({self.unsaid} more pauses since the last line)" if self.unsaid else ""
            LOG.warning("%s: not accepting for %g s%s", why, PAUSE_SECONDS, more)
            self.said, self.unsaid = now, 0
        else:
            self.unsaid += 1
        self._unwatch()
        self.paused = True
        IOLoop.current().call_later(PAUSE_SECONDS, self._resume)

    def _resume(self) -> None:
        self.paused = False
        if not self.closed:
            self._watch()
