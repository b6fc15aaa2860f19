"""Time what sharing games costs: `--verify` on a long finished game, and how far
behind a follower (`--replay FILE --follow`) runs.

    python tools/share_time.py              # a game of 10,000 events; 600 followed
    python tools/share_time.py 20000 1000
    python tools/share_time.py --write      # 10,000 and 600, into docs/performance.md (`doc_section`)

Plays a game on seed 1 with `recovery_time`'s seeded player (fights what it
sees, drinks when hurt, wanders, opens screens, moves the mouse) for at least
that many events, then lets it take the stairs down and wait beside what it
meets until it dies.  Times `python main.py --verify` on its morgue file, as a
player runs it (the whole process, three times).  Then plays a second game's
first events at a player's pace (20 a second) while a follower in another
process reads its recording, and prints how long after each line was written
the follower had played it.  Prints one line per figure.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import doc_section  # tools/ is on the path when run from there
import tcod
from recovery_time import Player, key
from tcod.event import KeySym

import input_handlers
import setup_game
from engine import Engine
from replays import record_reader, replay_lines
from saving import effects, paths
from screens.stack import Screens

ROOT = Path(__file__).resolve().parent.parent
SEED = 1
PACE = 20  # A quick player's events a second.

FOLLOWER = """
import sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from replays import follow
follower = follow.Follower(Path(sys.argv[2]))
while not follower.ended:
    follower.poll(finish_walks=True)
    print(time.monotonic(), follower.played, flush=True)
    time.sleep(follow.POLL_SECONDS)
"""


def play_to_death(events: int) -> Path:
    """A game of at least `events` events, played to its death; its morgue file."""
    screens, engine = new_game(SEED)
    player = Player(SEED)
    while engine.player.is_alive:
        if len(engine.recording) > 3 * events:
            raise SystemExit(f"the player still lives after {len(engine.recording)} events")
        batch = player.events(screens.top)
        if len(engine.recording) >= events and isinstance(screens.top, input_handlers.MainGameEventHandler):
            batch = [towards_death(engine)]
        for event in batch:
            screens.press(event)
            replay_lines.finish_walk(screens)
        effects.after_frame(screens)  # As the main loop does: the recording, a death's morgue file.
    return next(paths.morgue_dir().glob("*.txt"))


def new_game(seed: int) -> tuple[Screens, Engine]:
    """N pressed on a main menu of `seed`: the screens, and the game they show, its first
    frame's writing done (its recording's file named and begun)."""
    screens = Screens(setup_game.MainMenu(seed=seed))
    screens.press(key(KeySym.N))
    effects.after_frame(screens)
    game = screens.top
    assert isinstance(game, input_handlers.MainGameEventHandler)
    return screens, game.engine


def towards_death(engine: Engine) -> tcod.event.Event:
    """Wait beside what comes, else explore, else go down."""
    if engine.game_map.monsters_in_view:
        return tcod.event.TextInput(text=".")
    if (engine.player.x, engine.player.y) == engine.game_map.downstairs_location:
        return tcod.event.TextInput(text=">")
    return key(KeySym.X)


def time_verify(morgue_file: Path, say: doc_section.Printed) -> None:
    events = len(record_reader.read(morgue_file.with_suffix(".rec")).events)
    seconds, cpu = [], []
    for _ in range(3):
        start, used = time.perf_counter(), os.times()
        subprocess.run(
            [sys.executable, str(ROOT / "main.py"), "--verify", str(morgue_file)], check=True, capture_output=True
        )
        seconds.append(time.perf_counter() - start)
        after = os.times()
        cpu.append(after.children_user + after.children_system - used.children_user - used.children_system)
    say(f"--verify of a finished game of {events:,} events: {statistics.median(seconds):.2f} s "
          f"(median of 3 whole runs, {min(seconds):.2f} to {max(seconds):.2f}; "
          f"CPU {statistics.median(cpu):.2f} s; load average {os.getloadavg()[0]:.1f})")


def time_follower(events: int, say: doc_section.Printed) -> None:
    """Play `events` events at `PACE` while a follower reads them: its lag, line by line."""
    screens, engine = new_game(SEED + 1)
    path = paths.recordings_dir() / str(engine.recording_file)
    follower = subprocess.Popen(
        [sys.executable, "-c", FOLLOWER, str(ROOT), str(path)], stdout=subprocess.PIPE, text=True
    )
    time.sleep(2)  # Its start-up.
    written: dict[int, float] = {}
    player = Player(SEED + 1)
    while len(written) < events and engine.player.is_alive:
        for event in player.events(screens.top):
            before = len(engine.recording)
            screens.press(event)
            replay_lines.finish_walk(screens)
            effects.after_frame(screens)  # The recording's new lines written, as the main loop does.
            for line in range(before + 1, len(engine.recording) + 1):
                written[line] = time.monotonic()
        time.sleep(1 / PACE)
    time.sleep(1)
    follower.kill()
    out, _ = follower.communicate()
    seen = [(float(when), int(count)) for when, count in (line.split() for line in out.splitlines())]
    lags = []
    for line, when in written.items():
        caught = next((at for at, count in seen if count >= line), None)
        if caught is not None:
            lags.append((caught - when) * 1000)
    lags.sort()
    say(f"a follower behind the player, over {len(lags)} lines written at {PACE} a second: "
          f"median {statistics.median(lags):.0f} ms, 99th percentile {lags[int(len(lags) * 0.99)]:.0f} ms, "
          f"most {lags[-1]:.0f} ms (it reads the file every 50 ms)")


def main(events: int, followed: int, write: bool = False) -> None:
    player_files = paths.data_dir()
    say = doc_section.Printed()
    with tempfile.TemporaryDirectory(prefix="share-time-") as folder:
        paths.use_data_dir(Path(folder))
        try:
            time_verify(play_to_death(events), say)
            time_follower(followed, say)
        finally:
            paths.use_data_dir(player_files)
    if write:
        doc_section.write("share time", "tools/share_time.py", doc_section.report("python tools/share_time.py --write", say.lines))


if __name__ == "__main__":
    numbers = [int(arg) for arg in sys.argv[1:] if arg != "--write"]
    events, followed = numbers if len(numbers) == 2 else (10_000, 600)
    main(events, followed, write="--write" in sys.argv[1:])
