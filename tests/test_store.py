"""The server's store (`web.store`), every test run against both of its implementations: SQLite
in a temporary folder and PostgreSQL in a fresh database of a throwaway server
(`postgres_server`; those cases skip, saying why, where PostgreSQL is missing).

Steps that must hold under concurrency (`take`, `claim`, making the schema) are run as many
tasks at once, and across two stores on one database, as two nodes would.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import TypeVar

import pytest

pytest.importorskip("tornado", reason="the web requirements (requirements-web.txt)")

from postgres_server import postgres, postgres_url  # noqa: F401

from web import nodes
from web.state import Config
from web.store import Game, Store, open_store

T = TypeVar("T")
WINDOW = 600.0
NOW = 1_000_000.0


@pytest.fixture(params=["sqlite", "postgresql"])
def config(request: pytest.FixtureRequest, tmp_path: Path) -> Config:
    """A server's settings naming an empty store of each kind."""
    if request.param == "sqlite":
        return Config(root=tmp_path)
    url: str = request.getfixturevalue("postgres_url")
    return Config(root=tmp_path, database=url)


def run(config: Config, body: Callable[[Store], Awaitable[T]]) -> T:
    """`body` with the store open, in an event loop of its own."""

    async def opened() -> T:
        store = await open_store(config)
        try:
            return await body(store)
        finally:
            await store.close()

    return in_a_loop(opened())


def in_a_loop(work: Coroutine[object, object, T]) -> T:
    """Run `work` in a new event loop, never made the thread's current one: `asyncio.run`
    would leave the thread with none (`set_event_loop(None)`), which later tests' tornado
    clients, made outside a running loop, don't expect."""
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(work)
    finally:
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()


def a_game(player: str = "ada", depth: int = 3, xp: int = 50, turns: int = 400) -> Game:
    return Game(0, player, depth, 2, xp, turns, "Killed by an Orc", None, NOW)


# Players and sessions.


def test_a_name_is_taken_once_and_its_password_kept(config: Config) -> None:
    async def body(store: Store) -> None:
        assert await store.add_player("ada", b"salt", b"hash")
        assert not await store.add_player("ada", b"other", b"other")
        assert await store.password_of("ada") == (b"salt", b"hash")
        assert await store.password_of("nobody") is None
        assert await store.player_count() == 1

    run(config, body)


def test_a_session_names_its_player_until_it_expires_or_ends(config: Config) -> None:
    async def body(store: Store) -> None:
        await store.add_player("ada", b"s", b"h")
        await store.add_session("token-a", "ada", NOW + 10)
        await store.add_session("token-b", "ada", NOW + 100)
        assert await store.session_player("token-a", NOW) == "ada"
        assert await store.session_player("token-a", NOW + 10) is None
        assert await store.session_player("unknown", NOW) is None
        await store.end_session("token-b")
        assert await store.session_player("token-b", NOW) is None
        await store.forget_expired(NOW + 50)
        assert await store.session_player("token-a", NOW) is None

    run(config, body)


def test_what_is_stored_outlives_the_store_closed_and_opened_again(config: Config) -> None:
    assert run(config, lambda store: store.add_player("ada", b"s", b"h"))
    assert run(config, lambda store: store.password_of("ada")) == (b"s", b"h")


# Limits.


def test_take_counts_up_to_the_limit_in_the_window_and_gives_back(config: Config) -> None:
    async def body(store: Store) -> None:
        taken = [await store.take("sign-in", "ada", 3, WINDOW, NOW + i) for i in range(4)]
        assert None not in taken[:3] and taken[3] is None
        assert len(set(taken[:3])) == 3
        assert await store.take("sign-in", "bob", 3, WINDOW, NOW) is not None  # Keys apart.
        assert await store.take("sign-up", "ada", 3, WINDOW, NOW) is not None  # Kinds apart.
        first = taken[0]
        assert first is not None
        await store.give_back(first)
        assert await store.take("sign-in", "ada", 3, WINDOW, NOW + 5) is not None
        assert await store.take("sign-in", "ada", 3, WINDOW, NOW + 6) is None
        # Out of the window, the early ones no longer count.
        assert await store.take("sign-in", "ada", 3, WINDOW, NOW + WINDOW + 2) is not None

    run(config, body)


