"""Morgue files: a plain-text record of each finished game, as DCSS and NetHack
write at every death, with the game's recording kept beside it for replay."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Final

from components.inventory import stack_name
from replays import recording
from saving import paths, safe_io
from words import program

if TYPE_CHECKING:
    from engine import Engine
    from screens.game_over import Ending

LAST_MESSAGES: Final = 20
SUFFIX: Final = ".txt"

# How the floor map draws the tiles the player explored that have no glyph of their own.
WALL: Final = "#"
FLOOR: Final = "."
PLAYER: Final = "@"


def section(title: str, lines: list[str]) -> list[str]:
    """A titled block of lines, and a blank line after it."""
    return [title, "-" * len(title), *lines, ""]


def stats_lines(engine: Engine) -> list[str]:
    """The character's final figures."""
    player = engine.player
    fighter, level = player.fighter, player.level
    return [
        f"HP: {fighter.hp}/{fighter.max_hp}",
        f"Attack: {fighter.power} ({fighter.base_power} + {fighter.power_bonus} from equipment)",
        f"Defense: {fighter.defense} "
        f"({fighter.base_defense} + {fighter.defense_bonus} from equipment)",
        f"Level: {level.current_level} ({level.current_xp} of "
        f"{level.experience_to_next_level} XP toward level {level.current_level + 1})",
    ]


def equipment_lines(engine: Engine) -> list[str]:
    """What the player wore and wielded."""
    equipment = engine.player.equipment
    return [
        f"Weapon: {equipment.weapon.name if equipment.weapon else 'none'}",
        f"Armor: {equipment.armor.name if equipment.armor else 'none'}",
    ]


def inventory_lines(engine: Engine) -> list[str]:
    """The pack as the inventory screen lists it, (E) marking what is worn."""
    player = engine.player
    lines = []
    for letter, stack in player.inventory.listing():
        worn = " (E)" if player.equipment.item_is_equipped(stack[0]) else ""
        lines.append(f"{letter}) {stack_name(stack)}{worn}")
    return lines or ["(empty)"]


def message_lines(engine: Engine) -> list[str]:
    """The last messages of the log."""
    messages = engine.message_log.messages[-LAST_MESSAGES:]
    return [message.full_text for message in messages]


def floor_lines(engine: Engine) -> list[str]:
    """The floor as the player knew it: explored tiles only, what is in view
    on them, and the `@` where the player fell; cropped to what was explored."""
    game_map = engine.game_map
    chars = [[" "] * game_map.width for _ in range(game_map.height)]
    for x, y in zip(*game_map.explored.nonzero(), strict=True):
        tile = game_map.tiles[x, y]
        glyph = chr(tile["light"]["ch"])  # The stairs' `>`; a blank for floor and wall.
        if glyph == " ":
            glyph = FLOOR if tile["walkable"] else WALL
        chars[y][x] = glyph
    in_view = sorted(game_map.entities, key=lambda entity: entity.render_order.value)
    for entity in in_view:
        if game_map.visible[entity.x, entity.y]:
            chars[entity.y][entity.x] = entity.char
    player = engine.player
    chars[player.y][player.x] = PLAYER
    rows = ["".join(row).rstrip() for row in chars]
    while rows and not rows[-1]:
        rows.pop()
    while rows and not rows[0]:
        rows.pop(0)
    indent = min(len(row) - len(row.lstrip()) for row in rows if row)
    return [row[indent:] for row in rows]


def morgue_text(engine: Engine, ending: Ending, recording_note: str | None) -> str:
    """The whole morgue file; `recording_note` says where the recording is."""
    lines = [
        f"Morgue file, {ending.when:%Y-%m-%d %H:%M:%S}",
        "",
        *ending.summary_lines(),
        "",
        *section("Final stats", stats_lines(engine)),
        *section("Equipment", equipment_lines(engine)),
        *section("Inventory", inventory_lines(engine)),
        *section(f"Last {LAST_MESSAGES} messages", message_lines(engine)),
        *section(f"Dungeon level {ending.depth}, as you knew it", floor_lines(engine)),
    ]
    if recording_note is not None:
        lines += section("Recording", [recording_note])
    return "\n".join(lines)


def write(engine: Engine, ending: Ending) -> Path:
    """Write the morgue file of `engine`'s finished game, and return its path.

    Named after the moment of death, never over another file, and written
    whole or not at all, so a kill mid-write leaves no empty file.  OSError if
    the morgue folder can't be written in.
    """
    names = safe_io.numbered(f"morgue-{ending.when:%Y%m%d-%H%M%S}", SUFFIX, first_bare=True)
    paths.morgue_dir().mkdir(parents=True, exist_ok=True)
    path = safe_io.write_first_free(paths.morgue_dir(), names, encoded(morgue_text(engine, ending, None)))
    if engine.recording_file is not None:
        note = keep_recording(paths.recordings_dir() / engine.recording_file, path)
        safe_io.write_atomic(path, encoded(morgue_text(engine, ending, note)))
    return path


def encoded(text: str) -> bytes:
    """The bytes a morgue file holds."""
    return text.encode("utf-8")


def keep_recording(game_file: Path, morgue_path: Path) -> str:
    """Keep the recording beside the morgue file, named as it is; say where, or why not.

    A hard link, not a copy: the fatal event is recorded only after the morgue
    file is written, and a link gets that last line too.
    """
    kept = morgue_path.with_suffix(game_file.suffix)
    try:
        os.link(game_file, kept)
    except OSError:
        try:  # A copy, read as a recording is (bounded), made new: never through a link.
            safe_io.write_new(kept, safe_io.read_bytes(game_file, recording.MAX_BYTES))
        except OSError as exc:
            return f"{game_file} could not be kept here: {exc.strerror or exc}"
    return replay_line(kept)


def replay_line(kept: Path) -> str:
    """The morgue file's line on its recording: a command to paste that replays it."""
    return f"{kept.name}, beside this file, replays the game: {program.command('--replay', program.quoted(kept))}"
