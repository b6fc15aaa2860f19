"""The server's settings and what every handler shares: the store and the programs running."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from web import accounts, chat, children, live, relay, scores
from web.bus import open_bus
from web.lobby import Lobby
from web.nodes import STALE_BEATS
from web.store import Store


@dataclass(frozen=True)
class Config:
    """The server's settings, from its command line."""

    root: Path
    host: str = "127.0.0.1"
    port: int = 8000
    max_games: int = 20
    max_watchers: int = 40
    seed: int | None = None
    memory_bytes: int = 1 << 30
    answer_seconds: float = 60.0
    scan_seconds: float = 5.0
    secure_cookies: bool = False
    sign_ups: int = 20
    idle_seconds: float = 300.0
    game: Path = children.MAIN
    allowed_hosts: frozenset[str] = frozenset({"127.0.0.1", "localhost"})
    header_seconds: float = 20.0
    body_seconds: float = 20.0
    max_connections: int | None = None
    no_input_seconds: float = 900.0
    games_per_address: int = 2
    trusted_proxies: frozenset[str] = frozenset()
    database: str | None = None  # PostgreSQL's URL; None: SQLite in `root`.
    redis: str | None = None  # Redis's URL: the bus between nodes; None: this process's own.
    node: str = "solo"  # `nodes.SOLO`: the embedded default, no other node.
    heartbeat_seconds: float = 2.0  # `nodes.HEARTBEAT_SECONDS`


class State:
    """What every handler shares: the settings, the store (`web.store.open_store`), the
    programs running."""

    def __init__(self, config: Config, store: Store) -> None:
        self.config = config
        self.store = store
        limits = children.Limits(config.memory_bytes, config.answer_seconds)
        self.work = config.root / "tmp"
        shutil.rmtree(self.work, ignore_errors=True)  # Left by a server stopped mid-run.
        self.work.mkdir()
        self.scores = scores.Scores(self.store, self.work, limits)
        self.live = live.Live(
            config.root,
            limits,
            self.scores,
            config.max_games,
            config.max_watchers,
            config.seed,
            config.idle_seconds,
            config.game,
            no_input_seconds=config.no_input_seconds,
            per_address=config.games_per_address,
        )
        self.bus = open_bus(config.redis)
        self.relays = relay.Relays(self.bus)
        self.chat = chat.Chat(self.bus)
        self.live.started = self.started
        stale = config.heartbeat_seconds * STALE_BEATS
        self.lobby = Lobby(store, self.bus, self.live, config.node, stale)

    def started(self, game: live.Game) -> None:
        """A game started here: offered to the other nodes' watchers, its chat kept here."""
        self.relays.publish(game.player, game.hub)
        self.chat.hold(game.player, game.hub)

    def scan_all(self) -> None:
        """Look for finished games in every player's folder (at start)."""
        players = self.config.root / accounts.PLAYERS_FOLDER
        if not players.is_dir():
            return
        for entry in sorted(players.iterdir()):
            try:
                name = accounts.checked_name(entry.name)
            except accounts.BadName:
                continue
            if name == entry.name and entry.is_dir() and not entry.is_symlink():
                self.scores.scan(name, accounts.player_folder(self.config.root, name))