def test_forgotten_attempts_count_no_more(config: Config) -> None:
    async def body(store: Store) -> None:
        for i in range(3):
            assert await store.take("sign-up", "10.0.0.1", 3, WINDOW, NOW + i) is not None
        await store.forget_attempts(NOW + WINDOW + 1.5, WINDOW)
        # Only the last (at NOW + 2) is left, counted by a window that reaches back far.
        assert await store.take("sign-up", "10.0.0.1", 2, 10 * WINDOW, NOW + 3) is not None
        assert await store.take("sign-up", "10.0.0.1", 2, 10 * WINDOW, NOW + 4) is None

    run(config, body)


@pytest.mark.parametrize(
    ("kind", "key", "limit", "sent"),
    [("sign-in", "ada", 10, 120), ("sign-up", "127.0.0.7", 20, 60)],
)
def test_takes_sent_at_once_never_pass_the_limit(
    config: Config, kind: str, key: str, limit: int, sent: int
) -> None:
    """The red team's cases: 120 sign-in guesses on one name, 60 sign-ups from one address,
    all at once from two nodes (two stores on one database): only the limit's worth counted."""

    async def body(store: Store) -> None:
        other = await open_store(config)
        try:
            stores = [store, other] * (sent // 2)
            taken = await asyncio.gather(
                *(each.take(kind, key, limit, WINDOW, NOW) for each in stores)
            )
        finally:
            await other.close()
        assert sum(slot is not None for slot in taken) == limit
        assert await store.take(kind, key, limit, WINDOW, NOW) is None

    run(config, body)


# Verified games.


def test_a_game_is_listed_once_by_its_identity(config: Config) -> None:
    async def body(store: Store) -> None:
        assert await store.add_game(a_game(), "game-1", "text one")
        assert not await store.add_game(a_game(turns=999), "game-1", "padded text one")
        assert await store.add_game(a_game("bob", depth=5), "game-2", "text two")
        listed = await store.games()
        assert [game.player for game in listed] == ["bob", "ada"]  # Deepest first.
        ada = listed[1]
        assert ada.turns == 400 and ada.cause == "Killed by an Orc" and ada.daily is None
        assert await store.game(ada.id) == ada
        assert await store.recording(ada.id) == "text one"
        assert await store.game(ada.id + 1000) is None
        assert await store.recording(ada.id + 1000) is None
        assert len(await store.games(limit=1)) == 1

    run(config, body)


def test_a_checked_file_is_remembered_passed_or_not(config: Config) -> None:
    async def body(store: Store) -> None:
        assert not await store.was_checked("ab" * 32)
        await store.add_checked("ab" * 32, False, "not verified")
        await store.add_checked("ab" * 32, True, "verified")  # Checked again: replaced.
        assert await store.was_checked("ab" * 32)

    run(config, body)


# Nodes and the games in play.


def test_nodes_alive_are_the_ones_seen_lately(config: Config) -> None:
    async def body(store: Store) -> None:
        await store.heartbeat("a", "127.0.0.1:8001", NOW)
        await store.heartbeat("b", "127.0.0.1:8002", NOW - 30)
        await store.heartbeat("a", "127.0.0.1:9001", NOW + 1)
        assert await store.nodes(NOW + 1, 10) == {"a": "127.0.0.1:9001"}
        assert await store.nodes(NOW + 1, 60) == {"a": "127.0.0.1:9001", "b": "127.0.0.1:8002"}

    run(config, body)


def test_a_players_game_is_claimed_by_one_node_until_it_is_stale_or_released(
    config: Config,
) -> None:
    async def body(store: Store) -> None:
        await store.heartbeat("a", "a:1", NOW)
        await store.heartbeat("b", "b:1", NOW)
        assert await store.claim("ada", "a", "canvas", NOW, 10) == "a"
        assert await store.claim("ada", "a", "terminal", NOW, 10) == "a"  # Held: kept.
        assert await store.claim("ada", "b", "canvas", NOW + 1, 10) == "a"
        await store.release("ada", "b")  # Not b's to release.
        assert await store.claim("ada", "b", "canvas", NOW + 2, 10) == "a"
        await store.heartbeat("b", "b:1", NOW + 20)  # a is not seen for 20 s: b takes it.
        assert await store.claim("ada", "b", "canvas", NOW + 20, 10) == "b"
        await store.release("ada", "b")
        assert await store.claim("ada", "a", "canvas", NOW + 20, 10) == "a"

    run(config, body)


def test_the_claim_held_is_told_its_node_alive_or_not_with_what_its_game_shows(
    config: Config,
) -> None:
    """What a node about to claim a game learns: whose it was, and whether it was in play
    (`nodes.taken_over`: a dead node's game in play goes on at once where it is taken)."""

    async def body(store: Store) -> None:
        assert await store.held("ada") is None
        await store.heartbeat("a", "a:1", NOW)
        await store.claim("ada", "a", "canvas", NOW, 10)
        await store.set_status("ada", "a", {"screen": "playing", "turns": 4}, 0, NOW, NOW)
        held = await store.held("ada")  # a is long dead by now: told all the same.
        assert held is not None and (held.node, held.mode, held.status) == ("a", "canvas", {"screen": "playing", "turns": 4})
        assert nodes.taken_over(held, "b") and not nodes.taken_over(held, "a")
        await store.set_status("ada", "a", {"screen": "menu"}, 0, NOW, NOW)
        assert not nodes.taken_over(await store.held("ada"), "b")
        await store.release("ada", "a")
        assert await store.held("ada") is None

    run(config, body)


def test_claims_sent_at_once_agree_on_one_node(config: Config) -> None:
    async def body(store: Store) -> None:
        other = await open_store(config)
        try:
            names = [f"n{i}" for i in range(20)]
            for name in names:
                await store.heartbeat(name, name, NOW)
            stores = [store, other] * 10
            won = await asyncio.gather(
                *(each.claim("ada", name, "canvas", NOW, 10) for each, name in zip(stores, names, strict=True))
            )
        finally:
            await other.close()
        assert len(set(won)) == 1 and won[0] in names

    run(config, body)


def test_the_games_in_play_are_those_of_nodes_alive_with_their_status(config: Config) -> None:
    async def body(store: Store) -> None:
        await store.heartbeat("a", "a:1", NOW)
        await store.heartbeat("b", "b:1", NOW - 60)
        assert await store.claim("ada", "a", "canvas", NOW, 10) == "a"
        assert await store.claim("bob", "b", "terminal", NOW - 60, 10) == "b"
        await store.set_status("ada", "a", {"screen": "playing", "depth": 2}, 3, NOW + 1, NOW + 1)
        await store.set_status("ada", "b", {"screen": "dead"}, 0, NOW, NOW)  # Not b's game.
        (ada,) = await store.playing(NOW + 2, 10)
        assert (ada.player, ada.node, ada.mode, ada.started) == ("ada", "a", "canvas", NOW)
        assert ada.status == {"screen": "playing", "depth": 2}
        assert (ada.watchers, ada.last_input) == (3, NOW + 1)
        assert [game.player for game in await store.playing(NOW + 2, 120)] == ["bob", "ada"]

    run(config, body)


def test_stores_opened_at_once_make_the_schema_once(config: Config) -> None:
    """Two nodes starting together on a new database: both open, neither fails."""

    async def body() -> None:
        stores = await asyncio.gather(*(open_store(config) for _ in range(4)))
        try:
            assert await stores[0].add_player("ada", b"s", b"h")
            assert await stores[3].password_of("ada") == (b"s", b"h")
        finally:
            for store in stores:
                await store.close()

    in_a_loop(body())


def test_the_command_line_takes_a_postgresql_url_only(tmp_path: Path) -> None:
    from web.cli import parse_args

    assert parse_args(["--data-dir", str(tmp_path)]).database is None  # SQLite in the folder.
    url = "postgresql://web@127.0.0.1:5432/tombs"
    assert parse_args(["--data-dir", str(tmp_path), "--database", url]).database == url
    with pytest.raises(SystemExit):
        parse_args(["--data-dir", str(tmp_path), "--database", str(tmp_path / "web.sqlite3")])


def test_a_sqlite_database_from_before_identities_is_opened(tmp_path: Path) -> None:
    """A server's folder from before this store: its games kept, under their files' hashes."""
    db = sqlite3.connect(tmp_path / "web.sqlite3")
    db.execute(
        "CREATE TABLE games (id INTEGER PRIMARY KEY, player TEXT NOT NULL, depth INTEGER NOT NULL,"
        " level INTEGER NOT NULL, xp INTEGER NOT NULL, turns INTEGER NOT NULL, cause TEXT NOT "
        "NULL, daily TEXT, finished REAL NOT NULL, sha256 TEXT NOT NULL UNIQUE, recording TEXT "
        "NOT NULL)"
    )
    db.execute("INSERT INTO games VALUES (1, 'ada', 3, 2, 50, 400, 'Killed', NULL, 0, 'ff', 'x')")
    db.commit()
    db.close()

    async def body(store: Store) -> None:
        assert [game.player for game in await store.games()] == ["ada"]
        assert not await store.add_game(a_game(), "ff", "x")

    run(Config(root=tmp_path), body)
