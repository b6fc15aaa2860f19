"""Two nodes behind nginx, for real: `python -m web --node a` and `--node b`, each with its own
folder, both on one throwaway PostgreSQL (tests/postgres_server.py) and one Redis
(tests/redis_server.py), Debian's nginx in front (tests/nginx_server.py), the real game seeded.

A player signs up on one node and in on the other; a score made on one is listed on the other;
a watcher on one follows a game on the other; sign-in limits hold across the nodes under
guesses sent at once; and the node running a game is killed (kill -9, and its game with it, as
a machine gone), after which the player's page, through nginx and on its own, reaches the other
node, which takes the game over from the files the dead one shipped to the database: Continue
brings back the same game, at most the last frame lost.  Each test skips, saying which, where
PostgreSQL, Redis, nginx or Chromium is missing; `.ci/run` installs them all.
"""

from __future__ import annotations

import concurrent.futures
import os
import re
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
from nginx_server import Nginx, running
from postgres_server import Postgres, postgres  # noqa: F401
from redis_server import redis_url  # noqa: F401
from test_web import (
    PASSWORD,
    RECORDINGS,
    Client,
    Server,
    assert_no_traceback,
    by,
    programs_in,
    shot,
    sign_up_in_page,
    wait_for,
)
from test_web_canvas import browsers as browsers  # The fixture, shared with this module.
from test_web_play import numpad, player_at, press, showing, step

from web.limits import SIGN_IN_FAILURES

ROOT = Path(__file__).resolve().parent.parent
HEARTBEAT = 0.5  # A node is taken for dead 1.5 s after its last heartbeat.


@dataclass
class Node:
    """A running node: its name, address, folder and log."""

    name: str
    port: int
    folder: Path
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def server(self) -> Server:
        """The node as test_web's clients take a server."""
        return Server(self.url, self.folder, self.process, self.log)

    def pids(self, player: str) -> list[int]:
        """The games this node started for `player`, as its log names them."""
        text = self.log.read_text(errors="replace")
        return [int(pid) for pid in re.findall(rf"\b{player} plays \(\w+\), pid (\d+)", text)]


@dataclass
class Cluster:
    nodes: dict[str, Node]
    front: Nginx

    def server(self) -> Server:
        """nginx, the one address, as test_web's clients take a server."""
        a = self.nodes["a"]
        return Server(self.front.url, a.folder, a.process, a.log)


def start_node(name: str, folder: Path, database: str, redis: str) -> Node:
    port = free_port()
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "web", "--node", name, "--port", str(port),
             "--data-dir", str(folder / "site"), "--database", database, "--redis", redis,
             "--trusted-proxy", "127.0.0.1", "--games-per-address", "20",
             "--heartbeat-seconds", str(HEARTBEAT), "--seed", "3",
             "--sign-ups", "200", "--scan-seconds", "1", "--idle-seconds", "60"],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    node = Node(name, port, folder / "site", process, log)
    wait_for(lambda: _answers(node), 30)
    return node


def _answers(node: Node) -> bool:
    import urllib.request

    assert node.process.poll() is None, node.log.read_text(errors="replace")
    try:
        with urllib.request.urlopen(node.url + "/", timeout=2):
            return True
    except OSError:
        return False


def stop_node(node: Node) -> None:
    """Stop a node (if it was not killed), its log checked for tracebacks and games left."""
    if node.process.returncode == -signal.SIGKILL:
        return
    if node.process.poll() is None:
        node.process.send_signal(signal.SIGTERM)
        try:
            node.process.wait(40)
        except subprocess.TimeoutExpired:
            node.process.kill()
            node.process.wait()
        assert node.process.returncode == 0, node.log.read_text(errors="replace")
    assert not programs_in(node.folder), programs_in(node.folder)
    assert_no_traceback(node.log.read_text(errors="replace"))


