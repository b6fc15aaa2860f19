"""The games the server runs for the pages, who shows and watches each, and the replays.

One game per player.  The canvas page's game runs on pipes (`pipe_process`), the terminal's
and the screen reader's in a pseudo-terminal (`pty_process`); every one writes its frames to
a pipe that its `hub.Hub` reads once for the player's canvas and every watcher.  A page that
closes leaves its game running for `idle_seconds`: the same player's next page of the same kind
takes it back (the newer page takes over from an older one still open); with none, the game is
hung up and saves.  A game with no input for `no_input_seconds` is hung up too, its page told
why.  The lobby is made from the games' own STATUS and the server's counts, and pushed to its
sockets when it changes, at most once a second.  The number of games, and of watchers and
replays, is capped, and so are the games played from one address at once.  A player's folder
is found by the server from a checked name, never from a path the browser sent.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal, Protocol

from tornado.ioloop import IOLoop

from web import accounts, children, scores
from web.hub import Hub, Subscriber
from web.nodes import Node, Taken
from web.pipe_process import PipeProcess
from web.pty_process import PtyProcess

LOG: Final = logging.getLogger("web.live")
Mode = Literal["canvas", "terminal", "screen reader"]
# How long a page waits for the player's game before, hung up, it has saved and ended.
WAIT_FOR_END_SECONDS: Final = 20.0
# Games one player may watch or replay at once.
WATCHERS_EACH: Final = 3
LOBBY_SECONDS: Final = 1.0  # The lobby is pushed at most this often.
# The game's option that runs each kind of page's front end.
FRONT_ENDS: Final = {"canvas": "--browser", "terminal": "--terminal", "screen reader": "--screen-reader"}
# The command-line options the server gives every player's game, if it takes them.
FRAMES_OPTIONS: Final = ("--frames-fd", str(children.FRAMES_FD), "--served")


class Process(Protocol):
    """A player's game: in a pseudo-terminal or on pipes."""

    @property
    def pid(self) -> int: ...

    @property
    def hung_up(self) -> bool: ...

    ended: bool

    def write(self, data: bytes) -> bool: ...

    def hangup(self) -> None: ...

    def signal_group(self, number: int) -> None: ...


@dataclass
class Sink:
    """Where a program's output goes (a page's socket) and who hears of its end."""

    output: Callable[[bytes], None]
    ended: Callable[[int], None]


@dataclass(eq=False)
class Page:
    """A page showing its player's own game: the terminal's bytes go to `output` (the
    terminal and reader pages), the frames to `subscriber` (the canvas page); `told` sends it
    a status and closes it."""

    output: Callable[[bytes], None]
    subscriber: Subscriber | None
    told: Callable[[str, str], None]


@dataclass(eq=False)
class Game:
    """A player's game in play."""

    player: str
    mode: Mode
    folder: Path
    process: Process
    hub: Hub
    started: float
    last_input: float
    page: Page | None = None
    idle: object | None = None  # The hang-up due while no page shows it.
    address: str = ""  # Where its latest page connected from.
    quiet: object | None = None  # The next look at how long it has had no input.
    watchers: set[Subscriber] = field(default_factory=set)
    finished: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Refusal:
    """Why no program was started, in a sentence for the page."""

    status: str
    message: str
    node: str | None = None  # "moved": the node that runs the game.


