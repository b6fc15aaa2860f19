"""Two server nodes on one Redis (`--redis`) and one database: a game played on node A watched
from node B byte for byte, a late watcher's whole frame, and the chat beside a game carried
across the nodes (escaped, rate limited, turned off by its player); and the chat of the
embedded default (one node, its own bus) in a real Chromium.

Real processes: two `python -m web` sharing a data folder (the SQLite store, the players'
folders) and a throwaway redis-server (tests/redis_server.py), running the stand-in game of
tests/test_web_stream.py; real websockets (tornado's client).  Skips, saying so, without
redis-server, or for the browser test without selenium, chromium or chromedriver.
"""

from __future__ import annotations

import asyncio
import copy
import json
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("tornado", reason="the web requirements (requirements-web.txt)")

from loopback import free_port
from redis_server import redis_url as redis_url  # The session's Redis, shared.
from test_web import (
    ROOT,
    Client,
    Server,
    Socket,
    _answers,
    assert_no_traceback,
    by,
    close,
    programs_in,
    read_until,
    send,
    sign_up_in_page,
    signed_up,
    socket_to,
    wait_for,
)
from test_web_canvas import PHONE, SHOTS
from test_web_canvas import browsers as browsers  # The fixture, shared with this module.
from test_web_stream import binary, frame_of, key, playing, said, stand_in

from web import chat, frames


@dataclass
class Cluster:
    """Two nodes of one site: A and B."""

    a: Server
    b: Server


def start_node(folder: Path, name: str, *more: str) -> Server:
    """A `python -m web` of the stand-in game on a free port, its data in `folder / "site"`."""
    port = free_port()
    log = folder / f"{name}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "web", "--port", str(port), "--data-dir", str(folder / "site"),
             "--game", str(folder / "stand_in.py"), "--sign-ups", "200", "--max-watchers", "200",
             "--scan-seconds", "60", "--idle-seconds", "60", "--games-per-address", "200", *more],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    wait_for(lambda: _answers(url) or process.poll() is not None, 20)
    assert process.poll() is None, log.read_text()
    return Server(url, folder / "site", process, log)


def stop_nodes(folder: Path, nodes: list[Server]) -> None:
    """Stop every node; each stopped cleanly, with no traceback and no program left."""
    for node in nodes:
        node.process.send_signal(signal.SIGTERM)
    for node in nodes:
        try:
            node.process.wait(40)
        except subprocess.TimeoutExpired:
            node.process.kill()
            node.process.wait()
    left = programs_in(folder)
    logs = [node.log.read_text(errors="replace") for node in nodes]
    shutil.rmtree(folder, ignore_errors=True)
    for node, log in zip(nodes, logs, strict=True):
        assert node.process.returncode == 0, log
        assert_no_traceback(log)
    assert not left, f"still running after the servers stopped: {left}"


@pytest.fixture(scope="module")
def cluster(redis_url: str) -> Iterator[Cluster]:
    folder = Path(tempfile.mkdtemp(prefix="web-bus-"))
    stand_in(folder)
    nodes: list[Server] = []
    try:
        nodes.append(start_node(folder, "a", "--redis", redis_url, "--node", "a"))
        nodes.append(start_node(folder, "b", "--redis", redis_url, "--node", "b"))
        yield Cluster(*nodes)
    finally:
        stop_nodes(folder, nodes)


@pytest.fixture(scope="module")
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    running = asyncio.new_event_loop()
    yield running
    running.run_until_complete(asyncio.sleep(0.1))
    running.close()


def on(client: Client, node: Server) -> Client:
    """The same browser (its session cookie) talking to another node."""
    moved = copy.copy(client)
    moved.server = node
    return moved


def turned(turns: int) -> Callable[[list[str | bytes]], bool]:
    def done(got: list[str | bytes]) -> bool:
        return any((frames.status_of(m) or {}).get("turns") == turns for m in binary(got))

    return done


