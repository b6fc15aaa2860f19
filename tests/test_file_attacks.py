"""The files around the save are hostile too (issue 21): each case in a bounded child.

Every case runs in a child process with a time and memory bound
(`bounded.in_child`), so a hang, a crash or a blow-up is that case's
failure.  Limits are tested at their edges: one under is taken, one over
refused.
"""

from __future__ import annotations

import datetime
import fcntl
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
import tcod
from bounded import in_child, refused
from conftest import after_frame, dungeon, key, pressing, screens_of

import actions
import entity_factories
import game_map
import input_handlers
import main
import setup_game
from engine import Engine
from replays import record_reader, recording, recovery
from saving import game_lock, morgue, paths, save_data, save_fields, savefile
from screens.stack import Screens
from window import screenshot
from words import game_over

# --- Saves: the hash flood, and the scan's and the reader's caps at their edges ---


def scan(pickled: bytes) -> str:
    savefile._scan(pickled)
    return "scanned"


def test_a_hash_flood_of_integer_keys_is_refused_at_once() -> None:
    # Keys that all hash alike: 12 s of CPU to refuse before, unpickled one by
    # one; scanned, about 0.15 s.  Refused within 2 s of CPU (the child is
    # killed past that, and on a busy machine CPU time hardly grows), with a
    # minute of wall clock to spare.
    # (Made by hand: building that dict here would be the flood itself.)
    keys = (pickle.dumps(k * (2**61 - 1), protocol=5)[2:-1] for k in range(149_000))
    flood = b"\x80\x05}(" + b"".join(key + b"K\x00" for key in keys) + b"u."
    outcome = in_child(lambda: scan(flood), seconds=2.0)
    assert "more long numbers" in refused(outcome, "RefusedSaveError")


def test_a_save_whose_dict_keys_are_tuples_or_numbers_is_refused_whole(tmp_path: Path) -> None:
    for keys in ([(1, 2)], [7], [None], [b"x"]):
        data: dict[object, int] = {"a": 1, **{key: 0 for key in keys}}
        (tmp_path / "savegame.sav").write_bytes(savefile.dumps(data, 1))
        outcome = in_child(lambda: savefile.read(tmp_path / "savegame.sav", 1))
        assert "not a name" in refused(outcome, "RefusedSaveError"), keys


def test_names_as_keys_load_even_when_shared_through_the_memo() -> None:
    name = "a name used twice"
    data = [{name: 1}, {name: 2}]
    pickled = pickle.dumps(data, protocol=5)
    assert pickled.count(name.encode()) == 1  # The second is a memo reference.
    assert in_child(lambda: savefile._unpickle(pickled))["value"] == data


def containers(count: int) -> bytes:
    """A list holding `count - 1` empty lists: `count` containers."""
    return b"\x80\x05](" + b"]" * (count - 1) + b"e."


def test_the_container_cap_is_exact() -> None:
    assert in_child(lambda: scan(containers(savefile.MAX_CONTAINERS)))["value"] == "scanned"
    outcome = in_child(lambda: scan(containers(savefile.MAX_CONTAINERS + 1)))
    assert "containers" in refused(outcome, "RefusedSaveError")


def test_the_file_size_cap_is_exact(tmp_path: Path) -> None:
    path = tmp_path / "savegame.sav"
    path.write_bytes(b"\x00" * savefile.MAX_FILE_SIZE)
    assert in_child(lambda: len(savefile.read_file(path)))["value"] == savefile.MAX_FILE_SIZE
    path.write_bytes(b"\x00" * (savefile.MAX_FILE_SIZE + 1))
    refused(in_child(lambda: savefile.read_file(path)), "OversizedSaveError")


# --- Recordings: read with bounds, one-line errors --------------------------------


def read_recording(path: Path) -> int:
    return len(record_reader.read(path).events)


def recording_refused(path: Path) -> str:
    outcome = in_child(lambda: read_recording(path), seconds=5.0)
    message = refused(outcome, "RecordingError")
    assert message.startswith(str(path)) and len(message) < 200 + len(str(path)), message
    return message


def test_a_fifo_named_as_the_recording_is_refused_at_once(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "game.rec")
    assert "not a regular file" in recording_refused(tmp_path / "game.rec")


