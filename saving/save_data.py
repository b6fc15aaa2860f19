"""The game as plain data, and back: every saved class's fields, declared once, and older formats.

`to_data` turns a game into plain data (dicts, lists, tuples, strings,
integers, booleans, None and bytes), which `savefile` writes; `from_data`
builds a new game from such data, checking every field on the way, and
raises `savefile.DamagedSaveError` saying what is wrong before the game
exists.  Any other exception from `from_data` is a bug in the game.

Both walk the same declarations (`save_fields`): each component declares its
fields in its own class (`saved_fields`), and the classes below, whose
modules stay the tutorial's, in `DECLARED`.  A field an object holds that its
class does not declare can't be saved (`save_fields.UndeclaredFieldError`):
nothing is dropped unseen.  `CHECKS` holds what one field can't say alone:
hit points within the maximum, positions on the map, the one living player.

Format 7 saves each object as its fields by name; formats 3 to 6 are read
through one step each (`UPGRADES`) into the format after them.
"""

from __future__ import annotations

import os
from typing import Any, Final, cast

import numpy as np

import message_log
import procgen
import tile_types
from components.ai import BaseAI
from components.consumable import Consumable
from components.equipment import Equipment
from components.equippable import Equippable
from components.fighter import Fighter
from components.inventory import LETTERS, Inventory
from components.level import Level
from engine import Engine
from entity import Actor, Entity, Item
from equipment_types import EquipmentType
from game_map import MAP_HEIGHT, MAP_WIDTH, MAX_ROOMS, ROOM_MAX_SIZE, EntitySet, GameMap, GameWorld
from message_log import Message, MessageLog
from render_order import RenderOrder
from replays import recording
from saving import savefile
from saving.save_fields import (
    CHECKS,
    DECLARED,
    MAX_LINE,
    MAX_NAME,
    MAX_SIDE,
    MAX_TILES,
    Bool,
    Choice,
    Color,
    Field,
    Fresh,
    Group,
    Int,
    Link,
    ListOf,
    Maybe,
    New,
    OneOf,
    Part,
    Point,
    Record,
    Ref,
    Text,
    Wrapped,
    fields_of,
    read,
    write,
)
from saving.save_fields import MAX_LEVEL as MAX_LEVEL
from saving.save_fields import MAX_STAT as MAX_STAT
from saving.savefile import DamagedSaveError, UnsaveableGameError
from window.options import Settings

# The layout of the data.  Bump it whenever a field is added without a
# default, removed, or changes meaning, with a step in `UPGRADES`.
FORMAT_VERSION: Final = 7

MAX_CAPACITY: Final = len(LETTERS)  # One letter of the inventory screens per item.
# A floor holds at most what the game puts on one: every room at its most
# monsters and items, the player, and a full pack dropped.
MAX_ENTITIES: Final = (
    MAX_ROOMS * (procgen.most(procgen.max_monsters_by_floor) + procgen.most(procgen.max_items_by_floor))
    + 1
    + MAX_CAPACITY
)
MAX_FLOOR: Final = 1_000_000
MAX_SEED: Final = recording.MAX_SEED
MAX_TEXT: Final = 100_000
MAX_MESSAGES: Final = 100_000
MAX_CONFUSION: Final = 100  # Confusions piled on one monster.
MAX_UINT128: Final = 2**128 - 1
MAX_TURNS: Final = 10**9
MAX_RECORDING: Final = 1_000_000  # Lines: one per key press, click or move.
assert MAX_TILES == MAP_WIDTH * MAP_HEIGHT

Data = dict[str, object]


# --- Fields of the game's own kinds ---------------------------------------------


