"""Tests of the save file: round trip, atomic writes, and refusing bad files.

Why these matter: a save that loads wrong loses a game silently, a save cut
short by a crash loses it loudly, and a save from someone else must never be
able to run code on the player's machine.
"""

from __future__ import annotations

import copy
import io
import lzma
import os
import pickle
import random
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import entity_factories
import savefile
import setup_game
from components.ai import ConfusedEnemy
from engine import Engine
from entity import Actor, Entity, Item
from message_log import MessageLog

SEED = 1234


def make_engine() -> Engine:
    """A seeded floor-1 game, as a player starts it."""
    random.seed(SEED)
    return setup_game.new_game(seed=SEED)


def played_engine() -> Engine:
    """A floor-1 game with a bit of everything a save must carry.

    Worn and carried items, items on the floor, a confused monster, a corpse,
    a hurt player with experience, and stacked messages.
    """
    engine = make_engine()
    gamemap = engine.game_map
    player = engine.player
    x, y = player.x, player.y

    troll = entity_factories.troll.spawn(gamemap, x + 1, y)
    troll.ai = ConfusedEnemy(entity=troll, previous_ai=troll.ai, turns_remaining=4)
    entity_factories.orc.spawn(gamemap, x, y + 1).fighter.take_damage(100)  # A corpse.
    entity_factories.lightning_scroll.spawn(gamemap, x - 1, y)
    entity_factories.sword.spawn(gamemap, x, y - 1)

    scroll = copy.deepcopy(entity_factories.fireball_scroll)
    scroll.parent = player.inventory
    player.inventory.items.append(scroll)

    player.fighter.hp -= 5
    engine.message_log.add_message("Something stirs.")
    engine.message_log.add_message("Something stirs.")
    gamemap.explored[:5, :5] = True
    return engine


def describe(entity: Entity) -> dict[str, Any]:
    """Everything about an entity a save must keep, as plain comparable data."""
    data: dict[str, Any] = {
        "class": type(entity).__name__,
        "position": (entity.x, entity.y),
        "name": entity.name,
        "char": entity.char,
        "color": entity.color,
        "blocks_movement": entity.blocks_movement,
        "render_order": entity.render_order,
    }
    if isinstance(entity, Actor):
        fighter = entity.fighter
        data["fighter"] = (fighter.hp, fighter.max_hp, fighter.base_power, fighter.base_defense)
        data["ai"] = type(entity.ai).__name__
        if isinstance(entity.ai, ConfusedEnemy):
            data["confused"] = (entity.ai.turns_remaining, type(entity.ai.previous_ai).__name__)
        data["inventory"] = (
            entity.inventory.capacity,
            [describe(item) for item in entity.inventory.items],
        )
        equipment = entity.equipment
        data["equipment"] = [
            None if item is None else item.name for item in (equipment.weapon, equipment.armor)
        ]
        data["level"] = vars(entity.level).copy()
        data["level"].pop("parent")
    if isinstance(entity, Item):
        for part in ("consumable", "equippable"):
            component = getattr(entity, part)
            if component is not None:
                fields = {k: v for k, v in vars(component).items() if k != "parent"}
                data[part] = (type(component).__name__, fields)
    return data


def describe_game(engine: Engine) -> dict[str, Any]:
    """Everything about a game a save must keep, as plain comparable data."""
    gamemap = engine.game_map
    return {
        "entities": [describe(entity) for entity in gamemap.entities],
        "messages": [(m.full_text, m.fg) for m in engine.message_log.messages],
        "floor": engine.game_world.current_floor,
        "world_seed": engine.game_world.seed,
        "downstairs": gamemap.downstairs_location,
        "size": (gamemap.width, gamemap.height),
        "rng": engine.rng.bit_generator.state,
    }


def save_bytes(payload: bytes, version: int = savefile.FORMAT_VERSION) -> bytes:
    """A file with a good header and `payload` (a pickle) compressed as a save is."""
    return savefile.MAGIC + version.to_bytes(2, "big") + lzma.compress(payload)


def global_pickle(module: str, name: str) -> bytes:
    """A pickle whose whole content is the global `module.name`."""
    encoded = [part.encode() for part in (module, name)]
    return (
        b"\x80\x04"  # PROTO 4
        + b"".join(b"\x8c" + bytes([len(part)]) + part for part in encoded)  # SHORT_BINUNICODE
        + b"\x93."  # STACK_GLOBAL, STOP
    )


@pytest.fixture
def save_path(tmp_path: Path) -> Path:
    return tmp_path / "savegame.sav"


# --- Round trip -----------------------------------------------------------


