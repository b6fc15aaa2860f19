"""The browser front end, `python -m web`: a real server on a free port with a temporary folder.

HTTP tests (urllib, tornado's websocket client) check sign-up and sign-in, XSRF, confinement,
caps, one game per player, the lobby and the scoreboard; browser tests (Selenium driving
Debian's chromium headless) play, close the tab and continue, watch, and use the screen
reader's page.  They skip only when tornado, or for the browser tests selenium, chromium or
chromedriver, is not installed (`pip install -r requirements-web.txt`; `apt-get install
chromium chromium-driver`).  Every game is started with `--seed 3`.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import http.cookiejar
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest
from loopback import free_port

tornado = pytest.importorskip("tornado", reason="the web requirements (requirements-web.txt)")

from tornado.httpclient import HTTPClientError, HTTPRequest  # noqa: E402
from tornado.websocket import WebSocketClientConnection, websocket_connect  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RECORDINGS = ROOT / "tests" / "recordings"
PASSWORD = "correct horse battery"
T = TypeVar("T")


def wait_for(what: Callable[[], T | None], seconds: float = 20.0, step: float = 0.1) -> T:
    """`what()` once it is truthy; fails after `seconds` (a bound, not a measure)."""
    end = time.monotonic() + seconds
    while True:
        value = what()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"still {value!r} after {seconds} s")
        time.sleep(step)


@dataclass
class Server:
    """A running `python -m web` and its folder."""

    url: str
    folder: Path
    process: subprocess.Popen[bytes]
    log: Path

    def player(self, name: str) -> Path:
        return self.folder / "players" / name


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    folder = Path(tempfile.mkdtemp(prefix="web-test-"))
    # A finished game already in a player's folder, the same one with its ending changed, and
    # the same one padded: the server verifies all three when it starts, and lists the true
    # one once.
    recordings = folder / "players" / "vera" / "recordings"
    recordings.mkdir(parents=True)
    shutil.copy(RECORDINGS / "death.rec", recordings / "game-1.rec")
    text = (RECORDINGS / "death.rec").read_text(encoding="utf-8")
    (recordings / "game-2.rec").write_text(text.replace("turns=17", "turns=99"), encoding="utf-8")
    (recordings / "game-3.rec").write_bytes(padded(text).encode("utf-8"))
    older = (recordings / "game-1.rec").stat().st_mtime - 60  # Verified after the true one.
    os.utime(recordings / "game-3.rec", (older, older))
    port = free_port()
    log = folder / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "web", "--port", str(port), "--data-dir", str(folder),
             "--seed", "3", "--scan-seconds", "1", "--max-games", "4", "--sign-ups", "40",
             "--idle-seconds", "1", "--allowed-host", "games.example",
             "--games-per-address", "20"],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    served = Server(url, folder, process, log)
    try:
        wait_for(lambda: _answers(url), 20)
        yield served
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(40)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        left = programs_in(folder)
        server_log = log.read_text(errors="replace")
        shutil.rmtree(folder, ignore_errors=True)
    assert process.returncode == 0, server_log
    assert not left, f"still running after the server stopped: {left}"
    assert_no_traceback(server_log)


def padded(text: str) -> str:
    """A recording's game padded as the red team did: comments, blank lines, spaces, CRLF, and
    a false claim of a deeper death among its lines (a comment to a replay)."""
    lines = text.splitlines()
    false_claim = "# ending depth=9 level=5 xp=900 turns=17 cause=Killed by an Orc"
    body = [f"  {line}  " for line in lines[2:-1]]
    return "\r\n".join([*lines[:2], "", "# padding", *body, false_claim, "", lines[-1], ""])


TRACEBACK = "Traceback (most recent call last)"


def assert_no_traceback(server_log: str) -> None:
    """Fails if the server's log holds a Python traceback: tornado logs an exception in a
    handler or a callback and goes on serving, so no answer the tests read shows it."""
    assert TRACEBACK not in server_log, server_log


def programs_in(folder: Path) -> list[str]:
    """The command lines of the processes still running that name `folder` (games, watchers)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                if str(folder) in command:
                    found.append(command)
    return found


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/", timeout=2):
            return True
    except OSError:
        return False


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


@dataclass
class Response:
    status: int
    body: str
    headers: dict[str, list[str]]


