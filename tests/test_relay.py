"""A game's relay on a node that does not run it (`web.relay`), between two nodes in this
process, each with a bus of its own on a real Redis (tests/redis_server.py): the game's node
dying, and the game taken over by the watcher's node."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import numpy as np
from redis_server import redis_url as redis_url  # The session's Redis, shared.

from web import frames
from web.bus import RedisBus
from web.hub import Fan, Subscriber
from web.relay import Relays

RECHECK = 0.3  # Seconds of silence before a relay asks again (10 in the server).


def run(test: Callable[[], Awaitable[None]]) -> None:
    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(asyncio.wait_for(test(), 30))  # A bound on waiting, not a measure.
    finally:
        loop.close()


def picture(tile: int) -> bytes:
    frame = frames.Frame(
        np.full((5, 8), tile, np.uint8), np.full((5, 8, 3), 9, np.uint8), np.zeros((5, 8, 3), np.uint8), 16
    )
    return frames.encode_full(frame)


class Watcher:
    """A page as a relay sees it: what it is sent, and whether it was told of the end."""

    def __init__(self) -> None:
        self.got: list[bytes] = []
        self.ended = False
        self.subscriber = Subscriber(self._send, self._ended)

    def _send(self, message: bytes) -> None:
        self.got.append(message)

    def _ended(self) -> None:
        self.ended = True


async def until(what: Callable[[], object]) -> None:
    while not what():
        await asyncio.sleep(0.02)


async def game_on(bus: RedisBus, player: str, tile: int) -> Fan:
    """A game's hub on a node, offered to the others, once the bus has it."""
    hub = Fan(player)
    hub.take(picture(tile))
    hub.take(frames.encode_status({"screen": "menu"}))
    Relays(bus).publish(player, hub)
    while await bus.publish(f"whole:{player}", b"") == 0:  # Until its node listens there.
        await asyncio.sleep(0.02)
    return hub


def test_a_relay_whose_games_node_dies_tells_its_watchers_the_game_ended(redis_url: str) -> None:
    async def test() -> None:
        a, b = RedisBus(redis_url), RedisBus(redis_url)
        await game_on(a, "gail", 1)
        watcher = Watcher()
        relays = Relays(b, RECHECK)
        assert await relays.watch("gail", watcher.subscriber)
        await until(lambda: len(watcher.got) == 2)
        assert watcher.got == [picture(1), frames.encode_status({"screen": "menu"})]
        await asyncio.sleep(RECHECK * 4)  # Silent: asked again, answered the same, nothing sent.
        assert len(watcher.got) == 2 and not watcher.ended
        await a.close()  # The game's node is gone without a word.
        await until(lambda: watcher.ended)
        assert "gail" not in relays.relays
        await b.close()

    run(test)


def test_a_relay_follows_the_game_to_the_node_that_took_it_over(redis_url: str) -> None:
    async def test() -> None:
        a, b = RedisBus(redis_url), RedisBus(redis_url)
        await game_on(a, "hana", 1)
        watcher = Watcher()
        relays = Relays(b, RECHECK)
        assert await relays.watch("hana", watcher.subscriber)
        await until(lambda: len(watcher.got) == 2)
        await a.close()
        taken = await game_on(b, "hana", 2)  # Rebuilt on the watcher's own node.
        await until(lambda: picture(2) in watcher.got)
        assert not watcher.ended
        taken.take(frames.encode_status({"screen": "playing", "turns": 1}))
        await until(lambda: watcher.got[-1] == frames.encode_status({"screen": "playing", "turns": 1}))
        await b.close()

    run(test)


def test_a_game_nobody_relays_puts_nothing_on_the_bus(redis_url: str) -> None:
    """Its node publishes its frames only once a node has asked for them whole."""

    async def test() -> None:
        a, b, spy = RedisBus(redis_url), RedisBus(redis_url), RedisBus(redis_url)
        hub = await game_on(a, "ines", 1)  # Asked whole once, to know its node listens.
        hub.take(frames.encode_status({"screen": "menu", "turns": 0}))  # Heard by none: A stops.
        await asyncio.sleep(0.3)
        heard: list[bytes] = []
        await spy.subscribe("frames:ines", heard.append)
        hub.take(frames.encode_status({"screen": "playing", "turns": 1}))
        await asyncio.sleep(0.5)
        assert heard == []
        watcher = Watcher()
        assert await Relays(b, RECHECK).watch("ines", watcher.subscriber)
        hub.take(frames.encode_status({"screen": "playing", "turns": 2}))
        await until(lambda: len(heard) == 2)
        assert [m[:1] for m in heard] == [b"w", b"s"]
        for bus in (a, b, spy):
            await bus.close()

    run(test)
