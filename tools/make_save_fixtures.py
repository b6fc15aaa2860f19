"""Keep saves of the current format in the tests, so that later games must load them.

    python tools/make_save_fixtures.py

Writes `tests/saves/format-N/` (N: `save_data.FORMAT_VERSION`), once per
format: a few games, each saved as `<name>.sav` beside `<name>.json`, which
says what the game held when it was saved (player, floor, position, HP,
level, inventory, what is worn, monsters, items on the floor).
`tests/test_save_formats.py` loads every save of every format kept there
with today's game and checks it is the same game.  A format's folder is
never written again: those saves are what the players of that version have
on their disks.  Run this once when `FORMAT_VERSION` changes.

The games are the recorded games of `tests/recordings/` (a fresh floor 1, a
confused monster in view, floor 3 after a level-up), replayed as `--replay`
does.
"""

from __future__ import annotations

import copy
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import entity_factories
import input_handlers
import setup_game
from engine import Engine
from entity import Actor, Item
from replays import record_reader, recording, replay
from saving import paths, save_data
from screens.stack import Screens

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "tests" / "saves"
RECORDINGS = ROOT / "tests" / "recordings"

# Name: the recording played (None: a new game with seed 1234, untouched), and why it is kept.
GAMES: dict[str, tuple[str | None, str]] = {
    "fresh": (None, "a new game on floor 1, nothing played"),
    "confused": ("scroll.rec", "floor 1, a monster confused by a scroll aimed with the mouse"),
    "descent": ("descent.rec", "floor 3 after a level-up, a monster in view"),
    "pack": ("descent.rec", "the descent's game with every kind of item carried, a sword and mail worn"),
}

ITEMS = (
    entity_factories.health_potion,
    entity_factories.lightning_scroll,
    entity_factories.confusion_scroll,
    entity_factories.fireball_scroll,
    entity_factories.sword,
    entity_factories.chain_mail,
)


def format_folder(version: int = save_data.FORMAT_VERSION) -> Path:
    return FOLDER / f"format-{version}"


def describe(engine: Engine) -> dict[str, Any]:
    """What a save must bring back, as plain data: the same game, seen from outside."""
    player = engine.player
    worn = [player.equipment.weapon, player.equipment.armor]
    others = [entity for entity in engine.game_map.entities if entity is not player]
    shown = Screens(setup_game.MainMenu(engine.settings), input_handlers.MainGameEventHandler(engine))
    return {
        "seed": engine.game_world.seed,
        "floor": engine.game_world.current_floor,
        "turns": engine.turns,
        "player": {
            "x": player.x,
            "y": player.y,
            "hp": player.fighter.hp,
            "max_hp": player.fighter.max_hp,
            "level": player.level.current_level,
            "xp": player.level.current_xp,
            "power": player.fighter.power,
            "defense": player.fighter.defense,
        },
        "inventory": [
            {"name": item.name, "worn": any(item is w for w in worn)}
            for item in player.inventory.items
        ],
        "monsters": [_actor(actor) for actor in others if isinstance(actor, Actor)],
        "items": [_item(item) for item in others if isinstance(item, Item)],
        "in_view": replay.summary(shown)["in_view"],
        "kills": dict(sorted(engine.kills.items())),
        "messages": len(engine.message_log.messages),
        "last_message": engine.message_log.messages[-1].full_text,
        "recording_lines": len(engine.recording),
    }


def _actor(actor: Actor) -> dict[str, Any]:
    confused = type(actor.ai).__name__ == "ConfusedEnemy"
    return {
        "name": actor.name,
        "x": actor.x,
        "y": actor.y,
        "hp": actor.fighter.hp,
        "alive": actor.is_alive,
        "confused": confused,
    }


def _item(item: Item) -> dict[str, Any]:
    return {"name": item.name, "x": item.x, "y": item.y}


def play(name: str | None) -> Engine:
    """The game a recording ends in (a new game for None)."""
    if name is None:
        return setup_game.new_game(seed=1234)
    script = record_reader.read(RECORDINGS / name)
    screens = replay.play_recording(replay.start(script), script.events)
    engine = screens.engine_in_play()
    if engine is None:
        raise SystemExit(f"{name} does not end in a game in play")
    return engine


def fill_pack(engine: Engine) -> None:
    """Carry one of each item the game has, wearing the sword and the chain mail."""
    player = engine.player
    for template in ITEMS:
        item = copy.deepcopy(template)
        player.inventory.add(item)
        if template in (entity_factories.sword, entity_factories.chain_mail):
            player.equipment.toggle_equip(item, add_message=False)


def make(folder: Path) -> None:
    folder.mkdir(parents=True)
    player_files = paths.data_dir()
    with tempfile.TemporaryDirectory(prefix="fixtures-") as scratch:
        paths.use_data_dir(Path(scratch))  # A death's files, if any, go nowhere.
        try:
            for name, (source, why) in GAMES.items():
                engine = play(source)
                if name == "pack":
                    fill_pack(engine)
                recording.write_new(engine)  # As play does: the save names its file, holding no line.
                save_data.save(engine, folder / f"{name}.sav", keep_backup=False)
                description = {"about": why, "format": save_data.FORMAT_VERSION, **describe(engine)}
                text = json.dumps(description, indent=1) + "\n"
                (folder / f"{name}.json").write_text(text, encoding="utf-8")
                print(f"{folder / name}.sav: {why}")
        finally:
            paths.use_data_dir(player_files)


def run() -> int:
    folder = format_folder()
    if folder.exists():
        print(f"{folder} exists: saves of a released format are never remade.", file=sys.stderr)
        return 1
    make(folder)
    return 0


if __name__ == "__main__":
    sys.exit(run())
