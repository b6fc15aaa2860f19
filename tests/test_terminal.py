"""`python main.py --terminal` in a real terminal (tmux): played, resized, hung up on.

Skipped only where tmux is missing (`.ci/run` installs it).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import tcod
from conftest import dungeon, give
from terminal_pane import ROOT, Pane, find, have_tmux, next_key

import entity_factories
import setup_game
from controls import keys
from replays import replay, replay_lines
from saving import paths
from screens.stack import Screens
from terminal import drawing, key_parser, view
from window import options

pytestmark = pytest.mark.skipif(not have_tmux(), reason="tmux is not installed")

SEED = 8  # A game the simple player of `next_key` takes to floor 3.
FLOOR = 3
LOW_SEED = 1  # A game whose player starts low on the map.


@pytest.fixture
def pane(tmp_path: Path) -> Iterator[Pane]:
    """A tmux pane of 80x50, its data folder walking at the fastest speed."""
    data = tmp_path / "data"
    data.mkdir()
    fast = options.Options(walk_speed=max(options.WALK_SPEEDS))
    (data / paths.OPTIONS_NAME).write_text(options.to_text(fast))
    pane = Pane(tmp_path)
    try:
        yield pane
    finally:
        pane.close()


def data_dir(pane: Pane) -> str:
    return f"--data-dir={pane.folder / 'data'}"


def waits(pressed: list[str]) -> int:
    """How many times in a row the player last waited."""
    count = 0
    while count < len(pressed) and pressed[-1 - count] == ".":
        count += 1
    return count


def lines(text: str) -> list[str]:
    """A frame's text (`replay.screen_text`) as the pane shows it: 50 lines, trailing blanks cut."""
    return [line.rstrip() for line in text.split("\n")][:50]


def seen_in(rows: int, console: tcod.console.Console, screens: Screens) -> list[str]:
    """What a terminal of `rows` rows shows of the frame in `console` (`terminal.view`)."""
    cells = console.rgb.T
    shown = view.view_of(rows, cells, screens.map_focus()).cells(cells)
    return ["".join(drawing.glyph(code) for code in row.tolist()).rstrip() for row in shown["ch"]]


@dataclass
class Step:
    """A key the simple player pressed; the whole screen it left, and what the pane shows of it."""

    key: str
    screen: list[str]
    seen: list[str]


def keys_to_floor(seed: int, floor: int, rows: int = 50) -> list[Step]:
    """The keys `next_key` presses from the start of game `seed` until `floor`, played
    headless, each with the screen it leaves once its walk, if any, has ended."""
    screens = dungeon(setup_game.new_game(seed))
    console = tcod.console.Console(80, 50, order="F")
    played: list[Step] = []
    pressed: list[str] = []
    while True:
        console.clear()
        screens.draw(console)
        if pressed:
            played.append(Step(pressed[-1], lines(replay.screen_text(console)), seen_in(rows, console, screens)))
        engine = screens.engine_in_play()
        assert engine is not None and engine.player.is_alive, "the simple player died"
        if engine.game_world.current_floor == floor:
            return played
        assert len(pressed) < 1000, "the simple player is stuck"
        pressed.append(next_key(replay.screen_text(console).split("\n"), waits(pressed)))
        for event in key_parser.Parser().feed(pressed[-1].encode()):
            if not keys.does_nothing(event):
                replay_lines.replay_line(screens, event)
        replay_lines.finish_walk(screens)


def play(pane: Pane, played: list[Step]) -> None:
    """Type the keys into the pane, each once the screen shows what the key before it
    left (its walk ended), as a player's would be."""
    for step in played:
        pane.type(step.key)
        pane.wait_for_screen(step.seen)


