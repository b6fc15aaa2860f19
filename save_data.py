"""The game as plain data, and back: what a save holds, field by field, each checked.

`to_data` turns a game into plain data (dicts, lists, tuples, strings,
integers, booleans, None and bytes), which `savefile` writes; `from_data`
builds a new game from such data through the game's own constructors,
checking every field on the way: its type, its range, array sizes against
the map's, positions on the map, one player on the player's map, components
of the right kinds, inventories within capacity, worn items carried, HP
within 0..max.  Anything wrong is a `savefile.DamagedSaveError` saying what,
raised before the game exists; nothing outside the new objects is touched.
Any other exception from `from_data` is a bug in this module, not a bad file.

The data names no class of its own: arrays are bytes plus the map's size,
read against the game's own dtypes (`tile_types.tile_dt`, and bits for the
boolean arrays); the random generator is its state as integers; references
between objects (the player, worn items) are indexes.  A component (a
consumable, an equippable, each layer of an AI) is a record of its class's
name, a text looked up among the game's own component classes only
(`component_classes`), and the parameters of its constructor, each checked
against the type the constructor declares: a new component class, at any
depth under `Consumable`, `BaseAI` or `Equippable`, saves with no edit here.

Each thing saved has one pair of functions here, side by side: `<thing>_data`
writes its fields and `read_<thing>` reads them back, checked.  To add a
field: write it in the one, read and check it in the other (a `Record`
refuses missing and unknown fields, so the two can't drift apart unnoticed),
and bump `FORMAT_VERSION`.  For example, the Engine's count of turns::

    def engine_data(...):  ... "turns": engine.turns,
    def read_engine(...):  ... engine.turns = record.integer("turns", 0, MAX_TURNS)

A component's field needs nothing here: it is a parameter of its constructor
kept under the same name (`self.charges = charges`).  Give it a default and
the saves made before it load with that default.

Format 4 differs from format 3 in the components' records alone, each now
{"kind": the class's name, then every parameter of its constructor by name}:

- a consumable's kind "healing", "lightning", "confusion" or "fireball" is
  now "HealingConsumable", "LightningDamageConsumable", "ConfusionConsumable"
  or "FireballDamageConsumable"; its other fields are as they were;
- an AI layer's kind "hostile" or "confused" is now "HostileEnemy" or
  "ConfusedEnemy"; its other fields ("path", "turns_remaining") are as they were;
- an equippable of a kind other than "Equippable" (the presets "Dagger",
  "Sword", "LeatherArmor", "ChainMail", whose constructors take nothing) no
  longer has "equipment_type", "power_bonus" and "defense_bonus"; a plain
  "Equippable" keeps them.

Format 5 adds to each item's record "dropped_by_player" (true or false):
exploring gathers the items the player did not drop, and format 4 forgot
which those were at every load (found by the soak test).  Format 4's items
load as not dropped.

Format 6 adds to each inventory's record "letters": one letter a to z per
carried item, in the order of "items" (identical potions and scrolls share
one; a kind keeps its letter while carried, see `components.inventory`),
and "by_kind" (true or false): whether the inventory screens use those
letters, or the tutorial's, by place in the pack.  Format 5 kept no letters:
its items take them in the order carried, as picking them up in that order
gives them, and its games go on by place, as their recordings were played.
"""

from __future__ import annotations

import inspect
import os
import sys
import types
import typing
from dataclasses import dataclass
from enum import Enum
from typing import Final

import numpy as np

import message_log
import procgen
import recording
import savefile
import tile_types
from components.ai import BaseAI, HostileEnemy
from components.consumable import Consumable
from components.equipment import Equipment
from components.equippable import Equippable
from components.fighter import Fighter
from components.inventory import LETTERS, Inventory, stacks_with
from components.level import Level
from engine import Engine
from entity import Actor, Entity, Item
from equipment_types import EquipmentType
from game_map import MAP_HEIGHT, MAP_WIDTH, MAX_ROOMS, ROOM_MAX_SIZE, GameMap, GameWorld
from message_log import Message, MessageLog
from render_order import RenderOrder
from savefile import DamagedSaveError, UnsaveableGameError

# The layout of the data below.  Bump it whenever a field is added, removed
# or changes meaning: a save of another version is refused by name.
FORMAT_VERSION: Final = 6

# The ranges a loaded game must keep to.  Generous for any game played, and
# tight enough that no value can make the game allocate, loop, draw or crawl
# without bound.  Maps and the world's settings are at most what the game
# makes (a bigger map would not fit the screen), and a floor holds at most
# what the game puts on one: every room at its most monsters and items, the
# player, and a full pack dropped.
MAX_SIDE: Final = 1000
MAX_CAPACITY: Final = 26  # One letter of the inventory screens per item.
MAX_ENTITIES: Final = (
    MAX_ROOMS * (procgen.most(procgen.max_monsters_by_floor) + procgen.most(procgen.max_items_by_floor))
    + 1
    + MAX_CAPACITY
)
MAX_TILES: Final = MAP_WIDTH * MAP_HEIGHT  # Also the longest list a component may hold.
MAX_STAT: Final = 1_000_000
MAX_FLOOR: Final = 1_000_000
# Levels: the character screen sums what each cost, so not a million of them.
MAX_LEVEL: Final = 10_000
MAX_SEED: Final = recording.MAX_SEED
MAX_NAME: Final = 200
MAX_TEXT: Final = 100_000
MAX_MESSAGES: Final = 100_000
MAX_CONFUSION: Final = 100  # Confusions piled on one monster.
MAX_UINT128: Final = 2**128 - 1
MAX_TURNS: Final = 10**9
MAX_RECORDING: Final = 1_000_000  # Lines: one per key press, click or move.
MAX_LINE: Final = 200