@pytest.fixture(scope="module")
def cluster(postgres: Postgres | None, redis_url: str) -> Iterator[Cluster]:  # noqa: F811
    """Nodes a and b on one database and one Redis, nginx in front; a finished game put in
    vera's folder on a before it starts (a verifies it as it starts: a score made on a)."""
    if postgres is None:
        from postgres_server import missing

        pytest.skip(str(missing()))
    database = postgres.new_database()
    top = Path(tempfile.mkdtemp(prefix="web-cluster-"))
    recordings = top / "a" / "site" / "players" / "vera" / "recordings"
    recordings.mkdir(parents=True)
    shutil.copy(RECORDINGS / "death.rec", recordings / "game-1.rec")
    nodes: dict[str, Node] = {}
    try:
        nodes["a"] = start_node("a", top / "a", database, redis_url)
        nodes["b"] = start_node("b", top / "b", database, redis_url)
        with running({name: f"127.0.0.1:{node.port}" for name, node in nodes.items()}) as front:
            yield Cluster(nodes, front)
    finally:
        for node in nodes.values():
            stop_node(node)
        shutil.rmtree(top, ignore_errors=True)


def front_client(cluster: Cluster) -> Client:
    return Client(cluster.server())


def test_a_player_signs_up_on_one_node_and_in_on_the_other(cluster: Cluster) -> None:
    a, b = cluster.nodes["a"], cluster.nodes["b"]
    assert Client(a.server()).sign_up("ann").status == 302
    on_b = Client(b.server())
    assert on_b.sign_in("ann", "not the password").status != 302
    assert on_b.sign_in("ann").status == 302
    assert "ann" in on_b.request("/").body


def test_a_score_made_on_one_node_is_listed_on_the_other(cluster: Cluster) -> None:
    b = cluster.nodes["b"]
    wait_for(lambda: "vera" in Client(b.server()).request("/scores").body, 30)


def test_sign_in_limits_hold_across_nodes_under_guesses_sent_at_once(cluster: Cluster) -> None:
    a, b = cluster.nodes["a"], cluster.nodes["b"]
    assert Client(a.server()).sign_up("gus").status == 302
    guesses = 4 * SIGN_IN_FAILURES

    def guess(number: int) -> int:
        node = (a, b)[number % 2]
        return Client(node.server()).sign_in("gus", f"wrong guess {number}").status

    with concurrent.futures.ThreadPoolExecutor(guesses) as pool:
        answers = list(pool.map(guess, range(guesses)))
    # Exactly the name's limit was answered "wrong" (403), on whichever node; the rest refused.
    assert answers.count(403) == SIGN_IN_FAILURES, answers
    assert answers.count(429) == guesses - SIGN_IN_FAILURES, answers
    assert Client(b.server()).sign_in("gus").status == 429  # The name's slots are spent.


def in_play(node: Node, player: str) -> bool:
    """Whether `node`'s lobby (every node's games, from the store) lists `player`'s game in
    play, on a floor, not at its menu."""
    body = Client(node.server()).request("/lobby").body
    return re.search(rf"<tr><td>{player}</td><td>[^<]*</td><td>[^<]*</td><td>\d+</td>", body) is not None


def running_node(cluster: Cluster, player: str) -> Node:
    """The node whose log says it started `player`'s game."""
    return wait_for(lambda: next((n for n in cluster.nodes.values() if n.pids(player)), None), 30)


def test_a_watcher_on_one_node_follows_a_game_on_the_other(
    cluster: Cluster, browsers: Callable[..., Any]
) -> None:
    player, watcher = browsers(), browsers()
    front = cluster.server()
    sign_up_in_page(player, front, "pat")
    player.get(front.url + "/play")
    showing(player, lambda page: page.status.get("screen") == "menu")
    press(player, "n")
    begun = showing(player, lambda page: "HP:" in page.text() and page.turns() == 0)
    host = running_node(cluster, "pat")
    other = cluster.nodes["b" if host.name == "a" else "a"]
    sign_up_in_page(watcher, other.server(), "wes")
    watcher.get(other.url + "/watch/pat")
    showing(watcher, lambda page: page.same_picture(begun))
    digit, there = step(begun)
    press(player, numpad(digit), numpad("5"))
    played = showing(player, lambda page: page.turns() == 2 and player_at(page) == there)
    watched = showing(watcher, lambda page: page.same_picture(played))
    assert watched.status == played.status
    player.get(front.url + "/")
    watcher.get(other.url + "/")


