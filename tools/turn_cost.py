#!/usr/bin/env python3
"""Count the instructions of one turn, ours beside the tutorial's, on the same map.

    python tools/turn_cost.py                        # ours alone
    python tools/turn_cost.py --tutorial DIR         # beside the tutorial's final code

DIR is a checkout of the 2020 tutorial's last part (TStand90/tcod_tutorial_v2,
branch ``2020/part-13``); nothing of it is kept here.  Each figure is counted
by valgrind's callgrind, which the machine's load does not change: a process
makes the map and does one thing COUNT times, another makes the map and does
it none, and the difference divided by COUNT is the cost of one.

The map is ours: floor 1 of seed `SEED`, the player where the game put them;
the tutorial's process builds the same floor out of its own tiles and entity
templates (each monster and item by name, at the same place), so both games
play the same monsters on the same tiles.  What is counted, in both:

* **wait**: the turn of a wait, `handle_action(WaitAction(player))`: the
  action, every monster's turn, the field of view;
* **move**: the same with a step, back and forth between two floor tiles;
* **enemy turn**: `engine.handle_enemy_turns()` alone;
* **full render**: the console cleared and the game's screen drawn
  (`handler.on_render`), as the main loop does before presenting it.

The tutorial's `GameMap.render`, run on today's tcod, uses console calls that
are deprecated and warn each time; its process draws the map with the same lines
on today's calls (`tutorial_render`), so that it is not charged for the warnings.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SEED = 3
COUNT = 200
OPERATIONS = ("wait", "move", "enemy turn", "full render")


# ------------------------------------------------------------ the child


def our_game(floor: Path) -> tuple[Any, Any, Callable[[str], None]]:
    """Our game on the floor of `SEED`; writes the floor to `floor` for the tutorial."""
    sys.path.insert(0, str(ROOT))
    import tcod

    import actions
    import input_handlers
    import setup_game
    from entity import Actor

    engine = setup_game.new_game(seed=SEED)
    game_map, player = engine.game_map, engine.player
    assert not game_map.monsters_in_view, f"seed {SEED}: a monster in view would not wait"
    step = 1 if game_map.tiles["walkable"][player.x + 1, player.y] else -1
    assert game_map.tiles["walkable"][player.x + step, player.y]
    floor.write_text(json.dumps({
        "walkable": game_map.tiles["walkable"].astype(int).tolist(),
        "stairs": list(game_map.downstairs_location),
        "player": [player.x, player.y],
        "step": step,
        "entities": [[entity.name, entity.x, entity.y] for entity in game_map.entities
                     if entity is not player and (not isinstance(entity, Actor) or entity.is_alive)],
    }))
    handler = input_handlers.MainGameEventHandler(engine)
    return handler, tcod.console.Console(80, 50, order="F"), lambda name: ours_once(
        name, handler, actions, step
    )


def ours_once(name: str, handler: Any, actions: Any, step: int) -> None:
    engine = handler.engine
    if name == "wait":
        handler.handle_action(actions.WaitAction(engine.player))
    elif name == "move":
        handler.handle_action(actions.BumpAction(engine.player, step, 0))
        handler.handle_action(actions.BumpAction(engine.player, -step, 0))


def tutorial_render(shroud: Any) -> Callable[[Any, Any], None]:
    """The tutorial's `GameMap.render` (part 13), line for line, on today's console calls."""
    import numpy as np

    def render(self: Any, console: Any) -> None:
        console.rgb[0 : self.width, 0 : self.height] = np.select(
            condlist=[self.visible, self.explored],
            choicelist=[self.tiles["light"], self.tiles["dark"]],
            default=shroud,
        )
        for entity in sorted(self.entities, key=lambda x: x.render_order.value):
            if self.visible[entity.x, entity.y]:
                console.print(x=entity.x, y=entity.y, text=entity.char, fg=entity.color)

    return render


def tutorial_game(directory: Path, floor: Path) -> tuple[Any, Any, Callable[[str], None]]:
    """The tutorial's game on the floor our process wrote to `floor`."""
    os.chdir(directory)
    sys.path.insert(0, str(directory))
    import warnings

    warnings.simplefilter("ignore")
    import tcod

    # Imported by name: the tutorial's modules have our modules' names.
    actions, entity, entity_factories, input_handlers, setup_game, tile_types, game_map_module = (
        importlib.import_module(name)
        for name in ("actions", "entity", "entity_factories", "input_handlers", "setup_game", "tile_types", "game_map")
    )
    GameMap = game_map_module.GameMap
    GameMap.render = tutorial_render(tile_types.SHROUD)

    plan = json.loads(floor.read_text())
    engine = setup_game.new_game()
    player = engine.player
    old = engine.game_map
    game_map = GameMap(engine, old.width, old.height, entities=[player])
    walkable = __import__("numpy").array(plan["walkable"], dtype=bool)
    game_map.tiles[walkable] = tile_types.floor
    game_map.tiles[tuple(plan["stairs"])] = tile_types.down_stairs
    game_map.downstairs_location = tuple(plan["stairs"])
    templates = {
        template.name: template
        for template in vars(entity_factories).values()
        if isinstance(template, entity.Entity)
    }
    for name, x, y in plan["entities"]:
        templates[name].spawn(game_map, x, y)
    player.place(*plan["player"], game_map)
    engine.game_map = game_map
    engine.update_fov()
    step = plan["step"]
    handler = input_handlers.MainGameEventHandler(engine)

    def once(name: str) -> None:
        if name == "wait":
            handler.handle_action(actions.WaitAction(player))
        elif name == "move":
            handler.handle_action(actions.BumpAction(player, step, 0))
            handler.handle_action(actions.BumpAction(player, -step, 0))

    return handler, tcod.console.Console(80, 50, order="F"), once


