"""A game's files in the store as it writes them, and back (web/game_files.py), against SQLite
and PostgreSQL alike: real files in tmp_path, the real store; and the real game, killed in
mid-play, rebuilt in another folder from the store's copy by its own Continue."""

from __future__ import annotations

import asyncio
import functools
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("tornado", reason="the web requirements (requirements-web.txt)")

from postgres_server import postgres, postgres_url  # noqa: F401

from web import children, frames
from web.game_files import Shipper, restore

ROOT = Path(__file__).resolve().parent.parent
REC = "recordings/game-1.rec"


@dataclass
class Opened:
    """A store and the loop it was opened on."""

    store: Any
    loop: asyncio.AbstractEventLoop

    def run(self, coroutine: Any) -> Any:
        return self.loop.run_until_complete(coroutine)


@pytest.fixture(params=["sqlite", "postgresql"])
def files(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opened]:
    """The store of each kind, empty, opened on a loop of the test's own (never the thread's:
    the tests after these find the thread as they left it)."""
    loop = asyncio.new_event_loop()
    if request.param == "sqlite":
        from web.store_sqlite import SqliteStore

        (tmp_path / "db").mkdir()
        opened = Opened(SqliteStore(tmp_path / "db"), loop)
    else:
        from web.store_postgres import PostgresStore

        url = request.getfixturevalue("postgres_url")
        opened = Opened(loop.run_until_complete(PostgresStore.open(url)), loop)
    yield opened
    opened.run(opened.store.close())
    loop.close()


