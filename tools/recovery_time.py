"""Time Continue's recovery of a long game killed at the worst moment.

    python tools/recovery_time.py            # a game of 100,000 events
    python tools/recovery_time.py 20000      # a shorter one
    python tools/recovery_time.py --write    # 100,000, into docs/performance.md (`doc_section`)

Plays a game of that many events on one floor as the main loop does (each
event through `Screens.press`, then `effects.after_frame`), with a
seeded player that fights what it sees, drinks a potion when hurt, and
otherwise wanders, opens screens and moves the mouse; then "kills" it at the
worst moment, one event before its next save (`autosave.CHECKPOINT_LINES`
events after the last), and times Continue: loading the save, replaying
what came after it (`recovery`) and rewriting the recording's file.  For
comparison it times the headless replay of the whole recording, and checks
that both end in the same game.  Prints one line per figure, each time by the
wall clock and in CPU time (which the machine's load moves less), and the ratio
of the two CPU times.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import doc_section
import numpy as np
import tcod
from tcod.event import KeySym

import input_handlers
import setup_game
from controls import keys
from engine import Engine
from replays import record_reader, replay, replay_lines
from saving import autosave, effects, paths
from screens.stack import Screens

SEED = 1
MOVES = {
    (-1, 0): KeySym.H, (1, 0): KeySym.L, (0, -1): KeySym.K, (0, 1): KeySym.J,
    (-1, -1): KeySym.Y, (1, -1): KeySym.U, (-1, 1): KeySym.B, (1, 1): KeySym.N,
}


def key(sym: KeySym) -> tcod.event.KeyDown:
    return tcod.event.KeyDown(scancode=tcod.event.Scancode.UNKNOWN, sym=sym, mod=tcod.event.Modifier.NONE)


class Player:
    """Fights the nearest monster in view, drinks when hurt, else does something at random."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def events(self, handler: input_handlers.BaseEventHandler) -> list[tcod.event.Event]:
        if not isinstance(handler, input_handlers.MainGameEventHandler):
            if isinstance(handler, input_handlers.LevelUpEventHandler):
                return [key(KeySym.A)]
            return [key(KeySym.ESCAPE)]
        engine = handler.engine
        player = engine.player
        letters = {stack[0].name: letter for letter, stack in player.inventory.listing()}
        if player.fighter.hp < player.fighter.max_hp // 2 and "Health Potion" in letters:
            return [key(KeySym.I), key(keys.letter_key(letters["Health Potion"]))]
        foes = [
            actor for actor in engine.game_map.actors
            if actor is not player and engine.game_map.visible[actor.x, actor.y]
        ]
        if foes:
            step = self.step_towards(engine, [(foe.x, foe.y) for foe in foes])
            if step is not None:
                return [key(MOVES[step])]
        roll = self.rng.random()
        if roll < 0.8:
            return [key(self.rng.choice(list(MOVES.values())))]
        if roll < 0.85:
            return [key(KeySym.G)]
        if roll < 0.9:
            return [key(self.rng.choice([KeySym.C, KeySym.V, KeySym.I])), key(KeySym.ESCAPE)]
        x, y = self.rng.randrange(80), self.rng.randrange(43)
        return [tcod.event.MouseMotion(position=tcod.event.Point(x + 0.5, y + 0.5), tile=tcod.event.Point(x, y))]


    @staticmethod
    def step_towards(engine: Engine, goals: list[tuple[int, int]]) -> tuple[int, int] | None:
        """The first step of a shortest walk to the nearest of `goals`."""
        player = engine.player
        cost = engine.game_map.tiles["walkable"].astype(np.int8)
        path = tcod.path.path2d(
            cost, start_points=[(player.x, player.y)], end_points=goals, cardinal=1, diagonal=1
        )
        if len(path) < 2:
            return None
        x, y = path[1].tolist()
        return x - player.x, y - player.y


def unsaved(engine: Engine) -> int:
    assert engine.saved_at is not None
    return len(engine.recording) - engine.saved_at[1]


def play(events: int) -> Engine:
    """A game of at least `events` recorded events, stopped one before its next save."""
    engine = setup_game.new_game(SEED)
    screens = Screens(setup_game.MainMenu(engine.settings), input_handlers.MainGameEventHandler(engine))
    effects.after_frame(screens)  # As the main loop does after each frame.
    player = Player(SEED)
    while len(engine.recording) < events or unsaved(engine) < autosave.CHECKPOINT_LINES - 1:
        for event in player.events(screens.top):
            screens.press(event)
            replay_lines.finish_walk(screens)
        if not engine.player.is_alive:
            raise SystemExit(f"the player died after {len(engine.recording)} events: try another SEED")
        if engine.game_world.current_floor != 1:
            raise SystemExit("the player left floor 1")
        effects.after_frame(screens)
    return engine


def run(events: int, write: bool = False) -> None:
    player_files = paths.data_dir()
    say = doc_section.Printed()
    with tempfile.TemporaryDirectory(prefix="recovery-time-") as folder:
        paths.use_data_dir(Path(folder))
        try:
            measure(events, say)
        finally:
            paths.use_data_dir(player_files)
    if write:
        doc_section.write("recovery time", "tools/recovery_time.py", doc_section.report("python tools/recovery_time.py --write", say.lines))


def measure(events: int, say: doc_section.Printed) -> None:
    """Play, kill, Continue, replay: print each figure."""
    start = time.perf_counter()
    engine = play(events)
    played = time.perf_counter() - start
    lines = len(engine.recording) - 2
    print(f"played {lines} events in {played:.1f} s; {unsaved(engine)} after the last save")
    assert engine.recording_file is not None
    path = paths.recordings_dir() / engine.recording_file

    start, cpu = time.perf_counter(), time.process_time()
    continued = Screens(setup_game.MainMenu())
    continued.press(key(KeySym.C))
    effects.after_frame(continued)  # The file written again, after the first frame.
    recovered, recovered_cpu = time.perf_counter() - start, time.process_time() - cpu
    say(f"a game of {lines:,} events killed one event before its next save ({unsaved(engine):,} events after the last)")
    say(f"Continue (load, replay those, write the file on): {recovered:.2f} s, CPU {recovered_cpu:.2f} s")
    if isinstance(continued.top, input_handlers.PopupMessage):
        print(f"  it says: {continued.top.text}")

    start, cpu = time.perf_counter(), time.process_time()
    script = record_reader.read(path)
    whole = replay.play_recording(replay.start(script), script.events)
    replayed, replayed_cpu = time.perf_counter() - start, time.process_time() - cpu
    say(f"headless replay of all {len(script.events):,} events: {replayed:.2f} s, CPU {replayed_cpu:.2f} s")
    say(f"Continue's CPU time / the whole replay's: {recovered_cpu / replayed_cpu:.2f}x")
    same = replay.summary(whole) | {"screen": ""} == replay.summary(continued) | {"screen": ""}
    say(f"same game: {same}")
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    arguments = [arg for arg in sys.argv[1:] if arg != "--write"]
    run(int(arguments[0]) if arguments else 100_000, "--write" in sys.argv[1:])
