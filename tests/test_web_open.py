"""The server open to the internet (issue 55's red team): half-sent requests by the hundred with
a low file limit, games that hold their slots with no one playing, and one address with many
accounts.

Each test starts the real `python -m web` on a free loopback port with a temporary folder and the
stand-in game of `test_web_stream`; the slow-request tests set the server's file limit in the
child (RLIMIT_NOFILE) before it starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

pytest.importorskip("tornado", reason="the web requirements (requirements-web.txt)")

from loopback import free_port
from test_web import (
    ROOT,
    Client,
    Server,
    Socket,
    _answers,
    _connect,
    assert_no_traceback,
    close,
    programs_in,
    read_until,
    send,
    signed_up,
    wait_for,
)
from test_web_stream import binary, key, said, stand_in
from tornado.httpclient import HTTPRequest

FILE_LIMIT = 160
HALF_SENT = 400  # More than the server's file limit.


def started(folder: Path, *options: str, file_limit: int | None = None) -> Server:
    """`python -m web` of the stand-in game in `folder`, with `options`."""
    port = free_port()
    log = folder / "server.log"

    def limited() -> None:
        if file_limit is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (file_limit, file_limit))

    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "web", "--port", str(port), "--data-dir", str(folder / "site"),
             "--game", str(stand_in(folder)), "--sign-ups", "200", *options],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, preexec_fn=limited,
        )  # fmt: skip
    server = Server(f"http://127.0.0.1:{port}", folder / "site", process, log)
    wait_for(lambda: _answers(server.url) or process.poll() is not None, 20)
    assert process.poll() is None, log.read_text(errors="replace")
    return server


def stopped(server: Server) -> str:
    """Stop the server; its log, once checked for a clean stop."""
    server.process.send_signal(signal.SIGTERM)
    try:
        server.process.wait(40)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()
    left = programs_in(server.folder)
    server_log = server.log.read_text(errors="replace")
    assert server.process.returncode == 0, server_log
    assert not left, f"still running after the server stopped: {left}"
    assert_no_traceback(server_log)
    return server_log


@pytest.fixture
def folder() -> Iterator[Path]:
    made = Path(tempfile.mkdtemp(prefix="web-open-"))
    yield made
    subprocess.run(["rm", "-rf", str(made)], check=False)


def cpu_seconds(pid: int) -> float:
    """The user and system time the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100  # utime and stime, in clock ticks.


def half_sent(port: int, count: int) -> list[socket.socket]:
    """`count` connections, each with a request begun and never finished: headers cut short
    (three in four) or a body promised and not sent."""
    opened = []
    for number in range(count):
        connection = socket.socket()
        connection.setblocking(False)
        connection.connect_ex(("127.0.0.1", port))
        opened.append(connection)
        begun = (
            b"POST /signin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 9000\r\n\r\nname=a"
            if number % 4 == 0
            else b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
        )
        # Not connected yet (the server's backlog is full): it stays half-open.
        with contextlib.suppress(OSError):
            connection.send(begun)
    return opened


@pytest.mark.parametrize(
    "options",
    [(), ("--max-connections", "1000")],
    ids=["the default cap", "a cap above the file limit"],
)
def test_half_sent_requests_beyond_the_file_limit_neither_stop_nor_spin_the_server(
    folder: Path, options: Sequence[str]
) -> None:
    """Slowloris: more half-sent requests than the server has descriptors.  By default it takes
    no more connections than its file limit leaves room for; with a cap set above that, accept
    fails (EMFILE) and is waited out.  Either way the server is not spun, writes a few lines
    and answers again once the requests have timed out."""
    server = started(
        folder, "--header-seconds", "4", "--body-seconds", "4", "--max-games", "2",
        "--max-watchers", "2", *options, file_limit=FILE_LIMIT,
    )  # fmt: skip
    port = int(server.url.rsplit(":", 1)[1])
    attack: list[socket.socket] = []
    try:
        before = cpu_seconds(server.process.pid)
        attack = half_sent(port, HALF_SENT)
        # The attack held for 3 s, within the timeouts (a span to measure over, not a wait).
        time.sleep(3)
        used = cpu_seconds(server.process.pid) - before
        assert used < 1.0, f"the server used {used:.1f} s of CPU in 3 s"
        wait_for(lambda: _answers(server.url), 60)
    finally:
        for connection in attack:
            connection.close()
        server_log = stopped(server)
    lines = server_log.splitlines()
    assert len(lines) < 20, server_log[:5000]


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    running = asyncio.new_event_loop()
    yield running
    running.run_until_complete(asyncio.sleep(0.1))
    running.close()


