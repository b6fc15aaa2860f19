"""Chat beside a game: its watchers and its player, signed in, on any node.

A game's chat is a room on `chat:<player>`: each node with a chat socket of that game (and the
game's own node, for as long as the game runs) subscribes there and hands what it hears to
its sockets.  A line is cleaned here (no control characters, spaces run together, at most
`MAX_TEXT` characters) and every page sets it as text, never as markup.  Each player may say
`LINES_BURST` lines at once, then one every `1 / LINES_PER_SECOND` seconds (counted on the
node they talk to).  The player whose game it is may turn the chat off and on: the game's node
keeps that, and answers a room that starts elsewhere (`ask`) with it and the last lines.

`chat:<player>` messages are UTF-8 JSON objects:

    {"from": name, "text": text, "at": seconds}    a line
    {"open": bool, "recent": [line, ...]}          the chat's state (and the last lines)
    {"ask": true}                                  a room started: what is the state?
"""

from __future__ import annotations

import collections
import json
import logging
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from web.bus import Bus, Unsubscribe
from web.hub import Fan, Subscriber
from web.limits import Bucket
from web.relay import Tasks

LOG: Final = logging.getLogger("web.chat")
MAX_TEXT: Final = 200
LINES_PER_SECOND: Final = 0.5
LINES_BURST: Final = 5.0
RECENT: Final = 20  # Lines a page that opens is shown at once.
MAX_SPEAKERS: Final = 10000  # Players whose rate is kept, before the full buckets are forgotten.
Line = dict[str, object]
Listener = Callable[[dict[str, object]], None]


def chat_channel(player: str) -> str:
    return f"chat:{player}"


def cleaned(text: str) -> str:
    """A line as it is said: no control or format characters, each run of spaces one space,
    trimmed, at most `MAX_TEXT` characters."""
    kept = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in text[: MAX_TEXT * 4])
    return " ".join(kept.split())[:MAX_TEXT]


def line_of(message: object) -> Line | None:
    """A line heard on the bus, checked (it goes to pages), or None."""
    if not isinstance(message, dict):
        return None
    speaker, text, at = message.get("from"), message.get("text"), message.get("at")
    if not (isinstance(speaker, str) and isinstance(text, str) and isinstance(at, int | float)):
        return None
    if len(speaker) > 20 or not text or cleaned(text) != text:
        return None
    return {"from": speaker, "text": text, "at": float(at)}


@dataclass(eq=False)
class Room:
    """One game's chat on this node: its state, its last lines, the sockets that show it."""

    player: str
    open: bool = True
    held: bool = False  # The game runs here: this node keeps the state and answers `ask`.
    recent: collections.deque[Line] = field(default_factory=lambda: collections.deque(maxlen=RECENT))
    listeners: set[Listener] = field(default_factory=set)
    stop: Unsubscribe | None = None


class Chat:
    """This node's chat rooms, and the rates of the players who talk through it."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self.rooms: dict[str, Room] = {}
        self.rates: dict[str, Bucket] = {}
        self.tasks = Tasks()

    def hold(self, player: str, hub: Fan) -> None:
        """`player`'s game runs here: keep its chat's state until the game ends."""
        room = self._room(player)
        room.held = True
        hub.subscribe(Subscriber(lambda message: None, lambda: self._let_go(room)))

    def _let_go(self, room: Room) -> None:
        room.held = False
        room.open = True  # The next game's chat starts open.
        self._maybe_close(room)

    def join(self, player: str, listener: Listener) -> Room:
        """A page shows `player`'s chat: it is sent the state and the last lines, then each line."""
        room = self._room(player)
        room.listeners.add(listener)
        listener({"open": room.open, "recent": list(room.recent)})
        return room

    def leave(self, room: Room, listener: Listener) -> None:
        room.listeners.discard(listener)
        self._maybe_close(room)

    def _room(self, player: str) -> Room:
        room = self.rooms.get(player)
        if room is None:
            room = self.rooms[player] = Room(player)
            self.tasks.start(self._subscribe(room))
        return room

    async def _subscribe(self, room: Room) -> None:
        stop = await self.bus.subscribe(chat_channel(room.player), lambda data: self._heard(room, data))
        if self.rooms.get(room.player) is not room:
            await stop()
            return
        room.stop = stop
        if not room.held:
            await self._publish(room.player, {"ask": True})

    def _maybe_close(self, room: Room) -> None:
        if room.held or room.listeners or self.rooms.get(room.player) is not room:
            return
        del self.rooms[room.player]
        if room.stop is not None:
            self.tasks.start(room.stop())

    def say(self, room: Room, speaker: str, text: str) -> str | None:
        """Say `text` in `room` as `speaker`; why not, if not."""
        said = cleaned(text)
        if not said:
            return None  # Nothing to say: nothing said, nothing refused.
        if not room.open:
            return f"{room.player} has turned the chat off."
        if not self._rate(speaker).take(1):
            return "Too many lines at once: wait a moment."
        self.tasks.start(self._publish(room.player, {"from": speaker, "text": said, "at": time.time()}))
        return None

    def turn(self, room: Room, speaker: str, open_: bool) -> str | None:
        """Turn `room`'s chat on or off: only its player may."""
        if speaker != room.player:
            return "Only the player whose game it is turns its chat on or off."
        if not self._rate(speaker).take(1):  # A switch flicked is a line's worth of the bus.
            return "Too many lines at once: wait a moment."
        self.tasks.start(self._publish(room.player, {"open": open_, "recent": list(room.recent)}))
        return None

    def _rate(self, speaker: str) -> Bucket:
        if len(self.rates) > MAX_SPEAKERS:
            self.rates = {name: bucket for name, bucket in self.rates.items() if not _full(bucket)}
        return self.rates.setdefault(speaker, Bucket(LINES_PER_SECOND, LINES_BURST))

    async def _publish(self, player: str, message: dict[str, object]) -> None:
        await self.bus.publish(chat_channel(player), json.dumps(message).encode("utf-8"))

    def _heard(self, room: Room, data: bytes) -> None:
        try:
            message = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            message = None
        if not isinstance(message, dict):
            LOG.warning("%s's chat: a message that is not ours on the bus", room.player)
            return
        if message.get("ask") is True:
            if room.held:
                self.tasks.start(self._publish(room.player, {"open": room.open, "recent": list(room.recent)}))
            return
        if isinstance(message.get("open"), bool):
            self._state(room, message)
            return
        line = line_of(message)
        if line is not None:
            room.recent.append(line)
            self._tell(room, {"line": line})

    def _state(self, room: Room, message: dict[str, object]) -> None:
        """The chat's state heard: kept, and its last lines taken by a room that has none."""
        recent = message.get("recent")
        lines = [line for line in map(line_of, recent) if line] if isinstance(recent, list) else []
        fresh = not room.recent
        if fresh:
            room.recent.extend(lines[-RECENT:])
        room.open = bool(message["open"])
        self._tell(room, {"open": room.open, "recent": list(room.recent) if fresh else []})

    def _tell(self, room: Room, message: dict[str, object]) -> None:
        for listener in list(room.listeners):
            listener(message)


def _full(bucket: Bucket) -> bool:
    """Whether a player's rate has filled up again: nothing of it is worth keeping."""
    return bucket.held + (bucket.clock() - bucket.filled) * bucket.rate >= bucket.burst
