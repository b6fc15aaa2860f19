#!/usr/bin/env python3
"""A cluster under load: two nodes behind nginx, on PostgreSQL and Redis, many games at once;
what each game, watcher and key costs, and what a cluster of 1,000 or 10,000 games would need.

    python tools/cluster_load.py                    # 2 nodes, 40 games, 40 watchers, 40 steps each
    python tools/cluster_load.py --games 8 --watchers 8 --presses 10
    python tools/cluster_load.py --write            # and docs/browser.md's cluster figures and sizing

It starts a throwaway PostgreSQL (with pg_stat_statements), a Redis, two nodes (`python -m web
--node a` and `b`, real games, seeded) and nginx in front (tests/postgres_server.py,
tests/redis_server.py, tests/nginx_server.py), signs the players up through nginx and opens
each one's `/play/socket` there as the page does (following a "moved" answer to
`/node/NAME/play/socket`); each starts a new game; one watcher a game opens `/watch/NAME/socket`
through nginx's `/node/NAME/`, every other one on the node that does not run the game (its frames
through Redis).
Then every player steps west and east in turn four times a second, each answer waited for
(tools/web_load.py's `play`), and the tool counts, between the start and the end of the steps:

- key to frame: from the key sent to nginx to the first frame message back (p50, p95);
- the database's transactions (pg_stat_database's xact_commit) and statements
  (pg_stat_statements' calls), and Redis's commands (INFO commandstats) and bytes sent, per key;
- the CPU time (utime + stime, /proc) of the nodes, the games, PostgreSQL, Redis and nginx, per key;
- with the games idle for a while before: each one's CPU and the database's and Redis's work per
  second; a game's memory (its process's VmRSS) and a node's (its VmRSS's growth per game);
  a watcher's (the nodes' VmRSS's growth per watcher);
- what one PostgreSQL and one Redis take on this machine: the store's own `append_file` from 32
  tasks for 3 s (appends a second), and `redis-benchmark`'s PUBLISH a second.

From those, the sizing: for 1,000 and 10,000 games at once, each pressing `--keys-per-second`
keys (an assumption, said as one: nothing here measures a player), the cores, memory, database
transactions and Redis commands needed, which single part gives out first, and how it is split.
Every client is in this one process, on the same 2 cores as everything else: the times include
the clients' own delays, never less.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import functools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tools")]

import doc_section  # noqa: E402
import loopback  # noqa: E402
import nginx_server  # noqa: E402
import postgres_server  # noqa: E402
import redis_server  # noqa: E402
from web_load import NEW_GAME, Account, Page, is_playing, percentile, play, resident_kib  # noqa: E402

PAGE = ROOT / "docs" / "browser.md"
IDLE_SECONDS = 5.0
SPLIT_FURTHER = (
    "How it is split further: the game files' appends, {share:.0%} of a key's database "
    "transactions here, go "
    "to a database chosen by a hash of the player's name (accounts, sessions, limits and scores "
    "stay in one), or each node gathers its games' appends into one transaction every 20 ms "
    "(a node's transactions a second then stay 50 however many games it runs); the frames' "
    "channels go to a Redis chosen by a hash of the player's name (a watcher's node subscribes "
    "there), or to a Redis Cluster's sharded pub/sub (SPUBLISH), so that no one Redis carries "
    "every game; and the nodes, machines of their own, are as many as memory asks."
)
# Redis's commands that this tool's own reading of it makes: not counted.
OURS = frozenset(
    f"cmdstat_{name}" for name in ("info", "hello", "client|setinfo", "client", "ping", "select")
)
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user and system), 0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
    return found


@dataclass
class Parts:
    """The processes of each part of the cluster, by what they are."""

    nodes: list[int]
    postgres: int
    redis: int
    nginx: int

    def groups(self) -> dict[str, list[int]]:
        games = [child for node in self.nodes for child in children(node)]
        return {
            "nodes": self.nodes,
            "games": games,
            "PostgreSQL": [self.postgres, *children(self.postgres)],
            "Redis": [self.redis],
            "nginx": [self.nginx, *children(self.nginx)],
        }

    def cpu(self) -> dict[str, float]:
        return {name: sum(map(cpu_seconds, pids)) for name, pids in self.groups().items()}


@dataclass
class Counters:
    """The database's and Redis's counts at one moment, and the CPU time of every part."""

    commits: int
    statements: int
    appends: int  # The game files' appends (their INSERT).
    redis_commands: int
    redis_bytes: int
    cpu: dict[str, float]
    at: float

    def minus(self, earlier: Counters) -> dict[str, float]:
        spent = {f"cpu {name}": self.cpu[name] - earlier.cpu.get(name, 0.0) for name in self.cpu}
        return {
            "commits": self.commits - earlier.commits,
            "statements": self.statements - earlier.statements,
            "appends": self.appends - earlier.appends,
            "redis commands": self.redis_commands - earlier.redis_commands,
            "redis bytes": self.redis_bytes - earlier.redis_bytes,
            "seconds": self.at - earlier.at,
            **spent,
        }


def counters(database: str, redis_url: str, parts: Parts) -> Counters:
    """Read every count now (PostgreSQL's statistics flushed first: they lag up to a second)."""
    import psycopg
    import redis

    time.sleep(1.2)
    with psycopg.connect(database, autocommit=True) as conn:
        conn.execute("SELECT pg_stat_clear_snapshot()")
        commits = conn.execute(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
        calls = conn.execute("SELECT coalesce(sum(calls), 0) FROM pg_stat_statements").fetchone()
        appends = conn.execute(
            "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements "
            "WHERE query LIKE 'INSERT INTO game_files%'"
        ).fetchone()
    client = redis.Redis.from_url(redis_url)
    stats = client.info("commandstats")
    bytes_out = client.info("stats")["total_net_output_bytes"]
    client.close()
    assert commits is not None and calls is not None and appends is not None
    redis_calls = sum(int(value["calls"]) for name, value in stats.items() if name not in OURS)
    # This reading's own few statements are in the counts: nothing beside a run's thousands.
    return Counters(
        int(commits[0]),
        int(calls[0]),
        int(appends[0]),
        redis_calls,
        int(bytes_out),
        parts.cpu(),
        time.monotonic(),
    )


@dataclass
class Measured:
    """Everything one run measured."""

    games: int
    watchers: int
    presses: int
    keys: int = 0
    unanswered: int = 0
    key_to_frame: list[float] = field(default_factory=list)
    on: dict[str, int] = field(default_factory=dict)  # Games on each node.
    idle: dict[str, float] = field(default_factory=dict)  # Per second, all games idle.
    busy: dict[str, float] = field(default_factory=dict)  # Over the steps.
    game_kib: float = 0.0
    node_kib_per_game: float = 0.0
    watcher_kib: float = 0.0
    appends_per_second: float = 0.0
    publishes_per_second: float = 0.0
    cores: int = os.cpu_count() or 1
    memory_gib: float = 0.0
    load: float = 0.0  # The machine's load average over the minute before the run.


@dataclass
class Services:
    """PostgreSQL, Redis and the folder everything else runs in."""

    postgres: postgres_server.Postgres
    database: str
    redis: subprocess.Popen[bytes]
    redis_url: str
    folder: Path

    @property
    def postmaster(self) -> int:
        return int((self.postgres.folder / "data" / "postmaster.pid").read_text().split()[0])


@contextlib.contextmanager
def services() -> Iterator[Services]:
    """A throwaway PostgreSQL counting its statements, and a Redis."""
    import psycopg

    server = postgres_server.start()
    folder = Path(tempfile.mkdtemp(prefix="cluster-load-"))
    redis: subprocess.Popen[bytes] | None = None
    try:
        with psycopg.connect(server.url(), autocommit=True) as conn:
            conn.execute("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'")
        bin_folder = postgres_server.binaries()
        assert bin_folder is not None
        postgres_server._run([str(bin_folder / "pg_ctl"), "-D", str(server.folder / "data"), "-l", str(server.folder / "log"), "-w", "restart"],
                             server.folder)  # fmt: skip
        database = server.new_database()
        with psycopg.connect(database, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION pg_stat_statements")
        (folder / "redis").mkdir()
        redis, url = redis_server.start(folder / "redis")
        yield Services(server, database, redis, url, folder)
    finally:
        if redis is not None:
            redis.terminate()
            redis.wait(20)
        postgres_server.stop(server)
        shutil.rmtree(folder, ignore_errors=True)


@dataclass
class Node:
    """A node's process and port."""

    process: subprocess.Popen[bytes]
    port: int


def start_nodes(where: Services, games: int) -> dict[str, Node]:
    """Nodes a and b on the services, each able to take every game."""
    nodes = {}
    for name in ("a", "b"):
        port = loopback.free_port()
        with (where.folder / f"{name}.log").open("wb") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "web", "--node", name, "--port", str(port),
                 "--data-dir", str(where.folder / name), "--database", where.database,
                 "--redis", where.redis_url, "--trusted-proxy", "127.0.0.1", "--seed", "3",
                 "--max-games", str(games), "--max-watchers", str(games * 4),
                 "--sign-ups", str(games * 3), "--idle-seconds", "600", "--games-per-address", str(games)],
                cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
        nodes[name] = Node(process, port)
    for name, node in nodes.items():
        for _ in range(300):
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"http://127.0.0.1:{node.port}/", timeout=1).read()
                break
            assert node.process.poll() is None, (where.folder / f"{name}.log").read_text(
                errors="replace"
            )
            time.sleep(0.1)
    return nodes


def stop_nodes(nodes: dict[str, Node]) -> None:
    for node in nodes.values():
        node.process.send_signal(signal.SIGTERM)
    for node in nodes.values():
        try:
            node.process.wait(60)
        except subprocess.TimeoutExpired:
            node.process.kill()
            node.process.wait()


async def opened(account: Account, path: str) -> Page:
    """A socket opened through nginx as the page opens it: a "moved" answer followed."""
    page = await account.open(path)
    await page.until(lambda: bool(page.got))
    first = page.got[0].data
    if isinstance(first, str) and json.loads(first).get("status") == "moved":
        return await account.open(json.loads(first)["socket"])
    return page


def played_on(folder: Path) -> dict[str, str]:
    """The node each player's game runs on, as the nodes' logs say."""
    return {
        player: name
        for name in "ab"
        for player in re.findall(
            r"\b(player\d+) plays \(canvas\)", (folder / f"{name}.log").read_text(errors="replace")
        )
    }


def watch_path(number: int, games: int, placed: dict[str, str]) -> str:
    """Watcher `number`'s socket: of game `number % games`, on the node that runs it for every
    other watcher and on the other node (its frames through Redis) for the rest."""
    player = f"player{number % games}"
    node = placed[player] if number % 2 else {"a": "b", "b": "a"}[placed[player]]
    return f"/node/{node}/watch/{player}/socket"


def games_on(folder: Path) -> dict[str, int]:
    """The games each node started, as its log says."""
    return {
        name: (folder / f"{name}.log").read_text(errors="replace").count("plays (canvas)")
        for name in "ab"
    }


def node_kib(nodes: dict[str, Node]) -> int:
    return sum(resident_kib(node.process.pid) for node in nodes.values())


async def measure(
    where: Services, nodes: dict[str, Node], nginx: nginx_server.Nginx, figures: Measured
) -> None:
    """The run itself, through `nginx`."""
    front = nginx.url
    parts = Parts([node.process.pid for node in nodes.values()], where.postmaster,
                  where.redis.pid, nginx.process.pid)  # fmt: skip
    players = [Account(front, f"player{n}") for n in range(figures.games)]
    viewers = [Account(front, f"viewer{n}") for n in range(-(-figures.watchers // 3))]
    before = node_kib(nodes)
    pages = [await opened(player, "/play/socket") for player in players]
    for page in pages:
        assert page.connection is not None
        await page.connection.write_message(NEW_GAME)
    for page in pages:
        await page.until(functools.partial(is_playing, page))
    await asyncio.sleep(1.0)
    games = [pid for node in nodes.values() for pid in children(node.process.pid)]
    figures.game_kib = sum(map(resident_kib, games)) / len(games)
    figures.node_kib_per_game = (node_kib(nodes) - before) / figures.games
    figures.on = games_on(where.folder)
    quiet = counters(where.database, where.redis_url, parts)
    await asyncio.sleep(IDLE_SECONDS)
    figures.idle = per(counters(where.database, where.redis_url, parts).minus(quiet), "seconds")
    before = node_kib(nodes)
    placed = played_on(where.folder)
    watching = [
        await viewers[n // 3].open(watch_path(n, figures.games, placed))
        for n in range(figures.watchers)
    ]
    for page in watching:
        await page.until(page.has_frame)
    await asyncio.sleep(1.0)
    figures.watcher_kib = (node_kib(nodes) - before) / max(1, figures.watchers)
    start = counters(where.database, where.redis_url, parts)
    load = Loaded(figures.presses)
    await asyncio.gather(*(play(page, figures.presses, load) for page in pages))  # type: ignore[arg-type]
    busy = counters(where.database, where.redis_url, parts).minus(start)
    figures.key_to_frame, figures.unanswered = load.key_to_frame, load.unanswered
    figures.keys = figures.games * figures.presses
    figures.busy = {name: (value - figures.idle.get(name, 0.0) * busy["seconds"]) / figures.keys
                    for name, value in busy.items() if name != "seconds"}  # fmt: skip


def per(counts: dict[str, float], by: str) -> dict[str, float]:
    return {name: value / counts[by] for name, value in counts.items() if name != by}


@dataclass
class Loaded:
    """What web_load's `play` fills in (its Figures' fields that it uses)."""

    presses: int
    key_to_frame: list[float] = field(default_factory=list)
    step_bytes: list[int] = field(default_factory=list)
    unanswered: int = 0


async def appends_per_second(database: str, tasks: int = 32, seconds: float = 3.0) -> float:
    """What one PostgreSQL takes of the store's own appends (a line each), from `tasks` at once."""
    from web.store_postgres import PostgresStore

    store = await PostgresStore.open(database)
    await store.heartbeat("bench", "127.0.0.1:1", time.time())
    for number in range(tasks):  # Each game held by the node "bench", as a node holds its own.
        await store.claim(f"bench{number}", "bench", "canvas", time.time(), 60)
    done = 0
    end = time.monotonic() + seconds

    async def appending(number: int) -> None:
        nonlocal done
        offset, line = 0, b"key kp_4\n"
        while time.monotonic() < end:
            assert await store.append_file(
                f"bench{number}", "bench", "recordings/game-1.rec", offset, line
            )
            offset += len(line)
            done += 1

    await asyncio.gather(*(appending(number) for number in range(tasks)))
    for number in range(tasks):
        await store.forget_files(f"bench{number}", "bench")
        await store.release(f"bench{number}", "bench")
    await store.close()
    return done / seconds


def publishes_per_second(redis_url: str) -> float:
    """What one Redis takes of PUBLISH (a step's frame, 120 bytes), by redis-benchmark."""
    host, port = redis_url.split("//")[1].split("/")[0].split(":")
    said = subprocess.run(
        ["redis-benchmark", "-h", host, "-p", port, "-n", "200000", "-c", "50", "-q",
         "PUBLISH", "frames:bench", "x" * 120],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout  # fmt: skip
    found = re.findall(r"([0-9.]+) requests per second", said)
    assert found, said
    return float(found[-1])


def run(games: int, watchers: int, presses: int) -> Measured:
    """One run, on services and nodes of its own."""
    figures = Measured(games, watchers, presses, load=os.getloadavg()[0])
    with services() as where:
        nodes = start_nodes(where, games)
        try:
            addresses = {name: f"127.0.0.1:{node.port}" for name, node in nodes.items()}
            with nginx_server.running(addresses) as nginx:
                asyncio.run(measure(where, nodes, nginx, figures))
        finally:
            stop_nodes(nodes)
        figures.appends_per_second = asyncio.run(appends_per_second(where.database))
        figures.publishes_per_second = publishes_per_second(where.redis_url)
    figures.memory_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / (1 << 30)
    return figures


def ms(seconds: float) -> str:
    return f"{1000 * seconds:.2f} ms"


def spread(seconds: Sequence[float]) -> str:
    p50, p95, worst = (1000 * percentile(seconds, share) for share in (0.5, 0.95, 1.0))
    return f"p50 {p50:.1f} ms, p95 {p95:.1f} ms, worst {worst:.1f} ms"


def figure_lines(m: Measured) -> list[str]:
    """The measured figures, a line each."""
    k, i, g = m.busy, m.idle, m.games
    on = ", ".join(f"{name}: {count}" for name, count in sorted(m.on.items()))
    return [
        f"2 nodes behind nginx, {g} games ({on}), {m.watchers} watchers through nginx (half on the "
        f"node that does not run the game, its frames through Redis), {m.presses} steps a game: {m.keys} keys ({m.unanswered} changed nothing on screen in 2 s); "
        f"the machine's load average {m.load:.1f} as it began (other work on its {m.cores} cores)",
        f"key to frame through nginx: {spread(m.key_to_frame)}",
        f"a key (over the steps, less what the idle games did meanwhile): {k['commits']:.2f} database "
        f"transactions (of which {k['appends']:.2f} the game files' appends) and {k['statements']:.2f} statements; {k['redis commands']:.2f} Redis commands, "
        f"{k['redis bytes']:.0f} bytes sent by Redis",
        f"a key's CPU: nodes {ms(k['cpu nodes'])}, the game {ms(k['cpu games'])}, PostgreSQL "
        f"{ms(k['cpu PostgreSQL'])}, Redis {ms(k['cpu Redis'])}, nginx {ms(k['cpu nginx'])}",
        f"a game idle, a second: CPU {ms((i['cpu nodes'] + i['cpu games']) / g)} (its node's share and "
        f"its process), {i['commits'] / g:.3f} database transactions, {i['redis commands'] / g:.3f} "
        "Redis commands (heartbeats and the lobby's status included, shared out)",
        f"memory: a game's process {m.game_kib / 1024:.1f} MiB (VmRSS), its node {m.node_kib_per_game:.0f} "
        f"KiB more; a watcher {m.watcher_kib:.0f} KiB of its node's",
        f"one PostgreSQL here: {m.appends_per_second:,.0f} of the store's appends a second (32 at once, "
        "from one client process); "
        f"one Redis here: {m.publishes_per_second:,.0f} PUBLISH a second (redis-benchmark, 50 clients)",
    ]


@dataclass
class Need:
    """What `games` games at once need, from the measured costs."""

    games: int
    cores: float
    gib: float
    commits: float
    redis: float
    machines: int


def need(m: Measured, games: int, keys: float, watchers: float) -> Need:
    k, i = m.busy, m.idle
    front = ("cpu nodes", "cpu games", "cpu nginx")
    cores = games * (
        sum(i[name] for name in front) / m.games + keys * sum(k[name] for name in front)
    )
    gib = games * (m.game_kib + m.node_kib_per_game + watchers * m.watcher_kib) / (1 << 20)
    commits = games * (i["commits"] / m.games + keys * k["commits"])
    redis = games * (i["redis commands"] / m.games + keys * k["redis commands"])
    machines = int(max(cores / m.cores, gib / m.memory_gib)) + 1
    return Need(games, cores, gib, commits, redis, machines)


def sizing_lines(m: Measured, keys: float, watchers: float) -> list[str]:
    """The sizing section's text, from `m`."""
    rows = [need(m, games, keys, watchers) for games in (1_000, 10_000)]
    per_game_db = rows[0].commits / rows[0].games
    per_game_redis = rows[0].redis / rows[0].games
    db_most, redis_most = (
        m.appends_per_second / per_game_db,
        m.publishes_per_second / per_game_redis,
    )
    first, most = ("PostgreSQL", db_most) if db_most < redis_most else ("Redis", redis_most)
    cells = [
        ("cores for the nodes, the games and nginx", "{:,.0f}", "cores"),
        ("memory (games, nodes, watchers)", "{:,.0f} GiB", "gib"),
        ("database transactions a second", "{:,.0f}", "commits"),
        ("Redis commands a second", "{:,.0f}", "redis"),
        (
            f"machines like this one ({m.cores} cores, {m.memory_gib:.0f} GiB) for the nodes",
            "{:,}",
            "machines",
        ),
    ]
    table = ["| | 1,000 games | 10,000 games |", "| --- | --- | --- |"]
    table += [f"| {label} | " + " | ".join(form.format(getattr(row, name)) for row in rows) + " |"
              for label, form, name in cells]  # fmt: skip
    table += [
        "| PostgreSQLs like the one here | "
        + " | ".join(f"{row.commits / m.appends_per_second:,.1f}" for row in rows) + " |",
        "| Redis servers like the one here | "
        + " | ".join(f"{row.redis / m.publishes_per_second:,.2f}" for row in rows) + " |",
    ]  # fmt: skip
    return [
        f"Each game's player pressing {keys:g} keys a second and {watchers:g} watcher a game (an "
        "assumption, not a measure: nothing here measures a player), from the costs above:",
        "",
        *table,
        "",
        f"What gives out first: one {first}, at about {most:,.0f} games at once (one PostgreSQL here took "
        f"{m.appends_per_second:,.0f} appends a second, {db_most:,.0f} games' worth; one Redis "
        f"{m.publishes_per_second:,.0f} PUBLISH a second, {redis_most:,.0f} games' worth). The nodes "
        "never do: each game is a process of its own and each node holds its own games, so nodes are "
        "added behind nginx (its `/` in turn, `/node/NAME/` each), and memory, the games' processes "
        "above all, decides how many machines.",
        "",
        SPLIT_FURTHER.format(share=m.busy["appends"] / m.busy["commits"]),
    ]


def write(m: Measured, keys: float, watchers: float, commit: str) -> None:
    """docs/browser.md's cluster section, made anew (`doc_section`)."""
    today = datetime.date.today().isoformat()
    text = (
        f"Measured by `python tools/cluster_load.py --write` on {today}, at commit {commit}, on the "
        f"project's {m.cores}-core machine (both nodes, the games, PostgreSQL, Redis, nginx and "
        "every client on it):\n\n"
        + "".join(f"- {line}\n" for line in figure_lines(m))
        + "\n### Sizing\n\n"
        + "".join(f"{line}\n" for line in sizing_lines(m, keys, watchers))
    )
    doc_section.write("cluster figures", "tools/cluster_load.py", text, PAGE)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--watchers", type=int, default=40)
    parser.add_argument("--presses", type=int, default=40)
    parser.add_argument(
        "--keys-per-second",
        type=float,
        default=2.0,
        help="each player's keys a second, for the sizing (an assumption)",
    )
    parser.add_argument(
        "--write", action="store_true", help="write the figures into docs/browser.md"
    )
    args = parser.parse_args()  # fmt: skip
    figures = run(args.games, args.watchers, args.presses)
    watchers = args.watchers / args.games
    print(
        "\n".join(
            [*figure_lines(figures), "", *sizing_lines(figures, args.keys_per_second, watchers)]
        )
    )
    if args.write:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        write(figures, args.keys_per_second, watchers, commit)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    raise SystemExit(main())