def watching(loop: asyncio.AbstractEventLoop, client: Client, player: str) -> tuple[Socket, list[bytes]]:
    """A watcher's socket, once it has the frame whole and the status."""
    watcher = socket_to(loop, client, f"/watch/{player}/socket")
    first = binary(read_until(loop, watcher, lambda got: len(binary(got)) >= 2))
    assert [m[:1] for m in first] == [frames.FULL, frames.STATUS], first
    return watcher, first


def test_a_watcher_on_another_node_gets_the_bytes_a_watcher_on_the_games_node_gets(
    cluster: Cluster, loop: asyncio.AbstractEventLoop
) -> None:
    page = playing(loop, signed_up(cluster.a, "anna"))
    here, here_first = watching(loop, signed_up(cluster.a, "hugo"), "anna")
    there, there_first = watching(loop, signed_up(cluster.b, "tess"), "anna")
    assert there_first == here_first
    for name in "xxtxxt":
        send(loop, page, key(name))
    seen = [binary(read_until(loop, watcher, turned(6))) for watcher in (here, there)]
    assert seen[0] == seen[1]
    assert [m[:1] for m in seen[0]].count(frames.CHANGES) == 4
    current = frame_of(here_first + seen[0])
    assert current is not None
    # A second watcher on B joins B's relay; after both leave, a third makes B ask again.
    also, also_first = watching(loop, signed_up(cluster.b, "ivan"), "anna")
    close(loop, there)
    close(loop, also)
    late, late_first = watching(loop, signed_up(cluster.b, "lena"), "anna")
    for first in (also_first, late_first):
        assert first[0] == frames.encode_full(current)
        assert frames.status_of(first[1]) == {"screen": "playing", "level": 1, "depth": 2, "turns": 6}
    send(loop, page, key("x"))
    assert binary(read_until(loop, late, lambda got: bool(binary(got)))) == binary(
        read_until(loop, here, lambda got: bool(binary(got)))
    )
    send(loop, page, key("q"))  # The game ends: the watcher on B is told, as the one on A.
    for watcher in (here, late):
        told = said(read_until(loop, watcher, lambda got: "<closed>" in got))
        assert {"status": "ended", "player": "anna", "message": "anna's game has ended."} in told
    for socket_ in (here, late, page):
        close(loop, socket_)


def test_a_watcher_of_a_game_played_nowhere_is_told_so(cluster: Cluster, loop: asyncio.AbstractEventLoop) -> None:
    watcher = socket_to(loop, signed_up(cluster.b, "olga"), "/watch/nobody/socket")
    told = said(read_until(loop, watcher, lambda got: "<closed>" in got))
    assert told == [{"status": "ended", "message": "nobody is not playing now."}]
    close(loop, watcher)


def test_the_lobby_on_another_node_lists_the_game_as_it_changes(
    cluster: Cluster, loop: asyncio.AbstractEventLoop
) -> None:
    lobby = socket_to(loop, Client(cluster.b), "/lobby/socket")  # Public: no session.

    def listed(turns: object) -> Callable[[list[str | bytes]], bool]:
        def done(got: list[str | bytes]) -> bool:
            return any(
                game["player"] == "lara" and game["turns"] == turns
                for message in said(got)
                for game in message["games"]  # type: ignore[attr-defined]
            )

        return done

    page = playing(loop, signed_up(cluster.a, "lara"))
    send(loop, page, key("t"))
    send(loop, page, key("t"))
    got = said(read_until(loop, lobby, listed(2)))
    row = next(g for m in got for g in m["games"] if g["player"] == "lara" and g["turns"] == 2)  # type: ignore[attr-defined]
    assert row == {**row, "mode": "canvas", "level": 1, "depth": 2, "screen": "playing", "watchers": 0}
    assert "<td>lara</td>" in Client(cluster.b).request("/lobby").body
    send(loop, page, key("q"))  # Its end: gone from B's lobby too.

    def gone(got: list[str | bytes]) -> bool:
        return any(all(g["player"] != "lara" for g in m["games"]) for m in said(got))  # type: ignore[attr-defined]

    read_until(loop, lobby, gone)
    assert "<td>lara</td>" not in Client(cluster.b).request("/lobby").body
    close(loop, page)
    close(loop, lobby)


