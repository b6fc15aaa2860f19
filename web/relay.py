"""A game watched on a node that does not run it: its frames carried across the bus.

The game's node publishes what its hub reads on `frames:<player>` while some other node listens
(`Publisher`); a node with a watcher of a game played elsewhere subscribes there and feeds a
`Relay`, a `hub.Fan` like the game's own hub, so that its watchers get the same bytes, with the
same backlog rule.  A relay starts by asking on `whole:<player>`: the game's node answers
with the frame whole.  No node answering means the game is played nowhere.  A relay that has
heard nothing for `RECHECK_SECONDS` asks again (a node that dies says nothing): answered by
none, its watchers are told the game ended; answered by the node the game was taken over by,
it follows the game there (its watchers sent the frame only if it differs).

`frames:<player>` messages are a kind byte and its body:

    b"s" + message     a message of the stream, as the game made it (web/frames.py)
    b"w" + framed      the frame whole and the latest STATUS (`frames.framed` each), answering
                       `whole:<player>`; a relay that already has the frame ignores it
    b"e"               the game has ended

`whole:<player>` messages are empty.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Final

from tornado.ioloop import IOLoop, PeriodicCallback

from web import frames
from web.bus import Bus, Unsubscribe
from web.hub import Fan, Subscriber

LOG: Final = logging.getLogger("web.relay")
STREAM: Final = b"s"
WHOLE: Final = b"w"
ENDED: Final = b"e"
RECHECK_SECONDS: Final = 10.0


def frames_channel(player: str) -> str:
    return f"frames:{player}"


def whole_channel(player: str) -> str:
    return f"whole:{player}"


class Tasks:
    """The background tasks a node starts on the bus, kept until done, their failures logged."""

    def __init__(self) -> None:
        self.running: set[asyncio.Task[None]] = set()

    def start(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self.running.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self.running.discard(task)
        if not task.cancelled() and task.exception() is not None:
            LOG.error("the bus's work failed", exc_info=task.exception())


class Publisher:
    """A game played on this node, published for the others: a subscriber of its hub whose
    messages go on the bus while some node listens, and the answer to `whole:<player>`."""

    def __init__(self, bus: Bus, player: str, hub: Fan, tasks: Tasks) -> None:
        self.bus = bus
        self.hub = hub
        self.channel = frames_channel(player)
        self.listened = False  # Since the last answer to `whole:`, until a publish is heard by none.
        self.asked = 0
        self.stop: Unsubscribe | None = None
        self.tasks = tasks
        self.subscriber = Subscriber(self._send, self._ended)
        hub.subscribe(self.subscriber)
        tasks.start(self._listen(whole_channel(player)))

    async def _listen(self, channel: str) -> None:
        stop = await self.bus.subscribe(channel, self._asked)
        if self.hub.ended:
            await stop()
        else:
            self.stop = stop

    def _send(self, message: bytes) -> asyncio.Future[object] | None:
        if not self.listened:
            return None  # No node listens: nothing goes on the bus (a relay asks whole first).
        asked = self.asked
        sent: asyncio.Future[object] = asyncio.ensure_future(self.bus.publish(self.channel, STREAM + message))
        sent.add_done_callback(lambda done: self._heard(done, asked))
        return sent

    def _heard(self, done: asyncio.Future[object], asked: int) -> None:
        nobody = not done.cancelled() and done.exception() is None and done.result() == 0
        if nobody and asked == self.asked:  # No whole asked for since: nobody listens now.
            self.listened = False

    def _asked(self, data: bytes) -> None:
        self.asked += 1
        self.listened = True
        whole = []
        if self.hub.frame is not None:
            whole.append(frames.framed(frames.encode_full(self.hub.frame)))
        if self.hub.status_message is not None:
            whole.append(frames.framed(self.hub.status_message))
        self.bus.publish(self.channel, WHOLE + b"".join(whole))

    def _ended(self) -> None:
        self.bus.publish(self.channel, ENDED)
        if self.stop is not None:
            stop, self.stop = self.stop, None
            self.tasks.start(stop())


class Relay(Fan):
    """Another node's game, as this node's watchers see it: fed from `frames:<player>`."""

    def __init__(self, player: str, gone: Callable[[Relay], None]) -> None:
        super().__init__(player)
        self.gone = gone
        self.synced = False
        self.stop: Unsubscribe | None = None
        self.heard_at = IOLoop.current().time()

    def heard(self, data: bytes) -> None:
        self.heard_at = IOLoop.current().time()
        kind, body = data[:1], data[1:]
        try:
            if kind == ENDED:
                self.end()
            elif kind == WHOLE and not self.synced:
                self.synced = True
                self._whole(frames.Unframer().feed(body))
            elif kind == STREAM and self.synced:
                self.take(body)
        except frames.FrameError as exc:
            LOG.warning("%s's frames from the bus stopped: %s", self.name, exc)
            self.end()

    def _whole(self, messages: list[bytes]) -> None:
        """The frame whole and the status: sent on, unless they are what the watchers have."""
        kept = [frames.encode_full(self.frame)] if self.frame is not None else []
        if self.status_message is not None:
            kept.append(self.status_message)
        if messages != kept:
            for message in messages:
                self.take(message)

    def end(self) -> None:
        super().end()
        self.gone(self)


class Relays:
    """This node's relays of games played elsewhere, one a game, while someone here watches,
    and the publishers of the games played here."""

    def __init__(self, bus: Bus, recheck_seconds: float = RECHECK_SECONDS) -> None:
        self.bus = bus
        self.relays: dict[str, Relay] = {}
        self.tasks = Tasks()
        self.recheck_seconds = recheck_seconds
        self.checker: PeriodicCallback | None = None

    def publish(self, player: str, hub: Fan) -> None:
        """Offer a game played here to the other nodes."""
        Publisher(self.bus, player, hub, self.tasks)

    async def watch(self, player: str, subscriber: Subscriber) -> bool:
        """Send `subscriber` `player`'s game played on another node; False if none plays it."""
        relay = self.relays.get(player)
        if relay is None:
            if self.checker is None:
                self.checker = PeriodicCallback(self._check, self.recheck_seconds * 500)
                self.checker.start()
            relay = self.relays[player] = Relay(player, self._gone)
            relay.subscribe(subscriber)
            if not await self._start(relay):
                relay.unsubscribe(subscriber)
                relay.end()  # Anyone else who came meanwhile is told it has ended.
                return False
            return True
        relay.subscribe(subscriber)
        return True

    async def _start(self, relay: Relay) -> bool:
        """Listen to the game's frames, then ask for it whole: heard by its node, or by none."""
        try:
            stop = await self.bus.subscribe(frames_channel(relay.name), relay.heard)
        except Exception as exc:  # Redis unreachable: said once by the bus; this watcher told.
            LOG.warning("%s's game: no subscription on the bus (%r)", relay.name, exc)
            return False
        if self.relays.get(relay.name) is not relay:  # Its watchers left meanwhile.
            await stop()
            return False
        relay.stop = stop
        return await self.bus.publish(whole_channel(relay.name), b"") > 0

    def _check(self) -> None:
        """Ask again for the games whose relays have heard nothing for a while."""
        now = IOLoop.current().time()
        for relay in list(self.relays.values()):
            if relay.synced and relay.stop is not None and now - relay.heard_at >= self.recheck_seconds:
                relay.heard_at = now
                relay.synced = False
                self.tasks.start(self._ask_again(relay))

    async def _ask_again(self, relay: Relay) -> None:
        heard = await self.bus.publish(whole_channel(relay.name), b"")
        if heard == 0 and self.relays.get(relay.name) is relay:
            relay.end()  # Played nowhere now: its node ended it, or died.

    def unwatch(self, player: str, subscriber: Subscriber) -> None:
        relay = self.relays.get(player)
        if relay is not None and subscriber in relay.subscribers:
            relay.unsubscribe(subscriber)
            if not relay.subscribers:
                self._gone(relay)

    def _gone(self, relay: Relay) -> None:
        if self.relays.get(relay.name) is relay:
            del self.relays[relay.name]
        if relay.stop is not None:
            stop, relay.stop = relay.stop, None
            self.tasks.start(stop())
        if not self.relays and self.checker is not None:
            self.checker.stop()
            self.checker = None
