"""The game as plain data, and back, and the older formats a save may hold.

`to_data` turns a game into plain data (dicts, lists, tuples, strings,
integers, booleans, None and bytes), which `savefile` writes; `from_data`
builds a new game from such data, checking every field on the way, and
raises `savefile.DamagedSaveError` saying what is wrong before the game
exists.  Any other exception from `from_data` is a bug in the game.

Both walk the fields each saved class declares in its `saved_fields`
(`save_fields`).  From format 7 each object is saved as its fields by name
(from format 9 a message as a row of them, from format 10 each tile with its
name); formats 3 to 9 are read through one step each (`UPGRADES`) into the
format after them (format 11 names how far its recording's file goes, where
format 10 held its lines; format 12 ends that stretch on the save's own line).
"""

from __future__ import annotations

import contextlib
import os
from typing import Any, Final

import numpy as np

import tile_types
from components.equippable import Equippable
from engine import Engine
from replays.record_format import HEAD_LINES, RULE_WORDS
from replays.record_format import MAX_SEED as MAX_SEED
from replays.recording import EMPTY_SHA256
from saving import savefile
from saving.save_fields import FORMAT_VERSION as FORMAT_VERSION
from saving.save_fields import OneOf, Tiles, write
from saving.save_fields import from_data as read_game
from saving.save_fields import save as save
from saving.savefile import UnsaveableGameError

# The first format whose saves end the stretch of the recording they name on their own line.
SAVE_LINES_SINCE: Final = 12

Data = dict[str, object]


def to_data(engine: Engine) -> Data:
    """The whole game as plain data (see the module's docstring)."""
    return write(engine)


def from_data(data: object) -> Engine:
    """A new game built from `data`, every field checked (see the module's docstring)."""
    engine: Engine = read_game(Engine, data)
    return engine


def load(path: str | os.PathLike[str]) -> Engine:
    """The game saved at `path`, in today's format or an older one (`UPGRADES`).

    Raises `FileNotFoundError` when there is none (other `OSError`s when it
    can't be read), and a `savefile.SaveError` when the file is not a save
    this game can load.  Anything else raised is a bug in the game.
    """
    version, data = savefile.loads_any(savefile.read_file(path), range(min(UPGRADES), FORMAT_VERSION + 1))
    engine = from_data(upgraded(data, version))
    engine.recording.ends_on_save = version >= SAVE_LINES_SINCE
    return engine


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
    """Format 7 saves each object as its fields by name (see `save_fields`)."""
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


def upgrade_7_to_8(data: object) -> object:
    """Format 8 holds format 7's data: only its compression changed (`savefile`)."""
    return data


def upgrade_8_to_9(data: object) -> object:
    """Format 9 saves each message as a row of its fields; `save_fields.Row`
    reads format 8's records by name as well."""
    return data


# A tile of formats 3 to 9: today's with no name and no sign.
FORMAT_9_TILE: Final = np.dtype([(field, tile_types.tile_dt[field]) for field in ("walkable", "transparent", "dark", "light")])


def upgrade_9_to_10(data: object) -> object:
    """Format 10 saves each kind of tile once, with its name and sign, and
    which kind each tile is (`save_fields.Tiles`).  Format 9 had three kinds,
    told apart as it told them: a wall is not walkable, the stairs down are
    drawn `>`, and the rest is floor."""
    game_map = data.get("game_map") if isinstance(data, dict) else None
    if not isinstance(game_map, dict):
        return data
    saved = game_map.get("tiles")
    if type(saved) is not bytes or len(saved) % FORMAT_9_TILE.itemsize:
        return data
    old = np.frombuffer(saved, FORMAT_9_TILE)
    tiles = np.zeros(old.shape, tile_types.tile_dt)
    for field in FORMAT_9_TILE.names or ():
        tiles[field] = old[field]
    for name, sign, where in (
        ("floor", ".", np.ones(old.shape, bool)),
        ("stairs down", ">", old["light"]["ch"] == ord(">")),
        ("wall", "#", old["walkable"].view(np.uint8) == 0),
    ):
        tiles["name"][where], tiles["sign"][where] = name, sign
    # More kinds than a save holds: left as format 9's bytes, for `from_data` to refuse.
    with contextlib.suppress(UnsaveableGameError):
        game_map["tiles"] = Tiles().write(tiles, game_map)
    return data


def upgrade_10_to_11(data: object) -> object:
    """Format 11 names how far its recording's file goes, not its lines; format
    10's lines are all held, none written: Continue writes its file again from them."""
    if isinstance(data, dict) and type(data.get("recording")) is str:
        lines = data["recording"].split("\n") if data["recording"] else []
        head, rules = lines[:HEAD_LINES], [line for line in lines if line.startswith(RULE_WORDS)]
        data["recording"] = {
            "head": "\n".join(head), "rules": "\n".join(rules), "held": data["recording"],
            "written": 0, "bytes": 0, "sha256": EMPTY_SHA256,
        }  # fmt: skip
    return data


def upgrade_11_to_12(data: object) -> object:
    """Format 12 holds format 11's data; its recording's stretch ends on the save's own
    line (`recording.save_line`), which Continue looks for.  A save of format 11 has
    none: it loads as before, told by its format (`load`), not by its data."""
    return data


# The step that reads each older format the game still loads into the next.
UPGRADES: Final = {
    3: upgrade_3_to_4, 4: upgrade_4_to_5, 5: upgrade_5_to_6, 6: upgrade_6_to_7, 7: upgrade_7_to_8, 8: upgrade_8_to_9,
    9: upgrade_9_to_10, 10: upgrade_10_to_11, 11: upgrade_11_to_12,
}
