"""Nodes and nginx without a database server: node names, nginx's configuration as Debian's
nginx reads it, and a node's pages and sockets through nginx (the node `solo` behind it).
The two-node cluster is tests/test_cluster.py."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("tornado", reason="the web requirements (requirements-web.txt)")

from nginx_server import nginx_binary, running
from test_web_stream import serve

from web import nginx, nodes

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", ["", "A", "1a", "a-b", "a" * 17, "a/b", "solo\n"])
def test_a_node_name_is_a_letter_then_letters_or_digits(name: str) -> None:
    with pytest.raises(nodes.BadNodeName):
        nodes.checked_name(name)
    with pytest.raises(nginx.BadNode):
        nginx.checked({name: "127.0.0.1:8000"})


def test_the_server_refuses_a_bad_node_name() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "web", "--data-dir", "/nonexistent", "--node", "No"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2 and "no node name" in done.stderr


@pytest.mark.parametrize("address", ["", "host", "a b:80", "x:80;", "h:1}"])
def test_an_address_nginx_cant_hold_is_refused(address: str) -> None:
    with pytest.raises(nginx.BadNode):
        nginx.checked({"a": address})


def test_nginx_takes_the_configuration_written(tmp_path: Path) -> None:
    binary = nginx_binary()
    written = subprocess.run(
        [sys.executable, "-m", "web.nginx", "--listen", "127.0.0.1:1", "a=127.0.0.1:2", "b=[::1]:3"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=True,
    ).stdout  # fmt: skip
    assert "location /node/a/" in written and "location /node/b/" in written
    for folder in ("logs", "tmp"):
        (tmp_path / folder).mkdir()
    (tmp_path / "nginx.conf").write_text(written)
    checked = subprocess.run(
        [binary, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"),
         "-e", str(tmp_path / "logs" / "error.log"), "-g", "daemon off;"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stderr


def test_a_node_serves_its_pages_at_the_front_and_at_its_own_location(tmp_path: Path) -> None:
    served = serve(tmp_path)
    server = next(served)
    port = server.url.rsplit(":", 1)[1]
    with running({"solo": f"127.0.0.1:{port}"}) as front:
        for path in ("/", "/node/solo/", "/lobby", "/node/solo/scores"):
            with urllib.request.urlopen(front.url + path, timeout=20) as answer:
                assert answer.status == 200 and b"Tombs" in answer.read()
    assert next(served, None) is None  # The server stopped cleanly, no traceback in its log.


def test_a_node_starting_lets_go_of_the_games_a_killed_run_of_it_left(tmp_path: Path) -> None:
    from web.store_sqlite import SqliteStore

    async def started_again() -> list[str]:
        store = SqliteStore(tmp_path)
        now = time.time()
        for name in ("a", "b"):
            await store.heartbeat(name, "127.0.0.1:1", now)
        assert await store.claim("kim", "a", "canvas", now, 6) == "a"  # Then a was killed.
        assert await store.claim("lee", "b", "canvas", now, 6) == "b"
        node = nodes.Node(store, "a", "127.0.0.1:1")
        await node.start()
        node.stop()
        playing = [game.player for game in await store.playing(time.time(), 6)]
        await store.close()
        return playing

    loop = asyncio.new_event_loop()  # Never the thread's: the tests after find it as it was.
    try:
        assert loop.run_until_complete(started_again()) == ["lee"]
    finally:
        loop.close()