class Client:
    """A browser as far as cookies go: urllib with a cookie jar, redirects not followed."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirect()
        )

    def request(self, path: str, data: bytes | None = None) -> Response:
        try:
            with self.opener.open(self.server.url + path, data, timeout=20) as answer:
                return Response(answer.status, answer.read().decode(), _headers(answer.headers))
        except urllib.error.HTTPError as error:
            body = error.read().decode(errors="replace")
            return Response(error.code, body, _headers(error.headers))

    def xsrf(self) -> str:
        page = self.request("/").body
        found = re.search(r'name="_xsrf" value="([^"]+)"', page)
        assert found, page
        return found.group(1)

    def post(self, path: str, fields: dict[str, str], xsrf: bool = True) -> Response:
        if xsrf:
            fields = {"_xsrf": self.xsrf(), **fields}
        return self.request(path, urllib.parse.urlencode(fields).encode())

    def sign_up(self, name: str, password: str = PASSWORD) -> Response:
        return self.post("/signup", {"name": name, "password": password})

    def sign_in(self, name: str, password: str = PASSWORD) -> Response:
        return self.post("/signin", {"name": name, "password": password})

    def cookie(self) -> str:
        return "; ".join(f"{cookie.name}={cookie.value}" for cookie in self.jar)


def _headers(message: Any) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for name, value in message.items():
        found.setdefault(name.lower(), []).append(value)
    return found


@pytest.fixture(scope="module")
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    """One event loop for every websocket of the module (a connection belongs to its loop)."""
    running = asyncio.new_event_loop()
    yield running
    running.run_until_complete(asyncio.sleep(0.1))  # Let closed sockets finish closing.
    running.close()


@dataclass
class Socket:
    """A websocket and the messages it got ("<closed>" marks its close); `seen`: those read."""

    connection: WebSocketClientConnection
    messages: list[str | bytes]
    seen: int = 0


def socket_to(
    loop: asyncio.AbstractEventLoop, client: Client, path: str, origin: str | None = None
) -> Socket:
    """A websocket to `path` with the client's cookies, as the page opens it."""
    url = client.server.url.replace("http://", "ws://") + path
    headers = {"Cookie": client.cookie(), "Origin": origin or client.server.url}
    messages: list[str | bytes] = []

    def got(message: str | bytes | None) -> None:
        messages.append("<closed>" if message is None else message)

    request = HTTPRequest(url, headers=headers)
    connection = loop.run_until_complete(_connect(request, got))
    return Socket(connection, messages)


async def _connect(
    request: HTTPRequest, got: Callable[[str | bytes | None], None] | None = None
) -> WebSocketClientConnection:
    return await websocket_connect(request, on_message_callback=got)


def send(loop: asyncio.AbstractEventLoop, socket_: Socket, text: str) -> None:
    async def sending() -> None:
        await socket_.connection.write_message(text)

    loop.run_until_complete(sending())


def close(loop: asyncio.AbstractEventLoop, socket_: Socket) -> None:
    async def closing() -> None:
        socket_.connection.close()
        await asyncio.sleep(0.2)

    loop.run_until_complete(closing())


def read_until(
    loop: asyncio.AbstractEventLoop,
    socket_: Socket,
    done: Callable[[list[str | bytes]], bool],
    seconds: float = 20,
) -> list[str | bytes]:
    """The messages new since the last read, once `done` says so of them, or the socket closes."""

    async def waiting() -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            new = socket_.messages[socket_.seen :]
            if done(new) or "<closed>" in new:
                return
            await asyncio.sleep(0.05)

    loop.run_until_complete(waiting())
    new = socket_.messages[socket_.seen :]
    socket_.seen = len(socket_.messages)
    return new


def text_of(messages: list[str | bytes]) -> str:
    return "".join(m.decode("utf-8", "replace") if isinstance(m, bytes) else m for m in messages)


def signed_up(server: Server, name: str) -> Client:
    client = Client(server)
    answer = client.sign_up(name)
    assert answer.status == 302, answer.body
    return client


# The parts, in this process.


def test_the_screen_readers_lines_are_plain_text() -> None:
    from web.lines import LineSplitter

    splitter = LineSplitter()
    assert splitter.feed(b"\x1b=\r\nTombs\r\n[N] Play a new game\r\nPress ? for help.\r") == [
        "Tombs",
        "[N] Play a new game",
        "Press ? for help.",
    ]
    # Colours, a title, a bell and other controls go; a character cut between reads is whole.
    said = "\r\n\x1b[31mOrc\x1b[0m attacks\x07 \x1b]0;title\x07you \u00e9\r".encode()
    cut = said.index("\u00e9".encode()) + 1
    assert splitter.feed(said[:cut]) == []
    assert splitter.feed(said[cut:]) == ["Orc attacks you \u00e9"]
    assert splitter.feed(b"\r\n<b>&amp;</b>\r") == ["<b>&amp;</b>"]  # Text: the page escapes it.


def test_a_one_shot_run_has_its_address_space_capped_and_no_core_file(
    tmp_path: Path, loop: asyncio.AbstractEventLoop
) -> None:
    """`--verify` runs a recording anyone sent: its process gets the memory cap and no core
    file, as a stand-in for the game run by the same function tells from its own limits."""
    from web import children

    stand_in = tmp_path / "limits.py"
    stand_in.write_text(
        "import resource\n"
        "print(*resource.getrlimit(resource.RLIMIT_AS), *resource.getrlimit(resource.RLIMIT_CORE))\n"
    )
    limits = children.Limits(memory_bytes=3 << 30, answer_seconds=60)
    # The module's loop, not asyncio.run's, which leaves the thread with no current loop.
    answered = loop.run_until_complete(
        children.answer(["--verify", "x.rec"], tmp_path, limits, main=stand_in)
    )
    assert answered.status == 0, answered.output
    assert answered.output.split() == [str(3 << 30), str(3 << 30), "0", "0"]


