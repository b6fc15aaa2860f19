"""The browser's stream: one hub per game fanning its frames out, the canvas page's events,
the lobby pushed, a game taken back by a new page or hung up when none comes.

A real server (`python -m web`) runs a stand-in game (`--game`): a small Python program, written
here, that writes real `web.frames` messages to its fd 3 and reads the page's JSON lines on its
stdin, as `main.py --browser --frames-fd 3` does, so that what the server does with a stream is
tested on real pipes, sockets and processes, apart from the game's own drawing; the last
test plays the real game.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Generator, Iterator
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
    assert_no_traceback,
    close,
    programs_in,
    read_until,
    send,
    signed_up,
    socket_to,
    wait_for,
)

from web import frames

# The stand-in game.  Keys: "t" a turn (a new STATUS), "x" a cell changed (CHANGES), "f" a
# flood of whole frames of noise then a known last frame, "q" quit.  It writes each line it
# is sent to events.txt and its pid to starts.txt in its data folder, and "saved" there at the
# end of its input (the page and server gone), as the game saves.
STAND_IN = """
import json, os, sys
from pathlib import Path
sys.path.insert(0, ROOT)
import numpy as np
from web import frames

arguments = sys.argv[1:]
folder = Path(arguments[arguments.index("--data-dir") + 1])
out = int(arguments[arguments.index("--frames-fd") + 1])
with (folder / "starts.txt").open("a") as starts:
    starts.write(f"{os.getpid()}\\n")


def send(message):
    data = frames.framed(message)
    while data:
        data = data[os.write(out, data):]


def blank(tile):
    return frames.Frame(
        np.full((50, 80), tile, np.uint8), np.full((50, 80, 3), 200, np.uint8),
        np.zeros((50, 80, 3), np.uint8), 16,
    )


frame = blank(0)
send(frames.encode_full(frame))
send(frames.encode_status({"screen": "menu"}))
turns = 0
log = (folder / "events.txt").open("ab")
for line in sys.stdin.buffer:
    log.write(line)
    log.flush()
    key = json.loads(line).get("key")
    if key == "t":
        turns += 1
        send(frames.encode_status({"screen": "playing", "level": 1, "depth": 2, "turns": turns}))
    elif key == "x":
        new = frame.copy()
        new.tiles[turns % 50, turns % 80] += 1
        new.fg[0, 0] = (turns, 1, 2)
        send(frames.encode_changes(frame, new))
        frame = new
        turns += 1
    elif key == "f":
        noise = np.random.default_rng(5)
        floods = []
        for _ in range(4):
            shape = frames.Frame(
                noise.integers(0, len(frames.CODEPOINTS), (50, 80), np.uint8),
                noise.integers(0, 256, (50, 80, 3), np.uint8),
                noise.integers(0, 256, (50, 80, 3), np.uint8), 16,
            )
            floods.append(frames.encode_full(shape))
        for number in range(FLOOD):
            send(floods[number % 4])
        frame = blank(7)
        send(frames.encode_full(frame))
        send(frames.encode_status({"screen": "playing", "turns": 999}))
        (folder / "flooded").write_text(str(FLOOD * len(floods[0])))
    elif key == "q":
        sys.exit(0)
(folder / "saved").write_text("yes")
"""
FLOOD = 2000


def stand_in(folder: Path) -> Path:
    """The stand-in game's file, in `folder`."""
    path = folder / "stand_in.py"
    path.write_text(STAND_IN.replace("ROOT", repr(str(ROOT))).replace("FLOOD", str(FLOOD)))
    return path


def serve(folder: Path, *more: str, real: bool = False) -> Generator[Server, None, None]:
    """A server in `folder` of the stand-in game (or the real one, with `--seed 3`), until
    the generator is closed."""
    port = free_port()
    log = folder / "server.log"
    game = ["--seed", "3"] if real else ["--game", str(stand_in(folder))]
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "web", "--port", str(port), "--data-dir", str(folder / "site"),
             *game, "--sign-ups", "200", "--max-watchers", "200", "--scan-seconds", "60",
             "--games-per-address", "200", *more],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: _answers(url), 20)
        yield Server(url, folder / "site", process, log)
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


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    """A server whose games wait a minute for a page that closed."""
    yield from serve(Path(tempfile.mkdtemp(prefix="web-stream-")), "--idle-seconds", "60")


@pytest.fixture(scope="module")
def quick() -> Iterator[Server]:
    """A server whose games are hung up half a second after their page closed."""
    yield from serve(Path(tempfile.mkdtemp(prefix="web-stream-")), "--idle-seconds", "0.5")


@pytest.fixture(scope="module")
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    running = asyncio.new_event_loop()
    yield running
    running.run_until_complete(asyncio.sleep(0.1))
    running.close()


