"""`--replay FILE --follow`: a follower reads a recording as the game writes it,
and shows the player's game after each event, writing nothing of the player's."""

from __future__ import annotations

import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
import tcod
from conftest import after_frame, click, key, motion, pressing, typed
from tcod.event import KeySym

import input_handlers
import main
import setup_game
from replays import follow, record_format, record_reader, replay_lines
from saving import paths, safe_io
from screens.stack import Screens

SEED = 7
ROOT = Path(__file__).parent.parent


def frame(screens: Screens) -> np.ndarray:
    """Every cell of what the screens draw: character and colours."""
    console = tcod.console.Console(80, 50, order="F")
    screens.draw(console)
    return console.rgb.copy()


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Each file under `folder`, with its size and modification time."""
    return {
        str(path.relative_to(folder)): (path.stat().st_size, path.stat().st_mtime_ns)
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


class Player:
    """A game started from the menu, played one event at a time as the main loop
    plays them (each walk to its end), its recording written as it goes."""

    def __init__(self, seed: int = SEED) -> None:
        self.screens = new_game(seed)
        assert isinstance(self.screens.top, input_handlers.MainGameEventHandler)
        self.file = paths.recordings_dir() / str(self.screens.top.engine.recording_file)

    def press(self, event: record_format.Recorded) -> None:
        replay_lines.replay_line(self.screens, event)
        replay_lines.finish_walk(self.screens)
        after_frame(self.screens)


def new_game(seed: int) -> Screens:
    """A new game of `seed` started from the menu (N), its first frame's files written."""
    screens = Screens(setup_game.MainMenu(seed=seed))
    screens.press(key(KeySym.N))
    return after_frame(screens)


def followed(follower: follow.Follower, in_tmp: Path) -> np.ndarray:
    """The follower's frame once it has read the file, checking it wrote nothing."""
    before = snapshot(in_tmp)
    follower.poll(finish_walks=True)
    assert snapshot(in_tmp) == before
    assert follower.screens is not None
    return frame(follower.screens)


EVENTS: list[record_format.Recorded] = [
    typed("."), key(KeySym.L), key(KeySym.J), motion(30, 20), key(KeySym.I), key(KeySym.ESCAPE),
    key(KeySym.X), typed("."), key(KeySym.C), key(KeySym.A), click(10, 10), key(KeySym.X),
    key(KeySym.H), key(KeySym.K), typed(">"), key(KeySym.V), key(KeySym.ESCAPE), typed("."),
]


def test_a_follower_started_mid_game_shows_the_players_frame_after_each_event(in_tmp: Path) -> None:
    player = Player()
    for event in EVENTS[:5]:
        player.press(event)
    follower = follow.Follower(player.file)
    assert np.array_equal(followed(follower, in_tmp), frame(player.screens))
    for event in EVENTS[5:]:
        player.press(event)
        assert np.array_equal(followed(follower, in_tmp), frame(player.screens)), event
    assert follower.restarts == 1 and not follower.ended


def walking_player(in_tmp: Path) -> tuple[Player, follow.Follower]:
    """A player whose explore is 3 steps along and goes on, and a follower of it."""
    for seed in range(1, 100):
        screens = Screens(setup_game.MainMenu(seed=seed))  # No main loop: nothing written.
        screens.press(key(KeySym.N))
        replay_lines.replay_line(screens, key(KeySym.X))
        for _ in range(3):
            if screens.walking:
                screens.step()
        if screens.walking:
            break
    else:
        raise AssertionError("no seed explores 4 steps")
    player = Player(seed)
    follower = follow.Follower(player.file)
    replay_lines.replay_line(player.screens, key(KeySym.X))
    for _ in range(3):
        player.screens.step()
        after_frame(player.screens)
    assert player.screens.walk_steps() == 3
    return player, follower


def test_a_walk_the_player_stopped_sooner_is_played_again(in_tmp: Path) -> None:
    """The follower walks on where the player's key stopped the walk; the `steps N`
    line that comes after puts it right."""
    player, follower = walking_player(in_tmp)
    followed(follower, in_tmp)  # The follower walks the whole way.
    # A key stops it, through the door the main loop sends keys through.
    after_frame(pressing(player.screens, key(KeySym.SPACE)))
    assert not player.screens.walking
    assert player.file.read_text().endswith("key x\nsteps 3\n")
    assert np.array_equal(followed(follower, in_tmp), frame(player.screens))
    assert follower.restarts == 2


