"""A player's game files kept in the shared store as the game writes them, and written back.

The game appends its recording's lines after each frame it shows, and saves now and then
(`replays.recording`, `saving.autosave`); its frames reach the node's hub on their pipe.  So
after each read of frames (`Shipper.soon`, a moment later, once the game has appended what that
frame played), the node looks at the player's folder: what a recording gained since it was last
looked at (whole lines only) goes to the store as an append at the offset the store's copy has
reached; a save, a backup or an options file that changed goes whole; one gone goes as empty
(an empty file in the store stands for none: the game never writes an empty one).  A file
written anew (another inode, or shorter: recovery cut a half line) is sent again from its start.
A node killed loses at most what one frame appended.

A node that claims a player's game writes the store's files into the player's folder before it
starts the game (`restore`): the game's own Continue then loads the save and plays what the
recording holds after it (`replays.recovery`).  A game over (no save left when it ends) forgets
its files in the store but for an empty save, so that a node with an older copy drops it.

Only names of the game's own files are shipped or written back, never a path from the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol

from tornado.ioloop import IOLoop

from replays import record_reader
from saving import paths

LOG: Final = logging.getLogger("web.game_files")
# The player's files sent whole when they change (the save and its backup, the options, the
# keys, the hall of fame).
WHOLE: Final = (
    paths.SAVE_NAME,
    paths.SAVE_NAME + ".bak",
    paths.OPTIONS_NAME,
    paths.KEYS_NAME,
    paths.SCORES_NAME,
)
RECORDING: Final = re.compile(rf"{paths.RECORDINGS_FOLDER}/[A-Za-z0-9_.-]{{1,100}}\.rec")
# A file bigger than this is not shipped (a recording holds at most MAX_BYTES).
MOST_BYTES: Final = record_reader.MAX_BYTES
# How long after a frame the folder is looked at: the game appends its lines just after.
AFTER_FRAME_SECONDS: Final = 0.02


class Files(Protocol):
    """What the shipping asks of the store (`web.store.Store` has it)."""

    async def append_file(self, player: str, name: str, offset: int, data: bytes) -> None: ...

    async def files_of(self, player: str) -> dict[str, bytes]: ...

    async def forget_files(self, player: str) -> None: ...


@dataclass(frozen=True)
class Sent:
    """What the store holds of a file: of which inode, changed when, and how many bytes."""

    inode: int
    changed: int
    size: int


def is_game_file(name: str) -> bool:
    """Whether `name` (relative to the player's folder) is one of the files shipped."""
    return name in WHOLE or RECORDING.fullmatch(name) is not None


def _read(path: Path, start: int) -> tuple[os.stat_result, bytes] | None:
    """The regular file at `path` (never through a link) from byte `start`: its status and
    bytes; None if it is missing, not a regular file, or too big."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as file:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode) or status.st_size > MOST_BYTES:
            return None
        file.seek(start)
        return status, file.read(MOST_BYTES - start)


class Shipper:
    """Sends one player's game files to the store as the game writes them."""

    def __init__(self, store: Files, player: str, folder: Path, sent: dict[str, Sent]) -> None:
        self.store = store
        self.player = player
        self.folder = folder
        self.sent = sent
        # Files changed since (a second early: a file's time is the kernel's coarser clock).
        self.started = time.time_ns() - 1_000_000_000
        self._due: object | None = None
        self._lock = asyncio.Lock()
        self.writes = 0  # Appends sent to the store, for measuring.

    def soon(self) -> None:
        """Look at the folder a moment from now (frames were read)."""
        if self._due is None:
            self._due = IOLoop.current().call_later(AFTER_FRAME_SECONDS, self._look)

    def _look(self) -> None:
        self._due = None
        IOLoop.current().add_future(asyncio.ensure_future(self.ship()), lambda done: done.result())

    async def ship(self) -> None:
        """Send what changed in the folder since the last look."""
        async with self._lock:
            try:
                for name in WHOLE:
                    await self._whole(name)
                for name in self._recordings():
                    await self._appended(name)
            except Exception:  # The store away a moment: the next frame tries again.
                LOG.exception("%s's files were not shipped", self.player)

    def stop(self) -> None:
        """Look no more (a look due is called off)."""
        if self._due is not None:
            IOLoop.current().remove_timeout(self._due)
            self._due = None

    async def finish(self) -> None:
        """The game has ended: what it wrote last; a game over forgets its files."""
        self.stop()
        await self.ship()
        if not (self.folder / paths.SAVE_NAME).exists():
            await self.store.forget_files(self.player)
            await self.store.append_file(self.player, paths.SAVE_NAME, 0, b"")

    def _recordings(self) -> Iterator[str]:
        """The recordings written since the game started, and those the store holds."""
        with (
            contextlib.suppress(OSError),
            os.scandir(self.folder / paths.RECORDINGS_FOLDER) as entries,
        ):
            for entry in entries:
                name = f"{paths.RECORDINGS_FOLDER}/{entry.name}"
                if not RECORDING.fullmatch(name):
                    continue
                if (
                    name in self.sent
                    or entry.stat(follow_symlinks=False).st_mtime_ns >= self.started
                ):
                    yield name

    async def _whole(self, name: str) -> None:
        path = self.folder / name
        before = self.sent.get(name)
        try:
            status = os.stat(path, follow_symlinks=False)
        except OSError:
            if before is not None and before.size:
                await self._send(name, 0, b"", Sent(0, 0, 0))
            return
        if before is not None and (before.inode, before.changed, before.size) == (
            status.st_ino,
            status.st_mtime_ns,
            status.st_size,
        ):
            return
        read = _read(path, 0)
        if read is not None:
            status, data = read
            await self._send(name, 0, data, Sent(status.st_ino, status.st_mtime_ns, len(data)))

    async def _appended(self, name: str) -> None:
        before = self.sent.get(name)
        try:
            status = os.stat(self.folder / name, follow_symlinks=False)
        except OSError:
            return
        same = (
            before is not None and before.inode == status.st_ino and before.size <= status.st_size
        )
        start = before.size if before is not None and same else 0
        if same and status.st_size == start:
            return
        read = _read(self.folder / name, start)
        if read is None:
            return
        status, data = read
        data = data[: data.rfind(b"\n") + 1]  # Whole lines: the last may be half written.
        if data or start == 0:
            await self._send(
                name, start, data, Sent(status.st_ino, status.st_mtime_ns, start + len(data))
            )

    async def _send(self, name: str, offset: int, data: bytes, sent: Sent) -> None:
        await self.store.append_file(self.player, name, offset, data)
        self.sent[name] = sent
        self.writes += 1


async def restore(store: Files, player: str, folder: Path) -> dict[str, Sent]:
    """Write the store's copy of `player`'s files into `folder` (where they differ), before
    the game starts; what the store holds of each, for the game's `Shipper`."""
    files = await store.files_of(player)
    sent: dict[str, Sent] = {}
    for name, data in sorted(files.items()):
        if not is_game_file(name):
            LOG.warning(
                "%s: a file %r in the store that is no game file, not written", player, name[:120]
            )
            continue
        path = folder / name
        if not data:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            continue
        read = _read(path, 0)
        if read is None or read[1] != data:
            _write(path, data)
        status = os.stat(path, follow_symlinks=False)
        sent[name] = Sent(status.st_ino, status.st_mtime_ns, len(data))
    if files:
        LOG.info("%s: %d of the game's files written back from the store", player, len(sent))
    return sent


def _write(path: Path, data: bytes) -> None:
    """Put `data` at `path` whole: written beside it, then renamed over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.restoring")
    with contextlib.suppress(FileNotFoundError):
        temporary.unlink()
    with open(temporary, "xb") as file:
        file.write(data)
    os.replace(temporary, path)