def test_a_rate_bucket_lets_a_burst_through_then_its_rate() -> None:
    from web.limits import Bucket

    now = [0.0]
    bucket = Bucket(rate=100, burst=300, clock=lambda: now[0])
    assert bucket.take(300)
    assert not bucket.take(1)
    now[0] = 0.5
    assert bucket.take(50) and not bucket.take(1)
    now[0] = 100.0
    assert bucket.take(300) and not bucket.take(1)  # Never more than the burst.


def test_a_games_identity_is_the_game_not_its_file() -> None:
    from web.scores import identity_of

    text = (RECORDINGS / "death.rec").read_text(encoding="utf-8")
    assert identity_of(padded(text)) == identity_of(text)
    assert identity_of(text.replace("seed 1", "seed 2")) != identity_of(text)
    assert identity_of(text.replace("text .\n", "text .\ntext .\n", 1)) != identity_of(text)


def test_a_players_folder_comes_from_a_checked_name_and_stays_inside(tmp_path: Path) -> None:
    from web import accounts

    assert accounts.player_folder(tmp_path, "Ada") == (tmp_path / "players" / "ada").resolve()
    for name in ("..", "../x", "ada/..", "a", "ada\x00", "x" * 21, "ada.", " "):
        with pytest.raises(accounts.BadName):
            accounts.player_folder(tmp_path, name)
    outside = tmp_path / "outside"
    outside.mkdir()
    (tmp_path / "players" / "linked").symlink_to(outside)
    with pytest.raises(accounts.BadName):
        accounts.player_folder(tmp_path, "linked")


# Sign-up, sign-in and sessions.


def test_signing_up_gives_a_random_http_only_strict_session_cookie(server: Server) -> None:
    client = Client(server)
    answer = client.sign_up("Ada")
    assert answer.status == 302
    cookies = [c for c in answer.headers["set-cookie"] if c.startswith("tombs_session=")]
    assert len(cookies) == 1
    assert "HttpOnly" in cookies[0] and "SameSite=Strict" in cookies[0]
    token = cookies[0].split(";")[0].split("=", 1)[1]
    assert len(token) >= 43  # 256 random bits, URL-safe base64.
    assert 'id="signed-in">ada<' in client.request("/").body  # Names are kept in lower case.
    assert server.player("ada").is_dir()
    # The database keeps no password and no token as they were typed or sent.
    database = (server.folder / "web.sqlite3").read_bytes()
    assert PASSWORD.encode() not in database and token.encode() not in database


def test_a_form_posted_without_its_xsrf_token_is_refused(server: Server) -> None:
    client = Client(server)
    client.xsrf()  # The cookie is set: only the form's field is missing.
    answer = client.post("/signup", {"name": "mallory", "password": PASSWORD}, xsrf=False)
    assert answer.status == 403
    forged = client.post("/signup", {"name": "mallory", "password": PASSWORD, "_xsrf": "2|0|0|0"}, xsrf=False)
    assert forged.status == 403
    assert not server.player("mallory").exists()


@pytest.mark.parametrize(
    "name", ["../evil", "a", "x" * 21, "9lives", "ad a", "ad/a", "ad\x00a", "élodie", ".hidden", ""]
)
def test_a_name_that_is_no_players_name_is_refused_and_makes_no_folder(
    server: Server, name: str
) -> None:
    answer = Client(server).sign_up(name)
    assert answer.status == 400
    made = sorted(path.name for path in (server.folder / "players").iterdir())
    assert all(re.fullmatch(r"[a-z][a-z0-9_]{1,19}", made_name) for made_name in made), made
    assert not (server.folder / "evil").exists()


def test_short_passwords_and_taken_names_are_refused(server: Server) -> None:
    assert Client(server).sign_up("shorty", "1234567").status == 400
    signed_up(server, "taken")
    assert Client(server).sign_up("TAKEN").status == 409


def test_a_password_is_kept_exactly_as_typed_spaces_and_all(server: Server) -> None:
    """Ten characters, two spaces at each end: long enough, and the spaces are part of it."""
    padded = "  padded  "
    assert Client(server).sign_up("padder", padded).status == 302
    assert Client(server).sign_in("padder", "padded").status == 403
    assert Client(server).sign_in("padder", padded).status == 302


def test_sign_in_takes_the_right_password_only_and_caps_failures(server: Server) -> None:
    signed_up(server, "grace")
    client = Client(server)
    for _ in range(10):
        assert client.sign_in("grace", "wrong password").status == 403
    assert client.sign_in("grace").status == 429  # Ten failures: refused for a while.
    assert Client(server).sign_in("nobody_here").status == 403
    other = signed_up(server, "hopper")
    other.jar.clear()
    assert other.sign_in("hopper").status == 302
    assert 'id="signed-in">hopper<' in other.request("/").body


def test_signing_out_ends_the_session(server: Server) -> None:
    client = signed_up(server, "leaver")
    stolen = client.cookie()
    assert client.post("/signout", {}).status == 302
    again = Client(server)
    again.opener.addheaders = [("Cookie", stolen)]
    assert again.request("/play").status == 302  # To the front page: the session is gone.


