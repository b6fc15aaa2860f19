"""Morgue files: a plain-text record of each finished game, as DCSS and NetHack
write at every death, with the game's recording kept beside it for replay."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from components.inventory import stack_name
from replays import recording
from saving import paths, safe_io
from words import program
from words.game_over import Claim

if TYPE_CHECKING:
    from engine import Engine
    from words.game_over import Ending

FIRST_WORDS: Final = "Morgue file,"  # Then the moment of death, as `TIME` writes it.
TIME: Final = "%Y-%m-%d %H:%M:%S"
LAST_MESSAGES: Final = 20
SUFFIX: Final = ".txt"

# The player on the floor map; the explored tiles are drawn by their own signs (`tile_types`).
PLAYER: Final = "@"

# The lines of the "Recording" section that `--verify` reads.
RECORDING_LABEL: Final = "Recording: "
SHA256_LABEL: Final = "SHA-256: "
CLAIM_LABEL: Final = "Claimed: "


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
            glyph = str(tile["sign"])
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


@dataclass(frozen=True)
class KeptRecording:
    """The game's recording as kept beside its morgue file, or why it could not be."""

    name: str  # The file's name, beside the morgue file; "" when it could not be kept.
    sha256: str
    note: str  # What the morgue file says of it.

    def lines(self, claim: Claim) -> list[str]:
        """The morgue's "Recording" section: what `--verify` reads back."""
        if not self.name:
            return [self.note]
        return [
            f"{RECORDING_LABEL}{self.name} (beside this file)",
            f"{SHA256_LABEL}{self.sha256}",
            f"{CLAIM_LABEL}{claim.line()}",
            self.note,
        ]


def morgue_text(engine: Engine, ending: Ending, kept: KeptRecording | None) -> str:
    """The whole morgue file; `kept` says where the recording is."""
    lines = [
        f"{FIRST_WORDS} {ending.when.strftime(TIME)}",
        "",
        *ending.summary_lines(),
        "",
        *section("Final stats", stats_lines(engine)),
        *section("Equipment", equipment_lines(engine)),
        *section("Inventory", inventory_lines(engine)),
        *section(f"Last {LAST_MESSAGES} messages", message_lines(engine)),
        *section(f"Dungeon level {ending.depth}, as you knew it", floor_lines(engine)),
    ]
    if kept is not None:
        lines += section("Recording", kept.lines(ending.claim))
    return "\n".join(lines)


def write(engine: Engine, ending: Ending) -> tuple[Path, KeptRecording | None]:
    """Write the morgue file of `engine`'s finished game; its path, and its recording's.

    Named after the moment of death, never over another file, and written
    whole or not at all, so a kill mid-write leaves no empty file.  OSError if
    the morgue folder can't be written in.
    """
    names = safe_io.numbered(f"morgue-{ending.when:%Y%m%d-%H%M%S}", SUFFIX, first_bare=True)
    paths.morgue_dir().mkdir(parents=True, exist_ok=True)
    path = safe_io.write_first_free(paths.morgue_dir(), names, encoded(morgue_text(engine, ending, None)))
    data = recording.data_of(engine)
    if not data:
        return path, None
    kept = keep_recording(data, path)
    safe_io.write_atomic(path, encoded(morgue_text(engine, ending, kept)))
    return path, kept


def encoded(text: str) -> bytes:
    """The bytes a morgue file holds."""
    return text.encode("utf-8")


def keep_recording(data: bytes, morgue_path: Path) -> KeptRecording:
    """Keep the whole recording (its ending claimed, last) beside the morgue file,
    named as it is; say where, or why not."""
    import hashlib  # OpenSSL: loaded when a hash is asked for, not by every start.

    kept = morgue_path.with_suffix(recording.SUFFIX)
    try:
        safe_io.write_new(kept, data)
    except OSError as exc:
        return KeptRecording("", "", f"The recording could not be kept here: {exc.strerror or exc}")
    return KeptRecording(kept.name, hashlib.sha256(data).hexdigest(), replay_note(kept, morgue_path))


def replay_note(kept: Path, morgue_path: Path) -> str:
    """The morgue file's line on its recording: commands to paste that replay and check it."""
    replay = program.command("--replay", program.quoted(kept))
    return f"{replay} replays it; --verify {program.quoted(morgue_path)} checks it"


def read_kept(text: str) -> tuple[str, str, Claim | None] | None:
    """The recording a morgue file's text names, its SHA-256 and its claim; None if none."""
    found = {}
    for line in text.splitlines():
        for label in (RECORDING_LABEL, SHA256_LABEL, CLAIM_LABEL):
            if line.startswith(label):
                found[label] = line.removeprefix(label)
    if set(found) != {RECORDING_LABEL, SHA256_LABEL, CLAIM_LABEL}:
        return None
    name = found[RECORDING_LABEL].removesuffix(" (beside this file)")
    return name, found[SHA256_LABEL], Claim.parse(found[CLAIM_LABEL])
