#!/usr/bin/env python3
"""Count the instructions of one turn, ours beside the tutorial's, on the same map.

    python tools/turn_cost.py                        # ours alone
    python tools/turn_cost.py --tutorial DIR         # beside the tutorial's final code
    python tools/turn_cost.py --tutorial DIR --write # and docs/performance.md's table

DIR is a checkout of the 2020 tutorial's last part (TStand90/tcod_tutorial_v2,
branch ``2020/part-13``); nothing of it is kept here.  Each figure is counted
by valgrind's callgrind, which the machine's load does not change.  One process
a game makes the map, then does each operation in turn: `WARM_UP` times
uncounted (first calls fill caches, bind methods, grow lists), then COUNT
times between two calls of ``os.times()``, before each of which callgrind
writes its counts (``--dump-before=times``): the part between them, divided by
COUNT, is the cost of one; start-up and the warm-up are in no figure.  The
collector is run and start-up's objects frozen before the first operation, as
the game's loop does (`gc.freeze()`), so a full pass over them lands in none.
Each game is counted in `RUNS` processes, each with its own ``PYTHONHASHSEED``
(the order of sets and dicts, which the turns walk); a figure is the median of
the runs, with their least and greatest beside it.

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

No monster is in view (each of them waits), and a step comes back, so each
operation finds the map as the one before left it.

The tutorial's `GameMap.render`, run on today's tcod, uses console calls that
are deprecated and warn each time; its process draws the map with the same lines
on today's calls (`tutorial_render`), so that it is not charged for the warnings.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import importlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "tools") not in sys.path:
    sys.path.insert(0, str(ROOT / "tools"))

import doc_section  # noqa: E402

SEED = 3
COUNT = 200
WARM_UP = 20
RUNS = 3
OPERATIONS = ("wait", "move", "enemy turn", "full render")
PAGE = ROOT / "docs" / "performance.md"
SECTION = "turn cost"  # Its section of the page (`doc_section`).


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


def child(game: str, count: int, floor: Path, tutorial: Path | None) -> None:
    """Make the game's map, then do each operation `WARM_UP` times, then `count` times
    between two calls of ``os.times()`` (where callgrind writes its counts)."""
    if game == "ours":
        handler, console, once = our_game(floor)
    else:
        assert tutorial is not None
        handler, console, once = tutorial_game(tutorial, floor)
    engine = handler.engine

    def do(operation: str) -> None:
        if operation == "enemy turn":
            engine.handle_enemy_turns()
        elif operation == "full render":
            console.clear()
            handler.on_render(console)
        else:
            once(operation)

    gc.collect()
    gc.freeze()
    for operation in OPERATIONS:
        for _ in range(WARM_UP):
            do(operation)
        os.times()
        for _ in range(count):
            do(operation)
        os.times()
    assert engine.player.is_alive


# ------------------------------------------------------------ the parent


def counted(dumps: Sequence[str]) -> list[int]:
    """The instructions of each counted stretch, from callgrind's dumps in order (``out.1``,
    ``out.2`` ...): a stretch runs from one ``os.times()`` to the next, and every other one
    (the 2nd, 4th ...) is an operation's counted repetitions."""
    totals = []
    for text in dumps:
        if "--dump-before=times" not in text.split("\ndesc: Trigger:", 1)[1].split("\n", 1)[0]:
            raise ValueError("a dump not made at os.times()")
        totals.append(int(text.split("\ntotals:", 1)[1].split()[0]))
    if len(totals) != 2 * len(OPERATIONS):
        raise ValueError(f"{len(totals)} dumps at os.times(), not {2 * len(OPERATIONS)}")
    return totals[1::2]


def per_operation(game: str, count: int, folder: Path, tutorial: Path | None, hash_seed: int) -> dict[str, float]:
    """Instructions of one of each operation in `game`, as callgrind counts them in one run."""
    out = folder / f"callgrind-{game}-{hash_seed}.out"
    arguments = ["--child", game, str(count), "--floor", str(folder / "floor.json")]
    arguments += [] if tutorial is None else ["--tutorial", str(tutorial)]
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONHASHSEED=str(hash_seed))
    subprocess.run(
        # sys.executable: the interpreter itself, not a launcher (pyenv's shim) valgrind would count.
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--dump-before=times",
         sys.executable, str(Path(__file__).resolve()), *arguments],
        env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    dumps = [out.with_name(f"{out.name}.{part}").read_text() for part in range(1, 2 * len(OPERATIONS) + 1)]
    # A move is two steps, there and back.
    return {
        operation: total / count / (2 if operation == "move" else 1)
        for operation, total in zip(OPERATIONS, counted(dumps), strict=True)
    }


