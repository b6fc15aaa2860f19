"""The programs the server runs in pseudo-terminals: players' games, watchers and replays.

One game per player: a second page asking for it is told the game is open elsewhere; a page
whose game is still saving after a hang-up waits for it to end.  The number of games and of
watchers and replays is capped.  A player's folder and the recording a watcher follows are
found by the server from a checked name, never from a path the browser sent.
"""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal

from web import accounts, children, scores
from web.pty_process import PtyProcess

LOG: Final = logging.getLogger("web.live")
Mode = Literal["terminal", "screen reader"]
# How long a page waits for the player's game before, hung up, it has saved and ended.
WAIT_FOR_END_SECONDS: Final = 20.0
# Games one player may watch or replay at once.
WATCHERS_EACH: Final = 3


@dataclass
class Sink:
    """Where a program's output goes (a page's socket) and who hears of its end."""

    output: Callable[[bytes], None]
    ended: Callable[[int], None]


@dataclass
class Game:
    """A player's game in play."""

    player: str
    mode: Mode
    folder: Path
    process: PtyProcess
    started: float
    last_input: float
    finished: asyncio.Event = field(default_factory=asyncio.Event)
    # Where the game stands, from its recording replayed headless: (file, size, mtime) -> facts.
    facts: dict[str, object] = field(default_factory=dict)
    facts_of: tuple[str, int, int] | None = None
    facts_task: asyncio.Task[None] | None = None


@dataclass
class Refusal:
    """Why no program was started, in a sentence for the page."""

    status: str
    message: str


