#!/usr/bin/env python3
"""The browser server under load: games played and watched at once, each frame timed.

    python tools/web_load.py                        # 20 games, 100 watchers, 40 steps each
    python tools/web_load.py --games 4 --watchers 8 --presses 10
    python tools/web_load.py --write                # and docs/browser.md's figures

It starts `python -m web` on a loopback port with a temporary folder, signs players up, and
opens each player's canvas page socket (`/play/socket`) as the page does: the first frame's
size is what a new player's page gets first.  Each player starts a new game, and then
watchers open `/watch/NAME/socket`, spread over the games.  Then every player takes a step
west and one east in turn (the numpad's 4 and 6) four times a second, each answer waited for,
and the tool times:

- key to frame: from the key sent to the first frame message back on the player's socket;
- a watcher's frame after the player's: each message a watcher gets is the same bytes as one
  the player got (the server sends what the game made, unchanged); their arrival times differ
  by this, on the same clock, in this one process;
- a step: the frame messages' bytes a step sends (payload and the websocket's own header);
- a watcher's cost: the server's resident memory (VmRSS) and its processes before the
  watchers joined and after, divided by the watchers.

Every socket is a tornado websocket client in this one process, on this machine's two cores
with the server and the games: the figures include the clients' own delays, never less.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import functools
import http.cookiejar
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tornado.httpclient import HTTPRequest
from tornado.websocket import WebSocketClientConnection, websocket_connect

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]

import doc_section  # noqa: E402

from web import frames  # noqa: E402

PASSWORD = "load-test-password"
# A step west then east, in turn (the numpad's 4 and 6): the map redrawn as the player moves.
STEPS = ('{"key":"4","code":"Numpad4","mod":0}', '{"key":"6","code":"Numpad6","mod":0}')
NEW_GAME = '{"key":"n","code":"KeyN","mod":0}'
PAGE = ROOT / "docs" / "browser.md"
ANSWER_SECONDS = 2.0  # A step that brings no frame in this time changed nothing on screen.
WATCHES_EACH = 3  # What one viewer may watch at once (web.live.WATCHERS_EACH).


@dataclass
class Arrival:
    """A message a socket got, and when (time.monotonic)."""

    data: bytes | str
    at: float


@dataclass
class Page:
    """One socket as a page holds it: what it got, in order."""

    connection: WebSocketClientConnection | None = None
    got: list[Arrival] = field(default_factory=list)
    news: asyncio.Event = field(default_factory=asyncio.Event)

    def receive(self, message: bytes | str | None) -> None:
        self.got.append(Arrival(b"" if message is None else message, time.monotonic()))
        self.news.set()

    def has_frame(self, since: int = 0) -> bool:
        return any(isinstance(a.data, bytes) and a.data for a in self.got[since:])

    def binary(self) -> list[Arrival]:
        return [arrival for arrival in self.got if isinstance(arrival.data, bytes) and arrival.data]

    async def until(self, done: Callable[[], bool], seconds: float = 60.0) -> None:
        end = time.monotonic() + seconds
        while not done():
            self.news.clear()
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("no answer in time")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.news.wait(), left)


class Account:
    """A player as far as cookies go."""

    def __init__(self, url: str, name: str) -> None:
        self.url = url
        self.name = name
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        page = self.opener.open(url + "/", timeout=30).read().decode()
        found = re.search(r'name="_xsrf" value="([^"]+)"', page)
        assert found, "no XSRF token on the front page"
        fields = {"_xsrf": found.group(1), "name": name, "password": PASSWORD}
        self.opener.open(url + "/signup", urllib.parse.urlencode(fields).encode(), timeout=30).read()

    def cookie(self) -> str:
        return "; ".join(f"{cookie.name}={cookie.value}" for cookie in self.jar)

    async def open(self, path: str) -> Page:
        page = Page()
        request = HTTPRequest(
            self.url.replace("http://", "ws://") + path,
            headers={"Cookie": self.cookie(), "Origin": self.url},
        )
        page.connection = await websocket_connect(request, on_message_callback=page.receive)
        return page


def has_full(page: Page) -> bool:
    return any(a.data[:1] == frames.FULL for a in page.binary())


def is_playing(page: Page) -> bool:
    """Whether the page got the game's STATUS saying a game is in play."""
    statuses = (frames.status_of(a.data) for a in page.binary() if isinstance(a.data, bytes))
    return any(status is not None and status.get("screen") == "playing" for status in statuses)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def resident_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def children_of(pid: int) -> int:
    count = 0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                count += int(fields[1]) == pid
    return count


