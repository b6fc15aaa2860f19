"""The daily dungeon: one game a day, the same for everyone, by a seed made from
the date (UTC), as Shattered Pixel Dungeon's daily runs give everyone the same dungeon.

The seed of the game of 2026-11-25 is the first 8 bytes of the SHA-256 of the
text "daily 2026-11-25", read as a big-endian number: anyone can compute it,
and `--seed` plays it too (without being marked a daily).
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path
from typing import Final

from replays import recording

# How a date is written in the recording, the story and the hall of fame.
DATE_FORMAT: Final = "%Y-%m-%d"
DATE_PATTERN: Final = re.compile(r"\d{4}-\d\d-\d\d")


def today() -> datetime.date:
    """Today's date in UTC: the same day everywhere, whatever the player's time zone."""
    return datetime.datetime.now(datetime.UTC).date()


def seed_of(date: datetime.date) -> int:
    """The seed of `date`'s daily game (see the module's docstring)."""
    import hashlib  # OpenSSL: loaded when a hash is asked for, not by every start.

    digest = hashlib.sha256(f"daily {date:{DATE_FORMAT}}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big")


def date_of(text: str) -> datetime.date | None:
    """The date `text` writes as YYYY-MM-DD, or None if it is none."""
    if DATE_PATTERN.fullmatch(text) is None:
        return None
    try:
        return datetime.datetime.strptime(text, DATE_FORMAT).date()
    except ValueError:
        return None


def tries_before(folder: Path, seed: int) -> int:
    """How many games of this seed the recordings in `folder` hold: the dailies of
    that date played before (`recording.new_file_name` ends each with its seed)."""
    name = re.compile(rf"game-\d{{8}}-\d{{6}}-{seed}(?:-\d+)?{re.escape(recording.SUFFIX)}")
    try:
        return sum(1 for path in folder.iterdir() if name.fullmatch(path.name))
    except OSError:
        return 0
