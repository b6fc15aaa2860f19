"""The tornado application: pages, forms and sockets, and `main` (`python -m web`).

Public and read-only: the front page with its sign-up and sign-in forms, the lobby, the
scoreboard and the verified recordings (by database id).  Everything else, every socket
included, needs a signed-in player's session.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import hmac
import json
import logging
import shutil
import signal
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import tornado.httpserver
import tornado.web
import tornado.websocket
from tornado.ioloop import PeriodicCallback

from web import accounts, children, lines, live, scores, store
from web.pty_process import PtyProcess

HERE: Final = Path(__file__).resolve().parent
COOKIE: Final = "tombs_session"
SESSION_DAYS: Final = 30
MAX_BODY: Final = 16 << 10  # A form is a name and a password.
MAX_MESSAGE: Final = 1024  # A socket's message: keys, or a paste.
# What a page may type: a bucket of bytes, refilled at this rate, that holds this many.
INPUT_BYTES_PER_SECOND: Final = 200.0
INPUT_BURST: Final = 1000.0
# Sign-in failures an address may make for one name in a window before it is refused for
# that window (and five times as many for all names).
SIGN_IN_FAILURES: Final = 10
MAX_TRACKED: Final = 10000  # Addresses and names whose failures are counted, before a sweep.
WINDOW_SECONDS: Final = 600.0
# The keys a replay takes: pause, faster, slower.
REPLAY_KEYS: Final = frozenset(" +=-")
LOG: Final = logging.getLogger("web")


@dataclass(frozen=True)
class Config:
    """The server's settings, from its command line."""

    root: Path
    host: str = "127.0.0.1"
    port: int = 8000
    max_games: int = 20
    max_watchers: int = 40
    seed: int | None = None
    memory_bytes: int = 1 << 30
    answer_seconds: float = 60.0
    scan_seconds: float = 5.0
    secure_cookies: bool = False
    sign_ups: int = 20


class State:
    """What every handler shares: the settings, the database, the programs running."""

    def __init__(self, config: Config) -> None:
        self.config = config
        config.root.mkdir(parents=True, exist_ok=True)
        self.store = store.Store(config.root)
        limits = children.Limits(config.memory_bytes, config.answer_seconds)
        self.work = config.root / "tmp"
        shutil.rmtree(self.work, ignore_errors=True)  # Left by a server stopped mid-run.
        self.work.mkdir()
        self.scores = scores.Scores(self.store, self.work, limits)
        self.live = live.Live(
            config.root, limits, self.scores, config.max_games, config.max_watchers, config.seed
        )
        self.failures: dict[str, collections.deque[float]] = collections.defaultdict(
            collections.deque
        )
        self.sign_ups: dict[str, collections.deque[float]] = collections.defaultdict(
            collections.deque
        )

    def scan_all(self) -> None:
        """Look for finished games in every player's folder (at start)."""
        players = self.config.root / accounts.PLAYERS_FOLDER
        if not players.is_dir():
            return
        for entry in sorted(players.iterdir()):
            try:
                name = accounts.checked_name(entry.name)
            except accounts.BadName:
                continue
            if name == entry.name and entry.is_dir() and not entry.is_symlink():
                self.scores.scan(name, accounts.player_folder(self.config.root, name))


def too_many(events: collections.deque[float], limit: int, now: float) -> bool:
    """Whether `limit` events fall in the window before `now` (older ones forgotten)."""
    while events and events[0] < now - WINDOW_SECONDS:
        events.popleft()
    return len(events) >= limit


def forget_quiet(counts: dict[str, collections.deque[float]], now: float) -> None:
    """Forget the counts with no event left in the window."""
    for key in [key for key, events in counts.items() if not too_many(events, 1, now)]:
        del counts[key]


class Bucket:
    """A rate: `take(n)` is allowed while the bucket holds `n`; it refills at `rate` a second
    up to `burst`."""

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.held = burst
        self.filled = clock()

    def take(self, amount: float) -> bool:
        now = self.clock()
        self.held = min(self.burst, self.held + (now - self.filled) * self.rate)
        self.filled = now
        if amount > self.held:
            return False
        self.held -= amount
        return True