def test_round_trip_keeps_the_game(save_path: Path) -> None:
    engine = played_engine()
    savefile.save(engine, str(save_path))
    loaded = savefile.load(str(save_path))

    assert isinstance(loaded, Engine)
    assert loaded is not engine
    assert describe_game(loaded) == describe_game(engine)
    for name in ("tiles", "visible", "explored"):
        original, restored = getattr(engine.game_map, name), getattr(loaded.game_map, name)
        assert restored.dtype == original.dtype
        np.testing.assert_array_equal(restored, original)
        # The game writes into these arrays (field of view), in place.
        assert restored.flags.writeable
        assert restored.flags.f_contiguous


def test_round_trip_keeps_the_links_between_objects(save_path: Path) -> None:
    savefile.save(played_engine(), str(save_path))
    loaded = savefile.load(str(save_path))
    gamemap = loaded.game_map
    player = loaded.player

    assert player in gamemap.entities
    assert gamemap.engine is loaded
    assert loaded.game_world.engine is loaded
    for entity in gamemap.entities:
        assert entity.gamemap is gamemap
        assert entity.gamemap.engine is loaded
        if isinstance(entity, Actor):
            for component in (entity.fighter, entity.inventory, entity.equipment, entity.level):
                assert component.parent is entity
            if entity.ai is not None:
                assert entity.ai.entity is entity
    for item in player.inventory.items:
        assert item.parent is player.inventory
        assert item.gamemap is gamemap
    # Worn items are the very items carried, not copies.
    worn = [player.equipment.weapon, player.equipment.armor]
    assert all(any(item is carried for carried in player.inventory.items) for item in worn)


def test_loaded_game_plays_on_like_the_original(save_path: Path) -> None:
    """The random generator and every monster's state come back exactly."""
    engine = played_engine()
    savefile.save(engine, str(save_path))
    loaded = savefile.load(str(save_path))
    for game in (engine, loaded):
        for _ in range(5):
            game.handle_enemy_turns()
            game.update_fov()
    assert describe_game(loaded) == describe_game(engine)
    np.testing.assert_array_equal(loaded.game_map.explored, engine.game_map.explored)


def test_save_overwrites_the_previous_save_and_leaves_no_temporary_file(
    save_path: Path,
) -> None:
    savefile.save(make_engine(), str(save_path))
    engine = played_engine()
    savefile.save(engine, str(save_path))
    assert describe_game(savefile.load(str(save_path))) == describe_game(engine)
    assert os.listdir(save_path.parent) == [save_path.name]


def test_engine_save_as_uses_this_format(save_path: Path) -> None:
    make_engine().save_as(str(save_path))
    assert save_path.read_bytes().startswith(savefile.MAGIC)
    assert isinstance(savefile.load(str(save_path)), Engine)


def test_file_starts_with_magic_and_version(save_path: Path) -> None:
    savefile.save(make_engine(), str(save_path))
    data = save_path.read_bytes()
    assert data[:8] == b"YARLSAVE"
    assert int.from_bytes(data[8:10], "big") == savefile.FORMAT_VERSION == 2
    assert data[10:16] == b"\xfd7zXZ\x00"  # An xz stream follows.


def test_floor_1_save_is_at_most_4_kb(save_path: Path) -> None:
    savefile.save(make_engine(), str(save_path))
    assert save_path.stat().st_size <= 4096


# --- Missing and bad files ------------------------------------------------


