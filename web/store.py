"""What the server keeps: players, sessions, the limits' counts, verified games and the games in
play on every node, behind one interface with two implementations.

`open_store(config)` opens SQLite in the server's folder (`web.sqlite3`, the embedded default:
one process, nothing else to start) or, given `--database postgresql://...`, PostgreSQL shared
by every node of a cluster.  Every method is async so that PostgreSQL never blocks the event
loop; the SQLite one runs its statements on the loop's thread, one connection.  Both keep the
same promises: a limit is checked and taken in one step (`take`), a game is listed once
whatever its file holds besides the game (`add_game` by its identity), and a player's game is
claimed by one node at a time (`claim`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol


@dataclass(frozen=True)
class Game:
    """A verified finished game, as the scoreboard lists it."""

    id: int
    player: str
    depth: int
    level: int
    xp: int
    turns: int
    cause: str
    daily: str | None
    finished: float


@dataclass(frozen=True)
class Playing:
    """A game in play on some node, as the lobby lists it."""

    player: str
    node: str
    mode: str
    started: float
    status: dict[str, object]
    watchers: int
    last_input: float


class Store(Protocol):
    """The server's database, SQLite or PostgreSQL."""

    async def close(self) -> None: ...

    # Players.
    async def add_player(self, name: str, salt: bytes, hashed: bytes) -> bool:
        """Sign a player up; False if the name is taken."""

    async def password_of(self, name: str) -> tuple[bytes, bytes] | None:
        """A player's salt and password hash, or None for no such player."""

    async def player_count(self) -> int: ...

    # Sessions: only the SHA-256 of a cookie's token is kept.
    async def add_session(self, token_hash: str, name: str, expires: float) -> None: ...

    async def session_player(self, token_hash: str, now: float) -> str | None:
        """The player a session is of, if it has not expired."""

    async def end_session(self, token_hash: str) -> None: ...

    async def forget_expired(self, now: float) -> None: ...

    # Limits: what happened of a kind for a key (a name, an address) in a window.
    async def take(self, kind: str, key: str, limit: int, window: float, now: float) -> int | None:
        """Count one attempt of `kind` for `key` and return its id, if fewer than `limit` fall
        in the `window` seconds before `now`; else None and nothing counted.  One step, so that
        attempts sent at once can't all pass a check made before any is counted."""

    async def give_back(self, attempt_id: int) -> None:
        """Uncount an attempt (a sign-in that succeeded, a sign-up whose name was taken)."""

    async def forget_attempts(self, now: float, window: float) -> None: ...

    # Verified games.
    async def was_checked(self, sha256: str) -> bool:
        """Whether a file with this SHA-256 was verified already, passed or not."""

    async def add_checked(self, sha256: str, verified: bool, said: str) -> None: ...

    async def add_game(self, game: Game, identity: str, text: str) -> bool:
        """List a verified game under its identity (the game's own, not its file's); False if
        that game is listed already."""

    async def games(self, limit: int = 100) -> list[Game]:
        """The verified games, deepest first, then by experience, then the earliest."""

    async def game(self, game_id: int) -> Game | None: ...

    async def recording(self, game_id: int) -> str | None:
        """A verified game's recording, by its id only."""

    # Nodes and the games in play on them.
    async def heartbeat(self, node: str, address: str, now: float) -> None:
        """`node` is alive, and serves at `address`."""

    async def nodes(self, now: float, within: float) -> dict[str, str]:
        """The nodes seen in the last `within` seconds, and their addresses."""

    async def claim(self, player: str, node: str, mode: str, now: float, stale: float) -> str:
        """The node whose game `player`'s is after the call: `node` if none held it, it held
        it already, or its holder was not seen for `stale` seconds; else the holder."""

    async def held(self, player: str) -> Playing | None:
        """The claim on `player`'s game as it stands, its node alive or not (None: no
        node's): a node about to claim it learns whether it takes a game over."""

    async def release(self, player: str, node: str) -> None:
        """`player`'s game ended on `node` (nothing if another node holds it)."""

    async def set_status(
        self,
        player: str,
        node: str,
        status: dict[str, object],
        watchers: int,
        last_input: float,
        now: float,
    ) -> None:
        """What `player`'s game on `node` shows, for the lobby."""

    async def playing(self, now: float, stale: float) -> list[Playing]:
        """Every game held by a node seen in the last `stale` seconds, the earliest first."""

    # A game's files, as the game writes them (`game_files`), for another node to take it over.
    async def append_file(self, player: str, node: str, name: str, offset: int, data: bytes) -> bool:
        """`player`'s file `name` becomes its first `offset` bytes, then `data` (offset 0 and no
        data: the file stands for none); only if `node` holds `player`'s game (`claim`), else
        nothing is written and False says so: a node taken for dead writes over no other's."""

    async def files_of(self, player: str) -> dict[str, bytes]:
        """Every file of `player`'s kept, by name."""

    async def forget_files(self, player: str, node: str) -> None:
        """Forget `player`'s files, if `node` holds `player`'s game."""


class Where(Protocol):
    """Where the store is: what `open_store` reads of the server's settings (`state.Config`)."""

    @property
    def root(self) -> Path: ...

    @property
    def database(self) -> str | None: ...


async def open_store(config: Where) -> Store:
    """The store `config` names: PostgreSQL at `config.database`, else SQLite in its folder."""
    if config.database:
        from web.store_postgres import PostgresStore

        return await PostgresStore.open(config.database)
    from web.store_sqlite import SqliteStore

    return SqliteStore(config.root)
