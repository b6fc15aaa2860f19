"""This server as one node of a cluster: its name, its heartbeat, and where a player's game runs.

Every node writes that it is alive into the shared store every `heartbeat` seconds; a node not
seen for `STALE_BEATS` heartbeats is taken for dead.  A player's game runs on the node the
store's `claim` names (one game per player across the cluster): the node a page's socket
reached, if no alive node runs that player's game; else the one that does, and the page is sent
there (`/node/NAME/...`, which nginx passes to that node: `web.nginx`).  So a page whose node
died reconnects through nginx to any other, which claims the game once the dead node's heartbeat
is stale, and rebuilds it from the files the dead one shipped (`game_files`).

The embedded default is the node `solo`: it claims like any other (it always wins), ships no
file and restores none, so a server of one node runs as it always has.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final, NamedTuple, Protocol

from tornado.ioloop import PeriodicCallback

from web import game_files
from web.store import Playing

LOG: Final = logging.getLogger("web.nodes")
NODE_NAME: Final = re.compile(r"[a-z][a-z0-9]{0,15}")
SOLO: Final = "solo"
HEARTBEAT_SECONDS: Final = 2.0
# Heartbeats missed before a node is taken for dead and its games may be claimed elsewhere.
STALE_BEATS: Final = 3


class BadNodeName(ValueError):
    """Not a node's name: a letter, then up to 15 letters or digits, lower case."""


def checked_name(name: str) -> str:
    """`name` if it is a node's name (it goes in URLs and nginx's configuration)."""
    if not NODE_NAME.fullmatch(name):
        raise BadNodeName(f"{name!r} is no node name: a letter, then up to 15 letters or digits")
    return name


class Taken(NamedTuple):
    """What claiming a player's game found: the node that runs it, if another
    (`elsewhere`); else whether this node takes over a game that a dead node was playing
    (`resume`), so that the player's page goes on with it at once (the game's `--continue`)."""

    elsewhere: str | None = None
    resume: bool = False


def taken_over(before: Playing | None, node: str) -> bool:
    """Whether the claim `before` this node's was another node's, on a game in play (not at
    its menu, where the page starts again at the menu)."""
    return before is not None and before.node != node and before.status.get("screen") == "playing"


class Claims(game_files.Files, Protocol):
    """What a node asks of the store (`web.store.Store` has it)."""

    async def heartbeat(self, node: str, address: str, now: float) -> None: ...

    async def held(self, player: str) -> Playing | None: ...

    async def claim(self, player: str, node: str, mode: str, now: float, stale: float) -> str: ...

    async def release(self, player: str, node: str) -> None: ...

    async def playing(self, now: float, stale: float) -> list[Playing]: ...


class Node:
    """This server's name in the cluster, kept alive in the store."""

    def __init__(
        self, store: Claims, name: str, address: str, heartbeat: float = HEARTBEAT_SECONDS
    ) -> None:
        self.store = store
        self.name = checked_name(name)
        self.address = address
        self.heartbeat = heartbeat
        self._beat: PeriodicCallback | None = None
        self._failing = False  # The last heartbeat failed (said once, in the log).
        self.shippers: dict[str, game_files.Shipper] = {}
        # Told when another node holds a game this one runs (this one was taken for dead).
        self.taken: Callable[[str], None] = lambda player: None
        self._ending: set[asyncio.Task[None]] = set()

    @property
    def shared(self) -> bool:
        """Whether other nodes may take its games over: then their files go to the store."""
        return self.name != SOLO

    @property
    def stale(self) -> float:
        """Seconds without a heartbeat after which a node is taken for dead."""
        return self.heartbeat * STALE_BEATS

    async def start(self) -> None:
        """Say this node is alive, now and every `heartbeat` seconds; a node starting runs no
        game, so the claims a run of it killed left behind are let go."""
        await self.beat()
        for game in await self.store.playing(time.time(), self.stale):
            if game.node == self.name:
                await self.store.release(game.player, self.name)
        self._beat = PeriodicCallback(self.beat, self.heartbeat * 1000)
        self._beat.start()

    def stop(self) -> None:
        if self._beat is not None:
            self._beat.stop()

    async def beat(self) -> None:
        """Say this node is alive.  A database away a moment (or no file left to open it with,
        under a flood of connections) is said in one line until a beat gets through: the next
        beat tries again, and nothing floods the log."""
        try:
            await self.store.heartbeat(self.name, self.address, time.time())
        except Exception as exc:
            if not self._failing:
                LOG.warning("heartbeat of %s failed (%s): trying again", self.name, exc)
            self._failing = True
        else:
            if self._failing:
                LOG.info("heartbeat of %s gets through again", self.name)
            self._failing = False

    async def take(self, player: str, mode: str, folder: Path) -> Taken:
        """Claim `player`'s game for this node, its files written back from the store into
        `folder`, ready to start; or the node that runs it."""
        before = await self.store.held(player)
        holder = await self.store.claim(player, self.name, mode, time.time(), self.stale)
        if holder != self.name:
            return Taken(elsewhere=holder)
        if self.shared:
            sent = await game_files.restore(self.store, player, folder)
            lost = functools.partial(self._taken, player)
            self.shippers[player] = game_files.Shipper(
                self.store, player, folder, sent, self.name, lost
            )
        return Taken(resume=taken_over(before, self.name))

    def started(self, player: str) -> Callable[[], None]:
        """What the game's hub calls after each read of frames: its files looked at soon."""
        shipper = self.shippers.get(player)
        return shipper.soon if shipper is not None else lambda: None

    def _taken(self, player: str) -> None:
        self.taken(player)

    def ended(self, player: str) -> None:
        """`player`'s game ended here: its last files shipped, then its claim let go."""
        task = asyncio.ensure_future(self._end(player, self.shippers.pop(player, None)))
        self._ending.add(task)
        task.add_done_callback(self._ending.discard)

    async def _end(self, player: str, shipper: game_files.Shipper | None) -> None:
        try:
            if shipper is not None:
                await shipper.finish()
            await self.store.release(player, self.name)
        except Exception:
            LOG.exception("%s's game's end was not written to the store", player)

    async def settle(self) -> None:
        """Wait for the games ended to be written to the store (the server is stopping)."""
        while self._ending:
            await asyncio.wait(set(self._ending))


def socket_on(node: str, path: str) -> str:
    """The path of a socket `path` on `node`, through nginx's `/node/NAME/` location."""
    return f"/node/{checked_name(node)}{path}"
