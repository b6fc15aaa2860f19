"""A save's limits at their edges (issue 21): one under loads and plays on, one over is refused.

Each case runs in a bounded child (`bounded.in_child`): a limit that let
through what makes play crash or crawl fails its case, not the test run.
The edges here are ones no other test reaches: tuples in the opcode
scan's count of containers, the narrowest floors the world's settings may
ask for (a floor is made from them at each descent), and the seed a save's
recording starts with (a recording is replayed with it, so it is held to
what `--seed` takes), and the log of a save made before it was bounded.
Last, the saves issue 21 found crashing or crawling, each refused by
Continue in one line and kept aside.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from bounded import in_child, refused
from conftest import key, pressing
from tcod.event import KeySym

import actions
import input_handlers
import message_log
import procgen
import setup_game
import tile_types
from components.inventory import LETTERS
from engine import Engine
from game_map import MAP_HEIGHT, MAP_WIDTH, MAX_ENTITIES, MAX_ROOMS
from replays import record_format, record_reader, recording
from saving import paths, save_data, save_fields, savefile
from screens.stack import Screens

# --- The opcode scan: tuples count as containers too ----------------------------------


def tuples(count: int) -> bytes:
    """A list holding `count - 1` one-item tuples (of None): `count` containers."""
    return b"\x80\x05](" + b"N\x85" * (count - 1) + b"e."


def scanned(pickled: bytes) -> str:
    savefile._scan(pickled)
    return "scanned"


def test_the_container_cap_counts_tuples_exactly() -> None:
    assert in_child(lambda: scanned(tuples(savefile.MAX_CONTAINERS)))["value"] == "scanned"
    outcome = in_child(lambda: scanned(tuples(savefile.MAX_CONTAINERS + 1)))
    assert "containers" in refused(outcome, "RefusedSaveError")


# --- The world's settings: the next floor can always be made ---------------------


def down_a_floor_and_saved(data: save_data.Data) -> tuple[int, int]:
    """Load `data`, take the stairs (a floor made from its settings), save and load again."""
    engine = save_data.from_data(data)
    player = engine.player
    player.place(*engine.game_map.downstairs_location, engine.game_map)
    actions.TakeStairsAction(player).perform()
    engine.save_as(paths.SAVE_NAME)
    again = setup_game.load_game(paths.SAVE_NAME)
    return again.game_map.width, again.game_map.height


@pytest.mark.parametrize("side", ["map_width", "map_height"])
def test_the_narrowest_floors_the_settings_allow_are_made_one_narrower_refused(
    in_tmp: Path, engine: Engine, side: str
) -> None:
    """A floor must hold a room of the largest size and a wall either side."""
    data = save_data.to_data(engine)
    world = data["game_world"]
    assert isinstance(world, dict)
    narrowest = world["room_max_size"] + 2
    world[side] = narrowest
    outcome = in_child(lambda: down_a_floor_and_saved(data))
    width, height = outcome["value"]
    assert (width if side == "map_width" else height) == narrowest

    world[side] = narrowest - 1
    message = refused(in_child(lambda: save_data.from_data(data)), "DamagedSaveError")
    assert f"the {side} of the game_world is not a whole number from {narrowest}" in message


# --- The recording's seed: what `--seed` takes --------------------------------------


def with_seed(engine: Engine, seed: str) -> save_data.Data:
    engine.recording = recording.Lines.of([*record_format.header(0)[:1], f"seed {seed}", "key l"])
    return save_data.to_data(engine)


def recorded_seed_after_a_save(data: save_data.Data) -> int:
    """Load `data`, save it again, and read back the seed its recording replays with."""
    engine = save_data.from_data(data)
    engine.save_as(paths.SAVE_NAME)
    lines = setup_game.load_game(paths.SAVE_NAME).recording
    return record_reader.parse("\n".join(lines), "the recording").seed


def test_a_recording_seeded_as_high_as_seed_goes_loads_and_saves_again(in_tmp: Path, engine: Engine) -> None:
    highest = record_format.MAX_SEED
    outcome = in_child(lambda: recorded_seed_after_a_save(with_seed(engine, str(highest))))
    assert outcome["value"] == highest


@pytest.mark.parametrize("seed", [record_format.MAX_SEED + 1, 10**100])
def test_a_recording_seeded_higher_than_seed_goes_is_refused(engine: Engine, seed: int) -> None:
    data = with_seed(engine, str(seed))
    message = refused(in_child(lambda: save_data.from_data(data)), "DamagedSaveError")
    assert "the recording" in message and "is not a whole number" in message


@pytest.mark.parametrize("first", ["", "recording 99", "seed 3"])
def test_a_recording_that_does_not_start_as_one_is_refused(engine: Engine, first: str) -> None:
    engine.recording = recording.Lines.of([first, "seed 3"])
    message = refused(in_child(lambda: save_data.from_data(save_data.to_data(engine))), "DamagedSaveError")
    assert "the recording" in message


def test_a_game_without_a_recording_loads(engine: Engine) -> None:
    engine.recording = recording.Lines()
    assert in_child(lambda: list(save_data.from_data(save_data.to_data(engine)).recording))["value"] == []


# --- One set of limits: nothing the game writes is refused by its loader -------------------


def test_a_save_bigger_than_its_loader_takes_is_never_written(in_tmp: Path, engine: Engine) -> None:
    """A game whose recording could not be written keeps its lines, and its saves hold them:
    past what the loader unpacks, the save is refused as it is written, not when loaded."""
    engine.save_as(paths.SAVE_NAME)
    before = (in_tmp / paths.SAVE_NAME).read_bytes()
    lines = [f"click {n % 80} {n % 50} right" for n in range(savefile.MAX_PAYLOAD // 12)]
    engine.recording.extend(lines)
    with pytest.raises(savefile.UnsaveableGameError, match="more than a save may"):
        engine.save_as(paths.SAVE_NAME)
    assert (in_tmp / paths.SAVE_NAME).read_bytes() == before  # The last save, whole.
    del engine.recording.held[-len(lines) * 2 // 3 :]  # A third as many: within the limit.
    engine.save_as(paths.SAVE_NAME)
    assert len(setup_game.load_game(paths.SAVE_NAME).recording) == len(engine.recording)


def played_to(engine: Engine, lines: int) -> None:
    """Record (and write, as the main loop does) lines until the recording holds `lines`."""
    engine.recording.extend(["key f2"] * (lines - len(engine.recording)))
    recording.write_new(engine)


def test_a_game_at_the_recordings_limit_says_so_ahead_saves_and_continues(in_tmp: Path) -> None:
    """Played to the most lines a recording holds: told ahead, told when full, and the
    game, saved at the limit, continues from its save (reading no line of its file)."""
    engine = setup_game.new_game(seed=3)
    recording.write_new(engine)
    played_to(engine, record_reader.MAX_LINES - recording.WARN_BEFORE)
    recording.record(engine, "key f2")
    said = engine.message_log.messages[-1].plain_text
    assert said == recording.NEARLY_FULL.format(lines=record_reader.MAX_LINES - recording.WARN_BEFORE, most=record_reader.MAX_LINES)
    played_to(engine, record_reader.MAX_LINES)
    engine.save_as(paths.SAVE_NAME)

    shown = continued().top
    assert isinstance(shown, input_handlers.MainGameEventHandler)  # Nothing to recover, nothing refused.
    game = shown.engine
    assert len(game.recording) == record_reader.MAX_LINES
    recording.record(game, "key f2")
    assert game.message_log.messages[-1].plain_text == recording.FULL.format(most=record_reader.MAX_LINES)
    recording.write_new(game)
    path = paths.recordings_dir() / str(game.recording_file)
    with path.open("rb") as file:
        assert sum(1 for _ in file) == record_reader.MAX_LINES  # No line past the limit.
    game.save_as(paths.SAVE_NAME)
    assert len(setup_game.load_game(paths.SAVE_NAME).recording) == record_reader.MAX_LINES


# --- The message log: a long game saves, and one saved before the log was bounded loads ---


def long_log_loaded_and_saved_again(path: Path) -> list[object]:
    """Messages kept after the load, after one more, and after saving and loading again."""
    engine = setup_game.load_game(str(path))
    counts: list[object] = [len(engine.message_log.messages)]
    engine.message_log.add_message("One more.")
    counts.append(len(engine.message_log.messages))
    engine.save_as(str(path))
    messages = setup_game.load_game(str(path)).message_log.messages
    return [*counts, len(messages), messages[0].plain_text, messages[-1].plain_text]


def test_a_save_from_before_the_log_was_bounded_loads_its_last_messages_and_saves_again(
    in_tmp: Path, engine: Engine
) -> None:
    """50,000 messages, as a long game's save of format 6 held them: the last `HISTORY` are kept."""
    data = savefile.read(Path(__file__).parent / "saves" / "format-6" / "fresh.sav", 6)
    assert isinstance(data, dict)
    data["messages"] = [(f"Message {i}.", (255, 255, 255), 1) for i in range(50_000)]
    path = in_tmp / paths.SAVE_NAME
    path.write_bytes(savefile.dumps(data, 6))
    outcome = in_child(lambda: long_log_loaded_and_saved_again(path), seconds=20.0)
    kept = message_log.HISTORY
    assert outcome["value"] == [kept, kept, kept, f"Message {50_000 - kept + 1}.", "One more."]