class Tiles(Field):
    """The map's tiles as bytes, read against the game's own tile type."""

    def write(self, value: Any, owner: Any) -> object:
        return value.tobytes(order="F")

    def read(self, value: object, what: str, owner: Any) -> object:
        length = owner.width * owner.height * tile_types.tile_dt.itemsize
        if type(value) is not bytes or len(value) != length:
            raise DamagedSaveError(f"{what} is not {length} bytes long")
        tiles = np.frombuffer(value, tile_types.tile_dt).reshape((owner.width, owner.height), order="F")
        # Booleans that are 0 or 1, characters that are code points: any
        # other byte would make nonsense of moves and sight, or of drawing.
        for flag in ("walkable", "transparent"):
            if (tiles[flag].view(np.uint8) > 1).any():
                raise DamagedSaveError(f"{what} hold a {flag} flag that is neither true nor false")
        for look in ("dark", "light"):
            ch = tiles[look]["ch"]
            if ((ch < 0) | (ch > 0x10FFFF) | ((ch >= 0xD800) & (ch <= 0xDFFF))).any():
                raise DamagedSaveError(f"{what} hold a character that is not one")
        return np.array(tiles, order="F")


class Bits(Field):
    """A boolean array of the map's size, packed eight to a byte."""

    def write(self, value: Any, owner: Any) -> object:
        return np.packbits(value.ravel(order="F")).tobytes()

    def read(self, value: object, what: str, owner: Any) -> object:
        count = owner.width * owner.height
        if type(value) is not bytes or len(value) != (count + 7) // 8:
            raise DamagedSaveError(f"{what} is not {(count + 7) // 8} bytes long")
        bits = np.unpackbits(np.frombuffer(value, np.uint8), count=count)
        return np.array(bits.reshape((owner.width, owner.height), order="F"), dtype=bool, order="F")


class Entities(ListOf):
    """The map's entities, in the order they act."""

    def read(self, value: object, what: str, owner: Any) -> EntitySet:
        return EntitySet(super().read(value, what, owner))


class History(ListOf):
    """The message log: only its last `message_log.HISTORY` are kept, as
    playing keeps them (a save made before the log was bounded held them all)."""

    def read(self, value: object, what: str, owner: Any) -> Any:
        return super().read(value, what, owner)[-message_log.HISTORY :]


class Mind(Field):
    """An actor's AI as a list of layers, outermost first: confusions over
    the real AI (the layer each `Wrapped` field holds).  A list, so that no
    save nests deeper with each scroll of confusion read.  Empty for the dead."""

    layer = OneOf(BaseAI, abstract=[BaseAI])

    @staticmethod
    def wrapped(ai: object) -> str | None:
        """The field of `ai` holding the AI it wraps, if any."""
        return next((name for name, field in fields_of(type(ai)).items() if isinstance(field, Wrapped)), None)

    def write(self, value: Any, owner: Any) -> object:
        layers = []
        while value is not None:
            layers.append(self.layer.write(value, owner))
            wraps = self.wrapped(value)
            value = None if wraps is None else getattr(value, wraps)
        return layers

    def read(self, value: object, what: str, owner: Any) -> object:
        if type(value) is not list or len(value) > MAX_CONFUSION + 1:
            raise DamagedSaveError(f"{what} is not a list of at most {MAX_CONFUSION + 1} entries")
        ai = None
        for number in reversed(range(len(value))):
            layer_what = f"layer {number + 1} of {what}"
            layer = self.layer.read(value[number], layer_what, owner)
            wraps = self.wrapped(layer)
            if wraps is not None:
                setattr(layer, wraps, ai)
            elif ai is not None:
                raise DamagedSaveError(f"{layer_what} is over another, but wraps none")
            ai = layer
        return ai


class Rng(Field):
    """The play generator's state: PCG64's two 128-bit words and its spare 32 bits."""

    def write(self, value: Any, owner: Any) -> object:
        state = value.bit_generator.state
        if state["bit_generator"] != "PCG64":
            raise UnsaveableGameError(f"its random generator is {state['bit_generator']}, not PCG64.")
        return state["state"]["state"], state["state"]["inc"], state["has_uint32"], state["uinteger"]

    def read(self, value: object, what: str, owner: Any) -> object:
        words = Int(0, MAX_UINT128)
        parts = Group(words, words, Int(0, 1), Int(0, 2**32 - 1)).read(value, what, owner)
        state, inc, has_uint32, uinteger = cast("tuple[int, int, int, int]", parts)
        bit_generator = np.random.PCG64()
        bit_generator.state = {
            "bit_generator": "PCG64",
            "state": {"state": state, "inc": inc},
            "has_uint32": has_uint32,
            "uinteger": uinteger,
        }
        return np.random.Generator(bit_generator)