def binary(messages: list[str | bytes]) -> list[bytes]:
    return [message for message in messages if isinstance(message, bytes)]


def said(messages: list[str | bytes]) -> list[dict[str, object]]:
    found = [json.loads(m) for m in messages if isinstance(m, str) and m != "<closed>"]
    return [message for message in found if isinstance(message, dict)]


def frame_of(messages: list[bytes], frame: frames.Frame | None = None) -> frames.Frame | None:
    """The frame the messages make, applied in order, as the page does."""
    for message in messages:
        frame = frames.apply(message, frame)
    return frame


def key(name: str) -> str:
    return json.dumps({"key": name, "code": f"Key{name.upper()}", "mod": 0})


def events_of(server: Server, player: str) -> list[str]:
    path = server.player(player) / "events.txt"
    return path.read_text().splitlines() if path.exists() else []


def playing(loop: asyncio.AbstractEventLoop, client: Client) -> Socket:
    """The player's canvas socket, once its first whole frame has come."""
    page = socket_to(loop, client, "/play/socket")
    got = read_until(loop, page, lambda got: bool(binary(got)))
    assert binary(got) and binary(got)[0][:1] == frames.FULL, got
    return page


def test_every_subscriber_gets_the_same_bytes_and_a_late_one_the_frame_whole(
    server: Server, loop: asyncio.AbstractEventLoop
) -> None:
    player = signed_up(server, "fanned")
    page = playing(loop, player)
    watchers = [socket_to(loop, signed_up(server, f"fan{n}"), "/watch/fanned/socket") for n in (1, 2)]
    for _ in range(3):
        send(loop, page, key("x"))
    send(loop, page, key("t"))

    def turned(got: list[str | bytes]) -> bool:
        return any(frames.status_of(m) == {"screen": "playing", "level": 1, "depth": 2, "turns": 4} for m in binary(got))

    seen = [binary(read_until(loop, watcher, turned)) for watcher in watchers]
    assert seen[0] == seen[1]
    assert seen[0][0][:1] == frames.FULL and [m[:1] for m in seen[0]].count(frames.CHANGES) == 3
    current = frame_of(seen[0])
    assert current is not None
    late = socket_to(loop, signed_up(server, "fan3"), "/watch/fanned/socket")
    first = binary(read_until(loop, late, lambda got: len(binary(got)) >= 2))
    assert first[0] == frames.encode_full(current)
    assert frames.status_of(first[1]) == {"screen": "playing", "level": 1, "depth": 2, "turns": 4}
    for socket_ in [page, *watchers, late]:
        close(loop, socket_)


def test_a_page_that_reads_nothing_is_sent_the_frame_whole_not_the_backlog(
    server: Server, loop: asyncio.AbstractEventLoop
) -> None:
    player = signed_up(server, "flooder")
    page = playing(loop, player)
    watcher = socket_to(loop, signed_up(server, "sleeper"), "/watch/flooder/socket")
    read_until(loop, watcher, lambda got: bool(binary(got)))
    rss_before = resident(server.process.pid)
    send(loop, page, key("f"))
    # The loop is not run while the flood is written: neither socket reads a byte of it.
    flooded = server.player("flooder") / "flooded"
    sent = int(wait_for(lambda: flooded.read_text() if flooded.exists() else None, 120))
    grown = resident(server.process.pid) - rss_before
    for socket_ in (page, watcher):
        got = read_until(loop, socket_, lambda got: any(frames.status_of(m) == {"screen": "playing", "turns": 999} for m in binary(got)), 120)
        received = sum(map(len, binary(got)))
        assert received < sent / 2, (received, sent)  # Most of the flood was never sent on.
        last = frame_of(binary(got), frame_of(binary(socket_.messages[: socket_.seen - len(got)])))
        assert last is not None and (last.tiles == 7).all()
    assert grown < sent / 4, (grown, sent)  # The server kept no backlog of it either.
    close(loop, page)
    close(loop, watcher)


