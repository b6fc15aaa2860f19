"""No key press waits for the disk: what it writes is synced once its frame is presented.

Played through the real main loop: an option changed (the options file), a new
game (its recording file, its first save), descents (their saves), a death (the morgue file, the hall of fame), a
new game again.  Every sync to disk is logged beside every key and every
frame presented: none may come between a key and the frame that answers it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import tcod
from conftest import key, typed
from tcod.event import KeySym
from test_e2e import Menu, Player, Script, play
from test_game_over import alone, beside

import entity_factories
from saving import paths, safe_io


def test_no_sync_between_a_key_and_its_frame(
    in_tmp: Path, context: tcod.context.Context, monkeypatch: pytest.MonkeyPatch
) -> None:
    log: list[str] = []
    real_fsync, real_present = os.fsync, tcod.context.Context.present

    def fsync(fd: int) -> None:
        log.append("sync " + os.path.basename(os.readlink(f"/proc/self/fd/{fd}")))
        real_fsync(fd)

    def present(self: tcod.context.Context, *args: object, **kwargs: object) -> None:
        real_present(self, *args, **kwargs)  # type: ignore[arg-type]
        log.append("present")

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(tcod.context.Context, "present", present)

    def script(me: Player) -> Script:
        for sym in (KeySym.O, KeySym.DOWN, KeySym.RIGHT, KeySym.ESCAPE):  # An option changed.
            log.append("key")
            yield [key(sym)]
        log.append("key")
        yield [key(KeySym.N)]
        engine = me.engine
        for _ in range(2):
            engine.player.place(*engine.game_map.downstairs_location)
            log.append("key")
            yield [typed(">")]
        alone(engine)
        entity_factories.troll.spawn(engine.game_map, *beside(engine))
        engine.player.fighter.hp = 1
        log.append("key")
        yield [typed(".")]  # The troll strikes.
        log.append("key")
        yield [key(KeySym.RETURN)]  # To the menu.
        me.menu.engine = None
        log.append("key")
        yield [key(KeySym.N)]
        yield [tcod.event.Quit()]

    play(context, Menu(seed=4242), script)

    answers = "\n".join(log).split("key\n")[1:]
    for number, answer in enumerate(answers):
        before_frame = answer.split("present")[0]
        assert "sync" not in before_frame, f"key {number} waited for the disk:\n{answer}"
    synced = "\n".join(log)
    recording_file = next(paths.recordings_dir().glob("*.rec")).name
    for name in (recording_file, "scores.json", paths.options_path().name):
        assert f"sync {name}" in synced, name
    assert any(line.startswith(f"sync .{paths.SAVE_NAME}.") for line in log)  # Synced, then renamed.
    assert any(line.startswith("sync morgue-") for line in log)


def test_a_taken_name_is_skipped_before_anything_is_written(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("shot.png", "shot-2.png", "shot-3.png"):
        (in_tmp / name).write_bytes(b"taken")
    (in_tmp / "shot-4.png").symlink_to(in_tmp / "nowhere")  # A link pointing nowhere: taken too.
    written: list[Path] = []
    real_write_temporary = safe_io.write_temporary

    def write_temporary(path: Path, data: bytes, *, sync: bool = True) -> Path:
        written.append(path)
        return real_write_temporary(path, data, sync=sync)

    monkeypatch.setattr(safe_io, "write_temporary", write_temporary)
    path = safe_io.write_first_free(in_tmp, safe_io.numbered("shot", ".png", first_bare=True), b"new")

    assert path == in_tmp / "shot-5.png" and path.read_bytes() == b"new"
    assert written == [path]
    assert (in_tmp / "shot.png").read_bytes() == b"taken"
