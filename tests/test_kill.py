"""Killed at any moment, no play is lost: `kill -9` in a real window, then Continue.

`python main.py` runs under Xvfb and is played with real X key presses
(xdotool, as tests/test_window.py does), then killed with SIGKILL at a random
moment of one of five kinds: within 60 ms of N (before or after the new
game's own first save), mid-walk (exploring), mid-fight, on a menu (the
inventory, the character screen, the message history, look mode), and right
after taking the stairs; all of them before the player ever saved the game.  The game is started again on the same data folder and C is
pressed: the game it continues (saved by closing the window, then read here)
must be the one the headless replay of the recording left by the kill gives,
in every attribute.  Every third kill also cuts that recording at a random
byte after the save's lines (a power cut mid-line): the game must then be
the headless replay of its whole lines.

    KILL_TEST_COUNT=50 python -m pytest tests/test_kill.py     # more kills (10 by default)
    KILL_TEST_SEED=7 python -m pytest tests/test_kill.py       # other moments

A failure names the kill, its kind, and the folder holding its files.
"""

from __future__ import annotations

import collections
import os
import random
import shutil
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
import tcod
import test_window
from conftest import all_lines, dungeon, played_lines, stroke
from tcod.event import KeySym, Modifier
from test_recording import picture
from test_window import Window, explained, virtual_screen

import setup_game
from controls import keys, travel
from controls.keys import Key
from engine import Engine
from replays import record_reader, replay
from saving import paths, save_data
from screens.stack import Screens
from window import options

# A minute or more: CI runs it (`python -m pytest`), `-m "not slow"` skips it.
pytestmark = [*test_window.pytestmark, pytest.mark.slow]

KILLS = int(os.environ.get("KILL_TEST_COUNT", "10"))
KILL_SEED = int(os.environ.get("KILL_TEST_SEED", "20261123"))
KINDS = ("right after N", "mid-walk", "mid-fight", "on a menu", "after a descent")
# X key names of the game's keys, by KeySym.
X_NAMES: dict[Key, str] = {
    KeySym.H: "h", KeySym.J: "j", KeySym.K: "k", KeySym.L: "l",
    KeySym.Y: "y", KeySym.U: "u", KeySym.B: "b", KeySym.N: "n",
    KeySym.X: "x", ".": "period", KeySym.I: "i", KeySym.C: "c",
    KeySym.V: "v", "/": "slash",
}
STAIRS = "greater"
# How long after the last key the kill comes, in seconds, by kind (else 0 to 0.25).
PAUSES = {"right after N": (0.0, 0.06), "mid-walk": (0.05, 0.5)}
MOVES = (KeySym.H, KeySym.J, KeySym.K, KeySym.L, KeySym.Y, KeySym.U, KeySym.B, KeySym.N)


@dataclass
class Plan:
    """A seed, and the keys that play its game up to the moment of the kill.

    Each key comes with how long the game takes to answer it (a walk's
    steps take their time), so that the next key is typed once it is done.
    """

    seed: int
    keys: list[tuple[str, float]]


def headless_game(seed: int) -> tuple[Engine, Screens]:
    engine = setup_game.new_game(seed)
    return engine, dungeon(engine)


def walked(screens: Screens, sym: Key, mod: Modifier = Modifier.NONE) -> int:
    """`sym` (a key, or a symbol typed) pressed, and the walk it starts finished: the walk's steps."""
    screens.press(stroke(sym, mod))
    steps = 0
    while screens.walking:
        screens.step()
        steps += 1
    return steps


def seeds(rng: random.Random) -> Iterator[int]:
    """Seeds to try for a plan: a thousand at most, so that the test never hangs."""
    yield from (rng.randrange(10_000) for _ in range(1000))


def walk_time(steps: int) -> float:
    return steps / options.STEPS_PER_SECOND + 0.15


def descent_plan(rng: random.Random) -> Plan:
    """A seed whose floor 1 `x` explores to the stairs with no monster in the way, then `>` `>`."""
    for seed in seeds(rng):
        engine, screens = headless_game(seed)
        keys: list[tuple[str, float]] = []
        for _ in range(30):
            if travel.stairs_known(engine.game_map):
                break
            steps = walked(screens, KeySym.X)
            if steps == 0:
                break  # A monster in view: another seed.
            keys.append(("x", walk_time(steps)))
        if not travel.stairs_known(engine.game_map):
            continue
        steps = walked(screens, ">")
        keys.append((STAIRS, walk_time(steps)))
        walked(screens, ">")
        if engine.game_world.current_floor == 2 and engine.player.is_alive:
            return Plan(seed, [*keys, (STAIRS, 0.0)])
    raise AssertionError("no seed out of 1000 fits the plan")


def fight_plan(rng: random.Random) -> Plan:
    """A seed with a monster in view at the start; steps towards it, and blows."""
    for seed in seeds(rng):
        engine, screens = headless_game(seed)
        keys: list[tuple[str, float]] = []
        for _ in range(rng.randrange(3, 25)):
            foes = [a for a in engine.game_map.actors if a is not engine.player and engine.game_map.visible[a.x, a.y]]
            if not foes or not engine.player.is_alive:
                break
            sym = step_towards(engine, [(foe.x, foe.y) for foe in foes])
            if sym is None:
                break
            walked(screens, sym)
            keys.append((X_NAMES[sym], 0.05))
        if engine.player.is_alive and (engine.kills or len(keys) > 8):
            return Plan(seed, keys)
    raise AssertionError("no seed out of 1000 fits the plan")