class Kills(Field):
    """The monsters killed, by name."""

    def write(self, value: Any, owner: Any) -> object:
        return {name: min(count, MAX_TURNS) for name, count in value.items()}

    def read(self, value: object, what: str, owner: Any) -> object:
        if type(value) is not dict or len(value) > MAX_ENTITIES:
            raise DamagedSaveError(f"{what} is not a count of at most {MAX_ENTITIES} names")
        name, count = Text(MAX_NAME), Int(1, MAX_TURNS)
        return {name.read(key, what, owner): count.read(number, what, owner) for key, number in value.items()}


class Recording(Field):
    """The recording's lines as one text: a long game's hundred thousand lines
    are one string to check, not a hundred thousand objects."""

    def write(self, value: Any, owner: Any) -> object:
        if any("\n" in line for line in value):
            raise UnsaveableGameError("a line of its recording holds a line break.")
        return "\n".join(value)

    def read(self, value: object, what: str, owner: Any) -> object:
        text = Text(MAX_RECORDING * (MAX_LINE + 1)).read(value, what, owner)
        lines = text.split("\n") if text else []
        if len(lines) > MAX_RECORDING or any(len(line) > MAX_LINE for line in lines):
            raise DamagedSaveError(f"{what} has more lines, or longer, than any game's")
        if lines:  # Its format and seed, as a replay reads them: a seed `--seed` takes.
            try:
                recording.parse("\n".join(lines[:2]), what)
            except recording.RecordingError as exc:
                raise DamagedSaveError(str(exc)) from None
        return lines


class FileName(Field):
    """A file's bare name in its folder, or None: never a path to somewhere else."""

    def read(self, value: object, what: str, owner: Any) -> object:
        if value is None:
            return None
        name = Text().read(value, what, owner)
        if name in ("", ".", "..") or not all(c.isascii() and (c.isalnum() or c in "._-") for c in name):
            raise DamagedSaveError(f"{what} is not a plain file name")
        return name


# --- The declarations of the tutorial's classes -----------------------------------

DECLARED.update({
    Engine: {
        "game_map": Part(GameMap),
        "game_world": Part(GameWorld),
        "player": Ref("game_map.entities"),
        "message_log": Part(MessageLog),
        "rng": Rng(),
        "mouse_location": Point(),
        "turns": Int(0, MAX_TURNS),
        "kills": Kills(),
        "recording": Recording(),
        "recording_file": FileName(),
        "saved_at": Fresh(None),  # When the game last saved itself: now.
        "killer": Fresh(None),  # A game in play has none.
        "settings": New(Settings),  # The player's, not the game's: `load_game` gives the menu's.
    },
    GameWorld: {
        "engine": Link(),
        "map_width": Int(1, MAP_WIDTH),
        "map_height": Int(1, MAP_HEIGHT),
        "max_rooms": Int(1, MAX_ROOMS),
        "room_min_size": Int(2, ROOM_MAX_SIZE),
        "room_max_size": Int(2, ROOM_MAX_SIZE),
        "current_floor": Int(1, MAX_FLOOR),
        "seed": Int(0, MAX_SEED),
    },
    GameMap: {
        "engine": Link(),
        # At most the size of the floors the game makes: a bigger map would not fit the screen.
        "width": Int(1, MAP_WIDTH),
        "height": Int(1, MAP_HEIGHT),
        "tiles": Tiles(),
        "visible": Bits(),
        "explored": Bits(),
        "downstairs_location": Point(),
        "entities": Entities(OneOf(Actor, Item), MAX_ENTITIES),
        "last_target": Maybe(Ref("entities")),
    },
    Entity: {
        "parent": Link(),
        "x": Int(0, MAX_SIDE),
        "y": Int(0, MAX_SIDE),
        "char": Text(1, exact=True),
        "color": Color(),
        "name": Text(),
        "blocks_movement": Bool(),
        "render_order": Choice(RenderOrder),
    },
    Actor: {
        "fighter": Part(Fighter),
        "inventory": Part(Inventory),
        "equipment": Part(Equipment),
        "level": Part(Level),
        "ai": Mind(),
    },
    Item: {
        "consumable": Maybe(OneOf(Consumable, abstract=[Consumable])),
        "equippable": Maybe(OneOf(Equippable)),
        # Dropped by the player, so exploring leaves it (see `travel.gatherable`).
        "dropped_by_player": Bool(),
    },
    MessageLog: {"messages": History(Part(Message), MAX_MESSAGES)},
    Message: {"plain_text": Text(MAX_TEXT), "fg": Color(), "count": Int(1, MAX_STAT)},
})  # fmt: skip


