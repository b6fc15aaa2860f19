#!/usr/bin/env python3
"""Count the key presses a floor takes: with single steps, and with walks.

Usage: ``python tools/key_presses.py [SEED ...]``, from any folder.

Two scripted players clear floor 1 of each seed (see every tile they can
reach, kill every monster they meet, then take the stairs), through the
game's real handlers:

* **single steps**, as the tutorial's game needed: one move key per step,
  each toward the nearest tile not yet seen or item seen (the shortest way
  there, which no person does better), `g` on an item, then toward the
  stairs, then `>`;
* **walks**: `x` to explore, which gathers the items, pressed again whenever
  a walk stops, then `>` `>` (the first walks to the stairs if not already
  there).

Both do the rest alike: a monster in view is walked to and bumped, one key a
step; a health potion is drunk (`i` and its letter) at half HP or less.  They
press the same keys for those, so the difference is what exploring,
gathering and travelling cost.  Prints one line a seed and the total.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import tcod  # noqa: E402
from tcod.event import KeySym, Modifier  # noqa: E402

import input_handlers  # noqa: E402
import setup_game  # noqa: E402
from controls import keys, travel  # noqa: E402
from engine import Engine  # noqa: E402
from entity import Item  # noqa: E402
from saving import paths  # noqa: E402

SEEDS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
MOVES = {
    (-1, 0): KeySym.H, (1, 0): KeySym.L, (0, -1): KeySym.K, (0, 1): KeySym.J,
    (-1, -1): KeySym.Y, (1, -1): KeySym.U, (-1, 1): KeySym.B, (1, 1): KeySym.N,
}  # fmt: skip
STAIRS = tcod.event.TextInput(text=">")
LIMIT = 5000  # Presses: a player that gets no further gives up.


def key(sym: KeySym) -> tcod.event.KeyDown:
    return tcod.event.KeyDown(scancode=tcod.event.Scancode.UNKNOWN, sym=sym, mod=Modifier.NONE)


@dataclass
class Result:
    presses: int
    turns: int
    descended: bool
    carried: int  # Items in the inventory at the end.


def care_key(engine: Engine) -> tcod.event.KeyDown | tcod.event.TextInput | None:
    """Drinking a potion when badly hurt, fighting: the keys both players
    press alike, if one is due."""
    player = engine.player
    names = [item.name for item in player.inventory.items]
    if player.fighter.hp <= player.fighter.max_hp // 2 and "Health Potion" in names:
        return key(KeySym.I)  # Then the potion's letter (see `clear_floor`).
    return fight_key(engine)


def fight_key(engine: Engine) -> tcod.event.KeyDown | tcod.event.TextInput | None:
    """A step toward (or a bump into) the nearest monster in view, if one is."""
    monsters = engine.game_map.monsters_in_view
    if not monsters:
        return None
    player, game_map = engine.player, engine.game_map
    nearest = min(monsters, key=lambda m: max(abs(m.x - player.x), abs(m.y - player.y)))
    step = travel.step_toward(game_map, travel.only(game_map, nearest.x, nearest.y), player.x, player.y)
    return key(MOVES[step]) if step is not None else tcod.event.TextInput(text=".")


def wanted_items(engine: Engine) -> list[Item]:
    """The items both players go for: those seen, while there is room."""
    inventory = engine.player.inventory
    return travel.gatherable(engine) if len(inventory.items) < inventory.capacity else []


def single_step_key(engine: Engine) -> tcod.event.KeyDown | tcod.event.TextInput:
    """The next key of the single-stepping player."""
    fight = care_key(engine)
    if fight is not None:
        return fight
    game_map, player = engine.game_map, engine.player
    items = wanted_items(engine)
    if any((item.x, item.y) == (player.x, player.y) for item in items):
        return key(KeySym.G)
    goals = travel.frontier(game_map)
    for item in items:
        goals[item.x, item.y] = True
    step = travel.step_toward(game_map, goals, player.x, player.y)
    if step is None:
        step = travel.step_toward(
            game_map, travel.only(game_map, *game_map.downstairs_location), player.x, player.y
        )
    return STAIRS if step is None else key(MOVES[step])


def walking_key(engine: Engine) -> tcod.event.KeyDown | tcod.event.TextInput:
    """The next key of the player who walks: `x` until all is seen and
    gathered, then `>`."""
    fight = care_key(engine)
    if fight is not None:
        return fight
    game_map, player = engine.game_map, engine.player
    goals = travel.frontier(game_map)
    items = wanted_items(engine)
    for item in items:
        goals[item.x, item.y] = True
    if travel.step_toward(game_map, goals, player.x, player.y) or any(
        (item.x, item.y) == (player.x, player.y) for item in items
    ):
        return key(KeySym.X)
    return STAIRS


def clear_floor(seed: int, walks: bool) -> Result:
    """Play floor 1 of `seed` until the stairs are taken; the presses it took."""
    random.seed(seed)
    engine = setup_game.new_game(seed=seed)
    handler: input_handlers.BaseEventHandler = input_handlers.MainGameEventHandler(engine)
    presses = 0
    while presses < LIMIT:
        if engine.game_world.current_floor > 1 or not engine.player.is_alive:
            break
        event: tcod.event.KeyDown | tcod.event.TextInput
        if isinstance(handler, input_handlers.LevelUpEventHandler):
            event = key(KeySym.A)
        elif isinstance(handler, input_handlers.InventoryActivateHandler):
            letters = {stack[0].name: letter for letter, stack in engine.player.inventory.listing()}
            event = key(keys.letter_key(letters["Health Potion"]))
        else:
            event = walking_key(engine) if walks else single_step_key(engine)
        handler = handler.handle_events(event)
        presses += 1
        while handler.walking:  # Its steps come by themselves, as in the main loop.
            handler = handler.advance()
    carried = len(engine.player.inventory.items)
    return Result(presses, engine.turns, engine.game_world.current_floor > 1, carried)


def main(argv: Sequence[str] | None = None) -> int:
    seeds = [int(word) for word in (argv or [])] or list(SEEDS)
    total_single = total_walks = cleared = 0
    print("seed  single steps (turns, items)  walks (turns, items)")
    for seed in seeds:
        single, walking = clear_floor(seed, walks=False), clear_floor(seed, walks=True)
        if single.descended and walking.descended:
            cleared += 1
            total_single += single.presses
            total_walks += walking.presses
            note = ""
        else:
            note = "  (died on floor 1: left out of the total)"
        print(
            f"{seed:>4}  {single.presses:>12} ({single.turns:>4}, {single.carried})  "
            f"{walking.presses:>5} ({walking.turns:>4}, {walking.carried}){note}"
        )
    if cleared:
        print(
            f"floors cleared: {cleared}, key presses a floor: {total_single / cleared:.0f} "
            f"with single steps, {total_walks / cleared:.0f} with walks"
        )
    return 0


if __name__ == "__main__":
    # Some of these games die, and a death writes a morgue file and a score:
    # those go to a folder thrown away after, never the working directory.
    with tempfile.TemporaryDirectory(prefix="key-presses-") as scratch:
        paths.use_data_dir(Path(scratch))
        status = main(sys.argv[1:])
    sys.exit(status)