def resident(pid: int) -> int:
    """A process's resident memory, in bytes (VmRSS from /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def test_only_the_events_the_game_takes_reach_it(server: Server, loop: asyncio.AbstractEventLoop) -> None:
    page = playing(loop, signed_up(server, "prodder"))
    good = [
        {"key": "a", "code": "KeyA", "mod": 0},
        {"key": "Escape"},
        {"key": "ArrowUp", "code": "ArrowUp", "mod": 15},
        {"move": [79, 49]},
        {"click": [0, 0, 3]},
        {"look": [10, 20]},
        {"command": "pick up"},
    ]
    bad = [
        "not json",
        "[1, 2]",
        "{}",
        json.dumps({"key": "a", "code": "KeyA", "mod": 0, "padding": "x" * 10}),  # Another key.
        json.dumps({"key": "a", "code": " " * 300}),  # Over 256 bytes.
        json.dumps({"key": "x" * 33}),
        json.dumps({"key": "a", "mod": 16}),
        json.dumps({"key": "a", "mod": True}),
        json.dumps({"move": [80, 0]}),
        json.dumps({"move": [0, 50]}),
        json.dumps({"move": [-1, 0]}),
        json.dumps({"move": [1.5, 0]}),
        json.dumps({"click": [1, 1, 4]}),
        json.dumps({"click": [1, 1]}),
        json.dumps({"look": "here"}),
        json.dumps({"command": "rm -rf /"}),
        json.dumps({"command": "Explore"}),
        json.dumps({"move": [1, 1], "click": [1, 1, 1]}),
        json.dumps({"key": "a\n", "code": "\u2028"}),  # Passes, written again on one line.
    ]
    for message in bad[:-1]:
        send(loop, page, message)
    page.connection.write_message(b'{"key": "b"}', binary=True)  # Not text: dropped.
    for event in good:
        send(loop, page, json.dumps(event))
    send(loop, page, bad[-1])
    expected = [json.dumps(event, separators=(",", ":")) for event in good]
    expected.append(json.dumps({"key": "a\n", "code": "\u2028"}, separators=(",", ":")))
    assert wait_for(lambda: len(events_of(server, "prodder")) >= len(expected) and events_of(server, "prodder")) == expected
    close(loop, page)


def test_a_sweep_of_the_pointer_costs_no_key_its_place(server: Server, loop: asyncio.AbstractEventLoop) -> None:
    """Pointer moves have a rate of their own: past it they are dropped (the next one says
    where the pointer is), and the keys and clicks sent among them all arrive."""
    page = playing(loop, signed_up(server, "sweeper"))
    sent = []
    for x in range(80):
        send(loop, page, json.dumps({"move": [x, 10]}))
        if x % 16 == 0:
            key = {"key": "abcde"[x // 16]}
            send(loop, page, json.dumps(key))
            sent.append(json.dumps(key, separators=(",", ":")))
    send(loop, page, json.dumps({"click": [79, 10, 1]}))
    sent.append(json.dumps({"click": [79, 10, 1]}, separators=(",", ":")))

    def keys_in() -> list[str] | None:
        got = [line for line in events_of(server, "sweeper") if '"move"' not in line]
        return got if len(got) >= len(sent) else None

    assert wait_for(keys_in) == sent
    moves = [line for line in events_of(server, "sweeper") if '"move"' in line]
    assert 0 < len(moves) < 80  # Some of the sweep's 80 moves were dropped.
    close(loop, page)


def test_the_lobby_is_pushed_at_once_and_when_a_games_status_changes(
    server: Server, loop: asyncio.AbstractEventLoop
) -> None:
    watching = socket_to(loop, Client(server), "/lobby/socket")  # Public: no session.
    first = said(read_until(loop, watching, lambda got: bool(got)))
    assert first and isinstance(first[0]["games"], list)
    page = playing(loop, signed_up(server, "listed"))

    def row(got: list[str | bytes], turns: object) -> dict[str, object] | None:
        for message in said(got):
            games = message.get("games")
            assert isinstance(games, list)
            for game in games:
                if game["player"] == "listed" and game["turns"] == turns:
                    return dict(game)
        return None

    read_until(loop, watching, lambda got: row(got, "") is not None, 5)
    send(loop, page, key("t"))
    send(loop, page, key("t"))
    got = read_until(loop, watching, lambda got: row(got, 2) is not None, 5)
    listed = row(got, 2)
    assert listed is not None, got
    assert listed == {**listed, "mode": "canvas", "level": 1, "depth": 2, "screen": "playing", "watchers": 0}
    assert isinstance(listed["idle"], int)
    watcher = socket_to(loop, signed_up(server, "counted"), "/watch/listed/socket")
    got = read_until(loop, watching, lambda got: any(g.get("watchers") == 1 for m in said(got) for g in m["games"]), 5)  # type: ignore[attr-defined]
    assert "<closed>" not in got
    close(loop, watcher)
    close(loop, page)
    close(loop, watching)


def test_a_new_page_takes_the_game_over_and_a_closed_one_comes_back(
    server: Server, loop: asyncio.AbstractEventLoop
) -> None:
    client = signed_up(server, "returner")
    first = playing(loop, client)
    send(loop, first, key("x"))
    send(loop, first, key("x"))
    current = frame_of(binary(read_until(loop, first, lambda got: len(binary(got)) >= 2)), frame_of(binary(first.messages[:1])))
    second = playing(loop, client)
    assert binary(second.messages)[0] == frames.encode_full(current)  # type: ignore[arg-type]
    told = read_until(loop, first, lambda got: "<closed>" in got)
    assert {"status": "taken over", "message": "Your game was opened in another page."} in said(told)
    assert "<closed>" in told
    close(loop, first)
    close(loop, second)  # No page: the game waits (a minute, on this server).
    third = playing(loop, client)
    assert binary(third.messages)[0] == frames.encode_full(current)  # type: ignore[arg-type]
    send(loop, third, key("t"))
    wait_for(lambda: len(events_of(server, "returner")) == 3)
    starts = (server.player("returner") / "starts.txt").read_text().split()
    assert len(starts) == 1  # One game all along.
    assert not (server.player("returner") / "saved").exists()
    close(loop, third)


def test_watchers_are_told_whose_game_ended(server: Server, loop: asyncio.AbstractEventLoop) -> None:
    page = playing(loop, signed_up(server, "quitter"))
    watcher = socket_to(loop, signed_up(server, "mourner"), "/watch/quitter/socket")
    read_until(loop, watcher, lambda got: bool(binary(got)))
    send(loop, page, key("q"))
    ended = read_until(loop, watcher, lambda got: "<closed>" in got)
    assert {"status": "ended", "player": "quitter", "message": "quitter's game has ended."} in said(ended)
    assert "ended" in [m["status"] for m in said(read_until(loop, page, lambda got: "<closed>" in got))]
    close(loop, watcher)
    close(loop, page)


def test_a_game_with_no_page_is_hung_up_after_the_idle_time(
    quick: Server, loop: asyncio.AbstractEventLoop
) -> None:
    client = signed_up(quick, "idler")
    page = playing(loop, client)
    close(loop, page)
    wait_for(lambda: (quick.player("idler") / "saved").exists(), 20)  # Its input ended: saved.
    again = playing(loop, client)  # A new game: the old one has ended.
    wait_for(lambda: len((quick.player("idler") / "starts.txt").read_text().split()) == 2)
    close(loop, again)


def test_a_hundred_watchers_cost_no_process_and_little_memory(
    server: Server, loop: asyncio.AbstractEventLoop
) -> None:
    page = playing(loop, signed_up(server, "famous"))
    viewers = [signed_up(server, f"crowd{number}") for number in range(34)]  # 3 watches each.
    before = resident(server.process.pid)
    processes = len(programs_in(server.folder))
    watchers = [socket_to(loop, viewers[number // 3], "/watch/famous/socket") for number in range(100)]
    for watcher in watchers:
        read_until(loop, watcher, lambda got: bool(binary(got)))
    assert len(watchers) == 100
    send(loop, page, key("x"))
    for watcher in watchers:
        assert binary(read_until(loop, watcher, lambda got: bool(binary(got))))[0][:1] == frames.CHANGES
    each = (resident(server.process.pid) - before) / 100
    assert len(programs_in(server.folder)) == processes
    assert each < 1 << 20, each
    if os.environ.get("WEB_FIGURES"):
        print(f"\na watcher: {each / 1024:.1f} KiB of the server's resident memory")
    for watcher in watchers:
        close(loop, watcher)
    close(loop, page)


def test_the_site_icon_is_served(server: Server) -> None:
    import urllib.request

    with urllib.request.urlopen(f"{server.url}/favicon.ico", timeout=20) as answer:
        assert answer.status == 200 and answer.headers["Content-Type"] == "image/png"
        assert answer.read() == (ROOT / "icons" / "icon.png").read_bytes()


@pytest.mark.parametrize("size", [10, 16, 24])
def test_the_tile_atlases_are_served(server: Server, size: int) -> None:
    import urllib.request

    with urllib.request.urlopen(f"{server.url}/tiles/{size}.png", timeout=60) as answer:
        assert answer.status == 200 and answer.headers["Content-Type"] == "image/png"
        assert answer.read()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_real_game_plays_on_the_canvas_page_and_saves(loop: asyncio.AbstractEventLoop) -> None:
    served = serve(Path(tempfile.mkdtemp(prefix="web-stream-")), "--idle-seconds", "1", real=True)
    server = next(served)
    try:
        page = playing(loop, signed_up(server, "canvas"))
        send(loop, page, json.dumps({"key": "n", "code": "KeyN", "mod": 0}))

        def status(got: list[str | bytes]) -> dict[str, object] | None:
            found = [frames.status_of(message) for message in binary(got)]
            return next((s for s in found if s and s.get("screen") == "playing"), None)

        shown = status(read_until(loop, page, lambda got: status(got) is not None, 30))
        assert shown is not None and shown["depth"] == 1 and shown["turns"] == 0
        close(loop, page)  # After --idle-seconds the game's input ends: it saves and quits.
        save = server.player("canvas") / "savegame.sav"
        wait_for(lambda: save.exists() and not programs_in(server.player("canvas")), 40)
    finally:
        served.close()