@pytest.mark.parametrize(
    "path", ["/play", "/terminal", "/read", "/watch/ada", "/replay/1"]
)
def test_every_page_that_runs_a_program_needs_a_session(server: Server, path: str) -> None:
    answer = Client(server).request(path)
    assert answer.status == 302
    assert answer.headers["location"][0].startswith("/?next=")


@pytest.mark.parametrize(
    "path",
    ["/play/socket", "/terminal/socket", "/read/socket", "/watch/ada/socket", "/replay/1/socket",
     "/chat/ada/socket"],
)
def test_every_socket_needs_a_session(
    server: Server, loop: asyncio.AbstractEventLoop, path: str
) -> None:
    with pytest.raises(HTTPClientError) as refused:
        socket_to(loop, Client(server), path)
    assert refused.value.code == 403


def test_a_socket_from_another_site_is_refused(
    server: Server, loop: asyncio.AbstractEventLoop
) -> None:
    client = signed_up(server, "origin")
    with pytest.raises(HTTPClientError) as refused:
        socket_to(loop, client, "/terminal/socket", origin="http://evil.example")
    assert refused.value.code == 403


@pytest.mark.parametrize("path", ["/watch/nobody/socket", "/replay/99999/socket"])
def test_a_refused_socket_is_told_why_and_closes_with_nothing_in_the_log(
    server: Server, loop: asyncio.AbstractEventLoop, path: str
) -> None:
    """A watch of no game, a replay of no game: refused by the socket's `open`, which leaves
    what the socket would hold unset; its close must find nothing to let go of."""
    refused = socket_to(loop, signed_up(server, "refused" + path.split("/")[1]), path)
    assert "ended" in statuses_of(read_until(loop, refused, lambda got: "<closed>" in got))
    close(loop, refused)
    assert_no_traceback(server.log.read_text(errors="replace"))


# What the server serves, and to whom.


def test_public_pages_are_read_only_and_trust_no_other_host(server: Server) -> None:
    for path in ("/", "/lobby", "/scores"):
        answer = Client(server).request(path)
        assert answer.status == 200
        policy = answer.headers["content-security-policy"][0]
        assert "script-src 'self'" in policy and "default-src 'none'" in policy
        # No page names another host for anything it loads.
        assert not re.search(r'(src|href)="(https?:)?//', answer.body), path


SECURITY_HEADERS = ("content-security-policy", "x-frame-options", "x-content-type-options", "referrer-policy")
UPGRADE = {
    "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
    "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
}  # fmt: skip


def raw_get(server: Server, path: str, host: str | None = None, **headers: str) -> Response:
    """A GET by http.client, with the Host (and other headers) as given."""
    port = int(server.url.rsplit(":", 1)[1])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        connection.request("GET", path, headers={"Host": host or f"127.0.0.1:{port}", **headers})
        answer = connection.getresponse()
        return Response(answer.status, answer.read().decode(errors="replace"), _headers(answer.headers))
    finally:
        connection.close()


def assert_secured(answer: Response) -> None:
    for name in SECURITY_HEADERS:
        assert name in answer.headers, (answer.status, name, answer.headers)
    assert answer.headers["x-frame-options"] == ["DENY"]
    assert answer.headers["x-content-type-options"] == ["nosniff"]
    assert "default-src 'none'" in answer.headers["content-security-policy"][0]


@pytest.mark.parametrize(
    "path, status",
    [
        ("/static/site.css", 200), ("/static/nothing.js", 404), ("/no/such/page", 404),
        ("/favicon.ico", 200), ("/tiles/10.png", 200), ("/scores/99999.rec", 404),
        ("/signout", 405), ("/play", 302),
    ],
)  # fmt: skip
def test_every_answer_carries_the_security_headers(server: Server, path: str, status: int) -> None:
    answer = raw_get(server, path)
    assert answer.status == status, answer
    assert_secured(answer)


@pytest.mark.parametrize("path", ["/play/socket", "/lobby/socket"])
def test_a_sockets_refusal_carries_the_security_headers(server: Server, path: str) -> None:
    """No session (the player's socket), or another site's page (the public lobby's)."""
    answer = raw_get(server, path, Origin="http://evil.example", **UPGRADE)
    assert answer.status == 403, answer
    assert_secured(answer)


@pytest.mark.parametrize("path", ["/", "/static/site.css", "/favicon.ico", "/no/such/page"])
def test_a_request_for_another_host_is_refused(server: Server, path: str) -> None:
    """A DNS-rebinding page: its name points at the server, its requests name its host."""
    port = server.url.rsplit(":", 1)[1]
    answer = raw_get(server, path, f"evil.example:{port}")
    assert answer.status == 421, answer
    assert_secured(answer)
    for host in (f"games.example:{port}", f"LocalHost:{port}", "127.0.0.1"):
        assert raw_get(server, "/", host).status == 200, host


