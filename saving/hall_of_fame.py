"""The hall of fame: the ten best games, kept in a small JSON file.

A game is entered once, so replaying a recorded death (the same game again)
keeps the place it has.  A file that is not a table this game wrote is moved
aside and a new one begun: the scores never stop a game.
"""

from __future__ import annotations

import dataclasses
import os
import typing
from pathlib import Path
from typing import TYPE_CHECKING, Final, NamedTuple

from saving import paths, safe_io, savefile
from words.game_over import Claim

if TYPE_CHECKING:
    from saving.morgue import KeptRecording
    from words.game_over import Ending

SIZE: Final = 10
FORMAT_VERSION: Final = 3
# Version 2's games had no recording named; read with none.
READABLE_VERSIONS: Final = (2, FORMAT_VERSION)
# The table is a few hundred bytes; anything much bigger is not one.
MAX_BYTES: Final = 64 * 1024
# Bounds on an entry's fields: the longest cause is 28 characters, the largest
# number a seed (as `--seed` takes it).
MAX_TEXT: Final = 80
MAX_NUMBER: Final = 2**64 - 1


@dataclasses.dataclass(frozen=True)
class Entry:
    """One game in the table: its fields, written by name in the file."""

    date: str  # "2026-11-21 22:45"
    character_level: int
    depth: int
    xp: int
    cause: str  # "Killed by a Troll"
    seed: int
    turns: int
    # Its recording, in the morgue folder, and that file's SHA-256 ("" if none was kept).
    recording: str = ""
    sha256: str = ""
    # A daily game's date, and which of the player's games of that date it was.
    daily: str = ""
    daily_try: int = 0

    @classmethod
    def of(cls, ending: Ending, kept: KeptRecording | None = None) -> Entry:
        return cls(
            date=f"{ending.when:%Y-%m-%d %H:%M}",
            character_level=ending.character_level,
            depth=ending.depth,
            xp=ending.xp,
            cause=ending.cause,
            seed=ending.seed,
            turns=ending.turns,
            recording=kept.name if kept is not None else "",
            sha256=kept.sha256 if kept is not None else "",
            daily=ending.daily or "",
            daily_try=ending.daily_try,
        )

    def same_game(self, other: Entry) -> bool:
        """The same game played again, as a replay does: all but the date and
        the recording's file name agree."""
        return dataclasses.replace(self, date=other.date, recording=other.recording, daily_try=other.daily_try) == other

    def claim(self) -> Claim:
        """The ending this entry says its recording reaches."""
        return Claim(
            self.depth, self.character_level, self.xp, self.turns, self.cause, self.daily or None
        )


class DamagedScoresError(ValueError):
    """The scores file is not a table this game wrote."""


class Entered(NamedTuple):
    """What entering a game did: the table, the game's place in it (from 0; None
    if it did not make the ten), and what the player should be told."""

    entries: list[Entry]
    rank: int | None
    notice: str | None


def rank_key(entry: Entry) -> tuple[int, int]:
    """Sorts the best first: more experience, then deeper."""
    return -entry.xp, -entry.depth


def parse(text: str) -> list[Entry]:
    """The entries of a scores file's text; `DamagedScoresError` if it is not one."""
    import json  # Imported when the table is first read or written: not before the first key.

    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise DamagedScoresError("not JSON") from exc
    if not isinstance(data, dict) or data.get("version") not in READABLE_VERSIONS:
        raise DamagedScoresError("not a scores table of this version")
    games = data.get("games")
    if not isinstance(games, list) or len(games) > SIZE:
        raise DamagedScoresError("no list of games")
    types = typing.get_type_hints(Entry)
    entries = []
    for game in games:
        if isinstance(game, dict) and data["version"] == 2:
            game = {"recording": "", "sha256": "", "daily": "", "daily_try": 0, **game}
        if not isinstance(game, dict) or set(game) != set(types):
            raise DamagedScoresError("a game with other fields")
        if any(type(game[name]) is not kind for name, kind in types.items()):
            raise DamagedScoresError("a game with a field of another type")
        if not all(shown_as_is(value) for value in game.values()):
            raise DamagedScoresError("a game with text or numbers no game writes")
        entries.append(Entry(**game))
    return sorted(entries, key=rank_key)


def shown_as_is(value: str | int) -> bool:
    """Whether a field's value is short printable text or a number in range.

    A lone surrogate or a control character could not be drawn.
    """
    if isinstance(value, str):
        return len(value) <= MAX_TEXT and value.isprintable()
    return 0 <= value <= MAX_NUMBER


def load(path: Path) -> list[Entry]:
    """The table in `path`, best first; empty if there is no file yet.

    Raises `DamagedScoresError` for a file that is not a table, and `OSError`
    for one that can't be read.
    """
    try:
        # Only a regular file, and only so much of it: a FIFO would hang the
        # game, a device fill its memory.
        data = savefile.read_file(path)
    except FileNotFoundError:
        return []
    except savefile.SaveError as exc:
        raise DamagedScoresError("not a regular file of a table's size") from exc
    if len(data) > MAX_BYTES:
        raise DamagedScoresError("too big")
    try:
        return parse(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise DamagedScoresError("not text") from exc


def save(path: Path, entries: list[Entry]) -> None:
    """Write the table to `path` atomically, as the save is, so a crash never leaves half a table."""
    import json  # As in `parse`.

    text = json.dumps(
        {"version": FORMAT_VERSION, "games": [dataclasses.asdict(entry) for entry in entries]}, indent=1
    )
    safe_io.remove_temporaries(path)
    safe_io.write_atomic(path, text.encode("utf-8"))


def keep_damaged(path: Path) -> str:
    """Move a damaged table aside, so a new one can begin; say so in a line."""
    bad = path.with_name(path.name + ".bad")
    try:
        os.replace(path, bad)
    except OSError as exc:
        return f"{path.name} is damaged and could not be moved aside: {exc.strerror or exc}"
    return f"{path.name} was damaged: kept as {bad.name}, a new hall of fame begun."


def read(keep_aside: bool = True) -> tuple[list[Entry], str | None]:
    """The table to show, and a line for the player if it could not be read; a damaged
    table is moved aside where the player plays (`keep_aside`), not in a replay."""
    path = paths.scores_path()
    try:
        return load(path), None
    except DamagedScoresError:
        return [], keep_damaged(path) if keep_aside else f"{path.name} is damaged."
    except OSError as exc:
        return [], f"Could not read the hall of fame: {exc.strerror or exc}"


def enter(ending: Ending, kept: KeptRecording | None = None) -> Entered:
    """Put a finished game in the table if it makes the ten, and save it."""
    path = paths.scores_path()
    entries, notice = read()
    if notice is not None and path.exists():
        return Entered(entries, None, notice)  # Not readable: left as it is.
    new = Entry.of(ending, kept)
    already = next((i for i, entry in enumerate(entries) if entry.same_game(new)), None)
    if already is not None:
        return Entered(entries, already, notice)
    ranked = sorted([*entries, new], key=rank_key)[:SIZE]
    rank = next((i for i, entry in enumerate(ranked) if entry is new), None)
    if rank is None:
        return Entered(ranked, None, notice)
    try:
        save(path, ranked)
    except OSError as exc:
        return Entered(entries, None, f"Could not save the hall of fame: {exc.strerror or exc}")
    return Entered(ranked, rank, notice)