def page_from(
    loop: asyncio.AbstractEventLoop, client: Client, source: str, real_ip: str | None = None
) -> Socket:
    """The player's canvas socket, opened from the loopback address `source` (saying the client
    is `real_ip`, as a proxy does), once the server has sent it a frame or said why not."""
    url = client.server.url.replace("http://", "ws://") + "/play/socket"
    headers = {"Cookie": client.cookie(), "Origin": client.server.url}
    if real_ip is not None:
        headers["X-Real-IP"] = real_ip
    messages: list[str | bytes] = []

    def got(message: str | bytes | None) -> None:
        messages.append("<closed>" if message is None else message)

    request = HTTPRequest(url, headers=headers, network_interface=source)
    page = Socket(loop.run_until_complete(_connect(request, got)), messages)
    read_until(loop, page, lambda got: bool(binary(got)) or bool(said(got)))
    return page


def statuses(page: Socket) -> list[str]:
    return [str(message["status"]) for message in said(page.messages)]


def test_one_address_with_many_accounts_cannot_hold_every_game(
    folder: Path, loop: asyncio.AbstractEventLoop
) -> None:
    """Four games at most; from 127.0.0.1, two (the default cap per address) whatever the
    accounts; the other two from other addresses."""
    server = started(folder, "--max-games", "4")
    pages: list[Socket] = []
    try:
        players = [signed_up(server, f"hoarder{number}") for number in range(4)]
        pages = [page_from(loop, player, "127.0.0.1") for player in players[:3]]
        assert [statuses(page) for page in pages[:2]] == [[], []]
        assert statuses(pages[2]) == ["full"]
        assert "from one address" in str(said(pages[2].messages)[0]["message"])
        for number, source in enumerate(("127.0.0.2", "127.0.0.3")):
            other = page_from(loop, signed_up(server, f"neighbour{number}"), source)
            pages.append(other)
            assert statuses(other) == [] and binary(other.messages)
        # Four games run: the server is full for everyone now, as it should be.
        pages.append(page_from(loop, players[3], "127.0.0.4"))
        assert statuses(pages[-1]) == ["full"]
    finally:
        for page in pages:
            close(loop, page)
        stopped(server)


def test_a_game_with_no_input_is_saved_and_closed_and_its_page_told_why(
    folder: Path, loop: asyncio.AbstractEventLoop
) -> None:
    """The page stays open; the player types nothing more."""
    server = started(folder, "--no-input-seconds", "3", "--idle-seconds", "60")
    try:
        client = signed_up(server, "dozer")
        page = page_from(loop, client, "127.0.0.1")
        send(loop, page, key("t"))
        told = said(read_until(loop, page, lambda got: "<closed>" in got, 30))
        assert [message["status"] for message in told] == ["idle"], told
        assert "saved and closed" in str(told[0]["message"])
        saved = server.player("dozer") / "saved"
        wait_for(saved.exists, 20)  # The stand-in's input ended: it saved, as the game does.
        assert '"key":"t"' in (server.player("dozer") / "events.txt").read_text()
        wait_for(lambda: not programs_in(server.player("dozer")), 20)
        close(loop, page)
    finally:
        stopped(server)


def test_a_trusted_proxy_names_the_client_and_no_one_else_does(
    folder: Path, loop: asyncio.AbstractEventLoop
) -> None:
    """Behind a proxy every connection comes from the proxy: its X-Real-IP is the player's
    address, for the caps per address.  The same header from anyone else is not believed."""
    server = started(folder, "--max-games", "6", "--trusted-proxy", "127.0.0.5")
    pages: list[Socket] = []
    try:
        for number in range(3):  # Three players behind the proxy, from three addresses.
            client = signed_up(server, f"proxied{number}")
            pages.append(page_from(loop, client, "127.0.0.5", f"203.0.113.{number + 1}"))
            assert statuses(pages[-1]) == [], said(pages[-1].messages)
        for number in range(3):  # Three from one address, each claiming another.
            client = signed_up(server, f"forger{number}")
            pages.append(page_from(loop, client, "127.0.0.1", f"198.51.100.{number + 1}"))
        assert [statuses(page) for page in pages[3:]] == [[], [], ["full"]]
    finally:
        for page in pages:
            close(loop, page)
        stopped(server)


@pytest.mark.parametrize(
    "limits, expected",
    [((1024, 4096), "2000 2424 4096"), ((1024, 1024), "600 1024 1024")],
    ids=["a hard limit with room", "no room"],
)
def test_the_connection_cap_raises_the_soft_file_limit_where_the_hard_one_allows(
    limits: tuple[int, int], expected: str
) -> None:
    """A common soft limit of 1,024: the default cap of 2,000 connections and the descriptors
    of 20 games and 40 watchers (6 each, and 64) need 2,424; else the cap is what is left."""
    code = (
        "import resource; from web.connections import connection_cap; "
        "print(connection_cap(None, 60), *resource.getrlimit(resource.RLIMIT_NOFILE))"
    )
    ran = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, limits),
    )  # fmt: skip
    assert ran.stdout.split() == expected.split()