def chatting(loop: asyncio.AbstractEventLoop, client: Client, player: str) -> Socket:
    """A chat socket of `player`'s game, once it has said the chat's state."""
    socket_ = socket_to(loop, client, f"/chat/{player}/socket")
    read_until(loop, socket_, lambda got: any("open" in m for m in said(got)))
    return socket_


def lines(messages: list[str | bytes]) -> list[dict[str, object]]:
    return [m["line"] for m in said(messages) if "line" in m]  # type: ignore[misc]


def say(loop: asyncio.AbstractEventLoop, socket_: Socket, text: str) -> None:
    send(loop, socket_, json.dumps({"say": text}))


def test_chat_from_another_node_reaches_the_player_as_text_cleaned_and_cut(
    cluster: Cluster, loop: asyncio.AbstractEventLoop
) -> None:
    player = signed_up(cluster.a, "petra")
    page = playing(loop, player)
    mine = chatting(loop, player, "petra")
    theirs = chatting(loop, signed_up(cluster.b, "viktor"), "petra")
    hostile = '<img src=x onerror="alert(1)">&amp;\x00\n\u202e' + "y" * 300
    say(loop, theirs, hostile)
    got = lines(read_until(loop, mine, lambda got: bool(lines(got))))
    expected = chat.cleaned(hostile)
    assert expected.startswith('<img src=x onerror="alert(1)">&amp; y') and len(expected) == chat.MAX_TEXT
    assert [(line["from"], line["text"]) for line in got] == [("viktor", expected)]
    # The player answers from A; B's page hears it, and a page opened later is shown both.
    say(loop, mine, "hello from A")
    assert [line["text"] for line in lines(read_until(loop, theirs, lambda got: len(lines(got)) >= 2))] == [expected, "hello from A"]
    for socket_ in (mine, theirs, page):
        close(loop, socket_)


def test_a_flood_of_chat_is_refused_past_the_rate(cluster: Cluster, loop: asyncio.AbstractEventLoop) -> None:
    player = signed_up(cluster.a, "quinn")
    page = playing(loop, player)
    mine = chatting(loop, player, "quinn")
    flooder = chatting(loop, signed_up(cluster.b, "flood"), "quinn")
    for number in range(20):
        say(loop, flooder, f"spam {number}")
    refused = [m for m in said(read_until(loop, flooder, lambda got: len(said(got)) >= 20)) if "refused" in m]
    assert refused and all(m == {"refused": "Too many lines at once: wait a moment."} for m in refused)
    heard = lines(read_until(loop, mine, lambda got: len(lines(got)) >= 20 - len(refused)))
    assert [line["text"] for line in heard] == [f"spam {n}" for n in range(20 - len(refused))]
    assert len(heard) >= chat.LINES_BURST
    for socket_ in (mine, flooder, page):
        close(loop, socket_)


def test_the_player_turns_the_chat_off_for_every_node_and_on_again(
    cluster: Cluster, loop: asyncio.AbstractEventLoop
) -> None:
    player = signed_up(cluster.a, "rosa")
    page = playing(loop, player)
    mine = chatting(loop, on(player, cluster.b), "rosa")  # Her chat on B, her game on A.
    watcher = signed_up(cluster.b, "sam")
    theirs = chatting(loop, watcher, "rosa")
    say(loop, theirs, "before")
    for socket_ in (mine, theirs):
        read_until(loop, socket_, lambda got: bool(lines(got)))
    send(loop, theirs, json.dumps({"open": False}))
    assert said(read_until(loop, theirs, lambda got: bool(said(got)))) == [
        {"refused": "Only the player whose game it is turns its chat on or off."}
    ]
    send(loop, mine, json.dumps({"open": False}))
    assert said(read_until(loop, theirs, lambda got: bool(said(got))))[0]["open"] is False
    say(loop, theirs, "after")
    assert said(read_until(loop, theirs, lambda got: bool(said(got)))) == [{"refused": "rosa has turned the chat off."}]
    close(loop, theirs)  # B's room goes; a page opened on A now learns the state from the game's node.
    late = socket_to(loop, signed_up(cluster.a, "tina"), "/chat/rosa/socket")
    first = said(read_until(loop, late, lambda got: any(m.get("open") is False for m in said(got))))
    assert first[-1]["open"] is False
    again = chatting(loop, on(watcher, cluster.a), "rosa")
    send(loop, mine, json.dumps({"open": True}))
    assert said(read_until(loop, again, lambda got: bool(said(got))))[0]["open"] is True
    say(loop, again, "back")
    assert [line["text"] for line in lines(read_until(loop, mine, lambda got: bool(lines(got))))] == ["back"]
    for socket_ in (mine, late, again, page):
        close(loop, socket_)