def wire(data: bytes) -> int:
    """A server's websocket message's bytes on the wire: its header (2, 4 or 10 bytes) and payload."""
    header = 2 if len(data) < 126 else 4 if len(data) < 65536 else 10
    return header + len(data)


def spread(seconds: list[float]) -> str:
    """p50, p95 and the worst, in milliseconds."""
    # Rounded, plus 0.0: a watcher's frame read in the same turn of this process's loop as
    # the player's may come a few microseconds "before" it, which is no figure to print as -0.0.
    p50, p95, worst = (round(1000 * percentile(seconds, share), 1) + 0.0 for share in (0.5, 0.95, 1.0))
    return f"p50 {p50:.1f} ms, p95 {p95:.1f} ms, worst {worst:.1f} ms"


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@dataclass
class Figures:
    games: int
    watchers: int
    presses: int
    first_frame: list[int] = field(default_factory=list)
    key_to_frame: list[float] = field(default_factory=list)
    watcher_after: list[float] = field(default_factory=list)
    step_bytes: list[int] = field(default_factory=list)
    unanswered: int = 0
    watcher_kib: list[float] = field(default_factory=list)
    processes_before: int = 0
    processes_after: int = 0
    runs: int = 1

    def add(self, run: Figures) -> None:
        """Another run's samples pooled with these."""
        self.first_frame += run.first_frame
        self.key_to_frame += run.key_to_frame
        self.watcher_after += run.watcher_after
        self.step_bytes += run.step_bytes
        self.unanswered += run.unanswered
        self.watcher_kib += run.watcher_kib
        self.processes_before = max(self.processes_before, run.processes_before)
        self.processes_after = max(self.processes_after, run.processes_after)

    def lines(self) -> list[str]:
        return [
            f"{self.games} games, {self.watchers} watchers, {self.presses} steps a game, {self.runs} runs "
            f"pooled ({self.unanswered} steps changed nothing on screen in {ANSWER_SECONDS:.0f} s)",
            f"first frame: {max(self.first_frame)} B at most, median {statistics.median(self.first_frame):.0f} B",
            f"key to frame: {spread(self.key_to_frame)}",
            f"a watcher's frame after the player's: {spread(self.watcher_after)}",
            f"a step: median {statistics.median(self.step_bytes):.0f} B, p95 {percentile(self.step_bytes, 0.95):.0f} B",
            f"a watcher: {min(self.watcher_kib):.0f} to {max(self.watcher_kib):.0f} KiB of the server's "
            f"memory; the server's processes {self.processes_before} before the watchers, "
            f"{self.processes_after} after",
        ]


