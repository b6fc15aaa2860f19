"""The store in SQLite, `web.sqlite3` in the server's folder: the embedded default.

One connection, used from the server's event loop only: each method runs its statements to
the end before it returns, so no other task's statements come between them (the async methods
never await inside).  A step that reads then writes (`take`, `claim`) is also one transaction,
`BEGIN IMMEDIATE`, so that it would hold even with a second process on the file.  Every query
is parameterised.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Final

from web.store import Game, Playing

FILE_NAME: Final = "web.sqlite3"

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS players (
    name TEXT PRIMARY KEY,          -- validated by accounts.NAME, lower case
    salt BLOB NOT NULL,
    hash BLOB NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    token_hash TEXT PRIMARY KEY,    -- SHA-256 of the cookie's token: a stolen database holds no cookie
    name TEXT NOT NULL REFERENCES players(name),
    expires REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS attempts (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,             -- "sign-in" (a name), "sign-in-from", "sign-up" (an address)
    key TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS attempts_by_key ON attempts (kind, key, at);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    player TEXT NOT NULL,
    depth INTEGER NOT NULL,
    level INTEGER NOT NULL,
    xp INTEGER NOT NULL,
    turns INTEGER NOT NULL,
    cause TEXT NOT NULL,
    daily TEXT,                     -- the date of a daily game, else NULL
    finished REAL NOT NULL,         -- when its recording was last written: the death
    identity TEXT NOT NULL UNIQUE,  -- the game's own (scores.identity_of), not its file's hash
    recording TEXT NOT NULL         -- the verified text itself, served by id
);
CREATE TABLE IF NOT EXISTS checked (
    sha256 TEXT PRIMARY KEY,        -- every finished recording verified, passed or not
    verified INTEGER NOT NULL,
    said TEXT NOT NULL              -- what --verify said
);
CREATE TABLE IF NOT EXISTS nodes (
    name TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    seen REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS playing (
    player TEXT PRIMARY KEY,
    node TEXT NOT NULL,
    mode TEXT NOT NULL,
    started REAL NOT NULL,
    status TEXT NOT NULL,           -- the game's last STATUS, JSON
    watchers INTEGER NOT NULL,
    last_input REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS game_files (
    player TEXT NOT NULL,
    name TEXT NOT NULL,             -- inside the player's folder (game_files.is_game_file)
    start INTEGER NOT NULL,         -- this piece's offset in the file
    data BLOB NOT NULL,
    PRIMARY KEY (player, name, start)
);
"""

GAME_COLUMNS: Final = "id, player, depth, level, xp, turns, cause, daily, finished"