def step_towards(engine: Engine, goals: list[tuple[int, int]]) -> KeySym | None:
    player = engine.player
    cost = engine.game_map.tiles["walkable"].astype(np.int8)
    path = tcod.path.path2d(cost, start_points=[(player.x, player.y)], end_points=goals, cardinal=1, diagonal=1)
    if len(path) < 2:
        return None
    x, y = path[1].tolist()
    for sym in MOVES:
        if keys.MOVE_KEYS[sym] == (x - player.x, y - player.y):
            return sym
    return None


def walk_plan(rng: random.Random) -> Plan:
    """A seed whose first `x` explores for a while: killed mid-walk."""
    for seed in seeds(rng):
        _, screens = headless_game(seed)
        if walked(screens, KeySym.X) >= 15:
            return Plan(seed, [("x", 0.0)])
    raise AssertionError("no seed out of 1000 fits the plan")


def menu_plan(rng: random.Random) -> Plan:
    """A few random moves, then a menu opened."""
    keys = [(X_NAMES[rng.choice(MOVES)], 0.05) for _ in range(rng.randrange(0, 8))]
    menus: list[Key] = [KeySym.I, KeySym.C, KeySym.V, "/"]
    menu = rng.choice(menus)
    return Plan(rng.randrange(10_000), [*keys, (X_NAMES[menu], 0.0)])


def plan_for(kind: str, rng: random.Random) -> Plan:
    match kind:
        case "right after N":
            return Plan(rng.randrange(10_000), [])
        case "mid-walk":
            return walk_plan(rng)
        case "mid-fight":
            return fight_plan(rng)
        case "on a menu":
            return menu_plan(rng)
    return descent_plan(rng)


def recording_file(folder: Path) -> Path | None:
    files = sorted((folder / "recordings").glob("*.rec")) if (folder / "recordings").is_dir() else []
    assert len(files) <= 1, f"more than one recording in {folder}"
    return files[0] if files else None


def whole_lines(path: Path) -> list[str]:
    data = path.read_bytes()
    return data[: data.rfind(b"\n") + 1].decode().splitlines()


def replayed(lines: list[str]) -> Engine:
    """The game `--replay --headless` gives for these lines."""
    script = record_reader.parse("".join(line + "\n" for line in lines), "<killed>")
    engine = replay.play_recording(replay.start(script), script.events).engine
    assert engine is not None
    return engine


def test_killed_at_any_moment_continue_brings_back_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(KILL_SEED)
    counts: collections.Counter[str] = collections.Counter()
    for number in range(KILLS):
        kind = KINDS[number % len(KINDS)]
        folder = tmp_path / f"kill-{number:02d}"
        folder.mkdir()
        plan = plan_for(kind, rng)
        # A screen of its own for each kill: one killed client can't spoil the next.
        with explained(folder), virtual_screen() as display:
            outcome = kill_and_continue(display, folder, kind, plan, rng, monkeypatch)
        counts[f"{kind}: {outcome}"] += 1
        shutil.rmtree(folder)  # Kept only when the kill failed.
    print("\nkills:", dict(sorted(counts.items())))
    assert sum(counts.values()) == KILLS


def kill_and_continue(
    display: str,
    folder: Path,
    kind: str,
    plan: Plan,
    rng: random.Random,
    monkeypatch: pytest.MonkeyPatch,
) -> str:
    """Play `plan`, kill the game, cut its recording perhaps, Continue; say what came of it."""
    monkeypatch.setattr(test_window, "SEED", plan.seed)
    window = Window(display, folder, 1)
    try:
        window.press("n")
        for name, answer in plan.keys:
            window.x("xdotool", "key", "--window", window.id, name)
            time.sleep(answer)
        time.sleep(rng.uniform(*PAUSES.get(kind, (0.0, 0.25))))
        os.kill(window.process.pid, signal.SIGKILL)
        window.process.wait(timeout=10)
    finally:
        window.stop()

    save = folder / paths.SAVE_NAME
    rec = recording_file(folder)
    if not save.exists():
        # Killed before the new game's first save: nothing had been played.
        assert rec is None or len(whole_lines(rec)) <= 2, "play was lost: no save, events recorded"
        return "no save yet, nothing played"
    assert rec is not None
    loaded = save_data.load(save)
    # The lines the save counts as played (its own line, which ends them, may not have
    # reached the file before the kill: Continue writes it then).
    saved = played_lines(all_lines(loaded, folder))
    lines = whole_lines(rec)
    assert played_lines(lines)[: len(saved)] == saved
    outcome = "recovered" if len(played_lines(lines)) > len(saved) else "nothing after the save"
    if outcome == "recovered" and rng.random() < 1 / 3:
        data = rec.read_bytes()
        start = loaded.recording.size
        rec.write_bytes(data[: rng.randrange(start, len(data))])
        lines = whole_lines(rec)
        outcome += ", its recording cut at a random byte"
    expected = replayed(lines)

    window = Window(display, folder, 2)
    try:
        menu = window.screenshot("menu")
        window.press("c")
        window.screen_after("continued", menu)
        window.close()
        assert window.wait_exit() == 0, window.output()
    finally:
        window.stop()
    continued = save_data.load(save)
    continued_lines = played_lines(all_lines(continued, folder))
    if continued_lines == [*played_lines(lines), "resume"]:
        # Continued on a menu (the last key opened it), then left there by
        # closing the window: the game goes on from the dungeon's screen.
        continued_lines.pop()
    assert picture(continued) == picture(expected), f"{folder.name} ({kind}) differs from the replay"
    assert continued_lines == played_lines(lines)
    return outcome