class Base(tornado.web.RequestHandler):
    """Every page: its player from the session cookie, and headers that trust no other host."""

    def initialize(self, state: State) -> None:
        self.state = state

    def set_default_headers(self) -> None:
        self.set_header("Content-Security-Policy", content_policy(self.request.host))
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("X-Frame-Options", "DENY")
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header("Cache-Control", "no-store")

    def get_current_user(self) -> str | None:
        return session_player(self, self.state)

    @property
    def player(self) -> str | None:
        player: str | None = self.current_user
        return player

    def get_template_path(self) -> str:
        return str(HERE / "templates")

    def page(self, template: str, **values: Any) -> None:
        self.render(template, player=self.player, **values)

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.finish(f"{status_code}: {self._reason}\n")


def content_policy(host: str) -> str:
    """Scripts, styles, images and sockets from this server only; no frames, no forms elsewhere."""
    return (
        "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        f"img-src 'self'; font-src 'self'; connect-src 'self' ws://{host} wss://{host}; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    )


def session_player(handler: tornado.web.RequestHandler, state: State) -> str | None:
    """The signed-in player a request's session cookie names, if any."""
    token = handler.get_cookie(COOKIE)
    if not token or len(token) > 100:
        return None
    return state.store.session_player(accounts.token_hash(token), time.time())


class Front(Base):
    """The front page: the sign-in and sign-up forms, or the signed-in player's links."""

    def get(self) -> None:
        self.page("index.html", error=None, games=len(self.state.live.games))


class Form(Base):
    """The sign-up and sign-in forms' common part."""

    def fields(self) -> tuple[str, str]:
        """The checked name and password posted; BadName or ValueError saying why not."""
        name = accounts.checked_name(self.get_body_argument("name", "")[: accounts.MAX_NAME + 10])
        password = self.get_body_argument("password", "")
        if len(password) > accounts.MAX_PASSWORD:
            raise ValueError("That password is too long.")
        return name, password

    def refuse(self, status: int, error: str) -> None:
        self.set_status(status)
        self.page("index.html", error=error, games=len(self.state.live.games))

    def sign_in_as(self, name: str) -> None:
        token = accounts.new_token()
        expires = time.time() + SESSION_DAYS * 86400
        self.state.store.add_session(accounts.token_hash(token), name, expires)
        self.set_cookie(
            COOKIE,
            token,
            httponly=True,
            samesite="Strict",
            secure=self.state.config.secure_cookies,
            expires_days=SESSION_DAYS,
        )
        self.redirect("/")

    def hashed(self, password: str, salt: bytes) -> Awaitable[bytes]:
        """scrypt, off the event loop."""
        return asyncio.get_running_loop().run_in_executor(
            None, accounts.hash_password, password, salt
        )


class SignUp(Form):
    """A new player: a free, checked name and a password; signed in at once."""

    async def post(self) -> None:
        now = time.time()
        sign_ups = self.state.sign_ups[self.request.remote_ip or ""]
        if too_many(sign_ups, self.state.config.sign_ups, now):
            return self.refuse(429, "Too many sign-ups from here: try later.")
        try:
            name, password = self.fields()
            accounts.checked_password(password)
        except ValueError as exc:
            return self.refuse(400, str(exc))
        salt = accounts.new_salt()
        hashed = await self.hashed(password, salt)
        if not self.state.store.add_player(name, salt, hashed):
            return self.refuse(409, "That name is taken.")
        sign_ups.append(now)
        accounts.player_folder(self.state.config.root, name)
        LOG.info("%s signed up", name)
        self.sign_in_as(name)


class SignIn(Form):
    """A player's name and password, checked; failures counted."""

    async def post(self) -> None:
        now = time.time()
        try:
            name, password = self.fields()
        except ValueError:
            name, password = "", ""
        address = self.request.remote_ip or ""
        if len(self.state.failures) > MAX_TRACKED:
            forget_quiet(self.state.failures, now)
        failures = self.state.failures[address]
        tries = self.state.failures[f"{address} {name}"]
        if too_many(tries, SIGN_IN_FAILURES, now) or too_many(failures, 5 * SIGN_IN_FAILURES, now):
            return self.refuse(429, "Too many failed sign-ins: try later.")
        kept = self.state.store.password_of(name) if name else None
        # A name with no player costs the same hash, so that it can't be told by the time taken.
        salt, expected = kept if kept is not None else (accounts.new_salt(), b"")
        hashed = await self.hashed(password, salt)
        if kept is None or not hmac.compare_digest(hashed, expected):
            failures.append(now)
            tries.append(now)
            return self.refuse(403, "That name and password do not match.")
        self.sign_in_as(name)


class SignOut(Base):
    """The session ended, in the database and in the browser."""

    @tornado.web.authenticated
    def post(self) -> None:
        token = self.get_cookie(COOKIE)
        if token:
            self.state.store.end_session(accounts.token_hash(token))
        self.clear_cookie(COOKIE)
        self.redirect("/")


class Play(Base):
    """The pages of a player's own game: in xterm.js, or as lines for a screen reader."""

    def initialize(self, state: State, template: str) -> None:  # type: ignore[override]
        self.state = state
        self.template = template

    @tornado.web.authenticated
    def get(self) -> None:
        self.page(self.template)


class Lobby(Base):
    """The games being played (public)."""

    def get(self) -> None:
        self.page("lobby.html", games=self.state.live.lobby())


class Watch(Base):
    """The page that follows a player's game in play."""

    @tornado.web.authenticated
    def get(self, name: str) -> None:
        try:
            watched = accounts.checked_name(name)
        except accounts.BadName:
            raise tornado.web.HTTPError(404) from None
        self.page("watch.html", watched=watched)


class Scoreboard(Base):
    """The verified finished games (public)."""

    def get(self) -> None:
        self.page("scores.html", games=self.state.store.games(), date=date_of)


def date_of(when: float) -> str:
    """A moment as the scoreboard writes it."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(when))


class Download(Base):
    """A verified game's recording, by its id only, from the database (public)."""

    def get(self, game_id: str) -> None:
        text = self.state.store.recording(int(game_id)) if len(game_id) < 12 else None
        if text is None:
            raise tornado.web.HTTPError(404)
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.set_header("Content-Disposition", f'attachment; filename="game-{int(game_id)}.rec"')
        self.finish(text.encode("utf-8"))


class Replay(Base):
    """The page that replays a verified game."""

    @tornado.web.authenticated
    def get(self, game_id: str) -> None:
        game = self.state.store.game(int(game_id)) if len(game_id) < 12 else None
        if game is None:
            raise tornado.web.HTTPError(404)
        self.page("replay.html", game=game)


class Icon(Base):
    """The game's own icon (icons/icon.png), as the site's."""

    def get(self) -> None:
        self.set_header("Content-Type", "image/png")
        self.set_header("Cache-Control", "max-age=86400")
        self.finish((children.ROOT / "icons" / "icon.png").read_bytes())


class Socket(tornado.websocket.WebSocketHandler):
    """A page's socket to a program in a pseudo-terminal; only for a signed-in player.

    Output goes to the page as binary messages (the terminal's bytes) or, for the screen
    reader's page, as JSON lines; what the program's state becomes goes as a JSON `status`.
    """

    keys: frozenset[str] | None = None  # None: every key; else only these (empty: none).

    def initialize(self, state: State) -> None:
        self.state = state
        self.process: PtyProcess | None = None
        self.rate = Bucket(INPUT_BYTES_PER_SECOND, INPUT_BURST)
        self.closed = False

    def get_current_user(self) -> str | None:
        return session_player(self, self.state)

    async def get(self, *args: Any, **kwargs: Any) -> None:
        if self.current_user is None:
            raise tornado.web.HTTPError(403)
        await super().get(*args, **kwargs)

    def sink(self) -> live.Sink:
        return live.Sink(self.send_output, self.program_ended)

    def send(self, message: bytes | str, binary: bool = False) -> None:
        if self.closed or self.ws_connection is None:
            return
        try:
            future = self.write_message(message, binary=binary)
        except tornado.websocket.WebSocketClosedError:
            return
        future.add_done_callback(lambda done: done.exception())

    def status(self, status: str, message: str) -> None:
        self.send(json.dumps({"status": status, "message": message}))

    def send_output(self, data: bytes) -> None:
        self.send(data, binary=True)

    def program_ended(self, status: int) -> None:
        self.status("ended", "The game has ended.")
        if not self.closed:
            self.close()

    def refused(self, refusal: live.Refusal) -> None:
        self.status(refusal.status, refusal.message)
        self.close()

    def on_message(self, message: str | bytes) -> None:
        if self.process is None or self.keys == frozenset():
            return
        text = message.decode("utf-8", errors="replace") if isinstance(message, bytes) else message
        if self.keys is not None:
            text = "".join(key for key in text if key in self.keys)
        data = text.encode("utf-8")
        if data and self.rate.take(len(data)):
            self.typed()
            self.process.write(data)

    def typed(self) -> None:
        """A key went to the program."""

    def on_close(self) -> None:
        self.closed = True
        if self.process is not None:
            self.process.hangup()


class PlaySocket(Socket):
    """The player's own game."""

    mode: live.Mode = "terminal"
    game: live.Game

    async def open(self, *args: str, **kwargs: str) -> None:
        player = self.current_user
        assert isinstance(player, str)
        started = await self.state.live.play(player, self.mode, self.sink())
        if isinstance(started, live.Refusal):
            return self.refused(started)
        self.game = started
        self.process = started.process
        if self.closed:  # The page left while the game started.
            self.process.hangup()

    def typed(self) -> None:
        self.game.last_input = time.time()


class ReaderSocket(PlaySocket):
    """The player's own game as lines for a screen reader."""

    mode: live.Mode = "screen reader"

    async def open(self, *args: str, **kwargs: str) -> None:
        self.splitter = lines.LineSplitter()
        await super().open(*args, **kwargs)

    def send_output(self, data: bytes) -> None:
        said = self.splitter.feed(data)
        if said:
            self.send(json.dumps({"lines": said}))


class WatchSocket(Socket):
    """Another player's game, followed from its recording; nothing typed is sent."""

    keys = frozenset()

    def open(self, name: str) -> None:
        try:
            watched = accounts.checked_name(name)
        except accounts.BadName:
            return self.refused(live.Refusal("ended", "No such player."))
        viewer = self.current_user
        assert isinstance(viewer, str)
        started = self.state.live.watch(watched, viewer, self.sink())
        if isinstance(started, live.Refusal):
            return self.refused(started)
        self.process = started


class ReplaySocket(Socket):
    """A verified game's recording replayed; only the replay's own keys are sent."""

    keys = REPLAY_KEYS

    def open(self, game_id: str) -> None:
        text = self.state.store.recording(int(game_id)) if len(game_id) < 12 else None
        if text is None:
            return self.refused(live.Refusal("ended", "No such game."))
        viewer = self.current_user
        assert isinstance(viewer, str)
        started = self.state.live.replay(text, viewer, self.sink())
        if isinstance(started, live.Refusal):
            return self.refused(started)
        self.process = started


def application(state: State) -> tornado.web.Application:
    """The routes."""
    s = {"state": state}
    return tornado.web.Application(
        [
            (r"/", Front, s),
            (r"/favicon.ico", Icon, s),
            (r"/signup", SignUp, s),
            (r"/signin", SignIn, s),
            (r"/signout", SignOut, s),
            (r"/play", Play, {**s, "template": "play.html"}),
            (r"/read", Play, {**s, "template": "reader.html"}),
            (r"/play/socket", PlaySocket, s),
            (r"/read/socket", ReaderSocket, s),
            (r"/lobby", Lobby, s),
            (r"/watch/([a-z][a-z0-9_]{1,19})", Watch, s),
            (r"/watch/([a-z][a-z0-9_]{1,19})/socket", WatchSocket, s),
            (r"/scores", Scoreboard, s),
            (r"/scores/([0-9]{1,11})\.rec", Download, s),
            (r"/replay/([0-9]{1,11})", Replay, s),
            (r"/replay/([0-9]{1,11})/socket", ReplaySocket, s),
        ],
        static_path=str(HERE / "static"),
        xsrf_cookies=True,
        xsrf_cookie_kwargs={"httponly": True, "samesite": "Strict"},
        login_url="/",
        websocket_max_message_size=MAX_MESSAGE,
        websocket_ping_interval=10,
        websocket_ping_timeout=10,
        compiled_template_cache=True,
    )


def parse_args(argv: list[str] | None) -> Config:
    """The server's settings from its command line."""
    parser = argparse.ArgumentParser(
        prog="python -m web",
        description="Serve Tombs of the Ancient Kings in the browser (see docs/browser.md).",
    )
    parser.add_argument("--data-dir", type=Path, required=True, metavar="DIR",
                        help="the server's folder: its database and every player's data folder")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (127.0.0.1: this machine only)")
    parser.add_argument("--max-games", type=int, default=20, help="games played at once, at most")
    parser.add_argument("--max-watchers", type=int, default=40,
                        help="games watched or replayed at once, at most")
    parser.add_argument("--seed", type=int, default=None,
                        help="pass --seed N to every game (reproducible new games, for tests)")
    parser.add_argument("--memory-mb", type=int, default=1024,
                        help="each game's address space, at most (RLIMIT_AS)")
    parser.add_argument("--verify-seconds", type=float, default=60.0,
                        help="the time limit of each --verify (and the lobby's --headless)")
    parser.add_argument("--scan-seconds", type=float, default=5.0,
                        help="how often players' folders are looked at for finished games")
    parser.add_argument("--sign-ups", type=int, default=20,
                        help="sign-ups from one address every 10 minutes, at most")
    parser.add_argument("--secure-cookies", action="store_true",
                        help="mark cookies Secure (when served over HTTPS by a proxy)")
    args = parser.parse_args(argv)  # fmt: skip
    return Config(
        root=args.data_dir.resolve(),
        host=args.host,
        port=args.port,
        max_games=args.max_games,
        max_watchers=args.max_watchers,
        seed=args.seed,
        memory_bytes=args.memory_mb << 20,
        answer_seconds=args.verify_seconds,
        scan_seconds=args.scan_seconds,
        secure_cookies=args.secure_cookies,
        sign_ups=args.sign_ups,
    )


async def serve(config: Config) -> None:
    """Serve until SIGTERM or SIGINT; then hang up every game and wait for them to save."""
    state = State(config)
    state.scores.start()
    state.scan_all()
    server = tornado.httpserver.HTTPServer(
        application(state), max_body_size=MAX_BODY, max_buffer_size=MAX_BODY * 4, xheaders=False
    )
    server.listen(config.port, address=config.host)
    scanner = PeriodicCallback(state.live.scan_finished, config.scan_seconds * 1000)
    scanner.start()
    state.store.forget_expired(time.time())
    sweeper = PeriodicCallback(lambda: state.store.forget_expired(time.time()), 3600 * 1000)
    sweeper.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stop.set)
    print(f"Serving on http://{config.host}:{config.port}/ from {config.root}", flush=True)
    await stop.wait()
    server.stop()
    scanner.stop()
    sweeper.stop()
    state.live.hang_up_all()
    children.stop_all()
    for _ in range(200):  # What the hang-up's grace allows, and a little more.
        if state.live.running() == 0:
            break
        await asyncio.sleep(0.1)
    state.store.close()


def main(argv: list[str] | None = None) -> int:
    """`python -m web`."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    config = parse_args(argv)
    asyncio.run(serve(config))
    return 0