# --- Issue 21's saves that crashed or crawled: Continue refuses each in one line ----------


def many_monsters(data: dict[str, Any]) -> None:
    """4,500 monsters, each its own record: each turn took 1.2 s once."""
    game_map = data["game_map"]
    monster = next(e for i, e in enumerate(game_map["entities"]) if i != data["player"] and "ai" in e)
    game_map["entities"] += [copy.deepcopy(monster) for _ in range(4_500)]


CRASHED_OR_CRAWLED: dict[str, tuple[Callable[[dict[str, Any]], object], str]] = {
    "a map wider than the screen": (lambda d: d["game_map"].update(width=81), "the width of the game_map"),
    "a map taller than the screen": (lambda d: d["game_map"].update(height=51), "the height of the game_map"),
    "floors of 1000x250 with 10,000 rooms": (
        lambda d: d["game_world"].update(map_width=1000, map_height=250, max_rooms=10_000),
        "the map_width of the game_world",
    ),
    "4,500 monsters": (many_monsters, "the entities of the game_map is not a list of at most"),
    "a recording seeded 10^100": (
        lambda d: d["recording"].update(held=f"recording 1\nseed {10**100}"), "the recording, line 2"
    ),
}


def continued() -> Screens:
    """Continue pressed on the main menu; the screens after."""
    return pressing(Screens(setup_game.MainMenu()), key(KeySym.C))


