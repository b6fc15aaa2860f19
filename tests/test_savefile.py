"""Tests of the save: round trip, atomic writes and backups, and refusing bad files.

Why these matter: a save that loads wrong loses a game silently, a save cut
short by a crash loses it loudly, and a save from someone else must never be
able to run code, crash the game, or change it.  The mutation fuzz and the
crafted attacks are in test_save_attacks.py.
"""

from __future__ import annotations

import copy
import enum
import lzma
import os
import pickle
import random
import shlex
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar, cast

import numpy as np
import pytest
from conftest import dungeon, give, in_the_games_module

import actions
import components.ai
import components.consumable
import components.equippable
import entity_factories
import game_map
import input_handlers
import message_log
import setup_game
import tile_types
from components.ai import ConfusedEnemy
from components.consumable import HealingConsumable
from components.equippable import Sword
from engine import Engine
from entity import Actor, Entity, Item
from equipment_types import EquipmentType
from message_log import Message
from replays import recording
from saving import autosave, paths, safe_io, save_data, save_fields, savefile
from saving.save_fields import Bool, Choice, Fields, Int, ListOf, Maybe, OneOf, Point, Text
from saving.savefile import DamagedSaveError, RefusedSaveError

SEED = 1234
VERSION = save_data.FORMAT_VERSION


def make_engine() -> Engine:
    """A seeded floor-1 game, as a player starts it."""
    random.seed(SEED)
    return setup_game.new_game(seed=SEED)


def played_engine() -> Engine:
    """A floor-1 game with a bit of everything a save must carry.

    Worn and carried items, items on the floor, a monster confused twice, a
    corpse, a hurt player with experience, and stacked messages.
    """
    engine = make_engine()
    gamemap = engine.game_map
    player = engine.player
    x, y = player.x, player.y

    troll = entity_factories.troll.spawn(gamemap, x + 1, y)
    troll.ai = ConfusedEnemy(entity=troll, previous_ai=troll.ai, turns_remaining=4)
    troll.ai = ConfusedEnemy(entity=troll, previous_ai=troll.ai, turns_remaining=2)
    entity_factories.orc.spawn(gamemap, x, y + 1).fighter.take_damage(100)  # A corpse.
    entity_factories.lightning_scroll.spawn(gamemap, x - 1, y)
    entity_factories.sword.spawn(gamemap, x, y - 1)

    for template in (entity_factories.fireball_scroll, entity_factories.confusion_scroll,
                     entity_factories.health_potion, entity_factories.chain_mail):
        item = copy.deepcopy(template)
        player.inventory.add(item)

    player.fighter.hp -= 5
    player.level.add_xp(20)
    engine.message_log.add_message("Something stirs.")
    engine.message_log.add_message("Something stirs.")
    engine.mouse_location = (3, 4)
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
        ai, minds = entity.ai, []
        while ai is not None:
            fields = {k: v for k, v in vars(ai).items() if k not in ("entity", "previous_ai")}
            minds.append((type(ai).__name__, fields))
            ai = getattr(ai, "previous_ai", None)
        data["ai"] = minds
        data["inventory"] = (
            entity.inventory.capacity,
            [describe(item) for item in entity.inventory.items],
        )
        equipment = entity.equipment
        data["equipment"] = [
            None if item is None else item.name for item in (equipment.weapon, equipment.armor)
        ]
        data["level"] = {k: v for k, v in vars(entity.level).items() if k != "parent"}
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
    world = engine.game_world
    return {
        "entities": [describe(entity) for entity in gamemap.entities],
        "player": list(gamemap.entities).index(engine.player),
        "messages": [(m.full_text, m.fg) for m in engine.message_log.messages],
        "world": {k: v for k, v in vars(world).items() if k != "engine"},
        "downstairs": gamemap.downstairs_location,
        "size": (gamemap.width, gamemap.height),
        "rng": engine.rng.bit_generator.state,
        "mouse": engine.mouse_location,
        "arrays": [getattr(gamemap, name).tobytes() for name in ("tiles", "visible", "explored")],
    }


def wrap(data: object) -> bytes:
    """`data` as a save file with a good header and checksum."""
    return savefile.dumps(data, VERSION)


def wrap_pickle(pickled: bytes, version: int = VERSION) -> bytes:
    """A file with a good header and `pickled` compressed as a save of `version` is."""
    return savefile.pack(pickled, version)


def load_bytes(blob: bytes) -> Engine:
    return save_data.from_data(savefile.loads(blob, VERSION))


@pytest.fixture
def save_path(tmp_path: Path) -> Path:
    return tmp_path / "savegame.sav"


# --- Round trip -----------------------------------------------------------


def test_round_trip_keeps_the_game(save_path: Path) -> None:
    engine = played_engine()
    save_data.save(engine, save_path)
    loaded = save_data.load(save_path)

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
    save_data.save(played_engine(), save_path)
    loaded = save_data.load(save_path)
    gamemap = loaded.game_map
    player = loaded.player

    assert player in gamemap.entities
    assert gamemap.engine is loaded
    assert loaded.game_world.engine is loaded
    for entity in gamemap.entities:
        assert entity.parent is gamemap
        if isinstance(entity, Actor):
            for component in (entity.fighter, entity.inventory, entity.equipment, entity.level):
                assert component.parent is entity
            ai = entity.ai
            while ai is not None:
                assert ai.entity is entity
                ai = getattr(ai, "previous_ai", None)
    for item in player.inventory.items:
        assert item.parent is player.inventory
        assert item.gamemap is gamemap
        for part in (item.consumable, item.equippable):
            assert part is None or part.parent is item
    # Worn items are the very items carried, not copies.
    worn = [player.equipment.weapon, player.equipment.armor]
    assert all(any(item is carried for carried in player.inventory.items) for item in worn)


def test_loaded_game_plays_on_like_the_original(save_path: Path) -> None:
    """The random generator and every monster's state come back exactly."""
    engine = played_engine()
    save_data.save(engine, save_path)
    loaded = save_data.load(save_path)
    for game in (engine, loaded):
        for _ in range(8):
            game.handle_enemy_turns()
            game.update_fov()
    assert describe_game(loaded) == describe_game(engine)


def test_the_file_holds_plain_data_only() -> None:
    allowed = (dict, list, tuple, str, int, bool, type(None), bytes)
    seen: set[type] = set()

    def walk(value: object) -> None:
        assert type(value) in allowed, type(value)
        seen.add(type(value))
        if isinstance(value, dict):
            for key, item in value.items():
                assert type(key) is str
                walk(item)
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)

    blob = savefile.dumps(save_data.to_data(played_engine()), VERSION)
    walk(savefile.loads(blob, VERSION))
    assert seen == set(allowed)