class Live:
    """Every program running for the pages, the caps on them, and the lobby's listeners."""

    def __init__(
        self,
        root: Path,
        limits: children.Limits,
        scores_: scores.Scores,
        max_games: int,
        max_watchers: int,
        seed: int | None,
        idle_seconds: float = 300.0,
        main: Path = children.MAIN,
        no_input_seconds: float = 900.0,
        per_address: int = 2,
    ) -> None:
        self.root = root
        self.work = root / "tmp"
        self.work.mkdir(parents=True, exist_ok=True)
        self.limits = limits
        self.scores = scores_
        self.max_games = max_games
        self.max_watchers = max_watchers
        self.seed = seed
        self.idle_seconds = idle_seconds
        self.main = main
        self.no_input_seconds = no_input_seconds
        self.per_address = per_address
        self.games: dict[str, Game] = {}
        self.watchers: dict[object, str] = {}  # Each watcher or replay, and whose page.
        self.listeners: set[Callable[[], None]] = set()
        self.started: Callable[[Game], None] = lambda game: None  # Told of each game started.
        self._pushed = 0.0
        self._push: object | None = None
        self.node: Node | None = None  # In a cluster (`nodes`): where games run, their files.

    # Players' games.
    async def play(self, player: str, mode: Mode, page: Page, address: str = "") -> Game | Refusal:
        """Show `player`'s game in `page`, opened from `address`: the one running if it is of
        the same kind (this page takes over), else a new one; or say why not."""
        old = self.games.get(player)
        if old is not None and not old.process.ended and not old.process.hung_up:
            if old.mode != mode or mode == "screen reader":
                return Refusal("elsewhere", "Your game is open elsewhere (another tab or window).")
            self.attach(old, page)
            old.address = address
            if isinstance(old.process, PtyProcess):  # Drawn whole, for the new page's xterm.
                old.process.redraw()
            return old
        refusal = await self.refusal(player) or self._crowded(player, address)
        if refusal is not None:
            return refusal
        taken = Taken()
        if self.node is not None:
            taken = await self.node.take(player, mode, accounts.player_folder(self.root, player))
            if taken.elsewhere is not None:
                return Refusal("moved", f"Your game runs on {taken.elsewhere}.", taken.elsewhere)
            if player in self.games:  # Started by another page meanwhile.
                return Refusal("elsewhere", "Your game is open elsewhere (another tab or window).")
        game = self._start(player, mode, taken.resume)
        game.address = address
        self.attach(game, page)
        return game

    def _command(self, mode: Mode, folder: Path, resume: bool) -> list[str]:
        """The game's command line for a page of `mode`, its files in `folder`: a game taken
        over from a dead node goes on at once (`--continue`)."""
        arguments = [FRONT_ENDS[mode], *FRAMES_OPTIONS, "--data-dir", str(folder)]
        if resume:
            arguments.append("--continue")
        elif self.seed is not None:
            arguments += ["--seed", str(self.seed)]
        return children.game_argv(*arguments, main=self.main)

    def _start(self, player: str, mode: Mode, resume: bool = False) -> Game:
        folder = accounts.player_folder(self.root, player)
        argv = self._command(mode, folder, resume)
        env = children.environment(folder)
        game: Game | None = None

        def output(data: bytes) -> None:
            if game is not None and game.page is not None:
                game.page.output(data)

        def ended(status: int) -> None:
            assert game is not None
            self._ended(game)

        read, write = os.pipe()
        try:
            memory = self.limits.memory_bytes
            process: Process = (
                PipeProcess(argv, folder, env, ended, memory, write)
                if mode == "canvas"
                else PtyProcess(argv, folder, env, output, ended, memory, write)
            )
        except BaseException:
            os.close(read)
            raise
        finally:
            os.close(write)  # The game's own copy is the one left: its end is the pipe's.
        now = time.time()
        game = Game(player, mode, folder, process, Hub(player, self.changed), now, now)
        game.hub.read_from(read)
        if self.node is not None:
            game.hub.on_read = self.node.started(player)
        self.games[player] = game
        self._quiet(game)
        self.started(game)
        LOG.info("%s plays (%s), pid %d", player, mode, process.pid)
        self.changed()
        return game

    def _ended(self, game: Game) -> None:
        if self.games.get(game.player) is game:
            del self.games[game.player]
        for timeout in (game.idle, game.quiet):
            if timeout is not None:
                IOLoop.current().remove_timeout(timeout)
        game.finished.set()
        self.scores.scan(game.player, game.folder)
        game.hub.finish()  # The last frames, then every watcher is told.
        if self.node is not None:
            self.node.ended(game.player)
        for subscriber in game.watchers:
            self.watchers.pop(subscriber, None)
        game.watchers.clear()
        page, game.page = game.page, None
        if page is not None:
            page.told("ended", "The game has ended.")
        self.changed()

    def taken_elsewhere(self, player: str) -> None:
        """Another node runs `player`'s game now (this one was taken for dead): hung up here."""
        game = self.games.get(player)
        if game is None or game.process.ended:
            return
        page, game.page = game.page, None
        if page is not None:
            page.told("taken over", "Your game went on on another server: reload the page.")
        game.process.hangup()

    def attach(self, game: Game, page: Page) -> None:
        """Show `game` in `page`; an older page showing it is told it was taken over."""
        if game.idle is not None:
            IOLoop.current().remove_timeout(game.idle)
            game.idle = None
        older, game.page = game.page, page
        if older is not None:
            if older.subscriber is not None:
                game.hub.unsubscribe(older.subscriber)
            older.told("taken over", "Your game was opened in another page.")
        if page.subscriber is not None:
            game.hub.subscribe(page.subscriber)
        self.changed()

    def detach(self, game: Game, page: Page) -> None:
        """`page` closed: its game waits `idle_seconds` for another page, then is hung up
        (at once for the screen reader's page, which can't take a game back)."""
        if game.page is not page:
            return  # Taken over: the newer page shows the game.
        game.page = None
        if page.subscriber is not None:
            game.hub.unsubscribe(page.subscriber)
        if game.process.ended:
            return
        if game.mode == "screen reader" or self.idle_seconds <= 0:
            game.process.hangup()
        else:
            game.idle = IOLoop.current().call_later(self.idle_seconds, self._idle, game)
        self.changed()

    def _idle(self, game: Game) -> None:
        game.idle = None
        if game.page is None:
            LOG.info("%s's game: no page for %g s, hung up", game.player, self.idle_seconds)
            game.process.hangup()

    def _quiet(self, game: Game) -> None:
        """Hang `game` up, telling its page why, once it has had no input for
        `no_input_seconds`; else look again when it would have."""
        game.quiet = None
        if game.process.ended or game.process.hung_up or self.no_input_seconds <= 0:
            return
        left = game.last_input + self.no_input_seconds - time.time()
        if left > 0:
            game.quiet = IOLoop.current().call_later(left, self._quiet, game)
            return
        LOG.info("%s's game: no input for %g s, hung up", game.player, self.no_input_seconds)
        page, game.page = game.page, None
        if page is not None:
            if page.subscriber is not None:
                game.hub.unsubscribe(page.subscriber)
            page.told("idle", f"Your game had no key for {_span(self.no_input_seconds)}: it was "
                      "saved and closed. Reload the page to continue it.")  # fmt: skip
        game.process.hangup()

    def _crowded(self, player: str, address: str) -> Refusal | None:
        """Why no other game may start from `address` now, if so."""
        playing = [g for g in self.games.values() if g.address == address and not g.process.ended]
        if sum(game.player != player for game in playing) >= self.per_address:
            count = f"{self.per_address} game{'s' * (self.per_address != 1)}"
            return Refusal("full", f"{count} at most are played from one address: try later.")
        return None

    def typed(self, game: Game, data: bytes) -> bool:
        """Send what the player's page typed (keys, or an event's line) to its game."""
        game.last_input = time.time()
        return game.process.write(data)

    async def refusal(self, player: str) -> Refusal | None:
        """Why `player` can't start a game now: their game is open elsewhere or still
        saving, or the server is full; None if they can (a hung-up game is waited for)."""
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

    def watch(self, player: str, viewer: str, subscriber: Subscriber) -> Refusal | None:
        """Send `player`'s game's frames to `viewer`'s page (a subscriber of its hub)."""
        game = self.games.get(player)
        if game is None or game.process.ended:
            return Refusal("ended", f"{player} is not playing now.")
        if (full := self._room(viewer)) is not None:
            return full
        self.watchers[subscriber] = viewer
        game.watchers.add(subscriber)
        game.hub.subscribe(subscriber)
        self.changed()
        return None

    def count_watcher(self, viewer: str, subscriber: Subscriber) -> Refusal | None:
        """Count `viewer`'s watcher of a game played on another node (`relay`), within the caps."""
        if (full := self._room(viewer)) is not None:
            return full
        self.watchers[subscriber] = viewer
        return None

    def unwatch(self, player: str, subscriber: Subscriber) -> None:
        """A watcher's page closed."""
        self.watchers.pop(subscriber, None)
        game = self.games.get(player)
        if game is not None and subscriber in game.watchers:
            game.watchers.discard(subscriber)
            game.hub.unsubscribe(subscriber)
            self.changed()

    def replay(self, text: str, viewer: str, sink: Sink) -> PtyProcess | Refusal:
        """Replay a verified game's recording (its text from the database) for `viewer`'s page."""
        if (full := self._room(viewer)) is not None:
            return full
        folder = Path(tempfile.mkdtemp(prefix="replay-", dir=self.work))
        path = folder / "game.rec"
        path.write_text(text, encoding="utf-8")
        data = folder / "data"
        data.mkdir()

        def ended(status: int) -> None:
            self.watchers.pop(process, None)
            shutil.rmtree(folder, ignore_errors=True)
            sink.ended(status)

        process = PtyProcess(
            children.game_argv("--replay", str(path), "--terminal", "--served", "--data-dir", str(data)),
            folder,
            children.environment(folder),
            sink.output,
            ended,
            self.limits.memory_bytes,
        )
        self.watchers[process] = viewer
        return process

    # The lobby.
    def changed(self) -> None:
        """A game here changed: tell the listeners (the lobby, which writes it to the store
        for every node), at once or a second after the last."""
        if self._push is not None or not self.listeners:
            return
        loop = IOLoop.current()
        wait = max(0.0, self._pushed + LOBBY_SECONDS - loop.time())
        self._push = loop.call_later(wait, self._push_lobby)

    def _push_lobby(self) -> None:
        self._push = None
        self._pushed = IOLoop.current().time()
        for listener in list(self.listeners):
            listener()

    def hang_up_all(self) -> None:
        """What the server does as it stops: every game saves and quits; replays stop."""
        for game in self.games.values():
            game.process.hangup()
        for process in self.watchers:
            if isinstance(process, PtyProcess):
                process.hangup()

    def running(self) -> int:
        replays = sum(isinstance(process, PtyProcess) for process in self.watchers)
        return sum(not game.process.ended for game in self.games.values()) + replays


def _span(seconds: float) -> str:
    """A time as a page says it: "15 minutes", "1 minute", "30 seconds"."""
    count, unit = (seconds / 60, "minute") if seconds >= 60 else (seconds, "second")
    return f"{count:g} {unit}{'s' * (count != 1)}"