# --- Checks across fields ---------------------------------------------------------


def on_map(x: int, y: int, game_map: GameMap, what: str) -> None:
    if not game_map.in_bounds(x, y):
        raise DamagedSaveError(f"{what} is off the map")


def check_engine(engine: Engine, what: str) -> None:
    player = engine.player
    if not isinstance(player, Actor) or not player.is_alive:
        raise DamagedSaveError("the player is not a living actor")
    on_map(*engine.mouse_location, engine.game_map, "the mouse_location")


def check_world(world: GameWorld, what: str) -> None:
    """The settings floors are made with: the next floor can be made."""
    Int(world.room_min_size, ROOM_MAX_SIZE).read(world.room_max_size, f"the room_max_size of {what}", world)
    Int(world.room_max_size + 2, MAP_WIDTH).read(world.map_width, f"the map_width of {what}", world)
    Int(world.room_max_size + 2, MAP_HEIGHT).read(world.map_height, f"the map_height of {what}", world)


def check_map(game_map: GameMap, what: str) -> None:
    for number, entity in enumerate(game_map.entities):
        on_map(entity.x, entity.y, game_map, f"entry {number} of the entities of {what}")
    on_map(*game_map.downstairs_location, game_map, f"the downstairs_location of {what}")
    if game_map.last_target is not None and not isinstance(game_map.last_target, Actor):
        raise DamagedSaveError(f"the last_target of {what} is not an actor")


def check_actor(actor: Actor, what: str) -> None:
    if actor.fighter.hp > actor.fighter.max_hp:
        raise DamagedSaveError(f"the _hp of the fighter of {what} is more than its max_hp")
    if (actor.fighter.hp == 0) != (actor.ai is None):
        raise DamagedSaveError(f"{what} is either dead and acting, or alive and not")


def check_inventory(inventory: Inventory, what: str) -> None:
    if len(inventory.items) > inventory.capacity:
        raise DamagedSaveError(f"the items of {what} are more than its capacity")


def check_equipment(equipment: Equipment, what: str) -> None:
    for slot, kind in (("weapon", EquipmentType.WEAPON), ("armor", EquipmentType.ARMOR)):
        item = getattr(equipment, slot)
        if item is not None and (item.equippable is None or item.equippable.equipment_type is not kind):
            raise DamagedSaveError(f"the {slot} of {what} is not worn in that slot")


CHECKS.update({
    Engine: check_engine,
    GameWorld: check_world,
    GameMap: check_map,
    Actor: check_actor,
    Inventory: check_inventory,
    Equipment: check_equipment,
})  # fmt: skip


# --- Saving and loading -------------------------------------------------------------


def to_data(engine: Engine) -> Data:
    """The whole game as plain data (see the module's docstring)."""
    return write(engine)


def from_data(data: object) -> Engine:
    """A new game built from `data`, every field checked (see the module's docstring)."""
    engine: Engine = read(Engine, Record(data, "the game", root=True), None)
    return engine


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
# Each step takes the unchecked data of one format to the next: whatever is
# not where the formats put it is left alone, for `from_data` to refuse.


def upgraded(data: object, version: int) -> object:
    """The data of a save of format `version` as today's format has it, one step at a time."""
    while version < FORMAT_VERSION:
        data = UPGRADES[version](data)
        version += 1
    return data