def test_a_recording_linked_to_dev_zero_is_refused(tmp_path: Path) -> None:
    (tmp_path / "game.rec").symlink_to("/dev/zero")
    assert "not a regular file" in recording_refused(tmp_path / "game.rec")


def test_a_recording_line_of_many_megabytes_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "game.rec"
    path.write_text("recording 1\nseed 1\n#" + "x" * 60_000_000 + "\n")
    assert "line 3: longer than 200 characters" in recording_refused(path)


def cap_lines(most: int, path: Path) -> int:
    vars(record_reader)["MAX_LINES"] = most  # In the child only.
    return read_recording(path)


def test_the_recording_line_cap_is_exact(tmp_path: Path) -> None:
    """As many lines as the game records (`MAX_LINES`, here made small) read; one more is refused."""
    path = tmp_path / "game.rec"
    path.write_text("recording 1\nseed 1\n" + "key a\n" * 998)
    assert in_child(lambda: cap_lines(1000, path))["value"] == 998
    path.write_text("recording 1\nseed 1\n" + "key a\n" * 999)
    message = refused(in_child(lambda: cap_lines(1000, path)), "RecordingError")
    assert message == f"{path}: 1,001 lines, more than any game records (1,000)"


def test_a_long_line_of_a_bad_number_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "game.rec"
    path.write_text(f"recording 1\nseed 1\nclick 1{'0' * 400} 0\n")
    assert "line 3" in recording_refused(path)
    path.write_text(f"recording 1\nseed 1\nclick 1{'0' * 100} 0\n")
    assert "line 3" in recording_refused(path)


def test_screen_named_as_a_fifo_does_not_hang(tmp_path: Path) -> None:
    rec = tmp_path / "game.rec"
    rec.write_text("recording 1\nseed 1\nkey period\n")
    os.mkfifo(tmp_path / "screen.txt")

    def headless() -> int:
        return main.main(["--replay", str(rec), "--headless", "--screen", str(tmp_path / "screen.txt")])

    outcome = in_child(headless, seconds=30.0)
    assert outcome["value"] == 0, outcome
    assert (tmp_path / "screen.txt").read_text().count("\n") == 50


# --- One game per data folder -------------------------------------------------------

HOLD = "import sys, time, pathlib; from saving import game_lock; game_lock.hold(pathlib.Path(sys.argv[1])); print('held', flush=True); time.sleep(60)"