Data = dict[str, object]


# --- Reading, checked ------------------------------------------------------------


class Reader:
    """What a whole load shares: every list and dict of the data is read only once.

    A pickle can make one list the item of many others; read once each, a
    small file could make the loader build an object for every path through
    them.  The game's own saves never share a list or dict.
    """

    def __init__(self) -> None:
        self.seen: set[int] = set()
        self.classes: dict[str, type] | None = None

    def component_class(self, name: str) -> type | None:
        """The component class named `name`, found once per load (see `component_classes`)."""
        if self.classes is None:
            self.classes = component_classes()
        return self.classes.get(name)

    def take(self, value: list[object] | dict[object, object], what: str) -> None:
        if id(value) in self.seen:
            raise DamagedSaveError(f"{what} is shared with another part of the save")
        self.seen.add(id(value))


def check_int(value: object, what: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise DamagedSaveError(f"{what} is not a whole number from {low} to {high}")
    return value


def check_str(value: object, what: str, max_length: int) -> str:
    if type(value) is not str or len(value) > max_length:
        raise DamagedSaveError(f"{what} is not a text of at most {max_length} characters")
    try:
        value.encode("utf-8")  # Lone surrogates can't be drawn.
    except UnicodeEncodeError:
        raise DamagedSaveError(f"{what} is not valid text") from None
    return value


def check_tuple(value: object, what: str, length: int) -> tuple[object, ...]:
    if type(value) is not tuple or len(value) != length:
        raise DamagedSaveError(f"{what} is not a group of {length} values")
    return value


def check_color(value: object, what: str) -> tuple[int, int, int]:
    r, g, b = (check_int(part, what, 0, 255) for part in check_tuple(value, what, 3))
    return r, g, b


def check_position(value: object, what: str, width: int, height: int) -> tuple[int, int]:
    x, y = check_tuple(value, what, 2)
    return check_int(x, what, 0, width - 1), check_int(y, what, 0, height - 1)


def check_list(value: object, what: str, max_length: int, reader: Reader) -> list[object]:
    if type(value) is not list or len(value) > max_length:
        raise DamagedSaveError(f"{what} is not a list of at most {max_length} entries")
    reader.take(value, what)
    return value


class Record:
    """One dict of the data being read: each field taken by name, checked, none left over."""

    def __init__(self, value: object, what: str, reader: Reader, *, root: bool = False) -> None:
        if type(value) is not dict:
            raise DamagedSaveError(f"{what} is not a record")
        self.root = root  # The game: its fields are named alone, "the map".
        reader.take(value, what)
        self.value: dict[object, object] = value
        self.what = what
        self.reader = reader
        self.taken: set[str] = set()

    def has(self, key: str) -> bool:
        return key in self.value

    def field(self, key: str) -> object:
        if key not in self.value:
            raise DamagedSaveError(f"{self.what} has no {key}")
        self.taken.add(key)
        return self.value[key]

    def about(self, key: str) -> str:
        """How a message names field `key` of this record."""
        return f"the {key}" if self.root else f"the {key} of {self.what}"

    def integer(self, key: str, low: int, high: int) -> int:
        return check_int(self.field(key), self.about(key), low, high)

    def flag(self, key: str) -> bool:
        value = self.field(key)
        if type(value) is not bool:
            raise DamagedSaveError(f"{self.about(key)} is not true or false")
        return value

    def text(self, key: str, max_length: int) -> str:
        return check_str(self.field(key), self.about(key), max_length)

    def char(self, key: str) -> str:
        value = check_str(self.field(key), self.about(key), 1)
        if len(value) != 1:
            raise DamagedSaveError(f"{self.about(key)} is not one character")
        return value

    def color(self, key: str) -> tuple[int, int, int]:
        return check_color(self.field(key), self.about(key))

    def blob(self, key: str, length: int) -> bytes:
        value = self.field(key)
        if type(value) is not bytes or len(value) != length:
            raise DamagedSaveError(f"{self.about(key)} is not {length} bytes long")
        return value

    def index(self, key: str, length: int) -> int | None:
        """An index into a list of `length` entries, or None."""
        value = self.field(key)
        return None if value is None else check_int(value, self.about(key), 0, length - 1)

    def sequence(self, key: str, max_length: int) -> list[object]:
        return check_list(self.field(key), self.about(key), max_length, self.reader)

    def record(self, key: str) -> Record:
        return Record(self.field(key), self.about(key), self.reader)

    def optional_record(self, key: str) -> Record | None:
        value = self.field(key)
        return None if value is None else Record(value, self.about(key), self.reader)

    def records(self, key: str, max_length: int, each: str) -> list[Record]:
        return [
            Record(value, f"{each} {number} of {self.what}", self.reader)
            for number, value in enumerate(self.sequence(key, max_length))
        ]

    def done(self) -> None:
        """Refuse fields nobody read: a save this code did not write."""
        for key in self.value:
            if key not in self.taken:
                # `ascii`: the name goes into a popup, whatever the file holds.
                name = ascii(key)[:MAX_LINE] if type(key) is str else "one not named by a text"
                raise DamagedSaveError(f"{self.what} has a field this game does not know, {name}")


# --- The game ------------------------------------------------------------------


def at_most(value: int, cap: int) -> int:
    """A number play makes grow (turns, the floor, hit points, experience...),
    saved at most at its cap.  No game played comes near one; a save made at a
    cap, loaded and played on, is saved at the cap again rather than refused:
    a save that loads can always be saved again."""
    return min(value, cap)


def to_data(engine: Engine) -> Data:
    """The whole game as plain data (see the module's docstring)."""
    return engine_data(engine)


def from_data(data: object) -> Engine:
    """A new game built from `data`, every field checked.

    Raises `DamagedSaveError` saying what is wrong; any other exception is a
    bug in this module.
    """
    return read_engine(Record(data, "the game", Reader(), root=True))


def save(engine: Engine, path: str | os.PathLike[str], *, keep_backup: bool = True) -> None:
    """Save the game to `path`, atomically, keeping the last save as a backup
    unless `keep_backup` is False (see `savefile.write`).

    The save is first loaded back as it will be, so that a game the save
    could not bring back is never written (`UnsaveableGameError`): writing
    it would lose the game at the next load.  That costs about a load.
    """
    blob = savefile.dumps(to_data(engine), FORMAT_VERSION)
    try:
        from_data(savefile.loads(blob, FORMAT_VERSION))
    except savefile.SaveError as exc:
        raise UnsaveableGameError(str(exc)) from exc
    savefile.write(blob, path, FORMAT_VERSION, keep_backup=keep_backup)


def load(path: str | os.PathLike[str]) -> Engine:
    """The game saved at `path`, in today's format or an older one (`UPGRADES`).

    Raises `FileNotFoundError` when there is none (other `OSError`s when it
    can't be read), and a `savefile.SaveError` when the file is not a save
    this game can load.  Anything else raised is a bug in the game.
    """
    version, data = savefile.read_any(path, range(min(UPGRADES), FORMAT_VERSION + 1))
    return from_data(upgraded(data, version))


# --- Older formats -----------------------------------------------------------------


def upgraded(data: object, version: int) -> object:
    """The data of a save of format `version` as today's format has it, one step at a time."""
    while version < FORMAT_VERSION:
        data = UPGRADES[version](data)
        version += 1
    return data


# Format 3's kinds of consumables and of AI layers, by the names format 4 gives them.
FORMAT_3_KINDS: Final = {
    "healing": "HealingConsumable",
    "lightning": "LightningDamageConsumable",
    "confusion": "ConfusionConsumable",
    "fireball": "FireballDamageConsumable",
    "hostile": "HostileEnemy",
    "confused": "ConfusedEnemy",
}


def entity_records(data: object) -> list[dict[object, object]]:
    """Every entity's record in an older save's data, the carried items' too, each once.

    The data is not checked yet: whatever is not where the formats put it is
    left alone, for `from_data` to refuse.  Each list and dict is visited
    once, however often the file refers to it.
    """
    seen: set[int] = set()
    found: list[dict[object, object]] = []

    def visit(value: object) -> dict[object, object] | list[object] | None:
        if not isinstance(value, dict | list) or id(value) in seen:
            return None
        seen.add(id(value))
        return value

    def add(entity: object) -> None:
        record = visit(entity)
        if not isinstance(record, dict):
            return
        found.append(record)
        inventory = visit(record.get("inventory"))
        items = visit(inventory.get("items")) if isinstance(inventory, dict) else None
        for item in items if isinstance(items, list) else ():
            add(item)

    game = visit(data)
    game_map = visit(game.get("map")) if isinstance(game, dict) else None
    entities = visit(game_map.get("entities")) if isinstance(game_map, dict) else None
    for entity in entities if isinstance(entities, list) else ():
        add(entity)
    return found


def upgrade_3_to_4(data: object) -> object:
    """Format 3's data as format 4 has it: components named by their class."""

    def upgrade_component(component: object) -> None:
        if not isinstance(component, dict):
            return
        kind = component.get("kind")
        if type(kind) is str and kind in FORMAT_3_KINDS:
            component["kind"] = FORMAT_3_KINDS[kind]
        elif type(kind) is str and kind != "Equippable":  # A preset: its constructor takes nothing.
            for name in ("equipment_type", "power_bonus", "defense_bonus"):
                component.pop(name, None)

    for record in entity_records(data):
        upgrade_component(record.get("consumable"))
        upgrade_component(record.get("equippable"))
        layers = record.get("ai")
        for layer in layers if isinstance(layers, list) else ():
            upgrade_component(layer)
    return data


def upgrade_4_to_5(data: object) -> object:
    """Format 4's data as format 5 has it: each item says whether the player
    dropped it (exploring gathers only the others).  Format 4 did not keep it,
    so every item is gathered again once, as before."""
    for record in entity_records(data):
        if record.get("kind") == "item":
            record.setdefault("dropped_by_player", False)
    return data


def upgrade_5_to_6(data: object) -> object:
    """Format 5's data as format 6 has it: each inventory's letters, given in
    the order carried as picking the items up in that order would give them
    (the same rule as `Inventory.letter_for`, on the unchecked records), and
    not `by_kind`: the game goes on with the tutorial's letters, by place, so
    that its recording, begun with them, replays (see `recording.LETTERS_BY_KIND_SINCE`)."""
    for record in entity_records(data):
        inventory = record.get("inventory")
        items = inventory.get("items") if isinstance(inventory, dict) else None
        if not isinstance(inventory, dict) or not isinstance(items, list):
            continue
        letters: list[str] = []
        kinds: dict[str, str] = {}  # A potion's or scroll's name, and its letter.
        for item in items:
            alike = item.get("name") if isinstance(item, dict) and item.get("equippable") is None else None
            if isinstance(alike, str) and alike in kinds:
                letters.append(kinds[alike])
                continue
            letter = next((free for free in LETTERS if free not in letters), "?")
            if isinstance(alike, str):
                kinds[alike] = letter
            letters.append(letter)
        inventory["letters"] = "".join(letters)
        inventory["by_kind"] = False
    return data


# The step that reads each older format the game still loads into the next.
UPGRADES: Final = {3: upgrade_3_to_4, 4: upgrade_4_to_5, 5: upgrade_5_to_6}


def engine_data(engine: Engine) -> Data:
    return {
        "world": world_data(engine.game_world),
        "map": map_data(engine.game_map),
        "player": index_of(engine.player, list(engine.game_map.entities)),
        "messages": [message_data(message) for message in engine.message_log.messages],
        "rng": rng_data(engine.rng),
        "mouse_location": engine.mouse_location,
        "turns": at_most(engine.turns, MAX_TURNS),
        "kills": {name: at_most(count, MAX_TURNS) for name, count in engine.kills.items()},
        "recording": recording_data(engine.recording),
        "recording_file": engine.recording_file,
    }


def read_engine(record: Record) -> Engine:
    map_record = record.record("map")
    width, height = read_map_size(map_record)
    entities = [
        read_entity(entity, width, height)
        for entity in map_record.records("entities", MAX_ENTITIES, "entity")
    ]
    if not entities:
        raise DamagedSaveError("the map has no player")
    player = entities[record.integer("player", 0, len(entities) - 1)]
    if not isinstance(player, Actor) or not player.is_alive:
        raise DamagedSaveError("the player is not a living actor")
    engine = Engine(player=player, rng=read_rng(record.field("rng"), record.about("rng")))
    engine.game_map = read_map(map_record, engine, width, height, entities)
    engine.game_world = read_world(record.record("world"), engine)
    engine.message_log = MessageLog()
    engine.message_log.messages = [
        read_message(message, record.about("messages"))
        for message in record.sequence("messages", MAX_MESSAGES)
    ][-message_log.HISTORY :]  # A save made before the log was bounded held them all.
    engine.mouse_location = check_position(
        record.field("mouse_location"), record.about("mouse_location"), width, height
    )
    engine.turns = record.integer("turns", 0, MAX_TURNS)
    engine.kills = read_kills(record.field("kills"), record.about("kills"), record.reader)
    engine.recording = read_recording(record.field("recording"), record.about("recording"))
    engine.recording_file = read_file_name(record.field("recording_file"), record.about("recording_file"))
    record.done()
    return engine


def recording_data(lines: list[str]) -> str:
    """The recording's lines as one text: a long game's hundred thousand lines
    are one string to check, not a hundred thousand objects."""
    if any("\n" in line for line in lines):
        raise UnsaveableGameError("a line of its recording holds a line break.")
    return "\n".join(lines)


def read_recording(value: object, what: str) -> list[str]:
    text = check_str(value, what, MAX_RECORDING * (MAX_LINE + 1))
    lines = text.split("\n") if text else []
    if len(lines) > MAX_RECORDING or any(len(line) > MAX_LINE for line in lines):
        raise DamagedSaveError(f"{what} has more lines, or longer, than any game's")
    if lines:  # Its format and seed, as a replay reads them: a seed `--seed` takes.
        try:
            recording.parse("\n".join(lines[:2]), what)
        except recording.RecordingError as exc:
            raise DamagedSaveError(str(exc)) from None
    return lines


def read_kills(value: object, what: str, reader: Reader) -> dict[str, int]:
    """The monsters killed, by name."""
    if type(value) is not dict or len(value) > MAX_ENTITIES:
        raise DamagedSaveError(f"{what} is not a count of at most {MAX_ENTITIES} names")
    reader.take(value, what)
    return {
        check_str(name, what, MAX_NAME): check_int(count, what, 1, MAX_TURNS)
        for name, count in value.items()
    }


def read_file_name(value: object, what: str) -> str | None:
    """A file's bare name in its folder, or None: never a path to somewhere else."""
    if value is None:
        return None
    name = check_str(value, what, MAX_NAME)
    if name in ("", ".", "..") or not all(c.isascii() and (c.isalnum() or c in "._-") for c in name):
        raise DamagedSaveError(f"{what} is not a plain file name")
    return name


def rng_data(rng: np.random.Generator) -> tuple[int, int, int, int]:
    """The play generator's state: PCG64's two 128-bit words and its spare 32 bits."""
    state = rng.bit_generator.state
    if state["bit_generator"] != "PCG64":
        raise UnsaveableGameError(f"its random generator is {state['bit_generator']}, not PCG64.")
    return (
        state["state"]["state"],
        state["state"]["inc"],
        state["has_uint32"],
        state["uinteger"],
    )


def read_rng(value: object, what: str) -> np.random.Generator:
    state, inc, has_uint32, uinteger = check_tuple(value, what, 4)
    bit_generator = np.random.PCG64()
    bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {
            "state": check_int(state, what, 0, MAX_UINT128),
            "inc": check_int(inc, what, 0, MAX_UINT128),
        },
        "has_uint32": check_int(has_uint32, what, 0, 1),
        "uinteger": check_int(uinteger, what, 0, 2**32 - 1),
    }
    return np.random.Generator(bit_generator)