def child(game: str, operation: str, count: int, floor: Path, tutorial: Path | None) -> None:
    """Make the game's map, then do `operation` `count` times."""
    if game == "ours":
        handler, console, once = our_game(floor)
    else:
        assert tutorial is not None
        handler, console, once = tutorial_game(tutorial, floor)
    engine = handler.engine
    for _ in range(count):
        if operation == "enemy turn":
            engine.handle_enemy_turns()
        elif operation == "full render":
            console.clear()
            handler.on_render(console)
        else:
            once(operation)
    assert engine.player.is_alive


# ------------------------------------------------------------ the parent


def instructions(arguments: list[str], folder: Path) -> int:
    """The instructions valgrind's callgrind counts in ``python tools/turn_cost.py arguments``."""
    out = folder / "callgrind.out"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONHASHSEED="0")
    subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
         sys.executable, str(Path(__file__).resolve()), *arguments],
        env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    for line in out.read_text().splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise RuntimeError("callgrind wrote no total")


def per_operation(game: str, count: int, folder: Path, tutorial: Path | None) -> dict[str, float]:
    """Instructions of one of each operation in `game`, by difference with doing none."""
    floor = folder / "floor.json"
    common = ["--floor", str(floor)] + ([] if tutorial is None else ["--tutorial", str(tutorial)])
    base = instructions(["--child", game, "wait", "0", *common], folder)
    costs = {}
    for operation in OPERATIONS:
        total = instructions(["--child", game, operation, str(count), *common], folder)
        # A move is two steps, there and back.
        costs[operation] = (total - base) / count / (2 if operation == "move" else 1)
    return costs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--tutorial", type=Path, help="a checkout of the tutorial's part 13")
    parser.add_argument("--count", type=int, default=COUNT, help="operations counted in each run")
    parser.add_argument("--child", nargs=3, metavar=("GAME", "OPERATION", "COUNT"), help=argparse.SUPPRESS)
    parser.add_argument("--floor", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        game, operation, count = args.child
        child(game, operation, int(count), args.floor, args.tutorial)
        return 0
    with tempfile.TemporaryDirectory(prefix="turn-cost-") as name:
        folder = Path(name)
        ours = per_operation("ours", args.count, folder, None)
        theirs = None if args.tutorial is None else per_operation("tutorial", args.count, folder, args.tutorial.resolve())
    print(f"instructions of one operation (callgrind), floor 1 of seed {SEED}, {args.count} of each")
    for operation in OPERATIONS:
        line = f"{operation:12} ours {ours[operation]:>11,.0f}"
        if theirs is not None:
            line += f"  tutorial {theirs[operation]:>11,.0f}  {ours[operation] / theirs[operation]:.2f}x"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