def test_file_starts_with_magic_and_version(save_path: Path) -> None:
    save_data.save(make_engine(), save_path)
    data = save_path.read_bytes()
    assert data[:8] == b"YARLSAVE"
    assert int.from_bytes(data[8:10], "big") == VERSION
    assert zlib.decompress(data[10:])[:2] == b"\x80\x05"  # A zlib stream of a pickle follows.


def test_floor_1_save_is_at_most_4_kb(save_path: Path) -> None:
    save_data.save(make_engine(), save_path)
    assert save_path.stat().st_size <= 4096


# --- Missing and bad files ------------------------------------------------


def test_missing_file_raises_file_not_found(save_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        save_data.load(save_path)


def good_save() -> bytes:
    return wrap(save_data.to_data(make_engine()))


def flip_a_bit() -> bytes:
    """One bit changed in the compressed game: the checksum must notice."""
    data = bytearray(good_save())
    data[len(data) // 2] ^= 0x10
    return bytes(data)


DAMAGED = "The save file is damaged or truncated."
NOT_A_SAVE = "This is not a save file of this game."

BAD_FILES: dict[str, tuple[Callable[[], bytes], type[savefile.SaveError], str]] = {
    "empty": (lambda: b"", savefile.EmptySaveError, "The save file is empty."),
    "garbage": (
        lambda: bytes(random.Random(1).randrange(256) for _ in range(3000)),
        savefile.NotASaveError,
        NOT_A_SAVE,
    ),
    "text": (lambda: b"hello\n", savefile.NotASaveError, NOT_A_SAVE),
    "tutorial save": (
        lambda: lzma.compress(pickle.dumps(save_data.to_data(make_engine()))),
        savefile.NotASaveError,
        NOT_A_SAVE,
    ),
    "newer version": (
        lambda: savefile.MAGIC + (save_data.FORMAT_VERSION + 1).to_bytes(2, "big") + good_save()[10:],
        savefile.SaveVersionError,
        f"The save was made by a newer version of the game (format {save_data.FORMAT_VERSION + 1}; "
        f"this one reads up to {save_data.FORMAT_VERSION}): play it with that version.",
    ),
    "truncated": (lambda: good_save()[: len(good_save()) // 2], DamagedSaveError, DAMAGED),
    "header only": (lambda: good_save()[:10], DamagedSaveError, DAMAGED),
    "magic cut short": (lambda: b"YARL", DamagedSaveError, DAMAGED),
    "last byte cut": (lambda: good_save()[:-1], DamagedSaveError, DAMAGED),
    "bytes appended": (lambda: good_save() + b"\x00junk", DamagedSaveError, DAMAGED),
    "byte flipped": (flip_a_bit, DamagedSaveError, DAMAGED),
    "not a pickle": (lambda: wrap_pickle(b"this is not a pickle"), DamagedSaveError, DAMAGED),
    "pickle cut short": (
        lambda: wrap_pickle(pickle.dumps(save_data.to_data(make_engine()), 5)[:-100]),
        DamagedSaveError,
        DAMAGED,
    ),
    "bytes after the pickle": (
        lambda: wrap_pickle(pickle.dumps([1], 5) + b"N."), DamagedSaveError, DAMAGED
    ),
    "a list": (
        lambda: wrap([1, 2, 3]),
        DamagedSaveError,
        "The save file is damaged or altered: the game is not a record.",
    ),
    "the old format": (
        # Version 1 pickled the game's objects; its number is refused first.
        lambda: wrap_pickle(b"\x80\x05N.", version=1),
        savefile.SaveVersionError,
        f"The save is from format version 1; this game reads version {save_data.FORMAT_VERSION}.",
    ),
}


@pytest.mark.parametrize("case", BAD_FILES)
def test_bad_file_raises_its_save_error(save_path: Path, case: str) -> None:
    make_data, error, message = BAD_FILES[case]
    save_path.write_bytes(make_data())
    with pytest.raises(error) as raised:
        save_data.load(save_path)
    assert str(raised.value) == message


@pytest.mark.parametrize("version", [7, VERSION])  # xz, then zlib.
def test_huge_payload_is_refused_unread(version: int) -> None:
    """A tiny file that would inflate past MAX_PAYLOAD (a "zip bomb")."""
    bomb = wrap_pickle(b"\x00" * (savefile.MAX_PAYLOAD + 1), version)
    assert len(bomb) < 100_000
    with pytest.raises(DamagedSaveError):
        savefile.loads(bomb, version)


def test_big_file_is_refused_unread(save_path: Path) -> None:
    save_path.write_bytes(good_save() + b"\x00" * savefile.MAX_FILE_SIZE)
    with pytest.raises(savefile.OversizedSaveError):
        save_data.load(save_path)


def test_a_folder_is_not_a_save(save_path: Path) -> None:
    save_path.mkdir()
    with pytest.raises(savefile.NotAFileError):
        save_data.load(save_path)


# --- Hostile pickles ------------------------------------------------------


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


HOSTILE_PAYLOADS: dict[str, Callable[[Path], bytes]] = {
    "os.system": lambda marker: pickle.dumps(RunsCommand(f"touch {shlex.quote(str(marker))}")),
    "builtins.open": lambda marker: pickle.dumps(OpensFile(str(marker))),
    "os.system, protocol 0 by hand": lambda marker: (
        b"cos\nsystem\n(V" + f"touch {shlex.quote(str(marker))}".encode() + b"\ntR."
    ),
    "inside a real game": lambda marker: pickle.dumps(
        [save_data.to_data(make_engine()), RunsCommand(f"touch {shlex.quote(str(marker))}")],
        protocol=5,
    ),
}


@pytest.mark.parametrize("case", HOSTILE_PAYLOADS)
def test_hostile_save_is_refused_before_it_runs(save_path: Path, case: str) -> None:
    marker = save_path.parent / "marker"
    save_path.write_bytes(wrap_pickle(HOSTILE_PAYLOADS[case](marker)))
    with pytest.raises(RefusedSaveError) as raised:
        save_data.load(save_path)
    assert not marker.exists()
    assert str(raised.value).endswith(", which a save never does; it was not loaded.")


def test_hostile_payloads_do_work_without_the_checks(tmp_path: Path) -> None:
    """The test above would prove nothing if the payloads were harmless."""
    marker = tmp_path / "marker"
    pickle.loads(HOSTILE_PAYLOADS["builtins.open"](marker)).close()
    assert marker.exists()


def global_pickle(module: str, name: str, opcode: bytes = b"\x93") -> bytes:
    """A pickle whose whole content is the global `module.name`."""
    encoded = [part.encode() for part in (module, name)]
    return (
        b"\x80\x04"
        + b"".join(b"\x8c" + bytes([len(part)]) + part for part in encoded)
        + opcode
        + b"."
    )


@pytest.mark.parametrize(
    ("module", "name"),
    [("engine", "Engine"), ("numpy", "dtype"), ("numpy._core.numeric", "_frombuffer"),
     ("builtins", "set"), ("components.fighter", "Fighter")],
)
def test_every_global_is_refused_even_the_games_own(module: str, name: str) -> None:
    with pytest.raises(RefusedSaveError, match="STACK_GLOBAL"):
        savefile.loads(wrap_pickle(global_pickle(module, name)), VERSION)


def test_the_unpickler_refuses_globals_even_past_the_scan() -> None:
    """The second lock: were the scan to miss a global, the unpickler refuses it."""
    unpickler = savefile._Unpickler(__import__("io").BytesIO(global_pickle("os", "system")))
    with pytest.raises(RefusedSaveError, match=r"code \(os.system\)"):
        unpickler.load()


@pytest.mark.parametrize(
    ("pickled", "what"),
    [
        (b"\x80\x05G?\xf0\x00\x00\x00\x00\x00\x00.", "BINFLOAT"),  # A float: no game has one.
        (b"\x80\x05\x8f\x94.", "EMPTY_SET"),
        (b"\x80\x05]r\xff\xff\xff\x7f.", "LONG_BINPUT"),  # The memo bomb's opcode.
        (b"\x80\x05N\x94h\x05.", "memo entry that was never made"),
        (b"\x80\x05N\x94\x94\x94.", "more memo entries than objects"),  # One object kept thrice.
        (b"\x80\x05" + b"]" * 40 + b"a" * 39 + b".", "nested deeper"),
        (b"\x80\x05K\x01" + b"\x85" * 40 + b".", "nested deeper"),  # Tuples in tuples.
        (b"\x80\x05\x8a\x20" + b"\x01" * 32 + b".", "number longer"),
    ],
)
def test_opcodes_beyond_plain_data_are_refused(pickled: bytes, what: str) -> None:
    with pytest.raises(RefusedSaveError, match=what):
        savefile.loads(wrap_pickle(pickled), VERSION)


def test_caps_on_objects_and_containers(monkeypatch: pytest.MonkeyPatch) -> None:
    data: list[list[int]] = [[] for _ in range(100)]
    monkeypatch.setattr(savefile, "MAX_CONTAINERS", 100)
    with pytest.raises(RefusedSaveError, match="more containers"):
        savefile.loads(wrap(data), VERSION)
    monkeypatch.setattr(savefile, "MAX_OBJECTS", 100)
    with pytest.raises(RefusedSaveError, match="more objects"):
        savefile.loads(wrap(list(range(200))), VERSION)


# --- Every field checked --------------------------------------------------


def game_data() -> dict[str, Any]:
    """The played game as plain data, fresh each time, to be spoiled by a test."""
    return game_data_of(played_engine())


def game_data_of(engine: Engine) -> dict[str, Any]:
    data = savefile.loads(wrap(save_data.to_data(engine)), VERSION)
    assert isinstance(data, dict)
    return data


def player_of(data: dict[str, Any]) -> dict[str, Any]:
    player: dict[str, Any] = data["game_map"]["entities"][data["player"]]
    return player


def first_monster(data: dict[str, Any]) -> dict[str, Any]:
    return next(
        e for i, e in enumerate(data["game_map"]["entities"])
        if e["kind"] == "Actor" and i != data["player"] and e["ai"]
    )


def first_consumable(data: dict[str, Any]) -> dict[str, Any]:
    consumable: dict[str, Any] = next(
        e["consumable"] for e in data["game_map"]["entities"] if e["kind"] == "Item" and e["consumable"]
    )
    return consumable


def first_equippable(data: dict[str, Any]) -> dict[str, Any]:
    equippable: dict[str, Any] = next(
        i["equippable"] for i in player_of(data)["inventory"]["items"] if i["equippable"]
    )
    return equippable


def spoil_dtype_of_tiles(data: dict[str, Any]) -> None:
    kinds, which = data["game_map"]["tiles"]
    data["game_map"]["tiles"] = kinds, which[:-1]


def tile_kinds(data: dict[str, Any]) -> Any:
    """The save's kinds of tile, as an array to spoil and put back (`put_tile_kinds`)."""
    return np.frombuffer(data["game_map"]["tiles"][0], tile_types.tile_dt).copy()


def put_tile_kinds(data: dict[str, Any], kinds: Any) -> None:
    data["game_map"]["tiles"] = kinds.tobytes(), data["game_map"]["tiles"][1]


def spoil_walkable_byte(data: dict[str, Any]) -> None:
    kinds = tile_kinds(data)
    kinds["walkable"].view(np.uint8)[0] = 2
    put_tile_kinds(data, kinds)


def spoil_tile_character(data: dict[str, Any]) -> None:
    kinds = tile_kinds(data)
    kinds["light"]["ch"][0] = -5
    put_tile_kinds(data, kinds)


def spoil_tile_name(data: dict[str, Any]) -> None:
    kinds = tile_kinds(data)
    kinds["name"][0] = ""
    put_tile_kinds(data, kinds)


def spoil_tile_kind(data: dict[str, Any]) -> None:
    kinds, which = data["game_map"]["tiles"]
    data["game_map"]["tiles"] = kinds, bytes([len(kinds) // tile_types.tile_dt.itemsize]) + which[1:]


def share_a_list(data: dict[str, Any]) -> None:
    entities = data["game_map"]["entities"]
    entities.append(entities[0])


def share_a_mind(data: dict[str, Any]) -> None:
    monsters = [
        e for i, e in enumerate(data["game_map"]["entities"])
        if e["kind"] == "Actor" and i != data["player"] and e["ai"]
    ]
    monsters[1]["ai"] = monsters[0]["ai"]


SPOILED: dict[str, tuple[Callable[[dict[str, Any]], object], str]] = {
    "player off the map": (
        lambda d: player_of(d).update(x=d["game_map"]["width"]),
        "entry 0 of the entities of the game_map is off the map",
    ),
    "player index out of range": (lambda d: d.update(player=10_000), "the player is not"),
    "player index one past the entities": (
        lambda d: d.update(player=len(d["game_map"]["entities"])), "the player is not a whole number from 0 to"
    ),
    "no player": (lambda d: d.update(player=None), "the player is not a whole number"),
    "player is a potion": (
        lambda d: d.update(player=next(i for i, e in enumerate(d["game_map"]["entities"]) if e["kind"] == "Item")),
        "the player is not a living actor",
    ),
    "dead player": (
        lambda d: (player_of(d)["fighter"].update(_hp=0), player_of(d).update(ai=[])),
        "the player is not a living actor",
    ),
    "hp above the maximum": (
        lambda d: player_of(d)["fighter"].update(_hp=player_of(d)["fighter"]["max_hp"] + 1),
        "the _hp of the fighter of entry 0 of the entities of the game_map is more than its max_hp",
    ),
    "negative hp": (lambda d: player_of(d)["fighter"].update(_hp=-1), "the _hp of the fighter"),
    "a living monster at 0 hp": (
        lambda d: first_monster(d)["fighter"].update(_hp=0), "either dead and acting"
    ),
    "an int in the inventory": (
        lambda d: player_of(d)["inventory"]["items"].append(5), "entry 6 of the items of the inventory"
    ),
    "an actor in the inventory": (
        lambda d: player_of(d)["inventory"]["items"].append(copy.deepcopy(first_monster(d))),
        "is no Item the game has",
    ),
    "more than the capacity": (
        lambda d: player_of(d)["inventory"].update(capacity=2), "the items of the inventory"
    ),
    "worn item not carried": (
        lambda d: player_of(d)["equipment"].update(weapon=17), "the weapon of the equipment"
    ),
    "armour worn as a weapon": (
        lambda d: player_of(d)["equipment"].update(weapon=player_of(d)["equipment"]["armor"]),
        "is not worn in that slot",
    ),
    "tiles of the wrong size": (spoil_dtype_of_tiles, "the tiles of the game_map is not"),
    "a walkable flag of 2": (spoil_walkable_byte, "a walkable flag that is neither"),
    "a negative character": (spoil_tile_character, "a character that is not one"),
    "a tile with no name": (spoil_tile_name, "a tile with no name"),
    "a tile of no kind saved": (spoil_tile_kind, "a tile of a kind that is not saved"),
    "explored bits missing": (
        lambda d: d["game_map"].update(explored=b""), "the explored of the game_map is not"
    ),
    "a huge map": (
        lambda d: d["game_map"].update(width=16000, height=16000), "the width of the game_map"
    ),
    "a map one wider than the screen's": (
        lambda d: d["game_map"].update(width=game_map.MAP_WIDTH + 1), "the width of the game_map is not a whole number"
    ),
    "a map one taller than the screen's": (
        lambda d: d["game_map"].update(height=game_map.MAP_HEIGHT + 1), "the height of the game_map is not a whole number"
    ),
    "floors bigger than the game makes": (
        lambda d: d["game_world"].update(max_rooms=game_map.MAX_ROOMS + 1), "the max_rooms of the game_world"
    ),
    "rooms bigger than the game makes": (
        lambda d: d["game_world"].update(room_max_size=game_map.ROOM_MAX_SIZE + 1), "the room_max_size of the game_world"
    ),
    "floors that can't be made": (
        lambda d: d["game_world"].update(map_width=5), "the map_width of the game_world"
    ),
    "a bool that is an int": (
        lambda d: player_of(d).update(blocks_movement=1), "the blocks_movement of entry 0"
    ),
    "a text hp": (lambda d: player_of(d)["fighter"].update(_hp="3"), "the _hp of the fighter"),
    "a lone surrogate in a name": (lambda d: player_of(d).update(name="\udc80"), "not valid text"),
    "two letters as a glyph": (lambda d: player_of(d).update(char="@@"), "the char of entry 0"),
    "an unknown render order": (
        lambda d: player_of(d).update(render_order="ON_TOP"), "the render_order of entry 0"
    ),
    "an unknown kind of mind": (
        lambda d: first_monster(d)["ai"].insert(0, {"kind": "psychic"}), "is no BaseAI the game has"
    ),
    "a text for a number": (
        lambda d: next(i["consumable"] for i in player_of(d)["inventory"]["items"] if i["consumable"])
        .update(damage="12"),
        "the damage of the consumable of entry 2 of the items of the inventory of entry 0 of the entities of the "
        "game_map is not a whole",
    ),
    "an unknown slot": (
        lambda d: first_equippable(d).update(kind="Equippable", equipment_type="RING"),
        "the equipment_type of the equippable of entry",
    ),
    "an abstract kind": (
        lambda d: first_consumable(d).update(kind="Consumable"), "is no Consumable the game has"
    ),
    "a kind of the wrong base": (
        lambda d: first_consumable(d).update(kind="Sword"), "is no Consumable the game has"
    ),
    "a mind over a hostile one": (
        lambda d: first_monster(d)["ai"].append({"kind": "HostileEnemy", "path": []}),
        "is over another, but wraps none",
    ),
    "a path off the map": (
        lambda d: first_monster(d)["ai"][-1]["path"].append((-1, 0)), "the path of layer"
    ),
    "an unknown potion": (
        lambda d: first_consumable(d).update(kind="wish"), "is no Consumable the game has"
    ),
    "an unknown equipment class": (
        lambda d: first_equippable(d).update(kind="Exploit"), "is no Equippable the game has"
    ),
    "an unknown field of a component": (
        lambda d: first_consumable(d).update(wishes=3),
        "the consumable of entry 4 of the entities of the game_map has a field this game does not know, 'wishes'",
    ),
    "a missing field": (lambda d: d["game_world"].pop("seed"), "the game_world has no seed"),
    "an unknown field": (
        lambda d: d["game_world"].update(cheat=True), "the game_world has a field this game does not know, 'cheat'"
    ),
    "a random state out of range": (
        lambda d: d.update(rng=(2**128, 1, 0, 0)), "the rng is not"
    ),
    "a message with no count": (
        lambda d: d["message_log"]["messages"].append({"plain_text": "hi", "fg": (1, 2, 3)}),
        "of the messages of the message_log has no count",
    ),
    "a message's row cut short": (
        lambda d: d["message_log"]["messages"].append(("hi", (1, 2, 3), 1)),
        "of the messages of the message_log is not a group of 6 values",
    ),
    "a message's row with a count of none": (
        lambda d: d["message_log"]["messages"].insert(0, ("hi", (1, 2, 3), 0, 0, 0, None)),
        "the count of entry 0 of the messages of the message_log is not a whole number from 1",
    ),
    "a message's row with a colour beyond 255": (
        lambda d: d["message_log"]["messages"].insert(0, ("hi", (1, 2, 256), 1, 0, 0, None)),
        "the fg of entry 0 of the messages of the message_log is not a colour: three whole numbers from 0 to 255",
    ),
    # A full log is read a column at a time (`Row.read_list`): what one check of a
    # column lets through, the row at fault still names.
    "a message's row with a count that is true": (
        lambda d: d["message_log"]["messages"].insert(3, ("hi", (1, 2, 3), True, 0, 0, None)),
        "the count of entry 3 of the messages of the message_log is not a whole number from 1",
    ),
    "a message's row with a colour that is true": (
        lambda d: d["message_log"]["messages"].insert(0, ("hi", (True, 2, 3), 1, 0, 0, None)),
        "the fg of entry 0 of the messages of the message_log is not a colour",
    ),
    "a message's row with a lone surrogate": (
        lambda d: d["message_log"]["messages"].append(("\ud800", (1, 2, 3), 1, 0, 0, None)),
        "the plain_text of entry",
    ),
    "a message's row about too much": (
        lambda d: d["message_log"]["messages"].insert(0, ("hi", (1, 2, 3), 1, 0, 0, "x" * 201)),
        "the about of entry 0 of the messages of the message_log is not a text of at most 200 characters",
    ),
    "a message's row with a list for a text": (
        lambda d: d["message_log"]["messages"].insert(0, (["hi"], (1, 2, 3), 1, 0, 0, None)),
        "the plain_text of entry 0 of the messages of the message_log is not a text",
    ),
    "a list shared twice": (share_a_list, "is shared with another part"),
    "a mind shared by two monsters": (share_a_mind, "is shared with another part"),
}


@pytest.mark.parametrize("case", SPOILED)
def test_each_field_is_checked(case: str) -> None:
    spoil, detail = SPOILED[case]
    data = game_data()
    save_data.from_data(copy.deepcopy(data))  # Unspoiled, it loads.
    spoil(data)
    with pytest.raises(DamagedSaveError) as raised:
        load_bytes(wrap(data))
    message = str(raised.value)
    assert message.startswith("The save file is damaged or altered: ")
    assert detail in message
    assert message.endswith(".") and "\n" not in message


def test_a_refused_save_changes_nothing_in_the_running_game() -> None:
    engine = played_engine()
    before = describe_game(engine)
    data = game_data()
    player_of(data)["fighter"].update(hp=10**9)
    with pytest.raises(DamagedSaveError):
        load_bytes(wrap(data))
    assert describe_game(engine) == before


# --- Messages, saved as rows ---------------------------------------------


def test_a_message_is_saved_as_a_row_of_its_fields_in_the_order_its_class_declares() -> None:
    engine = played_engine()
    rows = game_data_of(engine)["message_log"]["messages"]
    messages = engine.message_log.messages
    assert rows == [tuple(getattr(message, name) for name in Message.saved_fields) for message in messages]


def test_every_field_of_every_message_comes_back(save_path: Path) -> None:
    engine = played_engine()
    engine.message_log.add_message("You hit the orc.", (1, 2, 3), about="orc 3,4")
    save_data.save(engine, save_path)
    loaded = save_data.load(save_path).message_log.messages
    assert [vars(message) for message in loaded] == [vars(message) for message in engine.message_log.messages]
    assert all(type(message) is Message for message in loaded)


def test_a_full_log_is_written_and_read_a_column_at_a_time_as_a_row_at_a_time_would(save_path: Path) -> None:
    """The columns' checks (`Row.read_list`) make the same messages as each row's,
    a count past its cap saved at it, an `about` of None among texts kept."""
    engine = played_engine()
    for turn in range(message_log.HISTORY):
        engine.message_log.add_message(f"Turn {turn}.", (turn % 256, 0, 255), about=None if turn % 3 else f"orc {turn}")
    engine.message_log.messages[5].count = save_fields.MAX_STAT + 1
    messages = message_log.MessageLog.saved_fields["messages"]
    assert isinstance(messages, save_fields.ListOf) and isinstance(messages.field, save_fields.Row)
    row = messages.field
    rows = row.write_list(engine.message_log.messages, None)
    assert rows == [row.write(message, None) for message in engine.message_log.messages]
    assert cast("tuple[object, ...]", rows[5])[2] == save_fields.MAX_STAT
    by_column = row.read_list(rows, "the messages", None)
    one_by_one = [row.read(value, "a message", None) for value in rows]
    assert [vars(message) for message in by_column] == [vars(message) for message in one_by_one]
    assert all(type(message) is Message for message in by_column)


def test_a_message_holding_a_field_its_class_does_not_declare_is_not_saved(save_path: Path) -> None:
    engine = played_engine()
    engine.message_log.messages[0].colour_name = "white"  # type: ignore[attr-defined]
    with pytest.raises(save_fields.UndeclaredFieldError, match=r"Message.colour_name is neither saved"):
        engine.save_as(save_path)
    assert not save_path.exists()


def test_a_message_with_a_field_swapped_for_another_is_not_saved(save_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As many fields as declared, one of them not declared and one declared missing (which its
    class holds): the message is refused, not saved with its class's value."""
    monkeypatch.setattr(Message, "about", None, raising=False)
    engine = played_engine()
    message = engine.message_log.messages[0]
    del message.about
    message.colour_name = "white"  # type: ignore[attr-defined]
    with pytest.raises(save_fields.UndeclaredFieldError, match=r"Message.colour_name is neither saved"):
        engine.save_as(save_path)
    assert not save_path.exists()


def test_a_message_saved_by_name_as_format_8_did_still_loads() -> None:
    engine = played_engine()
    data = game_data_of(engine)
    data["message_log"]["messages"] = [dict(zip(Message.saved_fields, row, strict=True)) for row in
                                       data["message_log"]["messages"]]
    loaded = load_bytes(wrap(data)).message_log.messages
    assert [vars(message) for message in loaded] == [vars(message) for message in engine.message_log.messages]


def test_only_a_class_of_plain_values_is_saved_as_a_row() -> None:
    class Note:
        saved_fields: ClassVar[Fields] = {"text": Text(), "owner": save_fields.Link()}

    class Checked:
        saved_fields: ClassVar[Fields] = {"text": Text()}

        def check_loaded(self, what: str) -> None: ...

    for cls in (Note, Checked):
        with pytest.raises(TypeError, match="can't be saved as a row"):
            save_fields.Row(cls)


# --- A long game's save: the work it does, not the time it takes ----------


def long_game(events: int) -> Engine:
    """A new game whose recording holds `events` more lines, and a full log."""
    engine = make_engine()
    engine.recording += ["key h", "key j", "key l"] * (events // 3)
    for turn in range(message_log.HISTORY):
        engine.message_log.add_message(f"Turn {turn}.")
    return engine


def test_a_long_games_save_is_checked_from_memory_and_keeps_its_backup_unread(
    save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check that a save loads reads its data as a load does, from memory:
    no file read back, no pickle unpickled; the save replaced becomes the
    backup as it is on disk; and the recording's lines, each checked as it
    came, are not checked again (only its format and seed)."""
    engine = long_game(100_000)
    engine.save_as(save_path)
    first = save_path.stat().st_ino

    def refused(*args: object) -> None:
        raise AssertionError("a save read a file back")

    checked: list[list[str]] = []
    real_read = save_fields.Recording.read

    def spy(self: save_fields.Recording, value: object, what: str, owner: Any) -> object:
        lines = real_read(self, value, what, owner)
        assert isinstance(lines, recording.Lines)
        checked.append(lines.held)
        return lines

    for module, name in ((savefile, "read_file"), (savefile, "_unpickle"), (safe_io, "read_bytes")):
        monkeypatch.setattr(module, name, refused)
    monkeypatch.setattr(save_fields.Recording, "read", spy)
    engine.save_as(save_path)
    assert savefile.backup_path(save_path).stat().st_ino == first
    assert [len(lines) for lines in checked] == [save_fields.HEAD_LINES]
    monkeypatch.undo()
    assert save_data.load(save_path).recording == engine.recording


# --- Saving ---------------------------------------------------------------


def test_save_keeps_the_previous_save_as_backup_and_no_temporary_file(save_path: Path) -> None:
    first, second = make_engine(), played_engine()
    save_data.save(first, save_path)
    save_data.save(second, save_path)
    backup = savefile.backup_path(save_path)
    assert describe_game(save_data.load(save_path)) == describe_game(second)
    assert describe_game(save_data.load(backup)) == describe_game(first)
    assert sorted(os.listdir(save_path.parent)) == [save_path.name, backup.name]


def test_a_damaged_save_is_not_kept_over_a_good_backup(save_path: Path) -> None:
    save_data.save(make_engine(), save_path)
    save_data.save(make_engine(), save_path)
    backup_bytes = savefile.backup_path(save_path).read_bytes()
    save_path.write_bytes(b"YARLSAVE damaged")
    save_data.save(played_engine(), save_path)
    assert savefile.backup_path(save_path).read_bytes() == backup_bytes


def test_stale_temporary_files_are_removed_by_the_next_save(save_path: Path) -> None:
    folder = save_path.parent
    for i in range(3):  # As left by saves killed midway.
        (folder / f".savegame.sav.kill{i}.tmp").write_bytes(b"half a save")
    other = folder / ".other.sav.x.tmp"  # Another file's: not ours to remove.
    other.write_bytes(b"")
    save_data.save(make_engine(), save_path)
    assert sorted(os.listdir(folder)) == [other.name, save_path.name]


def test_failed_rename_keeps_the_old_save(save_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = make_engine()
    save_data.save(old, save_path)
    old_bytes = save_path.read_bytes()
    real_replace = os.replace

    def crash(source: str, destination: str) -> None:
        if Path(destination) == save_path:
            raise OSError("simulated crash before the rename")
        real_replace(source, destination)

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="simulated"):
        save_data.save(played_engine(), save_path)
    monkeypatch.undo()

    assert save_path.read_bytes() == old_bytes
    assert not [name for name in os.listdir(save_path.parent) if name.endswith(".tmp")]


@pytest.mark.parametrize("error", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_write_failing_half_way_keeps_the_old_save(
    save_path: Path, monkeypatch: pytest.MonkeyPatch, error: BaseException
) -> None:
    old = make_engine()
    save_data.save(old, save_path)
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

    monkeypatch.setattr(os, "fdopen", lambda fd, mode: HalfWriter(real_fdopen(fd, mode)))
    with pytest.raises(type(error)):
        save_data.save(played_engine(), save_path)
    monkeypatch.undo()

    assert save_path.read_bytes() == old_bytes
    assert os.listdir(save_path.parent) == [save_path.name]


def test_a_game_that_would_not_load_back_is_not_saved(save_path: Path) -> None:
    save_data.save(make_engine(), save_path)
    old_bytes = save_path.read_bytes()
    engine = played_engine()
    engine.player.fighter.max_hp = 0  # Nonsense a bug could make.

    with pytest.raises(savefile.UnsaveableGameError) as raised:
        save_data.save(engine, save_path)
    assert str(raised.value).startswith("The game could not be saved: The save file is damaged")
    assert save_path.read_bytes() == old_bytes


@pytest.mark.parametrize(
    ("field", "value", "wrong"),
    [
        ("plain_text", "lone \ud800", "is not valid text"),
        ("fg", (255, 0), "is not a colour"),
        ("count", True, "is not a whole number"),
        ("about", "x" * (message_log.MAX_ABOUT + 1), "is not a text of at most"),
    ],
    ids=["text", "colour", "count", "about"],
)
def test_a_full_log_with_one_message_that_would_not_load_back_is_not_saved(
    save_path: Path, field: str, value: object, wrong: str
) -> None:
    """The check before a save reads a log's thousand messages a column at a time and
    makes none of them (`save_fields._cut_for_check`): one bad value is still found, and named."""
    engine = played_engine()
    for number in range(message_log.HISTORY):
        engine.message_log.add_message(f"Message {number}.", (255, 255, 255))
    setattr(engine.message_log.messages[500], field, value)
    with pytest.raises(savefile.UnsaveableGameError) as raised:
        save_data.save(engine, save_path)
    assert f"the {field} of entry 500 of the messages of the message_log {wrong}" in str(raised.value)
    assert not save_path.exists()


def test_a_game_holding_what_the_save_does_not_know_is_not_saved(save_path: Path) -> None:
    engine = played_engine()
    engine.player.ai = object()  # type: ignore[assignment]
    with pytest.raises(savefile.UnsaveableGameError, match=r"object is a class no module of the game defines"):
        save_data.save(engine, save_path)
    assert not save_path.exists()


def test_save_in_the_current_folder(in_tmp: Path) -> None:
    """The game saves to a bare file name; the temporary file must go beside it."""
    save_data.save(make_engine(), "savegame.sav")
    assert os.listdir(in_tmp) == ["savegame.sav"]
    assert isinstance(save_data.load("savegame.sav"), Engine)


def test_the_tutorials_names_save_and_load(in_tmp: Path) -> None:
    """Part 10's `engine.save_as(filename)` and `setup_game.load_game(filename)`."""
    engine = played_engine()
    engine.save_as("savegame.sav")
    assert os.listdir(in_tmp) == ["savegame.sav"]
    assert describe_game(setup_game.load_game("savegame.sav")) == describe_game(engine)


def test_quitting_saves_through_save_as(in_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    saved: list[tuple[Engine, object]] = []
    real_save_as = Engine.save_as

    def save_as(engine: Engine, filename: str | os.PathLike[str]) -> None:
        saved.append((engine, filename))
        real_save_as(engine, filename)

    monkeypatch.setattr(Engine, "save_as", save_as)
    engine = played_engine()
    autosave.save_game(dungeon(engine))
    assert saved == [(engine, paths.save_path())]
    assert describe_game(setup_game.load_game(paths.save_path())) == describe_game(engine)


def test_keep_bad_save_moves_the_file_aside(save_path: Path) -> None:
    save_path.write_bytes(b"garbage")
    (save_path.parent / (save_path.name + ".bad")).write_bytes(b"older garbage")

    kept = savefile.keep_bad_save(save_path)

    assert kept == Path(str(save_path) + ".bad")
    assert not save_path.exists()
    assert kept.read_bytes() == b"garbage"


def test_remove_deletes_the_save_and_its_backup(save_path: Path) -> None:
    save_data.save(make_engine(), save_path)
    save_data.save(make_engine(), save_path)
    savefile.remove(save_path)
    assert os.listdir(save_path.parent) == []
    savefile.remove(save_path)  # Nothing to delete is no error.


def test_a_save_killed_between_backup_and_rename_leaves_nothing_behind(save_path: Path) -> None:
    """Then the save and its backup are one file, linked twice: the next save
    must neither fail nor leave its backup's temporary file."""
    save_data.save(make_engine(), save_path)
    backup = savefile.backup_path(save_path)
    os.link(save_path, backup)  # As `_keep_old` leaves it, killed before the rename.
    save_data.save(played_engine(), save_path)
    assert sorted(os.listdir(save_path.parent)) == [save_path.name, backup.name]
    assert describe_game(save_data.load(backup)) == describe_game(make_engine())


# --- Components saved by their own declarations -----------------------------------


class Wand(HealingConsumable):
    """A consumable two classes deep, with a field of each kind a save holds."""

    saved_fields: ClassVar[Fields] = {
        "charges": Int(0, 1000, default=3),
        "word": Text(),
        "lit": Bool(),
        "slot": Maybe(Choice(EquipmentType)),
        "marks": ListOf(Point(), 10),
    }

    def __init__(
        self,
        amount: int,
        charges: int = 3,
        word: str = "lumos",
        lit: bool = False,
        slot: EquipmentType | None = None,
        marks: list[tuple[int, int]] | None = None,
    ):
        super().__init__(amount)
        self.charges = charges
        self.word = word
        self.lit = lit
        self.slot = slot
        self.marks = [] if marks is None else marks


def carry_wand(engine: Engine, wand: HealingConsumable) -> Item:
    return give(engine, Item(char="/", color=(200, 200, 0), name="Wand of Light", consumable=wand))


def test_every_component_class_the_game_defines_is_a_kind_a_save_names() -> None:
    consumables = OneOf(components.consumable.Consumable, abstract=[components.consumable.Consumable]).kinds()
    equippables = OneOf(components.equippable.Equippable).kinds()
    minds = OneOf(components.ai.BaseAI, abstract=[components.ai.BaseAI]).kinds()
    for kinds, module in ((consumables, components.consumable), (equippables, components.equippable),
                          (minds, components.ai)):  # fmt: skip
        for name, cls in kinds.items():
            assert vars(module).get(name) is cls
    assert equippables["Sword"] is Sword and "Consumable" not in consumables and "Wand" not in consumables


def test_a_subclass_at_any_depth_keeps_every_field(
    save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    in_the_games_module(monkeypatch, Wand, components.consumable)
    engine = played_engine()
    wand = Wand(5, charges=2, word="nox", lit=True, slot=EquipmentType.ARMOR, marks=[(1, 2)])
    carry_wand(engine, wand)
    engine.save_as(save_path)
    loaded = save_data.load(save_path).player.inventory.items[-1].consumable
    assert isinstance(loaded, Wand) and loaded is not wand
    assert vars(loaded) | {"parent": None} == vars(wand) | {"parent": None}
    assert describe_game(save_data.load(save_path)) == describe_game(engine)


def test_a_field_added_with_a_default_loads_older_saves(monkeypatch: pytest.MonkeyPatch) -> None:
    in_the_games_module(monkeypatch, Wand, components.consumable)
    engine = played_engine()
    carry_wand(engine, Wand(5, charges=1))
    data = game_data_of(engine)
    del player_of(data)["inventory"]["items"][-1]["consumable"]["charges"]  # Saved before it was.
    loaded = load_bytes(wrap(data)).player.inventory.items[-1].consumable
    assert isinstance(loaded, Wand) and loaded.charges == 3


def test_a_class_the_games_modules_do_not_define_is_not_saved(save_path: Path) -> None:
    engine = played_engine()
    carry_wand(engine, Wand(5))  # Defined in this test file only.
    with pytest.raises(savefile.UnsaveableGameError) as raised:
        engine.save_as(save_path)
    assert str(raised.value) == "The game could not be saved: Wand is a class no module of the game defines."
    assert not save_path.exists()


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda wand: setattr(wand, "charges", "2"), "the charges of the consumable of entry 6 of the items of the "
         "inventory of entry 0 of the entities of the game_map is not a whole number from 0 to 1000."),
        (lambda wand: setattr(wand, "marks", [(1, 2, 3)]), "entry 0 of the marks of the consumable of entry 6 of the "
         "items of the inventory of entry 0 of the entities of the game_map is not a group of 2 values."),
        (lambda wand: delattr(wand, "word"), "Wand.word is declared, but the Wand has none."),
    ],
)
def test_a_field_that_is_not_as_declared_is_named(
    save_path: Path, monkeypatch: pytest.MonkeyPatch, spoil: Callable[[Wand], None], message: str
) -> None:
    in_the_games_module(monkeypatch, Wand, components.consumable)
    engine = played_engine()
    wand = carry_wand(engine, Wand(5)).consumable
    assert isinstance(wand, Wand)
    spoil(wand)
    with pytest.raises(savefile.UnsaveableGameError) as raised:
        engine.save_as(save_path)
    assert str(raised.value).endswith(message)


def test_a_field_not_declared_is_named(save_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class Charm(HealingConsumable):
        def __init__(self, amount: int, spells: dict[str, int]):
            super().__init__(amount)
            self.spells = spells

    in_the_games_module(monkeypatch, Charm, components.consumable)
    engine = played_engine()
    give(engine, Item(name="Charm", consumable=Charm(1, {"light": 1})))
    with pytest.raises(save_fields.UndeclaredFieldError, match=r"Charm.spells is neither saved nor declared"):
        engine.save_as(save_path)


def every_saved_object(engine: Engine) -> Iterator[object]:
    """Every object of the game a save holds, reached through its fields."""
    seen: set[int] = set()
    todo: list[object] = [engine]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or (not hasattr(obj, "__dict__") and not isinstance(obj, list | dict)):
            continue  # Plain values, arrays, the random generator: what fields hold, not objects.
        seen.add(id(obj))
        if isinstance(obj, list | game_map.EntitySet):
            todo.extend(obj)
        elif isinstance(obj, dict):
            todo.extend([*obj, *obj.values()])
        elif not isinstance(obj, np.random.Generator | type | enum.Enum | recording.Lines):  # Lines: saved whole.
            yield obj
            declared = save_fields.fields_of(type(obj))
            # What a field declared not saved holds (the options in force) is no part of the save.
            todo.extend(v for k, v in vars(obj).items() if k not in declared or declared[k].saved)


def undeclared_fields(engine: Engine) -> set[str]:
    """`Class.field` for each field an object of `engine` holds that its class does not declare."""
    return {
        f"{type(obj).__name__}.{name}"
        for obj in every_saved_object(engine)
        for name in vars(obj)
        if name not in save_fields.fields_of(type(obj))
    }


def test_every_field_of_every_object_of_a_played_game_is_declared() -> None:
    """A field set in a constructor or in play, and not declared, is named here at once."""
    engine = played_engine()
    handler = input_handlers.MainGameEventHandler(engine)
    for _ in range(5):
        handler.handle_action(actions.WaitAction(engine.player))
    classes = {type(obj) for obj in every_saved_object(engine)}
    assert {Engine, game_map.GameMap, game_map.GameWorld, Actor, Item, Message, ConfusedEnemy} <= classes
    assert undeclared_fields(engine) == set()
    engine.player.place(*engine.game_map.downstairs_location, engine.game_map)
    handler.handle_action(actions.TakeStairsAction(engine.player))
    assert undeclared_fields(engine) == set()


def format_3_player(data: dict[str, Any]) -> dict[str, Any]:
    player: dict[str, Any] = data["map"]["entities"][data["player"]]
    return player


def format_3_data() -> dict[str, Any]:
    """A format-3 save's data, as kept in tests/saves."""
    blob = (Path(__file__).parent / "saves" / "format-3" / "pack.sav").read_bytes()
    data = savefile.loads(blob, 3)
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize(
    "spoil",
    [
        lambda d: d.update(map=[]),
        lambda d: d["map"].update(entities={}),
        lambda d: format_3_player(d).update(ai=5),
        lambda d: format_3_player(d)["inventory"].update(items=None),
        lambda d: format_3_player(d)["inventory"]["items"][0].update(equippable=[1]),
        lambda d: format_3_player(d)["inventory"]["items"][0].update(consumable={"kind": 7}),
        lambda d: d["map"]["entities"].extend([format_3_player(d)] * 1000),  # One record met 1,001 times.
    ],
)
def test_a_spoiled_older_save_is_refused_after_its_upgrade(spoil: Callable[[dict[str, Any]], object]) -> None:
    data = format_3_data()
    save_data.from_data(save_data.upgraded(copy.deepcopy(data), 3))  # Unspoiled, it loads.
    spoil(data)
    with pytest.raises(DamagedSaveError):
        save_data.from_data(save_data.upgraded(savefile.loads(savefile.dumps(data, 3), 3), 3))


def test_an_item_the_player_dropped_stays_dropped_after_loading(in_tmp: Path) -> None:
    """Exploring gathers only what the player did not drop: a load must not forget which."""
    engine = make_engine()
    potion = give(engine, entity_factories.health_potion)
    engine.player.inventory.drop(potion)
    engine.save_as("dropped.sav")
    loaded = setup_game.load_game("dropped.sav")
    (found,) = [item for item in loaded.game_map.items if item.name == potion.name and
                (item.x, item.y) == (loaded.player.x, loaded.player.y)]
    assert found.dropped_by_player


@pytest.mark.parametrize(("dx", "dy", "loads"), [(0, 0, True), (1, 0, False), (0, 1, False)])
def test_an_entity_in_the_last_column_and_row_loads_one_beyond_is_refused(dx: int, dy: int, loads: bool) -> None:
    data = game_data()
    player = player_of(data)
    player.update(x=data["game_map"]["width"] - 1 + dx, y=data["game_map"]["height"] - 1 + dy)
    if loads:
        engine = load_bytes(wrap(data))
        assert (engine.player.x, engine.player.y) == (engine.game_map.width - 1, engine.game_map.height - 1)
    else:
        with pytest.raises(DamagedSaveError, match="entry 0 of the entities of the game_map is off the map"):
            load_bytes(wrap(data))


def longs(count: int, length: int) -> bytes:
    """A list of `count` integers of `length` bytes each, as LONG1 opcodes."""
    return b"\x80\x05](" + (b"\x8a" + bytes([length]) + b"\x01" * length) * count + b"e."


def test_the_long_numbers_a_game_holds_are_taken_one_more_or_one_byte_longer_refused() -> None:
    assert len(savefile._unpickle(longs(savefile.MAX_LONGS, 17))) == savefile.MAX_LONGS  # type: ignore[arg-type]
    with pytest.raises(RefusedSaveError, match="more long numbers"):
        savefile._unpickle(longs(savefile.MAX_LONGS + 1, 17))
    with pytest.raises(RefusedSaveError, match="number longer"):
        savefile._unpickle(longs(1, 18))