def message_data(message: Message) -> tuple[str, tuple[int, int, int], int]:
    return message.plain_text, message.fg, at_most(message.count, MAX_STAT)


def read_message(value: object, what: str) -> Message:
    text, fg, count = check_tuple(value, what, 3)
    message = Message(check_str(text, what, MAX_TEXT), check_color(fg, what))
    message.count = check_int(count, what, 1, MAX_STAT)
    return message


def world_data(world: GameWorld) -> Data:
    return {
        "map_width": world.map_width,
        "map_height": world.map_height,
        "max_rooms": world.max_rooms,
        "room_min_size": world.room_min_size,
        "room_max_size": world.room_max_size,
        "current_floor": at_most(world.current_floor, MAX_FLOOR),
        "seed": world.seed,
    }


def read_world(record: Record, engine: Engine) -> GameWorld:
    """The settings floors are made with; checked so that the next floor can be made."""
    room_min_size = record.integer("room_min_size", 2, ROOM_MAX_SIZE)
    room_max_size = record.integer("room_max_size", room_min_size, ROOM_MAX_SIZE)
    map_width = record.integer("map_width", room_max_size + 2, MAP_WIDTH)
    map_height = record.integer("map_height", room_max_size + 2, MAP_HEIGHT)
    world = GameWorld(
        engine=engine,
        map_width=map_width,
        map_height=map_height,
        max_rooms=record.integer("max_rooms", 1, MAX_ROOMS),
        room_min_size=room_min_size,
        room_max_size=room_max_size,
        current_floor=record.integer("current_floor", 1, MAX_FLOOR),
        seed=record.integer("seed", 0, MAX_SEED),
    )
    record.done()
    return world


