"""The bus (`web.bus`): the same behaviour from the in-process bus and from Redis's pub/sub,
against a real redis-server (tests/redis_server.py, skipped, saying so, where it is missing)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterator

import pytest
from redis_server import redis_url as redis_url  # The session's Redis, shared.

from web.bus import Bus, LocalBus, RedisBus

Makes = Callable[[], Bus]


@pytest.fixture(params=["local", "redis"])
def make_bus(request: pytest.FixtureRequest) -> Iterator[Makes]:
    """A maker of buses of one kind: each RedisBus is a node of its own; LocalBus has one
    node, so every call gives the same bus."""
    if request.param == "local":
        local = LocalBus()
        yield lambda: local
        return
    url = request.getfixturevalue("redis_url")
    yield lambda: RedisBus(url)


def run(test: Callable[[], Awaitable[None]]) -> None:
    """Run `test` on a loop of its own (asyncio.run would leave the thread with no current
    loop, which other modules' tests use)."""
    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(asyncio.wait_for(test(), 30))  # A bound on waiting, not a measure.
    finally:
        loop.close()


async def heard(got: list[bytes], count: int) -> list[bytes]:
    while len(got) < count:
        await asyncio.sleep(0.01)
    return got


def test_a_message_reaches_every_receiver_of_its_channel_in_order(make_bus: Makes) -> None:
    async def test() -> None:
        publisher, listener = make_bus(), make_bus()
        first: list[bytes] = []
        second: list[bytes] = []
        other: list[bytes] = []
        await listener.subscribe("frames:ann", first.append)
        await listener.subscribe("frames:ann", second.append)
        await listener.subscribe("frames:bob", other.append)
        sent = [bytes([n % 256]) * (n % 7 + 1) for n in range(500)]
        for message in sent:
            publisher.publish("frames:ann", message)  # Not awaited: the order holds anyway.
        assert await publisher.publish("frames:ann", b"end") == 1  # One node heard it.
        assert await heard(first, 501) == [*sent, b"end"]
        assert await heard(second, 501) == first
        assert other == []
        await publisher.close()
        await listener.close()

    run(test)


def test_a_message_nobody_hears_is_counted_so_and_an_unsubscribed_receiver_hears_nothing(
    make_bus: Makes,
) -> None:
    async def test() -> None:
        publisher, listener = make_bus(), make_bus()
        assert await publisher.publish("whole:nobody", b"?") == 0
        got: list[bytes] = []
        stop = await listener.subscribe("whole:cat", got.append)
        assert await publisher.publish("whole:cat", b"1") == 1
        await heard(got, 1)
        await stop()
        assert await publisher.publish("whole:cat", b"2") == 0
        await asyncio.sleep(0.2)
        assert got == [b"1"]
        await publisher.close()
        await listener.close()

    run(test)


def test_a_receiver_that_fails_is_logged_and_the_others_still_hear(
    make_bus: Makes, caplog: pytest.LogCaptureFixture
) -> None:
    async def test() -> None:
        publisher, listener = make_bus(), make_bus()
        got: list[bytes] = []

        def broken(data: bytes) -> None:
            raise ValueError("a receiver's bug")

        await listener.subscribe("chat:dan", broken)
        await listener.subscribe("chat:dan", got.append)
        await publisher.publish("chat:dan", b"hello")
        await publisher.publish("chat:dan", b"again")
        assert await heard(got, 2) == [b"hello", b"again"]
        await publisher.close()
        await listener.close()

    with caplog.at_level(logging.ERROR, "web.bus"):
        run(test)
    assert [r.message for r in caplog.records] == ["a bus message's receiver failed"] * 2


def test_every_node_hears_and_is_counted(redis_url: str) -> None:
    async def test() -> None:
        nodes = [RedisBus(redis_url) for _ in range(3)]
        got: list[list[bytes]] = [[], []]
        for node, into in zip(nodes[1:], got, strict=True):
            await node.subscribe("lobby", into.append)
            await node.subscribe("lobby", into.append)  # Twice on one node: one node still.
        assert await nodes[0].publish("lobby", b"{}") == 2
        for into in got:
            assert await heard(into, 2) == [b"{}", b"{}"]
        for node in nodes:
            await node.close()

    run(test)


def test_a_redis_that_is_gone_loses_messages_and_says_so_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Nothing listens on the port: publishing answers 0, logged once, and raises nothing."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    async def test() -> None:
        bus = RedisBus(f"redis://127.0.0.1:{port}/0")
        counts = [await bus.publish("lobby", b"{}") for _ in range(3)]
        assert counts == [0, 0, 0]
        await bus.close()

    with caplog.at_level(logging.WARNING, "web.bus"):
        run(test)
    warned = [r.message for r in caplog.records if r.name == "web.bus"]
    assert len(warned) == 1 and warned[0].startswith("Redis unreachable"), warned