def test_a_follower_ends_with_the_game(in_tmp: Path) -> None:
    """Followed to its death: the claim, the recording's last line, ends it."""
    text = (ROOT / "tests" / "recordings" / "death.rec").read_text()
    script = record_reader.parse(text, "death.rec")
    player = Player.__new__(Player)
    player.screens = new_game(script.seed)
    assert isinstance(player.screens.top, input_handlers.MainGameEventHandler)
    player.file = paths.recordings_dir() / str(player.screens.top.engine.recording_file)
    follower = follow.Follower(player.file)
    for event in script.events:
        player.press(event)
        followed(follower, in_tmp)
    played = player.screens.top
    assert isinstance(played, input_handlers.GameOverEventHandler)
    assert follower.ended
    # Its own game-over window tells the player's story, and keeps nothing of it.
    assert follower.screens is not None
    shown = follower.screens.top
    assert isinstance(shown, input_handlers.GameOverEventHandler)
    followed_end, played_end = shown.engine.ending, played.engine.ending
    assert followed_end is not None and played_end is not None
    assert followed_end.claim == played_end.claim
    assert followed_end.summary_lines() == played_end.summary_lines()
    assert shown.engine.death_record is None
    # And says so, where the player's own game over says where its morgue file went.
    said = shown.content().lines
    assert input_handlers.GameOverEventHandler.REPLAYED in said
    assert input_handlers.GameOverEventHandler.REPLAYED not in played.content().lines


def followed_after(events: list[record_format.Recorded], in_tmp: Path) -> tuple[Player, follow.Follower]:
    """A player who played `events`, and a follower who has read them."""
    player = Player()
    for event in events:
        player.press(event)
    follower = follow.Follower(player.file)
    followed(follower, in_tmp)
    return player, follower


def test_a_rewritten_recording_is_followed_on(in_tmp: Path) -> None:
    """Continue rewrites the file whole (a new file under the name): the same
    lines and more are followed on; other lines are played again from the start."""
    player, follower = followed_after(EVENTS[:4], in_tmp)
    text = player.file.read_text()
    safe_io.write_atomic(player.file, (text + "key j\n").encode())
    assert follower.poll() == 1 and follower.restarts == 1
    safe_io.write_atomic(player.file, text.replace("key l", "key h").encode())
    follower.poll()
    assert follower.restarts == 2 and follower.played == len(text.splitlines())


def test_headless_following_prints_where_the_game_ended(in_tmp: Path) -> None:
    """A game that grows as the follower reads it, then dies: `--follow --headless`
    ends with it and prints what `--replay --headless` prints."""
    lines = (ROOT / "tests" / "recordings" / "death.rec").read_text().splitlines(keepends=True)
    growing = in_tmp / "growing.rec"
    growing.write_text("".join(lines[:6]))
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    command = [sys.executable, str(ROOT / "main.py"), "--replay", str(growing)]
    follower = subprocess.Popen(
        [*command, "--follow", "--headless"], stdout=subprocess.PIPE, text=True, env=env
    )
    with growing.open("a") as file:
        for line in lines[6:]:
            file.write(line)
            file.flush()
    out, _ = follower.communicate(timeout=60)
    replayed = subprocess.run([*command, "--headless"], capture_output=True, text=True, env=env, check=True)
    assert follower.returncode == 0
    assert out == replayed.stdout


@pytest.mark.parametrize("make", ["fifo", "binary", "bad line"])
def test_a_hostile_file_is_refused(in_tmp: Path, make: str) -> None:
    path = in_tmp / "hostile.rec"
    match make:
        case "fifo":
            os.mkfifo(path)
        case "binary":
            path.write_bytes(b"recording 3\nseed 1\n\xff\xfe\n")
        case "bad line":
            path.write_text("recording 3\nseed 1\nkey nosuchkey\n")
    with pytest.raises(follow.FollowError, match=r"hostile\.rec"):
        follow.Follower(path).poll()


