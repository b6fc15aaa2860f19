"""The game saves itself: as it starts, on the stairs, every so many events; and the
recording reaches the disk line by line.  Played through the real main loop."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import tcod
from conftest import (
    after_frame,
    all_lines,
    dungeon,
    first_save,
    key,
    new_header,
    played_lines,
    pressing,
    stroke,
    typed,
)
from tcod.event import KeySym
from test_main_loop import Script

import main
import setup_game
from engine import Engine
from replays import recording
from saving import autosave, paths, save_data
from screens.stack import Screens
from window import loop, options

STAIRS = typed(">")


@pytest.fixture
def root_console() -> tcod.console.Console:
    return tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")


def started_game(monkeypatch: pytest.MonkeyPatch) -> list[Engine]:
    """The games the menu's N starts, as they start."""
    started: list[Engine] = []
    real_new_game = setup_game.new_game

    def new_game(seed: int | None = None, settings: options.Settings | None = None) -> Engine:
        started.append(real_new_game(seed, settings))
        return started[-1]

    monkeypatch.setattr(setup_game, "new_game", new_game)
    return started


def saved() -> Engine:
    return save_data.load(paths.save_path())


def lines_on_disk(engine: Engine) -> list[str]:
    assert engine.recording_file is not None
    path = paths.recordings_dir() / engine.recording_file
    return path.read_text(encoding="utf-8").splitlines()


@pytest.mark.usefixtures("kill")
def test_a_new_game_is_saved_after_its_first_frame(
    context: tcod.context.Context, root_console: tcod.console.Console, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = started_game(monkeypatch)
    seen: list[bool] = []

    def look() -> list[tcod.event.Event]:
        seen.append(paths.save_path().exists())
        return []

    loop.main_loop(
        context, root_console, Screens(setup_game.MainMenu(seed=7)), Script([key(KeySym.N)], look, fail)
    )
    assert seen == [True]
    assert all_lines(saved()) == all_lines(started[0]) == [*new_header(7), first_save(7)]


def fail() -> list[tcod.event.Event]:
    """The last frame: leave the loop (the window closed), which saves nothing under `kill`."""
    return [tcod.event.Quit()]


@pytest.fixture
def kill(monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop ends like a killed process: no save on the way out."""
    monkeypatch.setattr(autosave, "save_game", lambda screens: None)


def on_the_stairs(engine: Engine) -> None:
    engine.player.place(*engine.game_map.downstairs_location)
    engine.update_fov()


@pytest.mark.usefixtures("kill")
def test_taking_the_stairs_saves_after_the_frame_is_presented(
    context: tcod.context.Context, root_console: tcod.console.Console, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = setup_game.new_game(seed=3)
    recording.start_file(engine)
    on_the_stairs(engine)
    order: list[str] = []
    real_present, real_save = context.present, engine.save_as

    def present(console: tcod.console.Console, **kwargs: bool) -> None:
        order.append("present")
        real_present(console, **kwargs)  # type: ignore[arg-type]

    def save_as(path: Path) -> None:
        order.append("save")
        real_save(path)

    monkeypatch.setattr(context, "present", present)
    monkeypatch.setattr(engine, "save_as", save_as)
    loop.main_loop(
        context, root_console, dungeon(engine), Script([], [STAIRS], [], fail)
    )
    # Saved as it started (after its first frame), then after the descent's frame only.
    assert order == ["present", "save", "present", "present", "save", "present"]
    game = saved()
    assert game.game_world.current_floor == 2
    assert all_lines(game) == all_lines(engine) and played_lines(all_lines(game)) == [*new_header(3), "text >"]
    assert lines_on_disk(engine) == all_lines(engine)
    # Each save's line ends what it names: the save of the descent holds its own, not yet written.
    descent = recording.save_line(engine)
    assert all_lines(engine)[len(new_header(3))].startswith("# saved turn 0 floor 1 ") and all_lines(engine)[-1] == descent
    assert game.recording.held == [descent]
    assert game.recording.size == len("".join(f"{line}\n" for line in all_lines(engine)[:-1]))


@pytest.mark.usefixtures("kill")
def test_no_save_on_a_menu_nor_mid_walk_only_back_on_the_game(
    context: tcod.context.Context, root_console: tcod.console.Console
) -> None:
    engine = setup_game.new_game(seed=3)
    engine.mark_saved()
    on_the_stairs(engine)
    # Down the stairs, then the inventory at once, in one batch: not saved on it.
    script = Script([STAIRS, key(KeySym.I)], [], [key(KeySym.ESCAPE)], [], fail)
    loop.main_loop(context, root_console, dungeon(engine), script)
    assert all_lines(saved()) == [*new_header(3), "text >", "key i", "key escape", recording.save_line(engine)]


def test_a_long_stay_on_one_floor_saves_every_so_many_events(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(autosave, "CHECKPOINT_LINES", 3)
    engine.mark_saved()
    screens = dungeon(engine)
    for count in range(1, 7):
        screens.press(typed("."))
        autosave.after_frame(screens)
        assert paths.save_path().exists() == (count >= 3)
    assert len(saved().recording) == len(new_header(1234)) + 6 + 2  # And the lines of its two saves.


def test_a_save_that_fails_is_said_and_play_goes_on(
    engine: Engine, in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths.save_path().mkdir()  # A folder where the save should go.
    screens = dungeon(engine)
    game = screens.top
    autosave.after_frame(screens)
    assert "could not be saved" in engine.message_log.messages[-1].plain_text
    assert autosave.due(screens) is None  # Not again at every frame.
    assert screens.stack[1:] == [game]  # Play goes on, on the game.


@pytest.mark.parametrize("with_file", [True, False])
def test_a_failed_save_says_whether_the_recording_keeps_the_game(
    engine: Engine, in_tmp: Path, with_file: bool
) -> None:
    if with_file:
        recording.start_file(engine)
    else:
        engine.recording_file = None  # Its file could not be written.
    paths.save_path().mkdir()
    autosave.after_frame(dungeon(engine))
    said = engine.message_log.messages[-1].plain_text
    assert said.endswith("play on: its recording keeps it.") == with_file
    assert said.endswith("neither the save nor the recording could be written.") != with_file


def test_each_recorded_line_reaches_the_file_after_its_frame(engine: Engine) -> None:
    """Play records in memory; the main loop writes the file after each frame."""
    screens = after_frame(after_frame(dungeon(engine)))  # The new game's file, its first save's line.
    for sym in (".", KeySym.C, KeySym.ESCAPE, "."):
        pressing(screens, stroke(sym))
        assert lines_on_disk(engine) == all_lines(engine)[:-1]
        after_frame(screens)
        assert lines_on_disk(engine) == all_lines(engine)
        assert engine.recording.held == []  # Written, and no longer kept in memory.


def test_a_save_flushes_the_recording_to_the_disk(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    recording.start_file(engine)
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    engine.save_as(paths.save_path())
    assert engine.recording_file is not None
    assert any(name.endswith(engine.recording_file) for name in synced)