def spread(values: Sequence[float]) -> tuple[float, float, float]:
    """The least, the median and the greatest of `values`."""
    return min(values), statistics.median(values), max(values)


def figure(values: Sequence[float]) -> str:
    low, middle, high = spread(values)
    return f"{middle:,.0f} ({low:,.0f} to {high:,.0f})"


def ratio(ours: Sequence[float], theirs: Sequence[float]) -> str:
    """The medians' ratio, and the least and greatest of the runs' (run i of each, same hash seed)."""
    low, _, high = spread([a / b for a, b in zip(ours, theirs, strict=True)])
    return f"{statistics.median(ours) / statistics.median(theirs):.2f}x ({low:.2f} to {high:.2f}x)"


Runs = dict[str, list[float]]  # By operation: one figure a run.


def section(ours: Runs, theirs: Runs, count: int, commit: str, day: str) -> str:
    """docs/performance.md's table of the turn's costs (its section's text: `doc_section`)."""
    runs = len(ours[OPERATIONS[0]])
    rows = "".join(
        f"| {LABELS[operation]} | {figure(theirs[operation])} | {figure(ours[operation])} "
        f"| {ratio(ours[operation], theirs[operation])} |\n"
        for operation in OPERATIONS
    )
    return (
        f"Made by `python tools/turn_cost.py --tutorial DIR --write` on {day}, this game at "
        f"commit {commit}: instructions of one of each (callgrind), the median of {runs} runs "
        f"(`PYTHONHASHSEED` 0 to {runs - 1}), their least and greatest in brackets; each run "
        f"counts {count} of each after a warm-up of {WARM_UP}.\n\n"
        "| one of each | tutorial | ours | ours / tutorial |\n| --- | --- | --- | --- |\n"
        f"{rows}"
    )


LABELS = {"wait": "wait", "move": "step", "enemy turn": "enemy turn (15 monsters)", "full render": "full render"}


def write(page: Path, text: str) -> None:
    """Put `text` in place of `page`'s section (`doc_section`)."""
    doc_section.write(SECTION, "tools/turn_cost.py", text, page)


def commit_of() -> str:
    return doc_section.commit()


def measure(count: int, runs: int, tutorial: Path | None) -> tuple[Runs, Runs | None]:
    """Each game's figures, run by run: the runs side by side, one a core."""
    games = ["ours"] + ([] if tutorial is None else ["tutorial"])
    with tempfile.TemporaryDirectory(prefix="turn-cost-") as name, ThreadPoolExecutor(os.cpu_count()) as pool:
        folder = Path(name)
        # The floor, written once by our game (no valgrind) for the tutorial's runs to build.
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
        subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", "ours", "0",
                        "--floor", str(folder / "floor.json")], env=env, check=True)  # fmt: skip
        jobs = {
            (game, seed): pool.submit(per_operation, game, count, folder, tutorial if game == "tutorial" else None, seed)
            for game in games
            for seed in range(runs)
        }
        figures = {
            game: {operation: [jobs[game, seed].result()[operation] for seed in range(runs)] for operation in OPERATIONS}
            for game in games
        }
    return figures["ours"], figures.get("tutorial")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--tutorial", type=Path, help="a checkout of the tutorial's part 13")
    parser.add_argument("--count", type=int, default=COUNT, help="operations counted in each run")
    parser.add_argument("--runs", type=int, default=RUNS, help="runs of each game, each its own hash seed")
    parser.add_argument("--write", action="store_true", help="write the table into docs/performance.md")
    parser.add_argument("--child", nargs=2, metavar=("GAME", "COUNT"), help=argparse.SUPPRESS)
    parser.add_argument("--floor", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        game, count = args.child
        child(game, int(count), args.floor, args.tutorial)
        return 0
    if args.write and args.tutorial is None:
        parser.error("--write needs --tutorial: the table shows both games")
    ours, theirs = measure(args.count, args.runs, None if args.tutorial is None else args.tutorial.resolve())
    print(f"instructions of one operation (callgrind), floor 1 of seed {SEED}: the median of {args.runs} "
          f"runs (least to greatest), {args.count} of each after a warm-up of {WARM_UP}")  # fmt: skip
    for operation in OPERATIONS:
        line = f"{operation:12} ours {figure(ours[operation]):>32}"
        if theirs is not None:
            line += f"  tutorial {figure(theirs[operation]):>32}  {ratio(ours[operation], theirs[operation])}"
        print(line)
    if args.write and theirs is not None:
        write(PAGE, section(ours, theirs, args.count, commit_of(), datetime.date.today().isoformat()))
        print(f"written: {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