def sign_in_in_page(driver: Any, node: Node, name: str) -> None:
    driver.get(node.url + "/")
    form = driver.find_element(by("ID"), "signin")
    form.find_element(by("NAME"), "name").send_keys(name)
    form.find_element(by("NAME"), "password").send_keys(PASSWORD)
    form.find_element(by("CSS_SELECTOR"), "button").click()
    wait_for(lambda: driver.find_elements(by("ID"), "signed-in"), 20)


def test_a_node_taken_for_dead_that_comes_back_gives_the_game_up(
    cluster: Cluster, browsers: Callable[..., Any]
) -> None:
    first, second = browsers(), browsers()
    front = cluster.server()
    sign_up_in_page(first, front, "moe")
    first.get(front.url + "/play")
    showing(first, lambda page: page.status.get("screen") == "menu")
    press(first, "n")
    showing(first, lambda page: "HP:" in page.text() and page.turns() == 0)
    host = running_node(cluster, "moe")
    other = cluster.nodes["b" if host.name == "a" else "a"]
    wait_for(lambda: in_play(other, "moe"), 10)  # The store has heard the game begun.
    host.process.send_signal(signal.SIGSTOP)  # Stalled: its heartbeat stops, its game runs on.
    try:
        sign_in_in_page(second, other, "moe")
        second.get(other.url + "/play")  # Straight to the other node, which takes the game
        showing(second, lambda page: "HP:" in page.text(), 30)  # over and goes on with it.
    finally:
        host.process.send_signal(signal.SIGCONT)
    kept = wait_for(lambda: other.pids("moe"), 10)
    press(first, numpad("5"))  # The stalled node's copy plays a turn, and learns it lost the game.
    status = first.find_element(by("ID"), "status")
    wait_for(lambda: status.get_attribute("data-status") == "taken over", 30)
    assert "another server" in status.text
    assert other.pids("moe") == kept and all(Path(f"/proc/{pid}").exists() for pid in kept)
    second.get(front.url + "/")


def test_a_dead_nodes_game_goes_on_on_the_other_node(
    cluster: Cluster, browsers: Callable[..., Any]
) -> None:
    driver = browsers()
    front = cluster.server()
    sign_up_in_page(driver, front, "kim")
    driver.get(front.url + "/play")
    showing(driver, lambda page: page.status.get("screen") == "menu")
    press(driver, "n")
    begun = showing(driver, lambda page: "HP:" in page.text() and page.turns() == 0)
    digit, there = step(begun)
    press(driver, numpad("5"), numpad("5"), numpad(digit), numpad("5"))
    before = showing(driver, lambda page: page.turns() == 4 and player_at(page) == there)
    host = running_node(cluster, "kim")
    (game,) = host.pids("kim")
    other = cluster.nodes["b" if host.name == "a" else "a"]
    wait_for(lambda: in_play(other, "kim"), 10)  # The store has heard the game in play.
    host.process.kill()  # kill -9 of the node, and of its game: the machine gone.
    os.kill(game, signal.SIGKILL)
    host.process.wait()
    status = driver.find_element(by("ID"), "status")
    wait_for(lambda: status.get_attribute("data-status") == "reconnecting", 20)
    shot(driver, "cluster-reconnecting")
    # The page connects again through nginx on its own; the other node takes the game over
    # and goes on with it at once (--continue: the save, then what the recording holds after
    # it), no key pressed.
    after = showing(driver, lambda page: page.turns() > 0 and bool(other.pids("kim")), 60)
    assert re.search(r"kim: [1-9]\d* of the game's files written back", other.log.read_text())
    assert "--continue" in Path(f"/proc/{other.pids('kim')[0]}/cmdline").read_text()
    shot(driver, "cluster-continued")
    assert before.turns() - 1 <= after.turns() <= before.turns(), (before.status, after.status)
    if after.turns() == before.turns():
        assert player_at(after) == player_at(before)
    driver.get(front.url + "/")