def test_a_socket_for_another_host_is_refused_even_from_its_own_origin(
    server: Server, loop: asyncio.AbstractEventLoop
) -> None:
    client = signed_up(server, "rebound")
    port = server.url.rsplit(":", 1)[1]
    for path in ("/terminal/socket", "/lobby/socket"):
        url = f"ws://127.0.0.1:{port}{path}"
        forged = {"Cookie": client.cookie(), "Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}
        with pytest.raises(HTTPClientError) as refused:
            loop.run_until_complete(_connect(HTTPRequest(url, headers=forged)))
        assert refused.value.code == 421
        # Another site's page, to the right host: refused by the origin.
        crossed = {**forged, "Host": f"127.0.0.1:{port}"}
        with pytest.raises(HTTPClientError) as refused:
            loop.run_until_complete(_connect(HTTPRequest(url, headers=crossed)))
        assert refused.value.code == 403
    # A host the server was told it is (--allowed-host), from its own pages: the lobby's socket opens.
    named = {"Host": f"games.example:{port}", "Origin": f"http://games.example:{port}"}
    messages: list[str | bytes] = []

    def got(message: str | bytes | None) -> None:
        messages.append("<closed>" if message is None else message)

    request = HTTPRequest(f"ws://127.0.0.1:{port}/lobby/socket", headers=named)
    lobby = Socket(loop.run_until_complete(_connect(request, got)), messages)
    assert any(isinstance(m, str) and '"games"' in m for m in read_until(loop, lobby, bool))
    close(loop, lobby)


def test_the_page_scripts_are_served_from_the_repository(server: Server) -> None:
    client = signed_up(server, "scripts")
    page = client.request("/terminal").body
    sources = re.findall(r'<script src="([^"]+)"', page)
    assert any("vendor/xterm/xterm.js" in source for source in sources)
    for source in sources:
        assert source.startswith("/static/")
        assert client.request(source).status == 200
    licence = (ROOT / "web" / "static" / "vendor" / "xterm" / "LICENSE").read_text()
    assert "xterm.js authors" in licence and "Permission is hereby granted" in licence  # MIT.


@pytest.mark.parametrize(
    "path",
    [
        "/scores/..%2F..%2Fweb.sqlite3",
        "/scores/abc.rec",
        "/scores/99999.rec",
        "/static/..%2F..%2Fweb.sqlite3",
        "/static/../server.py",
        "/watch/..%2Fada",
        "/players/vera/recordings/game-1.rec",
        "/web.sqlite3",
    ],
)
def test_no_path_from_the_browser_reaches_a_file(server: Server, path: str) -> None:
    answer = Client(server).request(path)
    assert answer.status in (403, 404), (path, answer.status)
    assert "recording 4" not in answer.body and "SQLite" not in answer.body


def test_a_body_over_the_cap_is_refused(server: Server) -> None:
    client = Client(server)
    fields = {"_xsrf": client.xsrf(), "name": "big", "password": "x" * (64 << 10)}
    with contextlib.suppress(ConnectionError, urllib.error.URLError):
        answer = client.request("/signup", urllib.parse.urlencode(fields).encode())
        assert answer.status in (400, 413)
    assert not server.player("big").exists()


def test_the_scoreboard_lists_only_verified_games_and_serves_them_by_id(server: Server) -> None:
    client = Client(server)

    def listed() -> str | None:
        page = client.request("/scores").body
        return page if "Killed by an Orc" in page else None

    wait_for(lambda: server.log.read_text().count("vera's game ") >= 3, 120)  # All verified.
    page = wait_for(listed, 60)
    rows = re.findall(r"<tr><td>vera</td>.*?</tr>", page, re.S)
    # The game whose claim was changed to 99 turns is not listed; its padded copy is the same game.
    assert len(rows) == 1, rows
    assert "<td>17</td>" in rows[0] and "<td>no</td>" in rows[0]
    game_id = re.search(r'href="/scores/(\d+)\.rec"', rows[0])
    assert game_id
    download = client.request(f"/scores/{game_id.group(1)}.rec")
    assert download.status == 200
    assert download.body == (RECORDINGS / "death.rec").read_text(encoding="utf-8")
    assert "attachment" in download.headers["content-disposition"][0]


# Games.


def test_a_second_page_takes_the_game_over_and_a_closed_page_saves_it(
    server: Server, loop: asyncio.AbstractEventLoop
) -> None:
    client = signed_up(server, "solo")
    first = socket_to(loop, client, "/terminal/socket")
    shown = read_until(loop, first, lambda got: "Play a new game" in _plain(got) or "<closed>" in got)
    assert "<closed>" not in shown
    send(loop, first, "n")
    read_until(loop, first, lambda got: "HP:" in _plain(got))
    second = socket_to(loop, client, "/terminal/socket")  # The same game, drawn again whole.
    assert "HP:" in _plain(read_until(loop, second, lambda got: "HP:" in _plain(got)))
    told = read_until(loop, first, lambda got: "<closed>" in got)
    assert "taken over" in statuses_of(told) and "<closed>" in told
    send(loop, second, "j")
    wait_for(lambda: "key j" in "".join(p.read_text() for p in (server.player("solo") / "recordings").glob("*.rec")))
    close(loop, first)
    close(loop, second)  # As a closed tab: after --idle-seconds the game is hung up and saves.
    save = server.player("solo") / "savegame.sav"
    wait_for(lambda: save.exists() and not lobby_lists(server, "solo"), 20)
    # Signing in again continues: the menu offers it.
    again = socket_to(loop, client, "/terminal/socket")
    shown = read_until(loop, again, lambda got: "Continue" in _plain(got) or "<closed>" in got)
    assert "Continue" in _plain(shown)
    close(loop, again)


def test_a_page_of_another_kind_is_told_the_game_is_open_elsewhere(
    server: Server, loop: asyncio.AbstractEventLoop
) -> None:
    client = signed_up(server, "twokinds")
    terminal = socket_to(loop, client, "/terminal/socket")
    read_until(loop, terminal, lambda got: "Play a new game" in _plain(got))
    reader = socket_to(loop, client, "/read/socket")
    assert "elsewhere" in statuses_of(read_until(loop, reader, lambda got: "<closed>" in got))
    close(loop, reader)
    close(loop, terminal)


def test_a_connection_lost_without_a_goodbye_saves_the_game(server: Server) -> None:
    client = signed_up(server, "dropped")
    port = int(server.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=20) as raw:
        raw.sendall(
            (
                "GET /terminal/socket HTTP/1.1\r\n"
                f"Host: 127.0.0.1:{port}\r\nOrigin: {server.url}\r\nCookie: {client.cookie()}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        received = b""
        while "Play a new game" not in _plain([received]):
            received += raw.recv(65536)
        assert received.startswith(b"HTTP/1.1 101")
        # A masked text frame holding "n": a new game, then the line cut with no close frame.
        mask = b"\x01\x02\x03\x04"
        raw.sendall(b"\x81\x81" + mask + bytes([ord("n") ^ mask[0]]))
        wait_for(lambda: list((server.player("dropped") / "recordings").glob("*.rec")))
    wait_for(lambda: (server.player("dropped") / "savegame.sav").exists(), 20)
    wait_for(lambda: not lobby_lists(server, "dropped"), 20)


def test_a_message_too_big_closes_the_socket(server: Server, loop: asyncio.AbstractEventLoop) -> None:
    client = signed_up(server, "paster")
    connection = socket_to(loop, client, "/terminal/socket")
    read_until(loop, connection, lambda got: "Play a new game" in _plain(got))
    send(loop, connection, "x" * 5000)
    assert "<closed>" in read_until(loop, connection, lambda got: "<closed>" in got)
    close(loop, connection)


def test_the_lobby_lists_a_game_in_play(server: Server, loop: asyncio.AbstractEventLoop) -> None:
    client = signed_up(server, "lobbyist")
    connection = socket_to(loop, client, "/terminal/socket")
    read_until(loop, connection, lambda got: "Play a new game" in _plain(got))
    send(loop, connection, "n")
    read_until(loop, connection, lambda got: "HP:" in _plain(got))
    send(loop, connection, "j")
    # Level 1 and depth 1, from the game's own STATUS (`--frames-fd`).

    def listed() -> str | None:
        page = Client(server).request("/lobby").body
        row = re.search(r"<tr><td>lobbyist</td><td>terminal</td><td>1</td><td>1</td>", page)
        return page if row else None

    assert "sign in to watch" in wait_for(listed, 30)
    close(loop, connection)
    wait_for(lambda: "lobbyist" not in Client(server).request("/lobby").body, 20)


def statuses_of(messages: list[str | bytes]) -> list[str]:
    return [json.loads(m)["status"] for m in messages if isinstance(m, str) and m.startswith("{")]


def test_games_at_once_are_capped(server: Server, loop: asyncio.AbstractEventLoop) -> None:
    # The server runs 4 at most (--max-games 4); games of earlier tests may still be ending.
    opened: list[Socket] = []
    refused = None
    for number in range(5):
        connection = socket_to(loop, signed_up(server, f"crowd{number}"), "/terminal/socket")
        got = read_until(loop, connection, lambda got: "Play a new game" in _plain(got))
        if "full" in statuses_of(got):
            refused = number
            close(loop, connection)
            break
        opened.append(connection)
    for connection in opened:
        close(loop, connection)
    assert refused is not None and refused <= 4


def test_a_player_replays_three_games_at_once_at_most(
    server: Server, loop: asyncio.AbstractEventLoop
) -> None:
    client = signed_up(server, "binge")
    page = holding("Killed by an Orc", lambda: client.request("/scores").body, 60)
    found = re.search(r'href="/replay/(\d+)"', page)
    assert found
    opened = []
    for _ in range(3):
        opened.append(socket_to(loop, client, f"/replay/{found.group(1)}/socket"))
        assert "HP:" in _plain(read_until(loop, opened[-1], lambda got: "HP:" in _plain(got)))
    fourth = socket_to(loop, client, f"/replay/{found.group(1)}/socket")
    assert "full" in statuses_of(read_until(loop, fourth, lambda got: "<closed>" in got))
    for connection in [*opened, fourth]:
        close(loop, connection)


def test_a_watcher_is_told_when_the_game_it_watches_ends(
    server: Server, loop: asyncio.AbstractEventLoop
) -> None:
    player = signed_up(server, "watched")
    game = socket_to(loop, player, "/terminal/socket")
    read_until(loop, game, lambda got: "Play a new game" in _plain(got))
    send(loop, game, "n")
    read_until(loop, game, lambda got: "HP:" in _plain(got))
    watcher = socket_to(loop, signed_up(server, "watcher"), "/watch/watched/socket")
    # The game's frames, a whole one first.
    shown = read_until(loop, watcher, lambda got: any(isinstance(m, bytes) for m in got))
    assert next(m for m in shown if isinstance(m, bytes))[:1] == b"F"
    send(loop, watcher, "j")  # Never reaches the game.
    close(loop, game)  # After --idle-seconds (1) the game is hung up, saves and ends.
    ended = read_until(loop, watcher, lambda got: "<closed>" in got, 40)
    said = [json.loads(m) for m in ended if isinstance(m, str) and m.startswith("{")]
    assert {"status": "ended", "player": "watched", "message": "watched's game has ended."} in said
    assert "<closed>" in ended
    close(loop, watcher)
    recordings = (server.player("watched") / "recordings").glob("*.rec")
    assert not any("key j" in path.read_text() for path in recordings)


def _plain(messages: list[str | bytes]) -> str:
    """What a terminal's bytes say, escape sequences taken out."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b.", "", text_of(messages))


# Real browsers: Debian's chromium, headless, driven by Selenium.

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
# Set to a folder to keep the pages' screenshots (WEB_SCREENSHOTS=/tmp).
SHOTS = os.environ.get("WEB_SCREENSHOTS")
ROWS_JS = (
    "const b = window.term.buffer.active; const rows = [];"
    "for (let i = 0; i < b.length; i++) { rows.push(b.getLine(i).translateToString(true)); }"
    "return rows;"
)


@pytest.fixture(scope="module")
def browsers() -> Iterator[Callable[[], Any]]:
    """A maker of fresh headless Chromiums, each with a profile of its own; all quit at the end."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium (requirements-web.txt)")
    from selenium.webdriver.chrome.service import Service

    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        pytest.skip("no chromium and chromedriver (apt-get install chromium chromium-driver)")
    made: list[Any] = []
    profiles: list[str] = []

    def make() -> Any:
        profile = tempfile.mkdtemp(prefix="web-test-chromium-")
        profiles.append(profile)
        options = webdriver.ChromeOptions()
        options.binary_location = str(CHROMIUM)
        for argument in (
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run",
            "--window-size=1280,1000", f"--user-data-dir={profile}",
        ):  # fmt: skip
            options.add_argument(argument)
        driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
        made.append(driver)
        return driver

    yield make
    for driver in made:
        driver.quit()
    for profile in profiles:
        shutil.rmtree(profile, ignore_errors=True)


def shot(driver: Any, name: str) -> None:
    if SHOTS:
        driver.save_screenshot(str(Path(SHOTS) / f"web-{name}.png"))


def by(kind: str) -> Any:
    from selenium.webdriver.common.by import By

    return getattr(By, kind)


def sign_up_in_page(driver: Any, server: Server, name: str) -> None:
    driver.get(server.url + "/")
    shot(driver, "front")
    form = driver.find_element(by("ID"), "signup")
    form.find_element(by("NAME"), "name").send_keys(name)
    form.find_element(by("NAME"), "password").send_keys(PASSWORD)
    form.find_element(by("CSS_SELECTOR"), "button").click()
    assert wait_for(lambda: signed_in_as(driver)) == name


def signed_in_as(driver: Any) -> str | None:
    """The name the page says is signed in, once the page after a form has loaded."""
    from selenium.common.exceptions import WebDriverException

    try:
        element = found(driver, "ID", "signed-in")
        return None if element is None else str(element.text)
    except WebDriverException:  # The page went away as it was read: the next one is coming.
        return None


def found(driver: Any, kind: str, value: str) -> Any:
    """The page's element, or None while the page that holds it is still to load."""
    elements = driver.find_elements(by(kind), value)
    return elements[0] if elements else None


def sign_in_in_page(driver: Any, server: Server, name: str) -> None:
    driver.get(server.url + "/")
    form = driver.find_element(by("ID"), "signin")
    form.find_element(by("NAME"), "name").send_keys(name)
    form.find_element(by("NAME"), "password").send_keys(PASSWORD)
    form.find_element(by("CSS_SELECTOR"), "button").click()
    assert wait_for(lambda: signed_in_as(driver)) == name


def screen_of(driver: Any) -> str:
    """The xterm's 50 rows, as text."""
    rows: list[str] = driver.execute_script(ROWS_JS)
    return "\n".join(rows)


def holding(text: str, get: Callable[[], str], seconds: float = 20) -> str:
    """What `get()` gives once it holds `text`."""

    def got() -> str | None:
        value = get()
        return value if text in value else None

    return wait_for(got, seconds)


def wait_on_screen(driver: Any, text: str, seconds: float = 20) -> str:
    return holding(text, lambda: screen_of(driver), seconds)


def type_keys(driver: Any, keys: str) -> None:
    driver.find_element(by("CSS_SELECTOR"), ".xterm-helper-textarea").send_keys(keys)


def lobby_lists(server: Server, name: str) -> bool:
    return f"<td>{name}</td>" in Client(server).request("/lobby").body


def test_a_browser_plays_in_the_terminal_page_a_second_tab_takes_over_and_continues(
    server: Server, browsers: Callable[[], Any]
) -> None:
    driver = browsers()
    sign_up_in_page(driver, server, "elena")
    driver.get(server.url + "/terminal")
    wait_on_screen(driver, "Play a new game")
    rows = driver.execute_script(ROWS_JS)  # Counted as rows: text would drop a blank last row.
    assert len(rows) == 50 and len(rows[0]) <= 80
    type_keys(driver, "n")
    screen = wait_on_screen(driver, "HP: 30/30")
    assert "@" in screen and "Dungeon level: 1" in screen
    type_keys(driver, "ll")
    shot(driver, "play")
    played = driver.current_window_handle
    driver.switch_to.new_window("tab")
    other = driver.current_window_handle
    driver.get(server.url + "/terminal")  # A second tab takes the game over, drawn whole.
    assert "@" in wait_on_screen(driver, "HP: 30/30")
    driver.switch_to.window(played)
    status = driver.find_element(by("ID"), "status")
    wait_for(lambda: status.get_attribute("data-status") == "taken over")
    assert "another page" in status.text
    shot(driver, "taken-over")
    driver.close()
    driver.switch_to.window(other)
    driver.get(server.url + "/")  # The game's last page closes: hung up after --idle-seconds.
    save = server.player("elena") / "savegame.sav"
    wait_for(lambda: save.exists() and not lobby_lists(server, "elena"), 30)
    driver.find_element(by("CSS_SELECTOR"), "form[action='/signout'] button").click()
    wait_for(lambda: found(driver, "ID", "signin"))  # Signed out: the front page's forms.
    sign_in_in_page(driver, server, "elena")
    driver.get(server.url + "/terminal")
    wait_on_screen(driver, "Continue")
    type_keys(driver, "c")
    screen = wait_on_screen(driver, "HP: 30/30")
    assert "@" in screen
    shot(driver, "continue")


def test_a_second_browser_watches_a_game_and_types_nothing_into_it(
    server: Server, browsers: Callable[[], Any]
) -> None:
    player, watcher = browsers(), browsers()
    sign_up_in_page(player, server, "fiona")
    player.get(server.url + "/terminal")
    wait_on_screen(player, "Play a new game")
    type_keys(player, "n")
    wait_on_screen(player, "HP: 30/30")
    sign_up_in_page(watcher, server, "gus")
    wait_for(lambda: lobby_lists(server, "fiona"), 20)
    watcher.get(server.url + "/lobby")
    watcher.find_element(by("CSS_SELECTOR"), "a[href='/watch/fiona']").click()
    size = "const f = window.game && window.game.frame; return f ? [f.columns, f.rows] : null;"
    assert wait_for(lambda: watcher.execute_script(size)) == [80, 50]
    watcher.find_element(by("TAG_NAME"), "body").send_keys("kkk")  # Sent nowhere.
    type_keys(player, "j")
    recordings = server.player("fiona") / "recordings"
    text = holding("key j", lambda: "".join(p.read_text() for p in recordings.glob("*.rec")))
    assert "key k" not in text
    shot(watcher, "watch")


def test_the_screen_reader_page_reads_lines_and_sends_keys(
    server: Server, browsers: Callable[[], Any]
) -> None:
    driver = browsers()
    sign_up_in_page(driver, server, "hana")
    driver.find_element(by("ID"), "read").click()
    region = wait_for(lambda: found(driver, "ID", "lines"))
    assert region.get_attribute("aria-live") == "polite"
    wait_for(lambda: "N, Play a new game" in region.text)
    keys = driver.find_element(by("ID"), "keys")
    keys.send_keys("n")
    wait_for(lambda: "Hello and welcome" in region.text)
    keys.send_keys(";")  # What is in view.
    count = len(region.find_elements(by("TAG_NAME"), "p"))
    keys.send_keys("@")  # How am I: HP, level, gear.
    wait_for(lambda: len(region.find_elements(by("TAG_NAME"), "p")) > count and "HP" in region.text)
    # Text only: no element but the lines' paragraphs, no escape sequence.
    assert driver.execute_script("return document.querySelectorAll('#lines *:not(p)').length") == 0
    assert "\x1b" not in region.text
    shot(driver, "reader")


def test_the_scoreboard_page_replays_a_verified_game(
    server: Server, browsers: Callable[[], Any]
) -> None:
    driver = browsers()
    sign_up_in_page(driver, server, "ivan")
    driver.get(server.url + "/scores")
    wait_for(lambda: driver.get(server.url + "/scores") or "Killed by an Orc" in driver.page_source, 60)
    shot(driver, "scores")
    driver.find_element(by("PARTIAL_LINK_TEXT"), "replay").click()
    shown = wait_on_screen(driver, "HP:", 20)
    assert "Space: pause, +/-: speed" in shown and "Esc" not in shown  # The page's keys only.
    wait_on_screen(driver, "You died", 30)
    shot(driver, "replay")
