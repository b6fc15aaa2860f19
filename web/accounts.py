"""Players' names, passwords and session tokens, and the one place a name becomes a folder.

A name is checked against `NAME` before anything else is done with it; a player's folder is
`players/<name>` under the server's folder, made from the checked name alone and checked to
lie inside it.  Passwords are kept as scrypt hashes with a random salt; a session cookie holds
a random token of which the database keeps only the SHA-256.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from pathlib import Path
from typing import Final

# Letters, digits and underscores, starting with a letter, 2 to 20 of them; kept in lower case,
# so that "Ada" and "ada" are one player.
NAME: Final = re.compile(r"[a-z][a-z0-9_]{1,19}")
MAX_NAME: Final = 20
MIN_PASSWORD: Final = 8
MAX_PASSWORD: Final = 128  # scrypt's work grows with it: a cap on what one request costs.
PLAYERS_FOLDER: Final = "players"
# scrypt's cost: 16 MiB of memory and some 50 ms a hash.
SCRYPT_N: Final = 2**14
SCRYPT_R: Final = 8
SCRYPT_P: Final = 1
SALT_BYTES: Final = 16
TOKEN_BYTES: Final = 32


class BadName(ValueError):
    """A name that is not a player's name; `str()` says why."""


def checked_name(raw: str) -> str:
    """The player's name `raw` stands for, in lower case; BadName saying why it is none."""
    name = raw.strip().lower()
    if len(name) > MAX_NAME or NAME.fullmatch(name) is None:
        raise BadName(
            f"A name is 2 to {MAX_NAME} letters, digits or underscores, starting with a letter."
        )
    return name


def checked_password(raw: str) -> str:
    """`raw`, if long enough and not too long; ValueError saying why not."""
    if not MIN_PASSWORD <= len(raw) <= MAX_PASSWORD:
        raise ValueError(f"A password is {MIN_PASSWORD} to {MAX_PASSWORD} characters.")
    return raw


def hash_password(password: str, salt: bytes) -> bytes:
    """scrypt of the password with its salt."""
    return hashlib.scrypt(
        password.encode("utf-8"), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=32
    )


def new_salt() -> bytes:
    return secrets.token_bytes(SALT_BYTES)


def password_matches(password: str, salt: bytes, hashed: bytes) -> bool:
    """Whether `password` is the one hashed, compared in constant time."""
    return hmac.compare_digest(hash_password(password, salt), hashed)


def new_token() -> str:
    """A session's secret: 256 random bits."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """What the database keeps of a session's token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def player_folder(root: Path, name: str) -> Path:
    """The data folder of the player `name` (checked again here) under `root`, made if missing."""
    name = checked_name(name)
    players = (root / PLAYERS_FOLDER).resolve()
    folder = (players / name).resolve()
    if folder.parent != players:  # A link or anything else leading out: never followed.
        raise BadName("not a player's folder")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