class SqliteStore:
    """The store in one SQLite file in `folder` (made if missing)."""

    def __init__(self, folder: Path) -> None:
        self.db = sqlite3.connect(folder / FILE_NAME, isolation_level=None)
        _upgrade(self.db)
        self.db.executescript(SCHEMA)

    async def close(self) -> None:
        self.db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # Players.
    async def add_player(self, name: str, salt: bytes, hashed: bytes) -> bool:
        try:
            self.db.execute(
                "INSERT INTO players (name, salt, hash, created) VALUES (?, ?, ?, ?)",
                (name, salt, hashed, time.time()),
            )
        except sqlite3.IntegrityError:
            return False
        return True

    async def password_of(self, name: str) -> tuple[bytes, bytes] | None:
        row = self.db.execute("SELECT salt, hash FROM players WHERE name = ?", (name,)).fetchone()
        return None if row is None else (bytes(row[0]), bytes(row[1]))

    async def player_count(self) -> int:
        count: int = self.db.execute("SELECT COUNT(*) FROM players").fetchone()[0]
        return count

    # Sessions.
    async def add_session(self, token_hash: str, name: str, expires: float) -> None:
        self.db.execute(
            "INSERT INTO sessions (token_hash, name, expires) VALUES (?, ?, ?)",
            (token_hash, name, expires),
        )

    async def session_player(self, token_hash: str, now: float) -> str | None:
        row = self.db.execute(
            "SELECT name FROM sessions WHERE token_hash = ? AND expires > ?", (token_hash, now)
        ).fetchone()
        return None if row is None else str(row[0])

    async def end_session(self, token_hash: str) -> None:
        self.db.execute("DELETE FROM sessions WHERE token_hash = ?", (token_hash,))

    async def forget_expired(self, now: float) -> None:
        self.db.execute("DELETE FROM sessions WHERE expires <= ?", (now,))

    # Limits.
    async def take(self, kind: str, key: str, limit: int, window: float, now: float) -> int | None:
        with self._transaction() as db:
            (count,) = db.execute(
                "SELECT COUNT(*) FROM attempts WHERE kind = ? AND key = ? AND at > ?",
                (kind, key, now - window),
            ).fetchone()
            if count >= limit:
                return None
            cursor = db.execute(
                "INSERT INTO attempts (kind, key, at) VALUES (?, ?, ?)", (kind, key, now)
            )
            attempt: int | None = cursor.lastrowid
            assert attempt is not None
            return attempt

    async def give_back(self, attempt_id: int) -> None:
        self.db.execute("DELETE FROM attempts WHERE id = ?", (attempt_id,))

    async def forget_attempts(self, now: float, window: float) -> None:
        self.db.execute("DELETE FROM attempts WHERE at <= ?", (now - window,))

    # Verified games.
    async def was_checked(self, sha256: str) -> bool:
        row = self.db.execute("SELECT 1 FROM checked WHERE sha256 = ?", (sha256,)).fetchone()
        return row is not None

    async def add_checked(self, sha256: str, verified: bool, said: str) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO checked (sha256, verified, said) VALUES (?, ?, ?)",
            (sha256, int(verified), said),
        )

    async def add_game(self, game: Game, identity: str, text: str) -> bool:
        cursor = self.db.execute(
            "INSERT OR IGNORE INTO games (player, depth, level, xp, turns, cause, daily, "
            "finished, identity, recording) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game.player, game.depth, game.level, game.xp, game.turns, game.cause,
                game.daily, game.finished, identity, text,
            ),
        )  # fmt: skip
        return cursor.rowcount == 1

    async def games(self, limit: int = 100) -> list[Game]:
        rows = self.db.execute(
            f"SELECT {GAME_COLUMNS} FROM games "
            "ORDER BY depth DESC, xp DESC, turns ASC, finished ASC, id ASC LIMIT ?",
            (limit,),
        ).fetchall()
        return [Game(*row) for row in rows]

    async def game(self, game_id: int) -> Game | None:
        row = self.db.execute(
            f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        return None if row is None else Game(*row)

    async def recording(self, game_id: int) -> str | None:
        row = self.db.execute("SELECT recording FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else str(row[0])

    # Nodes and the games in play.
    async def heartbeat(self, node: str, address: str, now: float) -> None:
        self.db.execute(
            "INSERT INTO nodes (name, address, seen) VALUES (?, ?, ?) ON CONFLICT (name) "
            "DO UPDATE SET address = excluded.address, seen = excluded.seen",
            (node, address, now),
        )

    async def nodes(self, now: float, within: float) -> dict[str, str]:
        rows = self.db.execute(
            "SELECT name, address FROM nodes WHERE seen > ? ORDER BY name", (now - within,)
        ).fetchall()
        return {str(name): str(address) for name, address in rows}

    async def claim(self, player: str, node: str, mode: str, now: float, stale: float) -> str:
        with self._transaction() as db:
            row = db.execute(
                "SELECT node, node IN (SELECT name FROM nodes WHERE seen > ?) "
                "FROM playing WHERE player = ?",
                (now - stale, player),
            ).fetchone()
            if row is not None and row[0] != node and row[1]:
                return str(row[0])  # Held by a node alive.
            if row is not None and row[0] == node:
                db.execute("UPDATE playing SET mode = ? WHERE player = ?", (mode, player))
                return node
            db.execute(
                "INSERT OR REPLACE INTO playing (player, node, mode, started, status, watchers, "
                "last_input, updated) VALUES (?, ?, ?, ?, '{}', 0, ?, ?)",
                (player, node, mode, now, now, now),
            )
            return node

    async def held(self, player: str) -> Playing | None:
        row = self.db.execute(
            "SELECT player, node, mode, started, status, watchers, last_input FROM playing "
            "WHERE player = ?",
            (player,),
        ).fetchone()
        if row is None:
            return None
        player, node, mode, started, status, watchers, last_input = row
        return Playing(player, node, mode, started, json.loads(status), watchers, last_input)

    async def release(self, player: str, node: str) -> None:
        self.db.execute("DELETE FROM playing WHERE player = ? AND node = ?", (player, node))

    async def set_status(
        self,
        player: str,
        node: str,
        status: dict[str, object],
        watchers: int,
        last_input: float,
        now: float,
    ) -> None:
        self.db.execute(
            "UPDATE playing SET status = ?, watchers = ?, last_input = ?, updated = ? "
            "WHERE player = ? AND node = ?",
            (json.dumps(status), watchers, last_input, now, player, node),
        )

    async def playing(self, now: float, stale: float) -> list[Playing]:
        rows = self.db.execute(
            "SELECT player, node, mode, started, status, watchers, last_input FROM playing "
            "WHERE node IN (SELECT name FROM nodes WHERE seen > ?) ORDER BY started, player",
            (now - stale,),
        ).fetchall()
        return [
            Playing(player, node, mode, started, json.loads(status), watchers, last_input)
            for player, node, mode, started, status, watchers, last_input in rows
        ]

    # A game's files (`game_files`): pieces appended, in order of their offsets.
    async def append_file(
        self, player: str, node: str, name: str, offset: int, data: bytes
    ) -> bool:
        with self._transaction() as db:
            if not _holds(db, player, node):
                return False
            key = (player, name)
            db.execute(
                "DELETE FROM game_files WHERE player = ? AND name = ? AND start >= ?",
                (*key, offset),
            )
            db.execute(
                "UPDATE game_files SET data = substr(data, 1, ? - start) "
                "WHERE player = ? AND name = ? AND start < ? AND start + length(data) > ?",
                (offset, *key, offset, offset),
            )
            if data or offset == 0:
                db.execute(
                    "INSERT INTO game_files (player, name, start, data) VALUES (?, ?, ?, ?)",
                    (*key, offset, data),
                )
        return True

    async def files_of(self, player: str) -> dict[str, bytes]:
        rows = self.db.execute(
            "SELECT name, data FROM game_files WHERE player = ? ORDER BY name, start", (player,)
        ).fetchall()
        files: dict[str, bytes] = {}
        for name, data in rows:
            files[str(name)] = files.get(str(name), b"") + bytes(data)
        return files

    async def forget_files(self, player: str, node: str) -> None:
        with self._transaction() as db:
            if _holds(db, player, node):
                db.execute("DELETE FROM game_files WHERE player = ?", (player,))


def _holds(db: sqlite3.Connection, player: str, node: str) -> bool:
    """Whether `node` holds `player`'s game (its claim): only it writes the game's files."""
    found = db.execute("SELECT 1 FROM playing WHERE player = ? AND node = ?", (player, node))
    return found.fetchone() is not None


def _upgrade(db: sqlite3.Connection) -> None:
    """A database made before games had an identity: their files' hashes stand for it."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    if "sha256" in columns and "identity" not in columns:
        db.execute("ALTER TABLE games RENAME COLUMN sha256 TO identity")
