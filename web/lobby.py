"""The lobby of every node: the games in play across the cluster, pushed to the lobby's sockets.

Each node writes what its own games show into the store (`set_status`, only the rows that
changed) when they change, and says so on the bus's `lobby` channel; every node, hearing it,
reads the store's `playing` (the games of every node alive) and pushes them to its lobby
sockets, at most once a second.  It reads them again every `REFRESH_SECONDS` while a socket
listens, so that a node gone quiet (dead) drops out of the list as the store stops listing it.
In the embedded default the bus and the store are this process's: the same path, one node.

`lobby` messages are empty: "some node's games changed".
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final, Protocol

from tornado.ioloop import IOLoop, PeriodicCallback

from web.relay import Tasks

if TYPE_CHECKING:
    from web.bus import Bus, Unsubscribe
    from web.live import Live

CHANNEL: Final = "lobby"
PUSH_SECONDS: Final = 1.0  # The lobby is pushed at most this often.
REFRESH_SECONDS: Final = 5.0
# What the lobby says of a game's screen, from its STATUS (anything else: "playing").
SCREENS: Final = frozenset({"menu", "playing", "dead"})
Row = dict[str, object]
Listener = Callable[[list[Row]], None]


class Playing(Protocol):
    """A game in play on some node, as the store lists it (`store.Playing`)."""

    @property
    def player(self) -> str: ...

    @property
    def mode(self) -> str: ...

    @property
    def status(self) -> dict[str, object]: ...

    @property
    def watchers(self) -> int: ...

    @property
    def last_input(self) -> float: ...


class Listing(Protocol):
    """What the lobby asks of the store (`store.Store` has it)."""

    async def set_status(
        self, player: str, node: str, status: dict[str, object], watchers: int, last_input: float, now: float
    ) -> None: ...

    async def playing(self, now: float, stale: float) -> Sequence[Playing]: ...


def row(player: str, mode: str, status: dict[str, object], last_input: float, watchers: int, now: float) -> Row:
    """A game as the lobby lists it: from its STATUS and the counts of the node that runs it."""
    screen = status.get("screen", "menu")
    return {
        "player": player,
        "mode": mode,
        "level": _count(status.get("level")),
        "depth": _count(status.get("depth")),
        "turns": _count(status.get("turns")),
        "screen": screen if screen in SCREENS else "playing",
        "idle": max(0, int(now - last_input)),
        "watchers": watchers,
    }


def _count(value: object) -> int | str:
    """A count from a game's STATUS, or "" if it gave none (or not a count)."""
    return value if type(value) is int and 0 <= value < 1 << 31 else ""


class Lobby:
    """This node's part of the cluster's lobby: its games written, every node's pushed."""

    def __init__(self, store: Listing, bus: Bus, live: Live, node: str, stale: float) -> None:
        self.store = store
        self.bus = bus
        self.live = live
        self.node = node
        self.stale = stale
        self.listeners: set[Listener] = set()
        self.written: dict[str, tuple[object, ...]] = {}  # Each game's row as last written.
        self.tasks = Tasks()
        self._pushed = 0.0
        self._push: object | None = None
        self._stop: Unsubscribe | None = None
        self._refresh = PeriodicCallback(self._refreshed, REFRESH_SECONDS * 1000)
        live.listeners.add(self._local)  # Told when a game here changed, at most once a second.

    async def start(self) -> None:
        self._stop = await self.bus.subscribe(CHANNEL, lambda data: self.changed())
        self._refresh.start()
        self._local()  # Games here before the lobby listened (none, as the server starts).

    async def stop(self) -> None:
        self._refresh.stop()
        self.live.listeners.discard(self._local)
        if self._stop is not None:
            await self._stop()

    async def rows(self) -> list[Row]:
        """Every alive node's games, the earliest started first."""
        now = time.time()
        return [
            row(game.player, game.mode, game.status, game.last_input, game.watchers, now)
            for game in await self.store.playing(now, self.stale)
        ]

    def _local(self) -> None:
        self.tasks.start(self._write())

    async def _write(self) -> None:
        """Write the rows of this node's games that changed, then tell every node."""
        now = time.time()
        changed = False
        for game in list(self.live.games.values()):
            status, watchers = dict(game.hub.status or {}), len(game.watchers)
            shown = (status, watchers, game.last_input)
            if game.process.ended or self.written.get(game.player) == shown:
                continue
            self.written[game.player] = shown
            await self.store.set_status(game.player, self.node, status, watchers, game.last_input, now)
            changed = True
        for player in [player for player in self.written if player not in self.live.games]:
            del self.written[player]
            changed = True  # Its end: the store's row went with the node's release.
        if changed:
            await self.bus.publish(CHANNEL, b"")

    def changed(self) -> None:
        """Some node's games changed: push the lobby, at once or a second after the last push."""
        if self._push is not None or not self.listeners:
            return
        loop = IOLoop.current()
        wait = max(0.0, self._pushed + PUSH_SECONDS - loop.time())
        self._push = loop.call_later(wait, lambda: self.tasks.start(self._push_rows()))

    async def _push_rows(self) -> None:
        self._pushed = IOLoop.current().time()
        try:
            rows = await self.rows()
        finally:
            self._push = None
        for listener in list(self.listeners):
            listener(rows)

    def _refreshed(self) -> None:
        self.changed()