def test_a_second_game_on_a_data_folder_says_so_and_a_killed_ones_lock_is_taken_over(tmp_path: Path) -> None:
    other = subprocess.Popen([sys.executable, "-c", HOLD, str(tmp_path)], cwd=Path(main.__file__).parent,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout is not None and other.stdout.readline() == "held\n"
        outcome = in_child(lambda: game_lock.hold(tmp_path))
        message = refused(outcome, "InUseError")
        assert str(tmp_path.resolve()) in message
        outcome = in_child(lambda: main.main(["--data-dir", str(tmp_path)]))
        assert outcome["value"] == 1, outcome
    finally:
        other.kill()
        other.communicate()
    assert in_child(lambda: game_lock.hold(tmp_path))["result"] == "value"


@pytest.mark.parametrize("lock_file", ["link", "deleted"])
def test_a_linked_or_deleted_game_lock_changes_nothing(tmp_path: Path, lock_file: str) -> None:
    """The folder itself is locked: a `game.lock` made a link (once an [Errno 40]
    at start) or deleted (once a way for a second copy in) plays no part."""
    target = tmp_path / "elsewhere"
    target.write_text("the player's")
    if lock_file == "link":
        (tmp_path / game_lock.LOCK_NAME).symlink_to(target)
    other = subprocess.Popen([sys.executable, "-c", HOLD, str(tmp_path)], cwd=Path(main.__file__).parent,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout is not None and other.stdout.readline() == "held\n"
        (tmp_path / game_lock.LOCK_NAME).unlink(missing_ok=True)
        refused(in_child(lambda: game_lock.hold(tmp_path)), "InUseError")
    finally:
        other.kill()
        other.communicate()
    assert in_child(lambda: game_lock.hold(tmp_path))["result"] == "value"
    assert target.read_text() == "the player's"


def test_holding_another_data_folder_lets_go_of_the_first(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()

    def first_is_free_after_holding_second() -> bool:
        game_lock.hold(first)
        game_lock.hold(second)
        fd = os.open(first, os.O_RDONLY)  # The folder itself is locked.
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # Fails while anyone holds it.
            return True
        finally:
            os.close(fd)

    outcome = in_child(first_is_free_after_holding_second)
    assert outcome["result"] == "value" and outcome["value"] is True, outcome


# --- Links and folders where the game writes: never followed, never fatal ---


def test_a_dangling_screenshot_link_is_passed_over_not_written_through(
    in_tmp: Path, context: tcod.context.Context, engine: Engine
) -> None:
    outside = in_tmp / "outside.png"
    (in_tmp / "screenshot-001.png").symlink_to(outside)
    screens = dungeon(engine)
    screens.draw(root := tcod.console.Console(80, 50, order="F"))
    context.present(root)
    screenshot.take_screenshot(context, screens)
    assert not outside.exists()
    assert (in_tmp / "screenshot-002.png").read_bytes().startswith(b"\x89PNG")
    assert engine.message_log.messages[-1].plain_text == f"Screenshot saved as screenshot-002.png in {in_tmp.resolve()}."


def test_continue_leaves_a_linked_recording_and_its_target_alone(in_tmp: Path, engine: Engine) -> None:
    recording.start_file(engine)
    assert engine.recording_file is not None
    engine.save_as(paths.SAVE_NAME)
    target = in_tmp / "precious.txt"
    target.write_bytes(b"the player's own file")
    game_file = in_tmp / "recordings" / engine.recording_file
    game_file.unlink()
    game_file.symlink_to(target)
    continued = pressing(Screens(setup_game.MainMenu()), key(tcod.event.KeySym.C))
    popup = continued.top
    assert isinstance(popup, input_handlers.PopupMessage)  # Naming the link.
    assert popup.text == recovery.LINKED.format(name=game_file.name, goes_on=recovery.UNRECORDED)
    assert target.read_bytes() == b"the player's own file"
    assert game_file.is_symlink()
    game = continued.stack[-2]
    assert isinstance(game, input_handlers.MainGameEventHandler)
    after_frame(continued)  # What the save wrote is out of reach: the game goes on unrecorded.
    assert game.engine.recording_file is None and game.engine.recording.lost
    assert target.read_bytes() == b"the player's own file" and game_file.is_symlink()


def test_a_backup_name_taken_by_a_folder_costs_the_save_nothing(
    in_tmp: Path, engine: Engine, capsys: pytest.CaptureFixture[str]
) -> None:
    engine.save_as(paths.SAVE_NAME)
    (in_tmp / f"{paths.SAVE_NAME}.bak").mkdir()
    engine.turns += 1
    engine.save_as(paths.SAVE_NAME)
    assert setup_game.load_game(paths.SAVE_NAME).turns == engine.turns
    assert "could not be kept" in capsys.readouterr().err
    assert (in_tmp / f"{paths.SAVE_NAME}.bak").is_dir()


def test_a_morgue_name_taken_by_a_dangling_link_is_passed_over(in_tmp: Path, engine: Engine) -> None:
    ending = game_over.ending_of(engine, datetime.datetime(2026, 11, 24, 21, 0, 0))
    outside = in_tmp / "outside.txt"
    (in_tmp / "morgue").mkdir()
    (in_tmp / "morgue" / "morgue-20261124-210000.txt").symlink_to(outside)
    path, _ = morgue.write(engine, ending)
    assert path.name == "morgue-20261124-210000-2.txt"
    assert not outside.exists()
    assert "Killed by" in path.read_text() or "Died" in path.read_text()


def test_a_morgue_file_interrupted_while_written_leaves_nothing_under_its_name(
    in_tmp: Path, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Written under a temporary name, then linked to its own: a kill meanwhile
    (here, an interrupt at the link) leaves no empty or half morgue file."""
    ending = game_over.ending_of(engine, datetime.datetime(2026, 11, 24, 21, 0, 0))

    def killed(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "link", killed)
    with pytest.raises(KeyboardInterrupt):
        morgue.write(engine, ending)
    assert [p.name for p in (in_tmp / "morgue").iterdir() if not p.name.startswith(".")] == []


# --- Every loadable save plays, and can be saved again ---


def at_the_caps(engine: Engine, over: int = 0) -> None:
    """Everything play makes grow set at its cap (+ `over`), with a level owed."""
    engine.turns = save_fields.MAX_TURNS + over
    engine.game_world.current_floor = game_map.MAX_FLOOR + over
    fighter, level = engine.player.fighter, engine.player.level
    fighter.max_hp = save_fields.MAX_STAT + over
    fighter.hp = fighter.max_hp
    fighter.base_power = fighter.base_defense = save_fields.MAX_STAT + over
    level.current_level = save_fields.MAX_LEVEL + over
    level.level_up_base, level.level_up_factor = 1, 0
    level.current_xp = save_fields.MAX_STAT + over
    engine.kills = {"Orc": save_fields.MAX_TURNS + over}


def test_a_save_at_the_caps_loads_plays_and_saves_again(in_tmp: Path, engine: Engine) -> None:
    """Play pushes each number past its cap (a turn, a kill, a level and its
    hit points, a floor down): the game is saved at the caps, and loads."""
    at_the_caps(engine)
    engine.save_as(paths.SAVE_NAME)
    loaded = setup_game.load_game(paths.SAVE_NAME)
    player = loaded.player
    handler = input_handlers.MainGameEventHandler(loaded)
    handler.handle_action(actions.WaitAction(player))
    loaded.kills["Orc"] += 1
    player.level.add_xp(1)
    assert player.level.requires_level_up
    level = player.level.current_level
    pressing(screens_of(input_handlers.LevelUpEventHandler(loaded)), key(tcod.event.KeySym.A))
    assert player.level.current_level == level + 1
    player.place(*loaded.game_map.downstairs_location, loaded.game_map)
    handler.handle_action(actions.TakeStairsAction(player))
    assert loaded.turns > save_fields.MAX_TURNS and player.fighter.max_hp > save_fields.MAX_STAT
    loaded.save_as(paths.SAVE_NAME)
    again = setup_game.load_game(paths.SAVE_NAME)
    assert again.turns == save_fields.MAX_TURNS
    assert again.game_world.current_floor == game_map.MAX_FLOOR
    assert again.player.fighter.max_hp == save_fields.MAX_STAT


def test_a_save_file_one_over_the_caps_is_refused_in_one_line(in_tmp: Path, engine: Engine) -> None:
    at_the_caps(engine, over=1)
    data = save_data.to_data(engine)
    data["turns"] = save_fields.MAX_TURNS + 1  # As an altered file would hold it.
    with pytest.raises(savefile.DamagedSaveError, match="the turns is not a whole number from 0 to"):
        save_data.from_data(data)


@pytest.mark.parametrize("count", [game_map.MAX_ENTITIES, game_map.MAX_ENTITIES + 1])
def test_kills_of_as_many_kinds_as_a_floor_holds_are_taken_one_more_refused(
    in_tmp: Path, engine: Engine, count: int
) -> None:
    engine.kills = {f"Orc {i}": 1 for i in range(count)}
    data = save_data.to_data(engine)
    if count <= game_map.MAX_ENTITIES:
        assert len(save_data.from_data(data).kills) == count
    else:
        with pytest.raises(savefile.DamagedSaveError, match="a count of at most"):
            save_data.from_data(data)


@pytest.mark.parametrize("extra", [0, 1])
def test_a_floor_holding_as_many_things_as_the_game_puts_on_one_loads_one_more_refused(
    engine: Engine, extra: int
) -> None:
    entities = engine.game_map.entities
    while len(entities) < game_map.MAX_ENTITIES + extra:
        entity_factories.health_potion.spawn(engine.game_map, engine.player.x, engine.player.y)
    data = save_data.to_data(engine)
    if extra == 0:
        assert len(save_data.from_data(data).game_map.entities) == game_map.MAX_ENTITIES
    else:
        with pytest.raises(savefile.DamagedSaveError, match="entit"):
            save_data.from_data(data)
