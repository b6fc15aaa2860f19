"""`python -m web`: the server's command line, and serving until stopped."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import time
from pathlib import Path

import tornado.httpserver
from tornado.ioloop import PeriodicCallback

from web import children, connections, guard, nodes
from web.limits import MAX_BODY, WINDOW_SECONDS
from web.server import application
from web.state import Config, State
from web.store import open_store


def parser() -> argparse.ArgumentParser:
    """The server's command line."""
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
                        help="the time limit of each --verify")
    parser.add_argument("--scan-seconds", type=float, default=5.0,
                        help="how often players' folders are looked at for finished games")
    parser.add_argument("--sign-ups", type=int, default=20,
                        help="sign-ups from one address every 10 minutes, at most")
    parser.add_argument("--idle-seconds", type=float, default=300.0,
                        help="how long a game with no page waits for one before it is hung up")
    parser.add_argument("--game", type=Path, default=children.MAIN, metavar="FILE",
                        help="the game's main.py (this one's; the tests run a stand-in)")
    parser.add_argument("--secure-cookies", action="store_true",
                        help="mark cookies Secure (when served over HTTPS by a proxy)")
    cluster_options(parser)
    open_options(parser)
    return parser  # fmt: skip


def cluster_options(parser: argparse.ArgumentParser) -> None:
    """The options of a server that is one node of several (docs/browser.md, Nodes)."""
    parser.add_argument("--database", type=database_url, default=None, metavar="URL",
                        help="PostgreSQL shared by a cluster's nodes (postgresql://...); "
                             "without it, SQLite in DIR")
    parser.add_argument("--redis", default=None, metavar="URL",
                        help="redis://host:port/db: the bus between the nodes of a cluster "
                        "(absent: this process's own)")
    parser.add_argument("--node", type=node_name, default=nodes.SOLO, metavar="NAME",
                        help="this server's name in a cluster (a letter, then up to 15 letters "
                        "or digits): its games' files go to the database, for another node to "
                        "take them over (docs/browser.md, Nodes)")
    parser.add_argument("--heartbeat-seconds", type=float, default=nodes.HEARTBEAT_SECONDS,
                        help="how often the node says it is alive; silent for three, it is "
                        "taken for dead and its games go to the next node a page reaches")  # fmt: skip


def open_options(parser: argparse.ArgumentParser) -> None:
    """What the server allows anyone on the internet: its timeouts, caps and trusted names."""
    # fmt: off
    parser.add_argument("--header-seconds", type=float, default=20.0,
                        help="time to send a request's headers, or between requests on one connection")
    parser.add_argument("--body-seconds", type=float, default=20.0,
                        help="time to send a request's body")
    parser.add_argument("--max-connections", type=int, default=None, metavar="N",
                        help="connections open at once, at most (default: what the file limit "
                        f"leaves, up to {connections.DEFAULT_MAX})")
    parser.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                        help="a host name the server answers to, besides 127.0.0.1, localhost "
                        "and --host (repeatable): any other Host is refused")
    parser.add_argument("--no-input-seconds", type=float, default=900.0,
                        help="how long a game may go without a key before it is saved and closed")
    parser.add_argument("--games-per-address", type=int, default=2,
                        help="games played at once from one address, at most")
    parser.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDRESS",
                        type=guard.checked_address,
                        help="a proxy's address whose X-Real-IP names the client (repeatable)")
    # fmt: on


def database_url(text: str) -> str:
    """A PostgreSQL URL, as `--database` takes (a path would otherwise reach psycopg, which
    reads it as a connection string and fails far from the mistake)."""
    if not text.startswith(("postgresql://", "postgres://")):
        raise argparse.ArgumentTypeError("a PostgreSQL URL, postgresql://USER@HOST:PORT/NAME")
    return text


def parse_args(argv: list[str] | None) -> Config:
    """The server's settings from its command line."""
    args = parser().parse_args(argv)
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
        idle_seconds=args.idle_seconds,
        game=args.game.resolve(),
        allowed_hosts=guard.allowed_hosts(args.host, args.allowed_host),
        header_seconds=args.header_seconds,
        body_seconds=args.body_seconds,
        max_connections=args.max_connections,
        no_input_seconds=args.no_input_seconds,
        games_per_address=args.games_per_address,
        trusted_proxies=frozenset(args.trusted_proxy),
        database=args.database,
        redis=args.redis,
        node=args.node,
        heartbeat_seconds=args.heartbeat_seconds,
    )


def node_name(text: str) -> str:
    """`--node`'s name, checked."""
    try:
        return nodes.checked_name(text)
    except nodes.BadNodeName as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


async def serve(config: Config) -> None:
    """Serve until SIGTERM or SIGINT; then hang up every game and wait for them to save."""
    config.root.mkdir(parents=True, exist_ok=True)
    state = State(config, await open_store(config))
    state.scores.start()
    state.scan_all()
    doors = listening(state)
    node = nodes.Node(state.store, config.node, f"{config.host}:{config.port}", config.heartbeat_seconds)
    await node.start()
    state.live.node = node
    await state.lobby.start()
    scanner = PeriodicCallback(state.live.scan_finished, config.scan_seconds * 1000)
    scanner.start()
    await sweep(state)
    sweeper = PeriodicCallback(lambda: sweep(state), WINDOW_SECONDS * 1000)
    sweeper.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stop.set)
    print(f"Serving on http://{config.host}:{config.port}/ from {config.root}", flush=True)
    await stop.wait()
    doors.close()
    scanner.stop()
    sweeper.stop()
    await shut_down(state, node)


async def shut_down(state: State, node: nodes.Node) -> None:
    """Hang up every game, wait for them to save, then let go of the node, bus and store."""
    state.live.hang_up_all()
    children.stop_all()
    for _ in range(200):  # What the hang-up's grace allows, and a little more.
        if state.live.running() == 0:
            break
        await asyncio.sleep(0.1)
    await node.settle()
    node.stop()
    await state.lobby.stop()
    await state.bus.close()  # After the games' ends, which it tells the other nodes.
    await state.store.close()


async def sweep(state: State) -> None:
    """Forget the sessions expired and the attempts out of every limit's window."""
    now = time.time()
    await state.store.forget_expired(now)
    await state.store.forget_attempts(now, WINDOW_SECONDS)


def listening(state: State) -> connections.Doors:
    """The server, listening: half-sent requests timed out, connections capped."""
    config = state.config
    server = tornado.httpserver.HTTPServer(
        application(state),
        max_body_size=MAX_BODY,
        max_buffer_size=MAX_BODY * 4,
        xheaders=False,
        idle_connection_timeout=config.header_seconds,
        body_timeout=config.body_seconds,
    )
    cap = connections.connection_cap(config.max_connections, config.max_games + config.max_watchers)
    doors = connections.Doors(server, cap, MAX_BODY * 4)
    doors.listen(config.port, config.host)
    return doors


def main(argv: list[str] | None = None) -> int:
    """`python -m web`."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    # A line for each request timed out or malformed would let anyone write the log.
    logging.getLogger("tornado.general").setLevel(logging.WARNING)
    config = parse_args(argv)
    asyncio.run(serve(config))
    return 0
