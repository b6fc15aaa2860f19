#!/usr/bin/env python3
"""Count the key presses a floor takes: with single steps, with walks, and
with walks and autofight; clearing each floor, or diving.

Usage: ``python tools/key_presses.py [--floors N] [SEED ...]``, from any folder.

Three scripted players play the first floors of each seed through the game's
real handlers, until they die or have taken the stairs `--floors` times
(default 1):

* **single steps**, as the tutorial's game needed: one move key per step,
  each toward the nearest tile not yet seen or item seen (the shortest way
  there, which no person does better), `g` on an item, then toward the
  stairs, then `>`;
* **walks**: `x` to explore, which gathers the items, pressed again whenever
  a walk stops, then `>` `>` (the first walks to the stairs if not already
  there);
* **autofight**: as the walker, but Tab (autofight) in place of each move key
  toward a monster or into it; below the default share of HP with no potion,
  where autofight refuses, the move keys as the others.

Each plays by two strategies: **clear** (see every tile it can reach, gather
every item seen, kill every monster it meets, then take the stairs) and
**dive** (the same until the stairs have been seen, then take them).

The first two fight alike: a monster in view is walked to and bumped, one key
a step (`.` when there is no way to it).  All three drink a health potion
(`i` and its letter) at half HP or less.  So the differences are what
exploring, gathering, travelling and autofight save.  Prints one line a seed,
then for each player the median key presses a floor over the floors cleared,
and the shares of its presses that were waits (`.`) and made with a monster in
view (fighting).  ``--write`` plays both one floor and ten (seeds 1 to 10) and
writes the table into docs/performance.md (`doc_section`): the figures are
the same at every run, as the games are.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if str(ROOT / "tools") not in sys.path:
    sys.path.insert(0, str(ROOT / "tools"))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import doc_section  # noqa: E402
import numpy as np  # noqa: E402
import tcod  # noqa: E402
from tcod.event import KeySym, Modifier  # noqa: E402

import input_handlers  # noqa: E402
import setup_game  # noqa: E402
from controls import autofight, keys, travel  # noqa: E402
from engine import Engine  # noqa: E402
from entity import Item  # noqa: E402
from saving import paths  # noqa: E402
from screens.stack import Screens  # noqa: E402
from window.options import Options  # noqa: E402

if TYPE_CHECKING:
    from numpy.typing import NDArray

SEEDS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
MOVES = {
    (-1, 0): KeySym.H, (1, 0): KeySym.L, (0, -1): KeySym.K, (0, 1): KeySym.J,
    (-1, -1): KeySym.Y, (1, -1): KeySym.U, (-1, 1): KeySym.B, (1, 1): KeySym.N,
}  # fmt: skip
STAIRS = tcod.event.TextInput(text=">")
LIMIT = 5000  # Presses: a player that gets no further gives up.
STOP = Options().autofight_stop  # Autofight's default share of HP.


def key(sym: KeySym) -> tcod.event.KeyDown:
    return tcod.event.KeyDown(scancode=tcod.event.Scancode.UNKNOWN, sym=sym, mod=Modifier.NONE)


@dataclass
class Result:
    presses: list[int]  # Key presses each floor cleared took.
    turns: int
    floors: int  # Floors cleared: stairs taken.
    carried: int  # Items in the inventory at the end.
    pressed: int  # Key presses in all, those of a floor it died on too.
    waits: int  # Presses of `.`.
    fights: int  # Presses with a monster in view.

    @property
    def total(self) -> int:
        return sum(self.presses)


Event = tcod.event.KeyDown | tcod.event.TextInput


@dataclass(frozen=True)
class Strategy:
    """How much of a floor a player sees before taking the stairs."""

    name: str
    dives: bool  # Takes the stairs once seen, rather than once all is seen and gathered.


CLEAR = Strategy("clear", dives=False)
DIVE = Strategy("dive", dives=True)
STRATEGIES = (CLEAR, DIVE)
WAIT = tcod.event.TextInput(text=".")


def potion_key(engine: Engine) -> Event | None:
    """`i` (then the potion's letter, see `play`) when at half HP or less with a potion."""
    player = engine.player
    names = [item.name for item in player.inventory.items]
    if player.fighter.hp <= player.fighter.max_hp // 2 and "Health Potion" in names:
        return key(KeySym.I)
    return None


def fight_key(engine: Engine) -> Event | None:
    """A step toward (or a bump into) the nearest monster in view, if one is."""
    target = autofight.nearest_monster(engine)
    if target is None:
        return None
    step = autofight.direction_to(engine, target)
    return key(MOVES[step]) if step is not None else WAIT


def care_key(engine: Engine) -> Event | None:
    """Drinking a potion when badly hurt, fighting: the keys the first two
    players press alike, if one is due."""
    return potion_key(engine) or fight_key(engine)


def done_exploring(engine: Engine, strategy: Strategy) -> bool:
    """Whether a diver has seen the stairs: nothing else on the floor is wanted then."""
    return strategy.dives and travel.stairs_known(engine.game_map)


def wanted_items(engine: Engine, strategy: Strategy) -> list[Item]:
    """The items the players go for: those seen, while there is room."""
    inventory = engine.player.inventory
    if done_exploring(engine, strategy) or len(inventory.items) >= inventory.capacity:
        return []
    return travel.gatherable(engine)


def goals(engine: Engine, strategy: Strategy, items: list[Item]) -> NDArray[np.bool_]:
    """Where the player still goes on this floor: the edge of the unseen and `items`."""
    game_map = engine.game_map
    if done_exploring(engine, strategy):
        wanted = np.zeros_like(game_map.explored)
    else:
        wanted = travel.frontier(game_map)
    for item in items:
        wanted[item.x, item.y] = True
    return wanted


def single_step_key(engine: Engine, strategy: Strategy) -> Event:
    """The next key of the single-stepping player."""
    fight = care_key(engine)
    if fight is not None:
        return fight
    game_map, player = engine.game_map, engine.player
    items = wanted_items(engine, strategy)
    if any((item.x, item.y) == (player.x, player.y) for item in items):
        return key(KeySym.G)
    step = travel.step_toward(game_map, goals(engine, strategy, items), player.x, player.y)
    if step is None:
        step = travel.step_toward(
            game_map, travel.only(game_map, *game_map.downstairs_location), player.x, player.y
        )
    return STAIRS if step is None else key(MOVES[step])


def explore_key(engine: Engine, strategy: Strategy) -> Event:
    """`x` until all is seen and gathered (diving: until the stairs are seen), then `>`."""
    game_map, player = engine.game_map, engine.player
    items = wanted_items(engine, strategy)
    if travel.step_toward(game_map, goals(engine, strategy, items), player.x, player.y) or any(
        (item.x, item.y) == (player.x, player.y) for item in items
    ):
        return key(KeySym.X)
    return STAIRS


def walking_key(engine: Engine, strategy: Strategy) -> Event:
    """The next key of the player who walks."""
    return care_key(engine) or explore_key(engine, strategy)


def autofight_key(engine: Engine, strategy: Strategy) -> Event:
    """The next key of the player who walks and autofights: Tab while autofight
    would act (it refuses below the default share of HP), else as the walker."""
    care = potion_key(engine)
    if care is not None:
        return care
    if autofight.decide(engine, STOP).direction is not None:
        return key(KeySym.TAB)
    return fight_key(engine) or explore_key(engine, strategy)


Player = Callable[[Engine, Strategy], Event]
PLAYERS: dict[str, Player] = {
    "single steps": single_step_key,
    "walks": walking_key,
    "autofight": autofight_key,
}


def play(seed: int, player: Player, floors: int = 1, strategy: Strategy = CLEAR) -> Result:
    """Play `seed` until the stairs are taken `floors` times or the player dies."""
    random.seed(seed)
    engine = setup_game.new_game(seed=seed)
    screens = Screens(setup_game.MainMenu(engine.settings), input_handlers.MainGameEventHandler(engine))
    presses: list[int] = []
    count = waits = fights = 0
    while count < LIMIT and engine.player.is_alive and len(presses) < floors:
        event: Event
        if isinstance(screens.top, input_handlers.LevelUpEventHandler):
            event = key(KeySym.A)
        elif isinstance(screens.top, input_handlers.InventoryActivateHandler):
            letters = {stack[0].name: letter for letter, stack in engine.player.inventory.listing()}
            event = key(keys.letter_key(letters["Health Potion"]))
        else:
            event = player(engine, strategy)
        waits += event == WAIT
        fights += bool(engine.game_map.monsters_in_view)
        floor = engine.game_world.current_floor
        screens.press(event)
        count += 1
        while screens.walking:  # Its steps come by themselves, as in the main loop.
            screens.step()
        if engine.game_world.current_floor > floor:
            presses.append(count - sum(presses))
    carried = len(engine.player.inventory.items)
    return Result(presses, engine.turns, len(presses), carried, count, waits, fights)


@dataclass(frozen=True)
class Summary:
    """One player's games by one strategy: what the page quotes."""

    median: float  # Key presses a floor cleared.
    floors: int  # Floors cleared, over all the games.
    waits: float  # Shares of all its presses: waits,
    fights: float  # and made with a monster in view.


def report(strategy: Strategy, seeds: Sequence[int], floors: int) -> dict[str, Summary]:
    """Play each seed by `strategy` with each player: a line a seed, then a line a player."""
    print(f"{strategy.name}: seed  " + "  ".join(f"{name} (floors, turns, items)" for name in PLAYERS))
    results: dict[str, list[Result]] = {name: [] for name in PLAYERS}
    for seed in seeds:
        line = f"{strategy.name}: {seed:>4}"
        for name, player in PLAYERS.items():
            result = play(seed, player, floors, strategy)
            results[name].append(result)
            line += f"  {result.total:>{len(name)}} ({result.floors}, {result.turns:>5}, {result.carried})"
        print(line)
    summaries = {}
    for name, played in results.items():
        cleared = [presses for result in played for presses in result.presses]
        total = max(sum(result.pressed for result in played), 1)
        waits = sum(result.waits for result in played) / total
        fights = sum(result.fights for result in played) / total
        summaries[name] = summary = Summary(statistics.median(cleared) if cleared else 0, len(cleared), waits, fights)
        print(
            f"{strategy.name}, {name}: floors cleared {summary.floors}, "
            f"key presses a floor {summary.median:.0f} (median), waits {waits:.1%} "
            f"and fighting {fights:.1%} of presses"
        )
    return summaries


Played = dict[str, dict[str, Summary]]  # By strategy, then by player.


def section(one: Played, ten: Played, day: str, commit: str) -> str:
    """docs/performance.md's table of key presses a floor (`doc_section`)."""
    rows = [("clearing floor 1", one["clear"], False), ("diving floor 1", one["dive"], False),
            ("clearing, `--floors 10` (floors cleared before death)", ten["clear"], True),
            ("diving, `--floors 10` (floors cleared before death)", ten["dive"], True)]  # fmt: skip
    table = "".join(
        f"| {label} | " + " | ".join(
            f"{summary.median:.0f}" + (f" ({summary.floors})" if floors else "") for summary in by_player.values()
        ) + " |\n"
        for label, by_player, floors in rows
    )  # fmt: skip
    waits = max(summary.waits for played in (one, ten) for by_player in played.values() for summary in by_player.values())
    return (
        f"Made by `python tools/key_presses.py --write` on {day}, this game at commit {commit}: "
        f"seeds {SEEDS[0]} to {SEEDS[-1]}, the median key presses a floor; "
        + ("none of them waits (`.`)" if waits == 0 else f"at most {waits:.1%} of any player's presses waits (`.`)")
        + ". The games are the same at every run.\n\n"
        "| | single steps | walks | walks and autofight |\n|---|---|---|---|\n"
        f"{table}\n"
        f"On floor 1, {one['clear']['walks'].fights:.1%} of the clearing walkers' presses were made with a "
        f"monster in view. Over the ten games of `--floors 10`, the walkers who dive cleared "
        f"{ten['dive']['walks'].floors} floors before death, those who clear {ten['clear']['walks'].floors}.\n"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Count the key presses a floor takes.")
    parser.add_argument("--floors", type=int, default=1, help="floors to clear (default 1)")
    parser.add_argument("--write", action="store_true", help="play 1 floor and 10 of seeds 1 to 10, write docs/performance.md's table")
    parser.add_argument("seeds", type=int, nargs="*", default=list(SEEDS))
    args = parser.parse_args(argv)
    if not args.write:
        for strategy in STRATEGIES:
            report(strategy, args.seeds, args.floors)
        return 0
    one, ten = ({strategy.name: report(strategy, SEEDS, floors) for strategy in STRATEGIES} for floors in (1, 10))
    doc_section.write(SECTION, "tools/key_presses.py", section(one, ten, datetime.date.today().isoformat(), doc_section.commit()))
    print(f"written: {doc_section.PAGE.relative_to(ROOT)}")
    return 0


SECTION = "key presses"  # Its section of docs/performance.md.


if __name__ == "__main__":
    # Some of these games die, and a death writes a morgue file and a score:
    # those go to a folder thrown away after, never the working directory.
    with tempfile.TemporaryDirectory(prefix="key-presses-") as scratch:
        paths.use_data_dir(Path(scratch))
        status = main(sys.argv[1:])
    sys.exit(status)