@pytest.mark.parametrize("rows", [50, 24])
def test_a_game_to_floor_3_then_saved_and_continued(pane: Pane, tmp_path: Path, rows: int) -> None:
    """The issue's "done when": floor 3 in an 80x50 terminal, and in the 80x24 an SSH
    client opens (the map through a view that follows the player), saved, continued; on
    the way, the help and the inventory; then its recording replays headless to the
    very screen the game drew."""
    played = keys_to_floor(SEED, FLOOR, rows)
    pane.rows = rows  # The pane's size, before it starts.
    pane.start(f"--seed={SEED}", data_dir(pane))
    pane.wait_for("Play a new game")
    pane.type("n")
    first = pane.wait_for("Dungeon level: 1")
    assert "@" in "\n".join(first[: rows - 6])
    pane.type("?")
    pane.wait_for("Show this help")
    pane.send("Escape")
    pane.wait_for("Show this help", gone=True)
    pane.type("i")
    pane.wait_for("Select an item to use")
    pane.send("Escape")
    pane.wait_for("Select an item to use", gone=True)
    play(pane, played)  # Each screen the same as the headless game's.
    pane.send("Escape")
    pane.wait_for("Save and quit?")
    pane.type("y")
    assert pane.exit_status() == 0
    assert (pane.folder / "stty-before").read_text() == (pane.folder / "stty-after").read_text()
    assert pane.shows("alternate_on") == "0" and pane.shows("cursor_flag") == "1"

    [made] = (pane.folder / "data" / paths.RECORDINGS_FOLDER).glob("*.rec")
    out = tmp_path / "last-screen.txt"
    done = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--replay", str(made), "--headless", "--screen", str(out),
         "--data-dir", str(tmp_path / "elsewhere")],
        capture_output=True, text=True, check=True, cwd=tmp_path,
    )  # fmt: skip
    assert json.loads(done.stdout)["floor"] == FLOOR
    assert lines(out.read_text()) == played[-1].screen

    pane.close()
    pane.start(data_dir(pane))
    pane.wait_for("Continue last game")
    pane.type("c")
    pane.wait_for(f"Dungeon level: {FLOOR}")


def test_in_80x24_the_hp_floor_and_log_stay_and_a_screen_taller_turns_its_pages_with_pgup_and_pgdn(
    pane: Pane,
) -> None:
    """The help is 50 rows: in 24, a page at a time; back in the dungeon, PgDn moves again."""
    pane.rows = 24  # The pane's size, before it starts.
    pane.start(f"--seed={SEED}", data_dir(pane))
    pane.wait_for("Play a new game")
    pane.type("n")
    start = pane.wait_for("Dungeon level: 1")
    assert start[19].startswith(" HP: 30/30") and "Hello and welcome" in start[22]
    assert "@" in "\n".join(start[:18])
    pane.type("?")
    first = pane.wait_for("More below: PgDn (page 1 of 3)")
    assert first[0].startswith(" ┌") and "Show this help" in "\n".join(first)
    pane.send("PageDown")
    pane.wait_for("More below: PgDn (page 2 of 3)")
    pane.send("PageDown")
    last = pane.wait_for("Space for more")
    assert "More above: PgUp (page 3 of 3)" in last[0]
    pane.send("PageUp")
    pane.wait_for("More below: PgDn (page 2 of 3)")
    pane.send("Escape")
    before = pane.wait_for("Dungeon level: 1")
    pane.send("PageDown")  # A step south-east, or a bump: the game's key again.
    pane.wait_for_change(before)
    assert "PgDn" not in pane.text()


@pytest.mark.parametrize("rows", [20, 23])
def test_from_80x20_as_tmux_in_an_ssh_window_leaves_the_map_follows_the_player_the_status_and_log_read(
    pane: Pane, rows: int
) -> None:
    """tmux's status line leaves 80x23 of an SSH client's 80x24 (screen's too; 80x20 leaves
    room for more): the game plays there, the map's rows around the player over the seven
    rows under the map (HP, the floor, the newest messages), to floor 2."""
    played = keys_to_floor(SEED, 2, rows)
    band = rows - (50 - view.STATUS_TOP)
    for step in played:  # The player always in view, whatever the view shows besides.
        assert "@" in "\n".join(step.seen[:band]) or "Level Up" in "\n".join(step.seen)
    pane.rows = rows  # The pane's size, before it starts.
    pane.start(f"--seed={SEED}", data_dir(pane))
    pane.wait_for("Play a new game")
    pane.type("n")
    start = pane.wait_for("Dungeon level: 1")
    assert len(start) == rows and "@" in "\n".join(start[:band])
    assert start[band + 2].startswith(" HP: 30/30") and start[band + 4].startswith("Dungeon level: 1")
    assert "Hello and welcome" in start[band + 5] and start[rows - 1].startswith("XP to next")
    play(pane, played)  # Each screen the view of the headless game's.
    assert "Dungeon level: 2" in pane.text()