async def run(url: str, server_pid: int, games: int, watchers: int, presses: int) -> Figures:
    figures = Figures(games, watchers, presses)
    players = [Account(url, f"player{n}") for n in range(games)]
    viewers = [Account(url, f"viewer{n}") for n in range(-(-watchers // WATCHES_EACH))]
    pages = [await player.open("/play/socket") for player in players]
    for page in pages:  # The menu's first frame.
        await page.until(functools.partial(has_full, page))
        first = next(a.data for a in page.binary() if a.data[:1] == frames.FULL)
        assert isinstance(first, bytes)
        figures.first_frame.append(wire(first))
    for page in pages:
        assert page.connection is not None
        await page.connection.write_message(NEW_GAME)
    for page in pages:  # Playing: the STATUS says so.
        await page.until(functools.partial(is_playing, page))
    await asyncio.sleep(1.0)
    rss_before, figures.processes_before = resident_kib(server_pid), children_of(server_pid)
    watching: list[tuple[int, Page]] = []
    for n in range(watchers):
        game = n % games
        watching.append((game, await viewers[n // WATCHES_EACH].open(f"/watch/player{game}/socket")))
    for _, page in watching:
        await page.until(page.has_frame)
    await asyncio.sleep(1.0)
    figures.processes_after = children_of(server_pid)
    figures.watcher_kib.append((resident_kib(server_pid) - rss_before) / max(1, watchers))
    joined = {id(page): len(page.got) for _, page in watching}
    await asyncio.gather(*(play(page, presses, figures) for page in pages))
    await asyncio.sleep(0.5)
    for game, page in watching:
        player = pages[game].binary()
        mine = [a for a in page.got[joined[id(page)] :] if isinstance(a.data, bytes) and a.data]
        figures.watcher_after += matched(player, mine)
    return figures


async def play(page: Page, presses: int, figures: Figures) -> None:
    """Steps taken four times a second, each timed to the first frame it brings."""
    assert page.connection is not None
    for press in range(presses):
        await asyncio.sleep(0.25)
        before = len(page.got)
        sent = time.monotonic()
        await page.connection.write_message(STEPS[press % 2])
        try:
            await page.until(functools.partial(page.has_frame, since=before), ANSWER_SECONDS)
        except TimeoutError:  # Nothing changed: a level-up's choice, a death, a wall.
            figures.unanswered += 1
            continue
        await asyncio.sleep(0.05)  # The rest of the frame's messages (its STATUS).
        answer = [a for a in page.got[before:] if isinstance(a.data, bytes) and a.data]
        figures.key_to_frame.append(answer[0].at - sent)
        figures.step_bytes.append(sum(wire(a.data) for a in answer if isinstance(a.data, bytes)))


def matched(player: list[Arrival], watcher: list[Arrival]) -> list[float]:
    """How long after the player's each of the watcher's messages came: matched in order, by bytes."""
    after, start = [], 0
    for arrival in watcher:
        for index in range(start, len(player)):
            if player[index].data == arrival.data:
                after.append(arrival.at - player[index].at)
                start = index + 1
                break
    return after


def write(figures: Figures, commit: str) -> None:
    """docs/browser.md's section of these figures, made anew (`doc_section`)."""
    today = datetime.date.today().isoformat()
    text = (
        f"Measured by `python tools/web_load.py --write` on {today}, at commit {commit}, on the "
        "project's 2-core machine (the server, the games and every client on it):\n\n"
        + "".join(f"- {line}\n" for line in figures.lines())
    )
    doc_section.write("load figures", "tools/web_load.py", text, PAGE)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--watchers", type=int, default=100)
    parser.add_argument("--presses", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3, help="runs, each on a fresh server, pooled")
    parser.add_argument("--write", action="store_true", help="write the figures into docs/browser.md")
    args = parser.parse_args()
    figures = Figures(args.games, args.watchers, args.presses, runs=args.runs)
    for _ in range(args.runs):
        figures.add(measured(args.games, args.watchers, args.presses))
    print("\n".join(figures.lines()))
    if args.write:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        write(figures, commit)
    return 0


def measured(games: int, watchers: int, presses: int) -> Figures:
    """One run on a fresh server of its own."""
    folder = Path(tempfile.mkdtemp(prefix="web-load-"))
    port = free_port()
    viewers = -(-watchers // WATCHES_EACH)
    with (folder / "server.log").open("wb") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "web", "--port", str(port), "--data-dir", str(folder / "data"),
             "--seed", "3", "--max-games", str(games), "--max-watchers", str(watchers),
             "--sign-ups", str(games + viewers + 5), "--games-per-address", str(games)],
            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            with contextlib.suppress(OSError):
                urllib.request.urlopen(url + "/", timeout=1).read()
                break
            time.sleep(0.1)
        return asyncio.run(run(url, server.pid, games, watchers, presses))
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    raise SystemExit(main())