class Live:
    """Every program running for the pages, and the caps on them."""

    def __init__(
        self,
        root: Path,
        limits: children.Limits,
        scores_: scores.Scores,
        max_games: int,
        max_watchers: int,
        seed: int | None,
    ) -> None:
        self.root = root
        self.work = root / "tmp"
        self.work.mkdir(parents=True, exist_ok=True)
        self.limits = limits
        self.scores = scores_
        self.max_games = max_games
        self.max_watchers = max_watchers
        self.seed = seed
        self.games: dict[str, Game] = {}
        self.watchers: dict[PtyProcess, str] = {}  # Each watcher or replay, and whose page.
        self.watching: dict[str, set[PtyProcess]] = {}  # Who follows each player's game.

    # Players' games.
    async def play(self, player: str, mode: Mode, sink: Sink) -> Game | Refusal:
        """Start `player`'s game for a page, or say why not."""
        refusal = await self.refusal(player)
        if refusal is not None:
            return refusal
        folder = accounts.player_folder(self.root, player)
        arguments = ["--terminal" if mode == "terminal" else "--screen-reader"]
        arguments += ["--data-dir", str(folder)]
        if self.seed is not None:
            arguments += ["--seed", str(self.seed)]
        game: Game | None = None

        def ended(status: int) -> None:
            assert game is not None
            if self.games.get(player) is game:
                del self.games[player]
            game.finished.set()
            self.scores.scan(player, folder)
            for watcher in self.watching.pop(player, set()):  # Their game will grow no more.
                watcher.hangup()
            sink.ended(status)

        process = PtyProcess(
            children.game_argv(*arguments),
            folder,
            children.environment(folder),
            sink.output,
            ended,
            self.limits.memory_bytes,
        )
        now = time.time()
        game = Game(player, mode, folder, process, now, now)
        self.games[player] = game
        LOG.info("%s plays (%s), pid %d", player, mode, process.pid)
        return game

    async def refusal(self, player: str) -> Refusal | None:
        """Why `player` can't start a game now: one is open elsewhere, still saving, or
        the server is full; None if they can (a hung-up game is waited for)."""
        old = self.games.get(player)
        if old is not None and not old.process.ended:
            if not old.process.hung_up:
                return Refusal("elsewhere", "Your game is open elsewhere (another tab or window).")
            try:  # Hung up: saving.  The page waits for it.
                await asyncio.wait_for(old.finished.wait(), WAIT_FOR_END_SECONDS)
            except TimeoutError:
                return Refusal("busy", "Your last game is still saving: try again in a moment.")
            if self.games.get(player) not in (None, old):
                return Refusal("elsewhere", "Your game is open elsewhere (another tab or window).")
        if len(self.games) >= self.max_games:
            return Refusal("full", f"The server runs {self.max_games} games at most: try later.")
        return None

    def scan_finished(self) -> None:
        """Look for finished games in the folders of the games in play."""
        for game in list(self.games.values()):
            self.scores.scan(game.player, game.folder)

    # Watchers and replays.
    def _room(self, viewer: str) -> Refusal | None:
        """Why `viewer` may start no other watcher or replay now, if so."""
        if len(self.watchers) >= self.max_watchers:
            return Refusal("full", "Too many games are being watched: try later.")
        if sum(name == viewer for name in self.watchers.values()) >= WATCHERS_EACH:
            return Refusal("full", f"You watch {WATCHERS_EACH} games at most at once.")
        return None

    def _watcher(self, arguments: list[str], folder: Path, viewer: str, sink: Sink) -> PtyProcess:
        def ended(status: int) -> None:
            self.watchers.pop(process, None)
            shutil.rmtree(folder, ignore_errors=True)
            sink.ended(status)

        data = folder / "data"
        data.mkdir(exist_ok=True)
        process = PtyProcess(
            children.game_argv(*arguments, "--terminal", "--data-dir", str(data)),
            folder,
            children.environment(folder),
            sink.output,
            ended,
            self.limits.memory_bytes,
        )
        self.watchers[process] = viewer
        return process

    def watch(self, player: str, viewer: str, sink: Sink) -> PtyProcess | Refusal:
        """Follow `player`'s game in play, from its newest recording, for `viewer`'s page."""
        game = self.games.get(player)
        if game is None or game.process.ended:
            return Refusal("ended", f"{player} is not playing now.")
        if (full := self._room(viewer)) is not None:
            return full
        recording = current_recording(game)
        if recording is None:
            return Refusal("menu", f"{player} has not started a game yet: try again soon.")
        folder = Path(tempfile.mkdtemp(prefix="watch-", dir=self.work))
        followers = self.watching.setdefault(player, set())

        def ended(status: int) -> None:
            followers.discard(process)
            sink.ended(status)

        process = self._watcher(
            ["--replay", str(recording), "--follow"], folder, viewer, Sink(sink.output, ended)
        )
        followers.add(process)
        return process

    def replay(self, text: str, viewer: str, sink: Sink) -> PtyProcess | Refusal:
        """Replay a verified game's recording (its text from the database) for `viewer`'s page."""
        if (full := self._room(viewer)) is not None:
            return full
        folder = Path(tempfile.mkdtemp(prefix="replay-", dir=self.work))
        path = folder / "game.rec"
        path.write_text(text, encoding="utf-8")
        return self._watcher(["--replay", str(path)], folder, viewer, sink)

    # The lobby.
    def lobby(self) -> list[dict[str, object]]:
        """The games in play, as the lobby lists them (facts refreshed in the background)."""
        now = time.time()
        rows: list[dict[str, object]] = []
        for game in sorted(self.games.values(), key=lambda game: game.started):
            if game.process.ended:
                continue
            recording = current_recording(game)
            if recording is None:
                game.facts = {}
            else:
                self._refresh_facts(game, recording)
            rows.append(
                {
                    "player": game.player,
                    "mode": game.mode,
                    "depth": game.facts.get("floor", ""),
                    "turns": game.facts.get("turns", ""),
                    "screen": game.facts.get("screen", "playing" if recording else "on the menu"),
                    "idle": int(now - game.last_input),
                    "playing": int(now - game.started),
                }
            )
        return rows

    def _refresh_facts(self, game: Game, recording: Path) -> None:
        if game.facts_task is not None and not game.facts_task.done():
            return
        try:
            info = recording.stat()
        except OSError:
            return
        version = (recording.name, info.st_size, info.st_mtime_ns)
        if version != game.facts_of:
            game.facts_of = version
            game.facts_task = asyncio.get_running_loop().create_task(
                self._facts(game, recording)
            )

    async def _facts(self, game: Game, recording: Path) -> None:
        """Where `game` stands: its recording so far replayed headless (one line of JSON)."""
        folder = Path(tempfile.mkdtemp(prefix="lobby-", dir=self.work))
        try:
            copy = folder / "game.rec"
            read = scores.read_regular(recording)
            if read is None:
                return
            # Only whole lines: the game may be writing the last one.
            data = read[0]
            copy.write_bytes(data[: data.rfind(b"\n") + 1])
            answer = await children.answer(
                ["--replay", str(copy), "--headless", "--data-dir", str(folder / "data")],
                folder,
                self.limits,
            )
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        try:
            facts = json.loads(answer.output.strip().splitlines()[-1])
        except (ValueError, IndexError):
            return
        if isinstance(facts, dict):
            game.facts = {
                "floor": facts.get("floor", ""),
                "turns": facts.get("turns", ""),
                "screen": "dead" if facts.get("screen") == "GameOverEventHandler" else "playing",
            }

    def hang_up_all(self) -> None:
        """What the server does as it stops: every game saves and quits; watchers stop."""
        for game in self.games.values():
            game.process.hangup()
        for process in self.watchers:
            process.hangup()

    def running(self) -> int:
        return sum(not game.process.ended for game in self.games.values()) + len(self.watchers)


def current_recording(game: Game) -> Path | None:
    """The recording `game` writes now: the newest in its folder, if written since it started."""
    newest = scores.newest_recordings(game.folder)
    if not newest:
        return None
    try:
        written = newest[0].stat().st_mtime
    except OSError:
        return None
    # A second's slack: a file system's times may be coarser than the clock's.
    return newest[0] if written >= game.started - 1 else None
