"""The store in PostgreSQL (`--database postgresql://...`), shared by every node of a cluster.

psycopg 3's `AsyncConnectionPool`: a method borrows a connection for one transaction, committed
as it gives it back, and never blocks the event loop.  A step that reads then writes (`take`,
`claim`) first takes a transaction-scoped advisory lock on its key, so that steps on one key,
from any task on any node, run one after another; steps on other keys don't wait.  The schema
is made at start, idempotently, under an advisory lock of its own, so that two nodes starting
at once don't both create a table.  Every query is parameterised.
"""

from __future__ import annotations

import json
from typing import Any, Final

from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

from web.store import Game, Playing

Row = tuple[Any, ...]
# A condition: the node named holds the player's game (only it writes the game's files).
HELD: Final = "EXISTS (SELECT 1 FROM playing WHERE player = %s AND node = %s)"
"""A row as psycopg gives it."""

# The advisory lock held while the schema is made: any number, the same on every node.
SCHEMA_LOCK: Final = 5_500_055

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS players (
    name TEXT PRIMARY KEY,
    salt BYTEA NOT NULL,
    hash BYTEA NOT NULL,
    created DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    token_hash TEXT PRIMARY KEY,
    name TEXT NOT NULL REFERENCES players(name),
    expires DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS attempts (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL
);
CREATE INDEX IF NOT EXISTS attempts_by_key ON attempts (kind, key, at);
CREATE TABLE IF NOT EXISTS games (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    player TEXT NOT NULL,
    depth INTEGER NOT NULL,
    level INTEGER NOT NULL,
    xp INTEGER NOT NULL,
    turns INTEGER NOT NULL,
    cause TEXT NOT NULL,
    daily TEXT,
    finished DOUBLE PRECISION NOT NULL,
    identity TEXT NOT NULL UNIQUE,
    recording TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS checked (
    sha256 TEXT PRIMARY KEY,
    verified BOOLEAN NOT NULL,
    said TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS nodes (
    name TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    seen DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS playing (
    player TEXT PRIMARY KEY,
    node TEXT NOT NULL,
    mode TEXT NOT NULL,
    started DOUBLE PRECISION NOT NULL,
    status TEXT NOT NULL,
    watchers INTEGER NOT NULL,
    last_input DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS game_files (
    player TEXT NOT NULL,
    name TEXT NOT NULL,
    start BIGINT NOT NULL,
    data BYTEA NOT NULL,
    PRIMARY KEY (player, name, start)
);
"""

GAME_COLUMNS: Final = "id, player, depth, level, xp, turns, cause, daily, finished"
POOL_SIZE: Final = 10  # Connections per node, at most: a step holds one for a few statements.


async def _lock(conn: AsyncConnection[Row], *key: str) -> None:
    """Hold `key`'s advisory lock until the transaction ends."""
    await conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", ("\n".join(key),))


class PostgresStore:
    """The store in the PostgreSQL database at a URL."""

    def __init__(self, pool: AsyncConnectionPool[AsyncConnection[Row]]) -> None:
        self.pool = pool

    @classmethod
    async def open(cls, url: str) -> PostgresStore:
        """Connect to `url` and make the schema if it is missing."""
        pool: AsyncConnectionPool[AsyncConnection[Row]] = AsyncConnectionPool(
            url, min_size=1, max_size=POOL_SIZE, open=False, name="web"
        )
        await pool.open(wait=True)
        try:
            async with pool.connection() as conn:
                await conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                await conn.execute(SCHEMA)
        except BaseException:
            await pool.close()
            raise
        return cls(pool)

    async def close(self) -> None:
        await self.pool.close()

    async def _one(self, query: str, params: tuple[object, ...]) -> Row | None:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(query, params)
            return await cursor.fetchone()

    async def _all(self, query: str, params: tuple[object, ...]) -> list[Row]:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(query, params)
            return await cursor.fetchall()

    async def _run(self, query: str, params: tuple[object, ...]) -> int:
        """Run a statement; the number of rows it changed."""
        async with self.pool.connection() as conn:
            cursor = await conn.execute(query, params)
            return cursor.rowcount

    # Players.
    async def add_player(self, name: str, salt: bytes, hashed: bytes) -> bool:
        changed = await self._run(
            "INSERT INTO players (name, salt, hash, created) "
            "VALUES (%s, %s, %s, EXTRACT(EPOCH FROM now())) ON CONFLICT (name) DO NOTHING",
            (name, salt, hashed),
        )
        return changed == 1

    async def password_of(self, name: str) -> tuple[bytes, bytes] | None:
        row = await self._one("SELECT salt, hash FROM players WHERE name = %s", (name,))
        return None if row is None else (bytes(row[0]), bytes(row[1]))

    async def player_count(self) -> int:
        row = await self._one("SELECT COUNT(*) FROM players", ())
        assert row is not None
        return int(row[0])

    # Sessions.
    async def add_session(self, token_hash: str, name: str, expires: float) -> None:
        await self._run(
            "INSERT INTO sessions (token_hash, name, expires) VALUES (%s, %s, %s)",
            (token_hash, name, expires),
        )

    async def session_player(self, token_hash: str, now: float) -> str | None:
        row = await self._one(
            "SELECT name FROM sessions WHERE token_hash = %s AND expires > %s", (token_hash, now)
        )
        return None if row is None else str(row[0])

    async def end_session(self, token_hash: str) -> None:
        await self._run("DELETE FROM sessions WHERE token_hash = %s", (token_hash,))

    async def forget_expired(self, now: float) -> None:
        await self._run("DELETE FROM sessions WHERE expires <= %s", (now,))

    # Limits.
    async def take(self, kind: str, key: str, limit: int, window: float, now: float) -> int | None:
        async with self.pool.connection() as conn:
            await _lock(conn, "take", kind, key)
            cursor = await conn.execute(
                "SELECT COUNT(*) FROM attempts WHERE kind = %s AND key = %s AND at > %s",
                (kind, key, now - window),
            )
            row = await cursor.fetchone()
            assert row is not None
            if int(row[0]) >= limit:
                return None
            cursor = await conn.execute(
                "INSERT INTO attempts (kind, key, at) VALUES (%s, %s, %s) RETURNING id",
                (kind, key, now),
            )
            row = await cursor.fetchone()
            assert row is not None
            return int(row[0])

    async def give_back(self, attempt_id: int) -> None:
        await self._run("DELETE FROM attempts WHERE id = %s", (attempt_id,))

    async def forget_attempts(self, now: float, window: float) -> None:
        await self._run("DELETE FROM attempts WHERE at <= %s", (now - window,))

    # Verified games.
    async def was_checked(self, sha256: str) -> bool:
        return await self._one("SELECT 1 FROM checked WHERE sha256 = %s", (sha256,)) is not None

    async def add_checked(self, sha256: str, verified: bool, said: str) -> None:
        await self._run(
            "INSERT INTO checked (sha256, verified, said) VALUES (%s, %s, %s) "
            "ON CONFLICT (sha256) DO UPDATE SET verified = excluded.verified, said = excluded.said",
            (sha256, verified, said),
        )

    async def add_game(self, game: Game, identity: str, text: str) -> bool:
        changed = await self._run(
            "INSERT INTO games (player, depth, level, xp, turns, cause, daily, finished, "
            "identity, recording) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (identity) DO NOTHING",
            (
                game.player, game.depth, game.level, game.xp, game.turns, game.cause,
                game.daily, game.finished, identity, text,
            ),
        )  # fmt: skip
        return changed == 1

    async def games(self, limit: int = 100) -> list[Game]:
        rows = await self._all(
            f"SELECT {GAME_COLUMNS} FROM games "
            "ORDER BY depth DESC, xp DESC, turns ASC, finished ASC, id ASC LIMIT %s",
            (limit,),
        )
        return [Game(*row) for row in rows]

    async def game(self, game_id: int) -> Game | None:
        row = await self._one(f"SELECT {GAME_COLUMNS} FROM games WHERE id = %s", (game_id,))
        return None if row is None else Game(*row)

    async def recording(self, game_id: int) -> str | None:
        row = await self._one("SELECT recording FROM games WHERE id = %s", (game_id,))
        return None if row is None else str(row[0])

    # Nodes and the games in play.
    async def heartbeat(self, node: str, address: str, now: float) -> None:
        await self._run(
            "INSERT INTO nodes (name, address, seen) VALUES (%s, %s, %s) ON CONFLICT (name) "
            "DO UPDATE SET address = excluded.address, seen = excluded.seen",
            (node, address, now),
        )

    async def nodes(self, now: float, within: float) -> dict[str, str]:
        rows = await self._all(
            "SELECT name, address FROM nodes WHERE seen > %s ORDER BY name", (now - within,)
        )
        return {str(name): str(address) for name, address in rows}

    async def claim(self, player: str, node: str, mode: str, now: float, stale: float) -> str:
        async with self.pool.connection() as conn:
            await _lock(conn, "claim", player)
            cursor = await conn.execute(
                "SELECT node, node IN (SELECT name FROM nodes WHERE seen > %s) "
                "FROM playing WHERE player = %s",
                (now - stale, player),
            )
            row = await cursor.fetchone()
            if row is not None and row[0] != node and row[1]:
                return str(row[0])  # Held by a node alive.
            if row is not None and row[0] == node:
                await conn.execute("UPDATE playing SET mode = %s WHERE player = %s", (mode, player))
                return node
            await conn.execute(
                "INSERT INTO playing (player, node, mode, started, status, watchers, last_input, "
                "updated) VALUES (%s, %s, %s, %s, '{}', 0, %s, %s) ON CONFLICT (player) DO UPDATE "
                "SET node = excluded.node, mode = excluded.mode, started = excluded.started, "
                "status = '{}', watchers = 0, last_input = excluded.last_input, "
                "updated = excluded.updated",
                (player, node, mode, now, now, now),
            )
            return node

    async def held(self, player: str) -> Playing | None:
        row = await self._one(
            "SELECT player, node, mode, started, status, watchers, last_input FROM playing "
            "WHERE player = %s",
            (player,),
        )
        if row is None:
            return None
        player, node, mode, started, status, watchers, last_input = row
        return Playing(player, node, mode, started, json.loads(status), watchers, last_input)

    async def release(self, player: str, node: str) -> None:
        await self._run("DELETE FROM playing WHERE player = %s AND node = %s", (player, node))

    async def set_status(
        self,
        player: str,
        node: str,
        status: dict[str, object],
        watchers: int,
        last_input: float,
        now: float,
    ) -> None:
        await self._run(
            "UPDATE playing SET status = %s, watchers = %s, last_input = %s, updated = %s "
            "WHERE player = %s AND node = %s",
            (json.dumps(status), watchers, last_input, now, player, node),
        )

    async def playing(self, now: float, stale: float) -> list[Playing]:
        rows = await self._all(
            "SELECT player, node, mode, started, status, watchers, last_input FROM playing "
            "WHERE node IN (SELECT name FROM nodes WHERE seen > %s) ORDER BY started, player",
            (now - stale,),
        )
        return [
            Playing(player, node, mode, started, json.loads(status), watchers, last_input)
            for player, node, mode, started, status, watchers, last_input in rows
        ]

    # A game's files (`game_files`): pieces appended, in order of their offsets.
    async def append_file(
        self, player: str, node: str, name: str, offset: int, data: bytes
    ) -> bool:
        """One transaction, its statements sent at once (a pipeline: one round trip); the
        claim's row held (FOR SHARE) so that no claim moves the game meanwhile."""
        key, holds = (player, name), (player, node)
        async with self.pool.connection() as conn, conn.pipeline():
            held = await conn.execute(
                "SELECT 1 FROM playing WHERE player = %s AND node = %s FOR SHARE", holds
            )
            await conn.execute(
                f"DELETE FROM game_files WHERE player = %s AND name = %s AND start >= %s AND {HELD}",
                (*key, offset, *holds),
            )
            await conn.execute(
                "UPDATE game_files SET data = substring(data FROM 1 FOR (%s - start)::integer) "
                f"WHERE player = %s AND name = %s AND start < %s AND start + length(data) > %s AND {HELD}",
                (offset, *key, offset, offset, *holds),
            )
            if data or offset == 0:
                await conn.execute(
                    f"INSERT INTO game_files (player, name, start, data) SELECT %s, %s, %s, %s WHERE {HELD}",
                    (*key, offset, data, *holds),
                )
            return await held.fetchone() is not None

    async def files_of(self, player: str) -> dict[str, bytes]:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT name, data FROM game_files WHERE player = %s ORDER BY name, start",
                (player,),
            )
            rows = await cursor.fetchall()
        files: dict[str, bytes] = {}
        for name, data in rows:
            files[str(name)] = files.get(str(name), b"") + bytes(data)
        return files

    async def forget_files(self, player: str, node: str) -> None:
        await self._run(
            f"DELETE FROM game_files WHERE player = %s AND {HELD}", (player, player, node)
        )
