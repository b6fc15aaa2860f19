"""What the server's nodes tell each other: publish and subscribe on named channels.

`LocalBus` is the embedded default: one process, its channels a dict.  `RedisBus` carries the
same channels between the nodes of a cluster through Redis's pub/sub (`--redis URL`): one
connection that subscribes, one that publishes.  A message is bytes, delivered at most once
to every receiver subscribed when it is published, in the order it was published (a publish
is queued when it is called, not when it is awaited, so a caller that does not wait keeps
its order too).  A message published while a node's connection is down is lost for that
node: what rides on the bus asks again for what it needs whole (`relay`, `chat`).

The channels (docs/browser.md): `frames:<player>` and `whole:<player>` (`relay`),
`chat:<player>` (`chat`), `lobby` (the lobby changed).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final, Protocol

LOG: Final = logging.getLogger("web.bus")
Receive = Callable[[bytes], None]
Unsubscribe = Callable[[], Awaitable[None]]
RETRY_SECONDS: Final = 1.0  # Between tries to reach Redis again.
CLOSE_SECONDS: Final = 5.0  # What a closing bus waits for its queue to be sent, at most.
SUBSCRIBE_SECONDS: Final = 10.0  # A subscription Redis has not confirmed by then has failed.


class Bus(Protocol):
    """Channels between the nodes of a cluster (or within one process)."""

    def publish(self, channel: str, data: bytes) -> Awaitable[int]:
        """Send `data` to every receiver of `channel`; awaited: how many nodes heard it (0:
        none).  Queued in call order at once."""
        ...

    async def subscribe(self, channel: str, receive: Receive) -> Unsubscribe:
        """Call `receive` with each message published on `channel` from the moment this
        returns; the function returned stops it."""
        ...

    async def close(self) -> None:
        """Stop every subscription and let go of the connections."""
        ...


class LocalBus:
    """The channels of one process: a message is handed to its receivers on the loop's next
    turn, as if it had come from elsewhere."""

    def __init__(self) -> None:
        self.receivers: dict[str, list[Receive]] = collections.defaultdict(list)

    def publish(self, channel: str, data: bytes) -> Awaitable[int]:
        loop = asyncio.get_running_loop()
        receivers = list(self.receivers.get(channel, ()))
        for receive in receivers:
            loop.call_soon(_delivered, receive, data)
        heard = loop.create_future()
        heard.set_result(1 if receivers else 0)
        return heard

    async def subscribe(self, channel: str, receive: Receive) -> Unsubscribe:
        self.receivers[channel].append(receive)

        async def unsubscribe() -> None:
            receivers = self.receivers.get(channel, [])
            if receive in receivers:
                receivers.remove(receive)
            if not receivers:
                self.receivers.pop(channel, None)

        return unsubscribe

    async def close(self) -> None:
        self.receivers.clear()


def _delivered(receive: Receive, data: bytes) -> None:
    """Hand a message to a receiver: one that fails is logged, the others still get theirs."""
    try:
        receive(data)
    except Exception:
        LOG.exception("a bus message's receiver failed")


class RedisBus:
    """Channels through a Redis server's pub/sub (redis-py's asyncio client).

    Publishing: one task sends what is queued in order, pipelined (many messages a round trip).
    Subscribing: one connection, read by one task; its SUBSCRIBE is awaited until Redis says
    it holds, so that what is published after `subscribe` returns is heard.  A lost connection
    is tried again every `RETRY_SECONDS` (redis-py subscribes it again), said once in the log.
    """

    def __init__(self, url: str) -> None:
        import redis.asyncio  # Only for a cluster: the embedded default needs no redis.
        import redis.exceptions

        self.errors: tuple[type[Exception], ...] = (OSError, redis.exceptions.RedisError)
        self.client: Any = redis.asyncio.Redis.from_url(url)
        self.pubsub: Any = self.client.pubsub()
        self.receivers: dict[str, list[Receive]] = {}
        self.confirmed: dict[str, collections.deque[asyncio.Future[None]]] = {}
        self.changing = asyncio.Lock()  # One SUBSCRIBE or UNSUBSCRIBE at a time.
        self.outbox: collections.deque[tuple[str, bytes, asyncio.Future[int]]] = collections.deque()
        self.queued = asyncio.Event()
        self.writer: asyncio.Task[None] | None = None
        self.reader: asyncio.Task[None] | None = None
        self.down = False
        self.sending = False
        self.closed = False

    def publish(self, channel: str, data: bytes) -> Awaitable[int]:
        heard: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        if self.closed:
            heard.set_result(0)
            return heard
        self.outbox.append((channel, data, heard))
        self.queued.set()
        if self.writer is None:
            self.writer = asyncio.get_running_loop().create_task(self._write())
        return heard

    async def _write(self) -> None:
        while True:
            await self.queued.wait()
            self.queued.clear()
            while self.outbox:
                batch = [self.outbox.popleft() for _ in range(min(len(self.outbox), 256))]
                self.sending = True
                try:
                    await self._send(batch)
                finally:
                    self.sending = False

    async def _send(self, batch: list[tuple[str, bytes, asyncio.Future[int]]]) -> None:
        pipe = self.client.pipeline(transaction=False)
        for channel, data, _ in batch:
            pipe.publish(channel, data)
        try:
            counts = await pipe.execute()
        except self.errors as exc:
            self._lost(exc)
            counts = [0] * len(batch)
        else:
            self._back()
        for (_, _, heard), count in zip(batch, counts, strict=True):
            if not heard.done():
                heard.set_result(int(count))

    def _lost(self, exc: BaseException) -> None:
        if not self.down:
            LOG.warning("Redis unreachable (%s): messages are lost until it answers", exc)
        self.down = True

    def _back(self) -> None:
        if self.down:
            LOG.info("Redis answers again")
        self.down = False

    async def subscribe(self, channel: str, receive: Receive) -> Unsubscribe:
        async with self.changing:
            if self.closed:
                raise RuntimeError("the bus is closed")
            receivers = self.receivers.setdefault(channel, [])
            receivers.append(receive)
            if len(receivers) == 1:
                try:
                    await self._subscribe(channel)
                except BaseException:
                    del self.receivers[channel]
                    raise

        async def unsubscribe() -> None:
            async with self.changing:
                receivers = self.receivers.get(channel, [])
                if receive in receivers:
                    receivers.remove(receive)
                if self.closed or receivers or self.receivers.pop(channel, None) is None:
                    return
                try:
                    await self.pubsub.unsubscribe(channel)
                except self.errors as exc:  # Gone with the connection, which subscribes it no more.
                    self._lost(exc)

        return unsubscribe

    async def _subscribe(self, channel: str) -> None:
        confirmed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        waiting = self.confirmed.setdefault(channel, collections.deque())
        waiting.append(confirmed)
        try:
            await self.pubsub.subscribe(channel)
            if self.reader is None:
                self.reader = asyncio.get_running_loop().create_task(self._read())
            await asyncio.wait_for(confirmed, SUBSCRIBE_SECONDS)
        finally:
            if confirmed in waiting:
                waiting.remove(confirmed)

    async def _read(self) -> None:
        while True:
            try:
                message = await self.pubsub.get_message(timeout=None)
            except self.errors as exc:
                self._lost(exc)
                await asyncio.sleep(RETRY_SECONDS)
                continue
            self._back()
            if message is not None:
                self._heard(message)

    def _heard(self, message: dict[str, Any]) -> None:
        channel = message["channel"].decode("utf-8")
        if message["type"] == "subscribe":
            waiting = self.confirmed.get(channel)
            if waiting:
                future = waiting.popleft()
                if not future.done():
                    future.set_result(None)
        elif message["type"] == "message":
            for receive in list(self.receivers.get(channel, ())):
                _delivered(receive, message["data"])

    async def close(self) -> None:
        """What is queued is sent first (a game's end, as the server stops), for a while at most."""
        loop = asyncio.get_running_loop()
        end = loop.time() + CLOSE_SECONDS
        while (self.outbox or self.sending) and not self.down and loop.time() < end:
            await asyncio.sleep(0.01)
        async with self.changing:  # A change under way is let finish; the next see `closed`.
            self.closed = True
        for task in (self.writer, self.reader):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self.writer = self.reader = None
        for _, _, heard in self.outbox:
            heard.cancel()
        self.outbox.clear()
        await self.pubsub.aclose()
        await self.client.aclose()


def open_bus(redis_url: str | None) -> Bus:
    """The bus of the server's settings: Redis's if a URL is given, else this process's."""
    return LocalBus() if redis_url is None else RedisBus(redis_url)