# The embedded default: one node, its own bus; the chat panel in a real browser.


@pytest.fixture(scope="module")
def solo() -> Iterator[Server]:
    folder = Path(tempfile.mkdtemp(prefix="web-bus-solo-"))
    stand_in(folder)
    nodes: list[Server] = []
    try:
        nodes.append(start_node(folder, "solo"))
        yield nodes[0]
    finally:
        stop_nodes(folder, nodes)


def test_the_chat_panel_shows_what_a_watcher_said_as_text_beside_the_game(
    solo: Server, loop: asyncio.AbstractEventLoop, browsers: Callable[..., Any]
) -> None:
    from selenium.webdriver.common.keys import Keys

    driver = browsers()
    sign_up_in_page(driver, solo, "uma")
    driver.get(solo.url + "/play")
    text = driver.find_element(by("ID"), "chat-text")
    wait_for(lambda: driver.execute_script("return window.game.frame !== null && document.getElementById('chat').dataset.open === 'yes'"))
    # 80x50 tiles of 16 pixels, with the chat beside them, would be shrunk: the chat goes under
    # the game where the game keeps whole pixels there, and stays beside it where it would not.
    layout = "return [window.game.step, document.querySelector('.beside').className]"
    driver.set_window_size(1400, 1200)
    assert wait_for(lambda: driver.execute_script(layout) == [1, "beside stacked"])
    driver.set_window_size(1400, 1000)
    assert wait_for(lambda: driver.execute_script(layout) == [0, "beside"])
    watcher = chatting(loop, signed_up(solo, "walt"), "uma")
    hostile = '<img src=x onerror="document.title=1">'
    say(loop, watcher, hostile)
    items = wait_for(lambda: driver.find_elements(by("CSS_SELECTOR"), "#chat-lines li"))
    assert items[0].text.endswith(f"walt: {hostile}")
    assert not driver.find_elements(by("CSS_SELECTOR"), "#chat-lines img")
    assert driver.find_element(by("ID"), "chat-lines").get_attribute("aria-live") == "polite"
    # Alt+C goes to the box; what is typed there reaches the chat, not the game; Escape leaves.
    body = driver.find_element(by("TAG_NAME"), "body")
    body.send_keys(Keys.ALT + "c")
    assert driver.switch_to.active_element == text
    text.send_keys("tqx", Keys.ENTER)
    assert [line["text"] for line in lines(read_until(loop, watcher, lambda got: len(lines(got)) >= 2))] == [hostile, "tqx"]
    text.send_keys(Keys.ESCAPE)
    assert driver.switch_to.active_element != text
    events = solo.player("uma") / "events.txt"
    assert not events.exists() or '"t"' not in events.read_text()  # No key of the line reached the game.
    driver.find_element(by("ID"), "chat-switch").click()
    assert said(read_until(loop, watcher, lambda got: bool(said(got))))[0]["open"] is False
    wait_for(lambda: driver.find_element(by("ID"), "chat-state").text == "You have turned the chat off.")
    if SHOTS:
        driver.save_screenshot(str(Path(SHOTS) / "bus-chat-play-desktop.png"))
        phone = browsers(PHONE)
        sign_up_in_page(phone, solo, "vera")
        phone.get(solo.url + "/watch/uma")
        wait_for(lambda: phone.execute_script("return window.game.frame !== null"))
        phone.save_screenshot(str(Path(SHOTS) / "bus-chat-watch-phone.png"))
    close(loop, watcher)