def folder_of(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    (folder / "recordings").mkdir(parents=True)
    return folder


def test_a_recording_goes_to_the_store_a_whole_line_at_a_time(
    files: Opened, tmp_path: Path
) -> None:
    folder = folder_of(tmp_path, "a")
    shipper = Shipper(files.store, "ann", folder, {})
    (folder / REC).write_bytes(b"v 12\nseed 3\nkey n")  # The last line half written.
    files.run(shipper.ship())
    assert files.run(files.store.files_of("ann")) == {REC: b"v 12\nseed 3\n"}
    with (folder / REC).open("ab") as file:
        file.write(b"\nkey kp_5\n")
    files.run(shipper.ship())
    files.run(shipper.ship())  # Nothing new: nothing sent.
    assert files.run(files.store.files_of("ann")) == {REC: b"v 12\nseed 3\nkey n\nkey kp_5\n"}
    assert shipper.writes == 2


def test_a_recording_written_anew_or_cut_goes_again_from_its_start(
    files: Opened, tmp_path: Path
) -> None:
    folder = folder_of(tmp_path, "a")
    shipper = Shipper(files.store, "ann", folder, {})
    (folder / REC).write_bytes(b"one\ntwo\nthree\n")
    files.run(shipper.ship())
    os.truncate(folder / REC, 8)  # Recovery cut a line off.
    files.run(shipper.ship())
    assert files.run(files.store.files_of("ann")) == {REC: b"one\ntwo\n"}
    replaced = folder / "recordings" / "new.tmp"
    replaced.write_bytes(b"other\ngame\n")
    os.replace(replaced, folder / REC)  # Written whole again (`resume_file`): another inode.
    files.run(shipper.ship())
    assert files.run(files.store.files_of("ann")) == {REC: b"other\ngame\n"}


def test_the_store_cuts_a_file_at_an_offset_inside_a_piece(files: Opened) -> None:
    files.run(files.store.append_file("bo", REC, 0, b"abc\n"))
    files.run(files.store.append_file("bo", REC, 4, b"def\nghi\n"))
    files.run(
        files.store.append_file("bo", REC, 6, b"X\n")
    )  # Inside the second piece: the rest goes.
    assert files.run(files.store.files_of("bo")) == {REC: b"abc\ndeX\n"}
    files.run(files.store.append_file("bo", REC, 0, b"new\n"))
    assert files.run(files.store.files_of("bo")) == {REC: b"new\n"}
    assert files.run(files.store.files_of("nobody")) == {}


def test_a_save_goes_whole_when_it_changes_and_empty_once_gone(
    files: Opened, tmp_path: Path
) -> None:
    folder = folder_of(tmp_path, "a")
    shipper = Shipper(files.store, "cy", folder, {})
    (folder / "savegame.sav").write_bytes(b"first save")
    files.run(shipper.ship())
    (folder / "savegame.sav").write_bytes(b"second save, longer")
    files.run(shipper.ship())
    assert files.run(files.store.files_of("cy")) == {"savegame.sav": b"second save, longer"}
    (folder / "savegame.sav").unlink()  # A death.
    files.run(shipper.ship())
    assert files.run(files.store.files_of("cy")) == {"savegame.sav": b""}


def test_files_written_back_replace_an_older_copy_and_drop_a_save_gone(
    files: Opened, tmp_path: Path
) -> None:
    files.run(files.store.append_file("di", REC, 0, b"v 12\nseed 3\n"))
    files.run(files.store.append_file("di", "savegame.sav", 0, b""))
    files.run(files.store.append_file("di", "../../escape", 0, b"never written"))
    files.run(files.store.append_file("di", "recordings/../../x.rec", 0, b"never written"))
    folder = folder_of(tmp_path, "b")
    (folder / "savegame.sav").write_bytes(b"an older game's save")
    (folder / REC).write_bytes(b"v 12\n")
    sent = files.run(restore(files.store, "di", folder))
    assert (folder / REC).read_bytes() == b"v 12\nseed 3\n"
    assert not (folder / "savegame.sav").exists()
    assert not (tmp_path / "escape").exists() and not (tmp_path / "x.rec").exists()
    assert set(sent) == {REC}
    assert sorted(path.name for path in folder.rglob("*")) == ["game-1.rec", "recordings"]


def test_a_game_over_forgets_its_files_but_says_its_save_is_gone(
    files: Opened, tmp_path: Path
) -> None:
    folder = folder_of(tmp_path, "a")
    shipper = Shipper(files.store, "ed", folder, {})
    (folder / REC).write_bytes(b"v 12\n")
    files.run(shipper.ship())
    files.run(shipper.finish())
    assert files.run(files.store.files_of("ed")) == {"savegame.sav": b""}
    (folder / "savegame.sav").write_bytes(b"a save")
    files.run(Shipper(files.store, "fay", folder, {}).finish())  # Saved and quit: kept.
    assert files.run(files.store.files_of("fay")) == {REC: b"v 12\n", "savegame.sav": b"a save"}


# The real game, killed in mid-play and rebuilt elsewhere.


class Game:
    """The real game on pipes (`--browser`), as the server runs it, its frames read here."""

    def __init__(self, folder: Path) -> None:
        read, write = os.pipe()
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "main.py"), "--browser", "--frames-fd", "3", "--served",
             "--data-dir", str(folder), "--seed", "3"],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, cwd=folder,
            env=children.environment(folder), preexec_fn=children.capped(None, write),
            close_fds=False, start_new_session=True,
        )  # fmt: skip
        os.close(write)
        os.set_blocking(read, False)
        self.read, self.unframer = read, frames.Unframer()
        self.status: dict[str, object] = {}

    def key(self, key: str, code: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"key": key, "code": code, "mod": 0}).encode() + b"\n")
        self.process.stdin.flush()

    async def until(
        self, holds: Callable[[dict[str, object]], bool], shipper: Shipper
    ) -> dict[str, object]:
        """The game's STATUS once `holds` says so of it; the shipper told of every read."""
        for _ in range(600):  # 30 s at most: a bound on waiting, not a measure.
            try:
                data = os.read(self.read, 1 << 16)
            except BlockingIOError:
                data = b""
            for message in self.unframer.feed(data):
                self.status = frames.status_of(message) or self.status
            if data:
                shipper.soon()
            if holds(self.status):
                return self.status
            await asyncio.sleep(0.05)
        raise AssertionError(f"the game shows {self.status}")

    def kill(self) -> None:
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        assert self.process.stdin is not None
        self.process.stdin.close()
        os.close(self.read)


def turns_are(turns: int, status: dict[str, object]) -> bool:
    return status.get("turns") == turns


def test_a_game_killed_in_mid_play_goes_on_in_another_folder_from_the_store(
    files: Opened, tmp_path: Path
) -> None:
    async def played() -> None:
        first = Game(folder_of(tmp_path, "a"))
        shipper = Shipper(files.store, "kim", tmp_path / "a", {})
        await first.until(lambda status: status.get("screen") == "menu", shipper)
        first.key("n", "KeyN")
        for turn in range(5):
            before = await first.until(functools.partial(turns_are, turn), shipper)
            if turn < 4:
                first.key("5", "Numpad5")
        await asyncio.sleep(0.2)  # What the last frame appended, shipped.
        first.kill()
        shipper.stop()
        folder = folder_of(tmp_path, "b")
        second = Game(folder)
        again = Shipper(files.store, "kim", folder, await restore(files.store, "kim", folder))
        await second.until(lambda status: status.get("screen") == "menu", again)
        second.key("c", "KeyC")  # Continue: the save, and what the recording holds after it.
        after = await second.until(lambda status: status.get("turns", 0) != 0, again)
        second.kill()
        again.stop()
        assert after == before

    files.run(played())