@pytest.fixture
def potion_saved(pane: Pane) -> None:
    """A saved game whose player starts low on the map (y 34), a potion in their pack."""
    engine = setup_game.new_game(LOW_SEED)
    assert engine.player.y > 30
    give(engine, entity_factories.health_potion)
    engine.save_as(pane.folder / "data" / paths.SAVE_NAME)


@pytest.mark.usefixtures("potion_saved")
@pytest.mark.parametrize(("key", "title"), [("i", "Select an item to use"), ("q", "Quaff which potion?")])
def test_in_80x24_a_menu_over_the_map_keeps_the_player_in_view_beside_it(pane: Pane, key: str, title: str) -> None:
    """The inventory (`i`), or a question (`q`: which potion?): the game draws it at the
    top of the map, away from the player; the view stays on the player, the window drawn
    beside them, so that the monsters around are in sight while the player chooses."""
    pane.rows = 24
    pane.start(data_dir(pane))
    pane.wait_for("Continue last game")
    pane.type("c")
    before = pane.wait_for("Dungeon level: 1")
    at = find(before, "@")
    assert at is not None
    pane.type(key)
    menu = pane.wait_for(title)
    assert find(menu, "@") == at  # Where it was: the view did not move.
    assert "Health Potion" in "\n".join(menu) and menu[19].startswith(" HP: 30/30")
    pane.send("Escape")
    pane.wait_for(title, gone=True)
    assert find(pane.screen(), "@") == at


def test_a_terminal_too_small_is_told_so_and_the_game_waits_for_a_bigger_one(pane: Pane) -> None:
    pane.start(data_dir(pane), colorterm="")  # 256 colours.
    first = pane.wait_for("Play a new game")
    row = next(y for y, line in enumerate(first) if "Play a new game" in line)
    pane.resize(70, 20)
    told = pane.wait_for("This one is 70x20.")
    assert told[0].startswith(f"Make the terminal at least 80x{view.MIN_ROWS}")
    assert "or press Ctrl+C to save and quit" in " ".join(told)
    pane.type("n")  # Unseen: does nothing.
    pane.resize(100, 60)
    screen = pane.wait_for("Play a new game")
    # Centred: 10 columns in, 5 rows down.
    assert screen[:5] == [""] * 5 and screen[5 + row].index("[N]") == 10 + first[row].index("[N]")
    assert "Dungeon level" not in pane.text()
    pane.send("C-c")  # Quits, as closing the window does.
    assert pane.exit_status() == 0
    assert (pane.folder / "stty-before").read_text() == (pane.folder / "stty-after").read_text()
    assert pane.shows("alternate_on") == "0" and pane.shows("cursor_flag") == "1"


@pytest.mark.parametrize("leave", ["C-c", "q", "Escape"])
def test_a_terminal_too_small_to_play_in_is_left_with_ctrl_c_q_or_escape_and_the_game_saved(
    pane: Pane, leave: str
) -> None:
    """The line a terminal too small shows says how to leave, and that works: the game
    is saved and the terminal given back, as closing the window does."""
    pane.start(f"--seed={SEED}", data_dir(pane))
    pane.wait_for("Play a new game")
    pane.type("n")
    pane.wait_for("Dungeon level: 1")
    pane.resize(60, 12)
    pane.wait_for("This one is 60x12.")
    pane.send(leave)
    assert pane.exit_status() == 0
    assert (pane.folder / "data" / paths.SAVE_NAME).exists()
    assert (pane.folder / "stty-before").read_text() == (pane.folder / "stty-after").read_text()
    assert pane.shows("alternate_on") == "0" and pane.shows("cursor_flag") == "1"