def test_following_in_the_window_shows_the_game_and_escape_leaves(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--replay FILE --follow` in a real window (SDL's dummy driver): it draws the
    player's game under its status line and leaves on Escape, taking no lock and
    writing nothing in the data folder, where the player's game is."""
    player = Player()
    for event in EVENTS[:3]:
        player.press(event)
    presented: list[str] = []
    real_present = tcod.context.Context.present

    def present(context: tcod.context.Context, console: tcod.console.Console, **kwargs: object) -> None:
        presented.append("".join(chr(c) for c in console.rgb["ch"][:, 0]).strip())
        real_present(context, console, **kwargs)  # type: ignore[arg-type]

    waits = iter([[], [], [key(KeySym.ESCAPE)]])
    monkeypatch.setattr(tcod.context.Context, "present", present)
    monkeypatch.setattr(tcod.event, "wait", lambda timeout=None: next(waits))
    before = snapshot(in_tmp)
    assert main.main(["--replay", str(player.file), "--follow"]) == 0
    assert snapshot(in_tmp) == before
    assert presented[-1].startswith(f"Following {player.file.name}: ")
    assert not (in_tmp / "game.lock").exists()


@pytest.mark.parametrize("text", ["hello\n", "recording 4\nspeed 3\n", "# a comment\nkey l\n"])
def test_a_file_that_is_no_recording_is_refused_at_once(in_tmp: Path, text: str) -> None:
    """Its first lines say so: refused then, not waited on for ever."""
    path = in_tmp / "notes.rec"
    path.write_text(text)
    with pytest.raises(follow.FollowError, match=r"notes\.rec, line \d: "):
        follow.Follower(path).poll()


def test_a_recording_not_begun_yet_is_waited_for(in_tmp: Path) -> None:
    path = in_tmp / "new.rec"
    path.write_text("")
    follower = follow.Follower(path)
    assert follower.poll() == 0 and follower.screens is None
    path.write_text("recording 4\n")
    assert follower.poll() == 1 and follower.screens is None  # Its seed is still to come.
    path.write_text("recording 4\nseed 7\n")
    follower.poll()
    assert follower.screens is not None and follower.restarts == 1


def test_a_recording_copied_over_in_place_is_followed_again_from_its_start(in_tmp: Path) -> None:
    """`cp` truncates the file and writes the other one into it (the same file, longer):
    the follower notices, and plays the other game from its start."""
    player, follower = followed_after(EVENTS[:4], in_tmp)
    text = player.file.read_text()
    other = text.replace(f"seed {SEED}\n", f"seed {SEED + 1}\n") + "key l\nkey l\n"
    inode = player.file.stat().st_ino
    with player.file.open("r+b") as file:  # As cp writes over an existing file.
        file.truncate(0)
        file.write(other.encode())
    assert player.file.stat().st_ino == inode
    assert follower.poll() == len(other.splitlines())
    assert follower.restarts == 2
    assert follower.first is not None and follower.first.engine.game_world.seed == SEED + 1


def with_a_bind_reordered(text: str) -> str:
    """`text` with the keys of one `bind` line swapped, far from its first and last
    bytes: the same length, the same game, other bytes."""
    lines = text.splitlines(keepends=True)
    at = 0
    for number, line in enumerate(lines):
        words = line.split()
        if at > follow.TAIL_BYTES and words[0] == "bind" and len(words) >= 4 and words[-1] != words[-2]:
            lines[number] = " ".join([*words[:-2], words[-1], words[-2]]) + "\n"
            changed = "".join(lines)
            assert len(changed) == len(text) and at + len(line) < len(text) - follow.TAIL_BYTES
            return changed
        at += len(line)
    raise AssertionError("no bind line of two keys in the middle")


def test_a_recording_replaced_by_one_that_begins_and_ends_alike_is_followed_again(in_tmp: Path) -> None:
    """A new file under the name, its first and last bytes those read, a line between
    them not: the file itself is new, so it is checked from its start, and played again."""
    player, follower = followed_after(EVENTS, in_tmp)
    safe_io.write_atomic(player.file, with_a_bind_reordered(player.file.read_text()).encode())
    follower.poll()
    assert follower.restarts == 2


def follow_peak(path: Path, events: int) -> int:
    """The most memory following a finished file of `events` wait events takes."""
    path.write_text("recording 4\nseed 1\n" + "key f2\n" * events)
    tracemalloc.start()
    try:
        follow.Follower(path).poll(finish_walks=True)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_following_a_long_file_takes_memory_that_does_not_grow_with_it(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read in pieces (made small here), each played as it comes: nothing kept of it."""
    monkeypatch.setattr(follow, "CHUNK_BYTES", 1 << 14)
    short = follow_peak(in_tmp / "short.rec", 2_000)
    long = follow_peak(in_tmp / "long.rec", 20_000)
    assert long - short < 100_000, (short, long)  # 18,000 events more: under 6 bytes each.


class Watched:
    """A front end that asks nothing of a screen: it notes how long each wait for input
    may take, and presses Escape after a few."""

    context = None

    def __init__(self) -> None:
        self.timeouts: list[float | None] = []

    def present(self, console: tcod.console.Console, options: object, screen: object = None) -> None:
        pass

    def events(self, timeout: float | None = None) -> list[tcod.event.Event]:
        self.timeouts.append(timeout)
        return [key(KeySym.ESCAPE)] if len(self.timeouts) > 6 else []


def test_a_walk_followed_in_the_window_steps_at_the_walk_speed_between_reads(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the followed game walks, the window waits no longer than a step, however
    seldom the file is read."""
    _, follower = walking_player(in_tmp)
    follower.poll()
    assert follower.screens is not None and follower.screens.walking
    monkeypatch.setattr(follow, "POLL_SECONDS", 600.0)
    front = Watched()
    follow.watch(front, tcod.console.Console(80, 50, order="F"), follower)
    step = 1 / follower.screens.settings.options.walk_speed
    assert all(timeout is not None and timeout <= step for timeout in front.timeouts[1:])
