"""The server's SQLite database, `web.sqlite3` in DIR: players, sessions and verified games.

One connection, used from the server's event loop only.  Every query is parameterised.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Final

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
    sha256 TEXT NOT NULL UNIQUE,
    recording TEXT NOT NULL         -- the verified text itself, served by id
);
CREATE TABLE IF NOT EXISTS checked (
    sha256 TEXT PRIMARY KEY,        -- every finished recording verified, passed or not
    verified INTEGER NOT NULL,
    said TEXT NOT NULL              -- what --verify said
);
"""


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


class Store:
    """The database, opened (and made) in a folder."""

    def __init__(self, folder: Path) -> None:
        self.db = sqlite3.connect(folder / FILE_NAME, isolation_level=None)
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    # Players.
    def add_player(self, name: str, salt: bytes, hashed: bytes) -> bool:
        """Sign a player up; False if the name is taken."""
        try:
            self.db.execute(
                "INSERT INTO players (name, salt, hash, created) VALUES (?, ?, ?, ?)",
                (name, salt, hashed, time.time()),
            )
        except sqlite3.IntegrityError:
            return False
        return True

    def password_of(self, name: str) -> tuple[bytes, bytes] | None:
        """A player's salt and password hash, or None for no such player."""
        row = self.db.execute("SELECT salt, hash FROM players WHERE name = ?", (name,)).fetchone()
        return None if row is None else (bytes(row[0]), bytes(row[1]))

    def player_count(self) -> int:
        count: int = self.db.execute("SELECT COUNT(*) FROM players").fetchone()[0]
        return count

    # Sessions.
    def add_session(self, token_hash: str, name: str, expires: float) -> None:
        self.db.execute(
            "INSERT INTO sessions (token_hash, name, expires) VALUES (?, ?, ?)",
            (token_hash, name, expires),
        )

    def session_player(self, token_hash: str, now: float) -> str | None:
        """The player a session is of, if it has not expired."""
        row = self.db.execute(
            "SELECT name FROM sessions WHERE token_hash = ? AND expires > ?", (token_hash, now)
        ).fetchone()
        return None if row is None else str(row[0])

    def end_session(self, token_hash: str) -> None:
        self.db.execute("DELETE FROM sessions WHERE token_hash = ?", (token_hash,))

    def forget_expired(self, now: float) -> None:
        self.db.execute("DELETE FROM sessions WHERE expires <= ?", (now,))

    # Finished games.
    def was_checked(self, sha256: str) -> bool:
        row = self.db.execute("SELECT 1 FROM checked WHERE sha256 = ?", (sha256,)).fetchone()
        return row is not None

    def add_checked(self, sha256: str, verified: bool, said: str) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO checked (sha256, verified, said) VALUES (?, ?, ?)",
            (sha256, int(verified), said),
        )

    def add_game(self, game: Game, sha256: str, text: str) -> None:
        self.db.execute(
            "INSERT OR IGNORE INTO games (player, depth, level, xp, turns, cause, daily, "
            "finished, sha256, recording) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game.player, game.depth, game.level, game.xp, game.turns, game.cause,
                game.daily, game.finished, sha256, text,
            ),
        )  # fmt: skip

    def games(self, limit: int = 100) -> list[Game]:
        """The verified games, deepest first, then by experience, then the earliest."""
        rows = self.db.execute(
            "SELECT id, player, depth, level, xp, turns, cause, daily, finished FROM games "
            "ORDER BY depth DESC, xp DESC, turns ASC, finished ASC LIMIT ?",
            (limit,),
        ).fetchall()
        return [Game(*row) for row in rows]

    def game(self, game_id: int) -> Game | None:
        row = self.db.execute(
            "SELECT id, player, depth, level, xp, turns, cause, daily, finished FROM games "
            "WHERE id = ?",
            (game_id,),
        ).fetchone()
        return None if row is None else Game(*row)

    def recording(self, game_id: int) -> str | None:
        """A verified game's recording, by its id only."""
        row = self.db.execute("SELECT recording FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else str(row[0])