def test_the_game_plays_on_a_screen_of_its_own_and_gives_the_shells_back(pane: Pane) -> None:
    """The alternate screen: what the shell showed before the game shows again after it,
    the game's screens gone with it, as after `less` or `vim`."""
    pane.start(data_dir(pane), shell_says="What the shell said before the game.")
    pane.wait_for("Play a new game")
    assert pane.shows("alternate_on") == "1"
    pane.send("Escape")  # The main menu's Escape quits.
    assert pane.exit_status() == 0
    after = pane.wait_for("What the shell said before the game.")
    assert pane.shows("alternate_on") == "0" and "Play a new game" not in "\n".join(after)


def test_a_hang_up_saves_the_game(pane: Pane) -> None:
    """SIGHUP (an SSH session dropped) and SIGTERM save and quit, as closing the window does."""
    pane.start(f"--seed={SEED}", data_dir(pane))
    pane.wait_for("Play a new game")
    pane.type("n")
    start = pane.wait_for("Dungeon level: 1")
    pane.type("l")  # A step, or a bump: one frame, no walk.
    pane.wait_for_change(start)
    before = pane.settled()
    os.kill(pane.game_pid(), signal.SIGHUP)
    assert pane.exit_status() == 0
    save = pane.folder / "data" / paths.SAVE_NAME
    assert save.exists()
    pane.close()
    pane.start(data_dir(pane))
    pane.wait_for("Continue last game")
    pane.type("c")
    assert pane.wait_for("Dungeon level: 1")[:43] == before[:43]
    saved = save.stat().st_mtime_ns
    os.kill(pane.game_pid(), signal.SIGTERM)
    assert pane.exit_status() == 0
    assert save.stat().st_mtime_ns != saved


def replayed_screen(recorded: Path, tmp_path: Path) -> list[str]:
    """The last screen of a headless replay of `recorded`, as the pane would show it."""
    out = tmp_path / "replayed-screen.txt"
    subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--replay", str(recorded), "--headless", "--screen", str(out),
         "--data-dir", str(tmp_path / "elsewhere")],
        capture_output=True, text=True, check=False, cwd=tmp_path,
    )  # fmt: skip
    return lines(out.read_text())


def under_status(screen: list[str], status: str) -> list[str]:
    """`screen` with the follower's status line drawn over the start of its first row."""
    return [(status + screen[0].ljust(80)[len(status) :]).rstrip(), *screen[1:]]


def unplaced(screen: list[str]) -> list[str]:
    """`screen` without where its morgue file went: each game's own (temporary) folder."""
    return [
        line[: line.index("Morgue file:")] if "Morgue file:" in line else line for line in screen
    ]


def test_following_in_the_terminal_shows_the_game_as_a_headless_replay_does(
    pane: Pane, tmp_path: Path
) -> None:
    """`--replay FILE --follow --terminal`, as over SSH: started while the game is being
    written, it shows each point of it as a headless replay of the same lines does, ends
    with the game, and Escape gives the terminal back.  It writes nothing in the file."""
    recorded = (ROOT / "tests" / "recordings" / "death.rec").read_text().splitlines(keepends=True)
    growing = tmp_path / "growing.rec"
    half = len(recorded) // 2
    growing.write_text("".join(recorded[:half]))
    expected = under_status(
        replayed_screen(growing, tmp_path),
        f"Following growing.rec: {half} lines. Esc: stop watching",
    )
    pane.start("--replay", str(growing), "--follow", data_dir(pane))
    pane.wait_for_screen(expected)
    with growing.open("a") as file:
        for line in recorded[half:]:
            file.write(line)
            file.flush()
    pane.wait_for("The game is over. Esc: leave")
    ended = under_status(replayed_screen(growing, tmp_path), "The game is over. Esc: leave")
    assert unplaced(pane.settled()) == unplaced(ended)
    pane.send("Escape")
    assert pane.exit_status() == 0
    assert growing.read_text() == "".join(recorded)
    assert (pane.folder / "stty-before").read_text() == (pane.folder / "stty-after").read_text()
    assert pane.shows("alternate_on") == "0" and pane.shows("cursor_flag") == "1"