def entity_records(data: object) -> list[dict[Any, Any]]:
    """Every entity's record in a format 3 to 6 save's data, the carried items' too, each once."""
    seen: set[int] = set()
    found: list[dict[Any, Any]] = []

    def visit(value: object) -> Any:
        if not isinstance(value, dict | list) or id(value) in seen:
            return None
        seen.add(id(value))
        return value

    def add(entity: object) -> None:
        record = visit(entity)
        if isinstance(record, dict):
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


# Format 3's kinds of consumables and of AI layers, by the names format 4 gives them.
FORMAT_3_KINDS: Final = {
    "healing": "HealingConsumable",
    "lightning": "LightningDamageConsumable",
    "confusion": "ConfusionConsumable",
    "fireball": "FireballDamageConsumable",
    "hostile": "HostileEnemy",
    "confused": "ConfusedEnemy",
}


def upgrade_3_to_4(data: object) -> object:
    """Format 4 names components by their class."""
    for record in entity_records(data):
        layers = record.get("ai")
        for component in [record.get("consumable"), record.get("equippable"), *(layers if isinstance(layers, list) else ())]:
            kind = component.get("kind") if isinstance(component, dict) else None
            if type(kind) is str and kind in FORMAT_3_KINDS:
                component["kind"] = FORMAT_3_KINDS[kind]
    return data


def upgrade_4_to_5(data: object) -> object:
    """Format 5 says whether the player dropped each item (exploring gathers
    only the others); format 4's items are gathered again once."""
    for record in entity_records(data):
        if record.get("kind") == "item":
            record.setdefault("dropped_by_player", False)
    return data


def upgrade_5_to_6(data: object) -> object:
    """Format 6 keeps each inventory's letters; format 5's items take them as
    picking them up in the order carried gives them (`Inventory.letters`, from
    no letters kept), and the game goes on with the tutorial's letters, by
    place, so that its recording, begun with them, replays."""
    for record in entity_records(data):
        inventory = record.get("inventory")
        if isinstance(inventory, dict):
            inventory.setdefault("by_kind", False)
    return data


def upgrade_6_to_7(data: object) -> object:
    """Format 7 saves each object as its fields by name (see `DECLARED`)."""
    equippables = OneOf(Equippable).kinds()
    for record in entity_records(data):
        position = record.pop("position", None)
        if type(position) is tuple and len(position) == 2:
            record["x"], record["y"] = position
        if record.get("kind") in ("actor", "item"):
            record["kind"] = record["kind"].capitalize()
        for part, old, new in (("fighter", "hp", "_hp"), ("inventory", "letters", "kept_letters")):
            fields = record.get(part)
            if isinstance(fields, dict) and old in fields:
                fields[new] = fields.pop(old)
        equippable = record.get("equippable")
        kind = equippable.get("kind") if isinstance(equippable, dict) else None
        preset = equippables.get(kind) if type(kind) is str else None
        if isinstance(equippable, dict) and preset is not None and preset is not Equippable:
            made = preset()  # A preset's constructor takes nothing: its fields as it makes them.
            equippable.update(
                equipment_type=made.equipment_type.name, power_bonus=made.power_bonus, defense_bonus=made.defense_bonus
            )
    if isinstance(data, dict):
        for old, new in (("map", "game_map"), ("world", "game_world")):
            if old in data:
                data[new] = data.pop(old)
        game_map = data.get("game_map")
        if isinstance(game_map, dict) and "downstairs" in game_map:
            game_map["downstairs_location"] = game_map.pop("downstairs")
        messages = data.pop("messages", None)
        if isinstance(messages, list):
            messages = [
                dict(zip(("plain_text", "fg", "count"), message, strict=True))
                if type(message) is tuple and len(message) == 3 else message
                for message in messages
            ]  # fmt: skip
        data["message_log"] = {"messages": messages}
    return data


# The step that reads each older format the game still loads into the next.
UPGRADES: Final = {3: upgrade_3_to_4, 4: upgrade_4_to_5, 5: upgrade_5_to_6, 6: upgrade_6_to_7}