def test_missing_file_raises_file_not_found(save_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        savefile.load(str(save_path))


def good_save() -> bytes:
    return savefile.dumps(make_engine())


def cut_in_half() -> bytes:
    data = good_save()
    return data[: len(data) // 2]


def flip_a_bit() -> bytes:
    """One bit changed in the compressed game: the xz check must notice."""
    data = bytearray(good_save())
    data[len(data) // 2] ^= 0x10
    return bytes(data)


BAD_FILES: dict[str, tuple[Callable[[], bytes], type[savefile.SaveError], str]] = {
    "empty": (lambda: b"", savefile.EmptySaveError, "The save file is empty."),
    "garbage": (
        lambda: bytes(random.Random(1).randrange(256) for _ in range(3000)),
        savefile.NotASaveError,
        "This is not a save file of this game.",
    ),
    "text": (
        lambda: b"hello\n",
        savefile.NotASaveError,
        "This is not a save file of this game.",
    ),
    "tutorial save": (
        lambda: lzma.compress(pickle.dumps(make_engine())),
        savefile.NotASaveError,
        "This is not a save file of this game.",
    ),
    "other version": (
        lambda: savefile.MAGIC + (7).to_bytes(2, "big") + good_save()[10:],
        savefile.SaveVersionError,
        "The save is from format version 7; this game reads version 2.",
    ),
    "truncated": (
        cut_in_half,
        savefile.DamagedSaveError,
        "The save file is damaged or truncated.",
    ),
    "header only": (
        lambda: good_save()[:10],
        savefile.DamagedSaveError,
        "The save file is damaged or truncated.",
    ),
    "magic cut short": (
        lambda: b"YARL",
        savefile.DamagedSaveError,
        "The save file is damaged or truncated.",
    ),
    "last byte cut": (
        lambda: good_save()[:-1],
        savefile.DamagedSaveError,
        "The save file is damaged or truncated.",
    ),
    "bytes appended": (
        lambda: good_save() + b"\x00junk",
        savefile.DamagedSaveError,
        "The save file is damaged or truncated.",
    ),
    "byte flipped": (
        flip_a_bit,
        savefile.DamagedSaveError,
        "The save file is damaged or truncated.",
    ),
    "not a pickle": (
        lambda: save_bytes(b"this is not a pickle"),
        savefile.DamagedSaveError,
        "The save file is damaged or truncated.",
    ),
    "pickle cut short": (
        lambda: save_bytes(pickle.dumps(make_engine(), protocol=5)[:-100]),
        savefile.DamagedSaveError,
        "The save file is damaged or truncated.",
    ),
    "a list": (
        lambda: save_bytes(pickle.dumps([1, 2, 3], protocol=5)),
        savefile.NotAGameError,
        "The save file holds something other than a game and was not loaded.",
    ),
    "a message log": (
        lambda: save_bytes(pickle.dumps(MessageLog(), protocol=5)),
        savefile.NotAGameError,
        "The save file holds something other than a game and was not loaded.",
    ),
}


@pytest.mark.parametrize("case", BAD_FILES)
def test_bad_file_raises_its_save_error(save_path: Path, case: str) -> None:
    make_data, error, message = BAD_FILES[case]
    save_path.write_bytes(make_data())
    with pytest.raises(error) as raised:
        savefile.load(str(save_path))
    assert isinstance(raised.value, savefile.SaveError)
    assert str(raised.value) == message


def test_version_error_says_which_versions() -> None:
    with pytest.raises(savefile.SaveVersionError) as raised:
        savefile.loads(savefile.MAGIC + (1).to_bytes(2, "big"))
    assert (raised.value.found, raised.value.expected) == (1, 2)


def test_huge_payload_is_refused_unread() -> None:
    """A tiny file that would inflate past MAX_PAYLOAD (an "lzma bomb")."""
    bomb = save_bytes(b"\x00" * (savefile.MAX_PAYLOAD + 1))
    assert len(bomb) < 100_000
    with pytest.raises(savefile.DamagedSaveError):
        savefile.loads(bomb)


# --- Hostile files --------------------------------------------------------


class RunsCommand:
    """Pickles as a call to os.system: the classic hostile pickle."""

    def __init__(self, command: str):
        self.command = command

    def __reduce__(self) -> tuple[Any, ...]:
        return (os.system, (self.command,))


class OpensFile:
    """Pickles as a call to builtins.open: writes a file when unpickled."""

    def __init__(self, path: str):
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        return (open, (self.path, "w"))


class EvalsCode:
    """Pickles as a call to builtins.eval."""

    def __init__(self, code: str):
        self.code = code

    def __reduce__(self) -> tuple[Any, ...]:
        return (eval, (self.code,))


HOSTILE_PAYLOADS: dict[str, Callable[[Path], bytes]] = {
    "os.system": lambda marker: pickle.dumps(RunsCommand(f"touch {shlex.quote(str(marker))}")),
    "builtins.open": lambda marker: pickle.dumps(OpensFile(str(marker))),
    "builtins.eval": lambda marker: pickle.dumps(EvalsCode(f"open({str(marker)!r}, 'w').close()")),
    "os.system, protocol 0 by hand": lambda marker: (
        b"cos\nsystem\n(V" + f"touch {shlex.quote(str(marker))}".encode() + b"\ntR."
    ),
    "inside a real game": lambda marker: pickle.dumps(
        (make_engine(), RunsCommand(f"touch {shlex.quote(str(marker))}")), protocol=5
    ),
}


@pytest.mark.parametrize("case", HOSTILE_PAYLOADS)
def test_hostile_save_is_refused_before_it_runs(tmp_path: Path, case: str) -> None:
    marker = tmp_path / "marker"
    payload = HOSTILE_PAYLOADS[case](marker)
    # Make sure the payload really would do harm if loaded without the allowlist.
    assert not marker.exists()
    save_path = tmp_path / "savegame.sav"
    save_path.write_bytes(save_bytes(payload))
    with pytest.raises(savefile.RefusedSaveError) as raised:
        savefile.load(str(save_path))
    assert not marker.exists()
    assert str(raised.value).startswith("The save file contains code the game won't run (")
    assert str(raised.value).endswith("); it was not loaded.")


def test_hostile_payloads_do_work_without_the_allowlist(tmp_path: Path) -> None:
    """The test above would prove nothing if the payloads were harmless."""
    marker = tmp_path / "marker"
    pickle.loads(HOSTILE_PAYLOADS["builtins.open"](marker)).close()
    assert marker.exists()


REFUSED_GLOBALS = [
    ("os", "system"),
    ("posix", "system"),
    ("nt", "system"),
    ("subprocess", "Popen"),
    ("builtins", "eval"),
    ("builtins", "exec"),
    ("builtins", "open"),
    ("builtins", "getattr"),
    ("builtins", "__import__"),
    ("builtins", "set"),
    ("copyreg", "_reconstructor"),
    ("pickle", "loads"),
    ("importlib", "import_module"),
    # Modules that game modules import, reached through them.
    ("engine", "random"),
    ("engine", "savefile"),
    ("engine", "tcod"),
    ("game_map", "np"),
    ("game_map", "random"),
    ("entity", "copy"),
    ("components.ai", "tcod"),
    # Names imported into a game module but defined elsewhere.
    ("game_map", "Actor"),
    ("components.consumable", "SingleRangedAttackHandler"),
    ("components.consumable", "actions"),
    # Functions, constants and dunders of game modules.
    ("components.ai", "path_cost"),
    ("components.ai", "DIRECTIONS"),
    ("engine", "__builtins__"),
    ("engine", "__loader__"),
    ("engine", "__import__"),
    ("engine", "FOV_RADIUS"),
    # Dotted names walk attributes: the way to a class's methods and globals.
    ("engine", "Engine.save_as"),
    ("engine", "Engine.__init__.__globals__"),
    ("engine", "Engine.__class__"),
    ("entity", "Entity.spawn"),
    # Classes that exist, in modules that have no place in a save.
    ("actions", "ItemAction"),
    ("input_handlers", "MainGameEventHandler"),
    ("setup_game", "MainMenu"),
    ("savefile", "SaveError"),
    ("procgen", "generate_dungeon"),
    # Names no module has.
    ("engine", "NoSuchClass"),
    ("no_such_module", "Engine"),
    ("numpy", "load"),
    ("numpy", "frombuffer"),
    ("numpy.lib.npyio", "load"),
    ("numpy.core", "multiarray"),
]


@pytest.mark.parametrize(("module", "name"), REFUSED_GLOBALS)
def test_global_outside_the_allowlist_is_refused(module: str, name: str) -> None:
    with pytest.raises(savefile.RefusedSaveError) as raised:
        savefile.loads(save_bytes(global_pickle(module, name)))
    assert (raised.value.module, raised.value.name) == (module, name)


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("engine", "Engine"),
        ("entity", "Actor"),
        ("game_map", "GameMap"),
        ("components.ai", "HostileEnemy"),
        ("components.ai", "ConfusedEnemy"),
        ("render_order", "RenderOrder"),
        ("equipment_types", "EquipmentType"),
        ("numpy", "dtype"),
        ("numpy._core.numeric", "_frombuffer"),
        ("numpy.core.multiarray", "_reconstruct"),
    ],
)
def test_allowed_global_is_found(module: str, name: str) -> None:
    """A save may name these; alone, the result is just not a game."""
    with pytest.raises(savefile.NotAGameError):
        savefile.loads(save_bytes(global_pickle(module, name)))


def test_numpy_1_array_pickle_loads_without_deprecation_warning() -> None:
    """numpy 1 wrote `numpy.core...`, a deprecated alias in numpy 2."""
    array = np.arange(6, dtype=np.int16).reshape(2, 3)
    stream = io.BytesIO()
    pickle.Pickler(stream, protocol=3).dump(array)  # No frames, text globals.
    legacy = stream.getvalue().replace(b"numpy._core.multiarray", b"numpy.core.multiarray")
    assert b"numpy.core.multiarray" in legacy
    with pytest.raises(savefile.NotAGameError) as raised:
        savefile.loads(save_bytes(legacy))
    assert raised.value.found_type is np.ndarray


# --- Atomic saving --------------------------------------------------------


def test_failed_rename_keeps_the_old_save(save_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = make_engine()
    savefile.save(old, str(save_path))
    old_bytes = save_path.read_bytes()

    def crash(*args: object) -> None:
        raise OSError("simulated crash before the rename")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="simulated"):
        savefile.save(played_engine(), str(save_path))
    monkeypatch.undo()

    assert save_path.read_bytes() == old_bytes
    assert describe_game(savefile.load(str(save_path))) == describe_game(old)
    assert os.listdir(save_path.parent) == [save_path.name]


@pytest.mark.parametrize("error", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_write_failing_half_way_keeps_the_old_save(
    save_path: Path, monkeypatch: pytest.MonkeyPatch, error: BaseException
) -> None:
    old = make_engine()
    savefile.save(old, str(save_path))
    old_bytes = save_path.read_bytes()
    real_fdopen = os.fdopen

    class HalfWriter:
        """Writes half of what it is given, then fails, like a full disk."""

        def __init__(self, file: Any):
            self.file = file

        def __enter__(self) -> HalfWriter:
            return self

        def __exit__(self, *exc_info: object) -> None:
            self.file.close()

        def write(self, data: bytes) -> int:
            self.file.write(data[: len(data) // 2])
            self.file.flush()
            raise error

        def __getattr__(self, name: str) -> Any:
            return getattr(self.file, name)

    monkeypatch.setattr(os, "fdopen", lambda fd, mode: HalfWriter(real_fdopen(fd, mode)))
    with pytest.raises(type(error)):
        savefile.save(played_engine(), str(save_path))
    monkeypatch.undo()

    assert save_path.read_bytes() == old_bytes
    assert describe_game(savefile.load(str(save_path))) == describe_game(old)
    assert os.listdir(save_path.parent) == [save_path.name]


def test_failed_first_save_leaves_nothing(save_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def crash(fd: int) -> None:
        raise OSError("simulated fsync failure")

    monkeypatch.setattr(os, "fsync", crash)
    with pytest.raises(OSError, match="simulated"):
        savefile.save(make_engine(), str(save_path))
    monkeypatch.undo()
    assert os.listdir(save_path.parent) == []


def test_game_that_could_not_be_loaded_back_is_not_saved(save_path: Path) -> None:
    """Something outside the allowlist in the game: fail now, not at the next load."""
    savefile.save(make_engine(), str(save_path))
    old_bytes = save_path.read_bytes()
    engine = played_engine()
    engine.game_map.downstairs_location = random.Random(1)  # type: ignore[assignment]

    with pytest.raises(savefile.UnsaveableGameError) as raised:
        savefile.save(engine, str(save_path))
    assert (raised.value.module, raised.value.name) == ("random", "Random")
    assert str(raised.value) == (
        "The game could not be saved: it holds random.Random, which saves may not contain."
    )
    assert save_path.read_bytes() == old_bytes
    assert os.listdir(save_path.parent) == [save_path.name]


def test_game_that_fails_to_rebuild_is_not_saved(
    save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_setstate(self: Engine, state: dict[str, Any]) -> None:
        raise ValueError("simulated bug in __setstate__")

    monkeypatch.setattr(Engine, "__setstate__", broken_setstate)
    with pytest.raises(savefile.UnsaveableGameError) as raised:
        savefile.save(make_engine(), save_path)
    assert (raised.value.module, raised.value.name) == (None, None)
    assert str(raised.value) == "The game could not be saved: it would not load back."
    assert isinstance(raised.value.__cause__, savefile.DamagedSaveError)
    assert os.listdir(save_path.parent) == []


def test_paths_work_as_well_as_strings(save_path: Path) -> None:
    savefile.save(make_engine(), save_path)
    assert isinstance(savefile.load(save_path), Engine)
    assert savefile.keep_bad_save(save_path) == str(save_path) + ".bad"


def test_save_in_the_current_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The game saves to a bare file name; the temporary file must go beside it."""
    monkeypatch.chdir(tmp_path)
    savefile.save(make_engine(), savefile.SAVE_FILENAME)
    assert os.listdir(tmp_path) == [savefile.SAVE_FILENAME]
    assert isinstance(savefile.load(savefile.SAVE_FILENAME), Engine)


# --- Keeping a bad save ---------------------------------------------------


def test_keep_bad_save_moves_the_file_aside(save_path: Path) -> None:
    save_path.write_bytes(b"garbage")
    (save_path.parent / (save_path.name + ".bad")).write_bytes(b"older garbage")

    kept = savefile.keep_bad_save(str(save_path))

    assert kept == str(save_path) + ".bad"
    assert not save_path.exists()
    assert Path(kept).read_bytes() == b"garbage"
    with pytest.raises(FileNotFoundError):
        savefile.load(str(save_path))
