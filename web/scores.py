"""Finished games found in players' recordings, verified by `main.py --verify`, and kept.

A recording whose last line claims an ending (`# ending depth=... cause=...`, written at the
death) is copied out of the player's folder, verified from that copy in a process of its own
with a time and memory limit, one at a time, and, if it reaches the ending it claims, stored
with its text in the database: the scoreboard lists it and serves that text by id.  A game is
listed once, by its identity (`identity_of`: the game it replays, not the file's bytes), so a
copy padded with comments, blank lines, other line ends or another claim is not a new entry.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import shutil
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from replays import record_format, record_reader
from web import children
from web.store import Game, Store
from words.game_over import Claim

LOG: Final = logging.getLogger("web.scores")
RECORDINGS: Final = "recordings"
SUFFIX: Final = ".rec"
# The server's bound on a score's recording, kept whole in the database and served
# to browsers: about 300,000 events.  The game records up to `replays.record_reader.MAX_BYTES`
# (a million events), which `--verify` takes; a longer game is not listed here.
MAX_BYTES: Final = 2 << 20
# At most this many recordings looked at in one folder per scan, newest first.
MAX_FILES: Final = 200


@dataclass(frozen=True)
class Finished:
    """A finished game's recording, read from a player's folder."""

    player: str
    text: str
    sha256: str
    claim: Claim
    finished: float


def read_regular(path: Path, limit: int = MAX_BYTES) -> tuple[bytes, os.stat_result] | None:
    """A regular file's bytes, if it is one (no link followed) and no bigger than `limit`."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        with os.fdopen(os.dup(fd), "rb") as file:
            return file.read(limit + 1)[:limit], info
    finally:
        os.close(fd)


def claim_of(text: str) -> Claim | None:
    """The ending a recording's last line claims, if any."""
    lines = [line for line in text.splitlines() if line.strip()]
    return Claim.parse(lines[-1]) if lines else None


def identity_of(text: str) -> str:
    """The game a recording holds: the SHA-256 of the lines the game would write again for
    what a replay reads of it (its format, seed, daily date, rules and every event), so that
    comments (a claimed ending among them), blank lines, spaces and line ends count for nothing.
    RecordingError if it is no recording."""
    reader = record_reader.Reader(text.splitlines(), "a recording")
    script = reader.script
    digest = hashlib.sha256()
    for line in record_format.header(script.seed, script.version, script.rules, script.daily):
        digest.update(f"{line}\n".encode())
    for event in reader.events():
        digest.update(f"{record_format.line_of(event)}\n".encode())
    return digest.hexdigest()


def newest_recordings(folder: Path) -> list[Path]:
    """The recordings in a player's folder, newest first (links and odd names left out)."""
    found: list[tuple[int, Path]] = []
    try:
        entries = list(os.scandir(folder / RECORDINGS))
    except OSError:
        return []
    for entry in entries:
        if entry.name.endswith(SUFFIX) and entry.is_file(follow_symlinks=False):
            try:
                found.append((entry.stat(follow_symlinks=False).st_mtime_ns, Path(entry.path)))
            except OSError:
                continue
    return [path for _, path in sorted(found, reverse=True)[:MAX_FILES]]


class Scores:
    """Finds finished games in players' folders and verifies them, one at a time."""

    def __init__(self, store: Store, work: Path, limits: children.Limits) -> None:
        self.store = store
        self.work = work
        self.limits = limits
        self.seen: dict[Path, tuple[int, int]] = {}  # A file's size and mtime when last read.
        self.queued: set[str] = set()
        self.queue: asyncio.Queue[Finished] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())

    def scan(self, player: str, folder: Path) -> None:
        """Queue each finished game in `folder`'s recordings not queued yet (one verified
        already is passed over as its turn comes: the store is asked then)."""
        for path in newest_recordings(folder):
            found = self._finished(player, path)
            if found is not None and found.sha256 not in self.queued:
                self.queued.add(found.sha256)
                self.queue.put_nowait(found)

    def _finished(self, player: str, path: Path) -> Finished | None:
        read = read_regular(path)
        if read is None:
            return None
        data, info = read
        version = (info.st_size, info.st_mtime_ns)
        if self.seen.get(path) == version:
            return None
        self.seen[path] = version
        text = data.decode("utf-8", errors="replace")
        claim = claim_of(text)
        if claim is None:
            return None
        sha256 = hashlib.sha256(data).hexdigest()
        return Finished(player, text, sha256, claim, info.st_mtime)

    async def idle(self) -> None:
        """Wait until every queued recording is verified (for tests and shutdown)."""
        await self.queue.join()

    async def _run(self) -> None:
        while True:
            found = await self.queue.get()
            try:
                if not await self.store.was_checked(found.sha256):
                    await self.verify(found)
            except Exception:
                LOG.exception("verifying a recording of %s", found.player)
            finally:
                self.queue.task_done()

    async def verify(self, found: Finished) -> bool:
        """Verify one finished game from a copy of its text; list it if it is verified (and
        not listed yet).  Whether it was listed."""
        folder = Path(tempfile.mkdtemp(prefix="verify-", dir=self.work))
        try:
            copy = folder / "game.rec"
            copy.write_text(found.text, encoding="utf-8")
            data = folder / "data"
            data.mkdir()
            answer = await children.answer(
                ["--verify", str(copy), "--data-dir", str(data)], folder, self.limits
            )
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        if answer.status is not None and answer.status < 0:  # Killed: the server is stopping.
            LOG.info("%s's game %s: not verified, killed", found.player, found.sha256[:12])
            return False
        verified = answer.status == 0
        said = "timed out" if answer.status is None else answer.output.strip()[-500:]
        await self.store.add_checked(found.sha256, verified, said)
        LOG.info("%s's game %s: %s", found.player, found.sha256[:12], said)
        return verified and await self.list(found)

    async def list(self, found: Finished) -> bool:
        """Put a verified game on the scoreboard, unless that game is there already."""
        identity = await asyncio.to_thread(identity_of, found.text)  # Off the loop: a long parse.
        claim = found.claim
        game = Game(
            0, found.player, claim.depth, claim.level, claim.xp, claim.turns, claim.cause,
            claim.daily, found.finished,
        )  # fmt: skip
        listed = await self.store.add_game(game, identity, found.text)
        if not listed:
            LOG.info("%s's game %s: listed already", found.player, found.sha256[:12])
        return listed