# --- The map ---------------------------------------------------------------------


def map_data(game_map: GameMap) -> Data:
    """The map's real state: no caches, indexes or graphics made from it."""
    return {
        "width": game_map.width,
        "height": game_map.height,
        "tiles": game_map.tiles.tobytes(order="F"),
        "visible": np.packbits(game_map.visible.ravel(order="F")).tobytes(),
        "explored": np.packbits(game_map.explored.ravel(order="F")).tobytes(),
        "downstairs": game_map.downstairs_location,
        "entities": [entity_data(entity) for entity in game_map.entities],
        "last_target": index_of(game_map.last_target, list(game_map.entities)),
    }


def index_of(entity: Entity | None, entities: list[Entity]) -> int | None:
    """Where `entity` is in `entities`, for a reference by index; None for None."""
    if entity is None:
        return None
    for i, other in enumerate(entities):
        if other is entity:
            return i
    raise UnsaveableGameError(f"the {entity.name} is referred to but not on the map.")


def read_map_size(record: Record) -> tuple[int, int]:
    """At most the size of the floors the game makes: a bigger map would not fit the screen."""
    return record.integer("width", 1, MAP_WIDTH), record.integer("height", 1, MAP_HEIGHT)


def read_map(
    record: Record, engine: Engine, width: int, height: int, entities: list[Entity]
) -> GameMap:
    game_map = GameMap(engine, width, height)
    count = width * height
    tiles = np.frombuffer(
        record.blob("tiles", count * tile_types.tile_dt.itemsize), dtype=tile_types.tile_dt
    ).reshape((width, height), order="F")
    check_tiles(tiles, record.about("tiles"))
    game_map.tiles[...] = tiles
    for name, array in (("visible", game_map.visible), ("explored", game_map.explored)):
        bits = np.frombuffer(record.blob(name, (count + 7) // 8), dtype=np.uint8)
        array[...] = np.unpackbits(bits, count=count).reshape((width, height), order="F")
    game_map.downstairs_location = check_position(
        record.field("downstairs"), record.about("downstairs"), width, height
    )
    for entity in entities:
        entity.place(entity.x, entity.y, game_map)
    target = record.index("last_target", len(entities))
    if target is not None:
        last_target = entities[target]
        if not isinstance(last_target, Actor):
            raise DamagedSaveError(f"{record.about('last_target')} is not an actor")
        game_map.last_target = last_target
    record.done()
    return game_map


def check_tiles(tiles: np.ndarray, what: str) -> None:
    """Booleans that are 0 or 1, and characters that are Unicode code points.

    Any colours are fine; other bytes in a boolean or a character the
    console can't hold would make nonsense of moves and sight, or of drawing.
    """
    for flag in ("walkable", "transparent"):
        if (tiles[flag].view(np.uint8) > 1).any():
            raise DamagedSaveError(f"{what} hold a {flag} flag that is neither true nor false")
    for look in ("dark", "light"):
        ch = tiles[look]["ch"]
        surrogate = (ch >= 0xD800) & (ch <= 0xDFFF)
        if ((ch < 0) | (ch > 0x10FFFF) | surrogate).any():
            raise DamagedSaveError(f"{what} hold a character that is not one")


# --- Entities and their components ------------------------------------------------


def entity_data(entity: Entity) -> Data:
    """An actor or an item, with what it carries, wears and thinks."""
    data: Data = {
        "position": (entity.x, entity.y),
        "char": entity.char,
        "color": entity.color,
        "name": entity.name,
        "blocks_movement": entity.blocks_movement,
        "render_order": entity.render_order.name,
    }
    if isinstance(entity, Actor):
        data["kind"] = "actor"
        data["ai"] = ai_data(entity)
        data["fighter"] = fighter_data(entity.fighter)
        data["level"] = level_data(entity.level)
        items = entity.inventory.items
        data["inventory"] = {
            "capacity": entity.inventory.capacity,
            "items": [entity_data(item) for item in items],
            "letters": "".join(entity.inventory.letters[item] for item in items),
            "by_kind": entity.inventory.by_kind,
        }
        data["equipment"] = equipment_data(entity.equipment, items)
    elif isinstance(entity, Item):
        data["kind"] = "item"
        data["consumable"] = consumable_data(entity)
        data["equippable"] = equippable_data(entity)
        data["dropped_by_player"] = entity.dropped_by_player
    else:
        raise UnsaveableGameError(f"it holds a {type(entity).__name__}, neither actor nor item.")
    return data


def read_entity(record: Record, width: int, height: int) -> Entity:
    """An actor or an item on a `width` x `height` map."""
    x, y = check_position(record.field("position"), record.about("position"), width, height)
    entity: Entity
    match record.field("kind"):
        case "actor":
            entity = read_actor(record, x, y)
        case "item":
            entity = read_item(record, x, y)
        case _:
            raise DamagedSaveError(f"{record.what} is of no kind a map holds")
    return entity


def read_looks(record: Record, entity: Entity) -> None:
    """What every entity has beyond its constructor's arguments; the record's last fields."""
    entity.blocks_movement = record.flag("blocks_movement")
    render_order = record.text("render_order", MAX_NAME)
    if render_order not in RenderOrder.__members__:
        raise DamagedSaveError(f"{record.about('render_order')} is not one the game draws")
    entity.render_order = RenderOrder[render_order]
    record.done()


def read_actor(record: Record, x: int, y: int) -> Actor:
    fighter_record = record.record("fighter")
    max_hp = fighter_record.integer("max_hp", 1, MAX_STAT)
    inventory_record = record.record("inventory")
    capacity = inventory_record.integer("capacity", 0, MAX_CAPACITY)
    actor = Actor(
        x=x,
        y=y,
        char=record.char("char"),
        color=record.color("color"),
        name=record.text("name", MAX_NAME),
        ai_cls=HostileEnemy,
        equipment=Equipment(),
        fighter=Fighter(
            hp=max_hp,
            base_defense=fighter_record.integer("base_defense", 0, MAX_STAT),
            base_power=fighter_record.integer("base_power", 0, MAX_STAT),
        ),
        inventory=Inventory(capacity=capacity),
        level=read_level(record.record("level")),
    )
    layers = record.sequence("ai", MAX_CONFUSION + 1)
    actor.ai = read_ai(layers, record.about("ai"), actor, record.reader)
    hp = fighter_record.integer("hp", 0, max_hp)
    if (hp == 0) != (actor.ai is None):
        raise DamagedSaveError(f"{record.what} is either dead and acting, or alive and not")
    actor.fighter.hp = hp  # After the AI: a living actor set to 0 HP would die here.
    fighter_record.done()

    items = []
    for item_record in inventory_record.records("items", capacity, "item"):
        if item_record.field("kind") != "item":
            raise DamagedSaveError(f"{item_record.what} is not an item")
        # Where a carried item was picked up, perhaps on a floor left since.
        item_x, item_y = check_position(
            item_record.field("position"), item_record.about("position"), MAX_SIDE, MAX_SIDE
        )
        items.append(read_item(item_record, item_x, item_y))
    letters = inventory_record.text("letters", MAX_CAPACITY)
    carry(actor.inventory, items, letters, inventory_record.about("letters"))
    actor.inventory.by_kind = inventory_record.flag("by_kind")
    inventory_record.done()
    read_equipment(record.record("equipment"), actor, items)
    read_looks(record, actor)
    return actor


def carry(inventory: Inventory, items: list[Item], letters: str, what: str) -> None:
    """Put `items` in `inventory` under `letters`, one each, refusing letters
    the game could not have given: one per item, a to z, identical potions
    and scrolls under one, anything else under a letter of its own."""
    if len(letters) != len(items) or not set(letters) <= set(LETTERS):
        raise DamagedSaveError(f"{what} are not one letter a to z for each item")
    for item, letter in zip(items, letters, strict=True):
        for carried, carried_letter in inventory.kept_letters.items():
            if (carried_letter == letter) != stacks_with(item, carried):
                alike = "like items under two letters" if carried_letter != letter else "unlike items under one letter"
                raise DamagedSaveError(f"{what} put {alike}")
        inventory.add(item)
        inventory.kept_letters[item] = letter


def read_item(record: Record, x: int, y: int) -> Item:
    consumable = record.optional_record("consumable")
    equippable = record.optional_record("equippable")
    item = Item(
        x=x,
        y=y,
        char=record.char("char"),
        color=record.color("color"),
        name=record.text("name", MAX_NAME),
        consumable=None if consumable is None else read_consumable(consumable),
        equippable=None if equippable is None else read_equippable(equippable),
    )
    item.dropped_by_player = record.flag("dropped_by_player")
    read_looks(record, item)
    return item


def fighter_data(fighter: Fighter) -> Data:
    return {
        "max_hp": at_most(fighter.max_hp, MAX_STAT),
        "hp": at_most(fighter.hp, MAX_STAT),
        "base_defense": at_most(fighter.base_defense, MAX_STAT),
        "base_power": at_most(fighter.base_power, MAX_STAT),
    }


# (`read_actor` reads the fighter: its HP is set once the actor's AI is known.)


def level_data(level: Level) -> Data:
    return {
        "current_level": at_most(level.current_level, MAX_LEVEL),
        "current_xp": at_most(level.current_xp, MAX_STAT),
        "level_up_base": level.level_up_base,
        "level_up_factor": level.level_up_factor,
        "xp_given": level.xp_given,
    }


def read_level(record: Record) -> Level:
    level = Level(
        current_level=record.integer("current_level", 1, MAX_LEVEL),
        current_xp=record.integer("current_xp", 0, MAX_STAT),
        level_up_base=record.integer("level_up_base", 0, MAX_STAT),
        level_up_factor=record.integer("level_up_factor", 0, MAX_STAT),
        xp_given=record.integer("xp_given", 0, MAX_STAT),
    )
    record.done()
    return level


def equipment_data(equipment: Equipment, items: list[Item]) -> Data:
    """What is worn, as indexes into the wearer's inventory."""

    def index(item: Item | None) -> int | None:
        if item is None:
            return None
        for i, carried in enumerate(items):
            if carried is item:
                return i
        raise UnsaveableGameError(f"the {item.name} is worn but not carried.")

    return {"weapon": index(equipment.weapon), "armor": index(equipment.armor)}


def read_equipment(record: Record, actor: Actor, items: list[Item]) -> None:
    """What `actor` wears, as indexes into `items` in the order saved."""
    equipment = actor.equipment
    for slot, kind in (("weapon", EquipmentType.WEAPON), ("armor", EquipmentType.ARMOR)):
        index = record.index(slot, len(items))
        if index is None:
            continue
        item = items[index]
        if item.equippable is None or item.equippable.equipment_type is not kind:
            raise DamagedSaveError(f"{record.about(slot)} is not worn in that slot")
        if slot == "weapon":
            equipment.weapon = item
        else:
            equipment.armor = item
    record.done()


# --- Components, saved by their own declarations ------------------------------------

# What a component's whole numbers may be: a bonus, a number of turns, a
# radius (a fireball's is looped over, tile by tile), a step of a path.
MAX_NUMBER: Final = MAX_SIDE

# The bases of the game's components.  Every class under one of them, at any
# depth, that a module of the `components` package defines under its own
# name is saved by itself (`component_classes`).  The bare `Consumable` and
# `BaseAI` do nothing (their methods raise NotImplementedError): no kind.
COMPONENT_BASES: Final = (Consumable, BaseAI, Equippable)
ABSTRACT_BASES: Final = (Consumable, BaseAI)

# The names `typing.get_type_hints` needs to read the constructors' types:
# the components import the entities only for type checking.
ENTITY_NAMES: Final = {"Actor": Actor, "Item": Item, "Entity": Entity}


def component_classes() -> dict[str, type]:
    """The game's own component classes by name: the only classes a save names.

    Found anew each time (a class added since is found), by walking the
    subclasses of `COMPONENT_BASES`; a class defined elsewhere (in a test, a
    plugin) is not the game's, and a game holding one can't be saved.
    """
    classes: dict[str, type] = {}
    found: list[type] = list(COMPONENT_BASES)
    while found:
        cls = found.pop()
        found.extend(cls.__subclasses__())
        if not is_component_class(cls):
            continue
        if classes.setdefault(cls.__name__, cls) is not cls:
            raise TypeError(f"two component classes are named {cls.__name__}: a save can't tell them apart")
    return classes


def is_component_class(cls: type) -> bool:
    """Whether a save may name `cls`: a class under `COMPONENT_BASES`, not an
    abstract one, that a module of the `components` package defines under its
    own name."""
    module = sys.modules.get(cls.__module__)
    return (
        issubclass(cls, COMPONENT_BASES)
        and cls not in ABSTRACT_BASES
        and cls.__module__.startswith("components.")
        and getattr(module, cls.__name__, None) is cls
    )


@dataclass(frozen=True)
class Declaration:
    """What a component class's constructor takes, by its annotations.

    `fields` are saved, each checked against its declared type, and given back
    to the constructor by name; a field with a default may be missing from an
    older save.  An AI's constructor also takes its `actor`, and a confusion's
    the AI it `wraps`: neither is a field (see `ai_data`).
    """

    cls: type
    fields: tuple[tuple[str, object, object], ...]  # Name, declared type, default or `NO_DEFAULT`.
    actor: str | None = None
    wraps: str | None = None


NO_DEFAULT: Final = inspect.Parameter.empty


# Each class's declaration, read once: reading the annotations made saving 4 times slower.
DECLARATIONS: dict[type, Declaration] = {}


def declaration(cls: type) -> Declaration:
    """The fields `cls` saves: its constructor's parameters (see `Declaration`).

    Raises `UnsaveableGameError` naming the class and the parameter when one
    can't be saved: no type declared, or a type plain data can't hold.
    """
    if cls not in DECLARATIONS:
        DECLARATIONS[cls] = read_declaration(cls)
    return DECLARATIONS[cls]


def read_declaration(cls: type) -> Declaration:
    init = cls.__init__  # type: ignore[misc]  # A class's own constructor, read, not called.
    if init is object.__init__:
        return Declaration(cls, ())
    try:
        types = typing.get_type_hints(init, localns=ENTITY_NAMES)
    except NameError as exc:
        raise UnsaveableGameError(f"the constructor of {cls.__name__} names an unknown type ({exc}).") from None
    fields: list[tuple[str, object, object]] = []
    actor = wraps = None
    for parameter in list(inspect.signature(init).parameters.values())[1:]:
        name = parameter.name
        declared = types.get(name)
        is_ai = issubclass(cls, BaseAI)
        if is_ai and declared is Actor:
            actor = name
        elif is_ai and declared == BaseAI | None:
            wraps = name
        elif name == "kind" or parameter.kind not in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY):
            raise UnsaveableGameError(f"{cls.__name__} takes {parameter}, which a save can't hold.")
        elif declared is None or not holdable(declared):
            raise UnsaveableGameError(
                f"{cls.__name__} takes {name}: {declared}, a type a save can't hold "
                "(whole numbers, true or false, text, an Enum, and lists, tuples and optionals of them)."
            )
        else:
            fields.append((name, declared, parameter.default))
    return Declaration(cls, tuple(fields), actor, wraps)


def holdable(declared: object) -> bool:
    """Whether a save holds values of the type `declared` (see `check_value`)."""
    inner = optional_of(declared)
    if inner is not None:
        return holdable(inner)
    origin, args = typing.get_origin(declared), typing.get_args(declared)
    if origin is list:
        return holdable(args[0])
    if origin is tuple:
        return bool(args) and Ellipsis not in args and all(holdable(arg) for arg in args)
    return declared in (int, bool, str) or is_enum(declared)


def optional_of(declared: object) -> object | None:
    """`X` for the type `X | None`, else None."""
    args: tuple[object, ...] = typing.get_args(declared)
    if typing.get_origin(declared) in (typing.Union, types.UnionType) and len(args) == 2 and type(None) in args:
        return args[0] if args[1] is type(None) else args[1]
    return None


def is_enum(declared: object) -> bool:
    return isinstance(declared, type) and issubclass(declared, Enum)


def value_data(value: object, declared: object) -> object:
    """A field's value as plain data: an Enum by its member's name."""
    inner = optional_of(declared)
    if inner is not None:
        return None if value is None else value_data(value, inner)
    origin, args = typing.get_origin(declared), typing.get_args(declared)
    if origin is list and isinstance(value, list):
        return [value_data(item, args[0]) for item in value]
    if origin is tuple and isinstance(value, tuple) and len(value) == len(args):
        return tuple(value_data(item, arg) for item, arg in zip(value, args, strict=True))
    if isinstance(declared, type) and issubclass(declared, Enum) and isinstance(value, declared):
        return value.name
    return value


def check_value(value: object, declared: object, what: str, reader: Reader) -> object:
    """`value`, read from plain data as the type `declared` (see `holdable`)."""
    inner = optional_of(declared)
    if inner is not None:
        return None if value is None else check_value(value, inner, what, reader)
    origin, args = typing.get_origin(declared), typing.get_args(declared)
    if origin is list:
        return [check_value(item, args[0], what, reader) for item in check_list(value, what, MAX_TILES, reader)]
    if origin is tuple:
        items = check_tuple(value, what, len(args))
        return tuple(check_value(item, arg, what, reader) for item, arg in zip(items, args, strict=True))
    if declared is bool:
        if type(value) is not bool:
            raise DamagedSaveError(f"{what} is not true or false")
        return value
    if declared is int:
        return check_int(value, what, 0, MAX_NUMBER)
    if declared is str:
        return check_str(value, what, MAX_NAME)
    assert isinstance(declared, type) and issubclass(declared, Enum)  # `declaration` saw to it.
    name = check_str(value, what, MAX_NAME)
    if name not in declared.__members__:
        raise DamagedSaveError(f"{what} is not a {declared.__name__} the game has")
    return declared[name]


def component_data(component: object, role: str, owner: str) -> Data:
    """A component as {"kind": its class's name, then each field by name}.

    `role` and `owner` name it in an error: "the Sword's equippable".
    Raises `UnsaveableGameError` for a class that is not the game's own, or a
    field the component does not keep as declared.
    """
    cls = type(component)
    about = f"the {owner}'s {role} ({cls.__name__})"
    if not is_component_class(cls):
        raise UnsaveableGameError(f"{about} is of a class no module of the game's components defines.")
    data: Data = {"kind": cls.__name__}
    for name, declared, _ in declaration(cls).fields:
        if not hasattr(component, name):
            raise UnsaveableGameError(f"{about} keeps no {name}, which its constructor takes.")
        value = value_data(getattr(component, name), declared)
        try:
            check_value(value, declared, f"the {name} of {about}", Reader())
        except DamagedSaveError as exc:
            raise UnsaveableGameError(f"{exc.detail}.") from None
        data[name] = value
    return data


def component_declaration(record: Record, base: type) -> Declaration:
    """The declaration of the class a component's record names, one of `base`'s."""
    name = record.text("kind", MAX_NAME)
    cls = record.reader.component_class(name)
    if cls is None or not issubclass(cls, base):
        raise DamagedSaveError(f"{record.about('kind')} is no {base.__name__} the game has")
    return declaration(cls)


def read_component(record: Record, declared: Declaration, given: dict[str, object]) -> object:
    """A new component of the declared class, from its record's fields, each
    checked, and what the loader `given`s (an AI's actor)."""
    arguments = dict(given)
    for name, kind, default in declared.fields:
        if default is not NO_DEFAULT and not record.has(name):
            continue  # A field added since: its default, as the constructor says.
        arguments[name] = check_value(record.field(name), kind, record.about(name), record.reader)
    record.done()
    return declared.cls(**arguments)


def consumable_data(item: Item) -> Data | None:
    return None if item.consumable is None else component_data(item.consumable, "consumable", item.name)


def read_consumable(record: Record) -> Consumable:
    consumable = read_component(record, component_declaration(record, Consumable), {})
    assert isinstance(consumable, Consumable)
    return consumable


def equippable_data(item: Item) -> Data | None:
    return None if item.equippable is None else component_data(item.equippable, "equippable", item.name)


def read_equippable(record: Record) -> Equippable:
    equippable = read_component(record, component_declaration(record, Equippable), {})
    assert isinstance(equippable, Equippable)
    return equippable


def ai_data(actor: Actor) -> list[Data]:
    """The layers of an actor's mind, outermost first: confusions over the real AI.

    A list, not records nested in records, so that no save nests deeper with
    each scroll of confusion read.  Empty for the dead.
    """
    layers: list[Data] = []
    ai = actor.ai
    while ai is not None:
        layers.append(component_data(ai, "AI", actor.name))
        wraps = declaration(type(ai)).wraps
        ai = None if wraps is None else getattr(ai, wraps)
    return layers


def read_ai(layers: list[object], what: str, actor: Actor, reader: Reader) -> BaseAI | None:
    """The actor's AI, built from the innermost layer out; None for no layers."""
    ai: BaseAI | None = None
    for number, layer in enumerate(reversed(layers)):
        record = Record(layer, f"layer {len(layers) - number} of {what}", reader)
        declared = component_declaration(record, BaseAI)
        given: dict[str, object] = {}
        if declared.actor is not None:
            given[declared.actor] = actor
        if declared.wraps is not None:
            given[declared.wraps] = ai
        elif ai is not None:
            raise DamagedSaveError(f"{record.what} is over another, but wraps none")
        layer_ai = read_component(record, declared, given)
        assert isinstance(layer_ai, BaseAI)
        ai = layer_ai
    return ai
