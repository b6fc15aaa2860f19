"""Time saving a long game: the save's CPU cost and size, as a player's long game makes them.

    python tools/save_time.py           # 20 saves of each game
    python tools/save_time.py 50        # more
    python tools/save_time.py --write   # and into docs/performance.md (`doc_section`)

A new game, and long ones: ten floors down, the message log full (its last
`message_log.HISTORY` messages kept), and a recording of 20,000 events (a long
game's) or 100,000 (five times that).  Each is saved as quitting and the autosave save it
(`Engine.save_as`: the check that its data loads, the pickle, zlib, the
atomic write) into a temporary folder; prints the median and the slowest
save in milliseconds of CPU time, and the file's size; then the time a load of
each takes.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import doc_section

import actions
import message_log
import setup_game
from engine import Engine
from saving import save_data

LONG_FLOORS = 10


def long_game(events: int, seed: int = 7) -> Engine:
    """A game ten floors down, its log full, its recording long."""
    engine = setup_game.new_game(seed=seed)
    player = engine.player
    for _ in range(LONG_FLOORS - 1):
        player.place(*engine.game_map.downstairs_location, engine.game_map)
        actions.TakeStairsAction(player).perform()
    rng = random.Random(seed)  # Varied, as play is: repeats would compress to nothing.
    for _ in range(message_log.HISTORY):
        who = rng.choice(["Orc", "Troll", "Goblin"])
        engine.message_log.add_message(f"{who} attacks Player for {rng.randint(1, 9)} hit points.")
    moves = ["key h", "key j", "key k", "key l", "key y", "key u", "key b", "key n", "text >", "key x"]
    engine.recording += [
        rng.choice(moves) if rng.random() < 0.8 else f"move {rng.randint(0, 79)} {rng.randint(0, 42)}"
        for _ in range(events)
    ]
    engine.turns = events
    return engine


def time_saves(engine: Engine, repeats: int, folder: Path) -> tuple[float, float, int]:
    """Median and slowest save in ms, and the file's size in bytes."""
    path = folder / "timed.sav"
    times = []
    for _ in range(repeats):
        start = time.process_time()
        engine.save_as(str(path))
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times), max(times), path.stat().st_size


def time_loads(path: Path, repeats: int) -> float:
    """The median load of the save at `path`, in ms of CPU time."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        save_data.load(path)
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)


def main(argv: list[str]) -> int:
    write = "--write" in argv
    argv = [arg for arg in argv if arg != "--write"]
    repeats = int(argv[0]) if argv else 20
    say = doc_section.Printed()
    say(f"each game saved {repeats} times (Engine.save_as: checked, pickled, compressed, written), then loaded as often")
    with tempfile.TemporaryDirectory() as folder:
        games = [("new game", setup_game.new_game(seed=7))]
        games += [(f"{events:,} events, 10 floors down, the log full", long_game(events)) for events in (20_000, 100_000)]
        for name, engine in games:
            median, slowest, size = time_saves(engine, repeats, Path(folder))
            loaded = time_loads(Path(folder) / "timed.sav", repeats)
            say(f"{name}: save p50 {median:.1f} ms, max {slowest:.1f} ms CPU, {size:,} bytes; load p50 {loaded:.1f} ms CPU")
    if write:
        doc_section.write("save time", "tools/save_time.py", doc_section.report("python tools/save_time.py --write", say.lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