def continue_refused() -> list[str]:
    """What Continue shows, as lines."""
    screens = continued()
    assert screens.engine is None  # Refused: over the menu, no game.
    shown = screens.top
    assert isinstance(shown, input_handlers.PopupMessage)
    return shown.text.split("\n")


@pytest.mark.parametrize("case", CRASHED_OR_CRAWLED)
def test_continue_refuses_what_crashed_or_crawled_in_one_line_and_keeps_the_file(
    in_tmp: Path, engine: Engine, case: str
) -> None:
    spoil, reason = CRASHED_OR_CRAWLED[case]
    data = save_data.to_data(engine)
    spoil(data)
    content = savefile.dumps(data, save_data.FORMAT_VERSION)
    (in_tmp / paths.SAVE_NAME).write_bytes(content)
    lines = in_child(continue_refused)["value"]
    assert lines[0] == "Failed to load save:" and reason in lines[1], lines
    assert (in_tmp / (paths.SAVE_NAME + ".bad")).read_bytes() == content


def test_the_bounds_of_a_save_hold_what_the_game_makes() -> None:
    """A floor's most entities and a map's tiles, as `procgen` and `game_map` make them."""
    most = procgen.most(procgen.max_monsters_by_floor) + procgen.most(procgen.max_items_by_floor)
    assert MAX_ROOMS * most + 1 + len(LETTERS) == MAX_ENTITIES
    assert save_fields.MAX_TILES == MAP_WIDTH * MAP_HEIGHT


def with_tile_kinds(engine: Engine, kinds: int) -> Engine:
    """`engine` with its map's tiles of `kinds` kinds: floors, each kind named apart."""
    floors = np.full(kinds, tile_types.floor)
    floors["name"] = [f"floor {number}" for number in range(kinds)]
    shape = engine.game_map.tiles.shape
    engine.game_map.tiles = np.resize(floors, shape[0] * shape[1]).reshape(shape, order="F")
    return engine


def test_a_map_of_as_many_kinds_of_tile_as_a_save_holds_saves_and_loads_one_more_is_never_written(
    in_tmp: Path, engine: Engine
) -> None:
    engine.save_as(paths.SAVE_NAME)
    before = (in_tmp / paths.SAVE_NAME).read_bytes()
    most = with_tile_kinds(copy.deepcopy(engine), save_fields.MAX_TILE_KINDS)
    most.save_as(paths.SAVE_NAME)
    loaded = setup_game.load_game(paths.SAVE_NAME)
    assert (loaded.game_map.tiles == most.game_map.tiles).all()
    assert len(set(loaded.game_map.tiles["name"].ravel())) == save_fields.MAX_TILE_KINDS
    saved = (in_tmp / paths.SAVE_NAME).read_bytes()
    with pytest.raises(savefile.UnsaveableGameError, match="more than 256 kinds of tile"):
        with_tile_kinds(engine, save_fields.MAX_TILE_KINDS + 1).save_as(paths.SAVE_NAME)
    assert (in_tmp / paths.SAVE_NAME).read_bytes() == saved != before


def test_a_map_of_bits_cut_short_is_refused_naming_its_length(engine: Engine) -> None:
    data = save_data.to_data(engine)
    game_map = data["game_map"]
    assert isinstance(game_map, dict)
    game_map["explored"] = b"\0" * 3
    tiles = engine.game_map.width * engine.game_map.height
    with pytest.raises(savefile.DamagedSaveError, match=f"the explored of the game_map is not {-(-tiles // 8)} bytes long"):
        save_data.from_data(data)


def test_the_limits_on_a_save_are_those_the_formats_document() -> None:
    """docs/formats.md promises them to anyone reading or writing saves."""
    text = " ".join((Path(__file__).parent.parent / "docs" / "formats.md").read_text().split())
    assert f"at most {savefile.MAX_FILE_SIZE >> 20} MiB of it, inflating to at most {savefile.MAX_PAYLOAD >> 20} MiB" in text
    assert savefile.MAX_FILE_SIZE % (1 << 20) == 0 and savefile.MAX_PAYLOAD % (1 << 20) == 0
    assert f"at most {record_reader.MAX_LINES:,} lines" in text
