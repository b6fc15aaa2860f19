"""`python main.py --screen-reader`: the game as lines a screen reader reads.

In a real terminal (tmux), a blind-style player reaches floor 2 from the answers
to the questions alone (what is in view, where am I), exploring, fighting with
autofight or a bump, and `>`; no map is ever drawn.  Skipped only where tmux is
missing (`.ci/run` installs it).  The front end's writes are checked directly too.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import conftest
import pytest
import tcod
from terminal_pane import PATIENCE, SETTLED, STEP_KEYS, Pane, have_tmux

import main
import setup_game
from controls import autofight
from saving import paths
from terminal import device
from terminal.device import Input
from terminal.screen_reader import ScreenReaderFrontEnd
from window import command_line, options
from words.spoken import spoken

SEED = 8
HEALTH = "(uninjured|lightly wounded|wounded|badly wounded|almost dead)"
# A monster's line in the answer to `;`: "Orc, 3 south 2 west, uninjured".
MONSTER = re.compile(rf"^([\w ]+), ((?:\d+ \w+ ?)+|here), {HEALTH}")
STEPS = re.compile(r"(\d+) (north|south|east|west)")
SIGN = {"north": (0, -1), "south": (0, 1), "west": (-1, 0), "east": (1, 0)}


class Device:
    """A terminal that keeps what is written to it, and gives the keys `typed`."""

    def __init__(self, *typed: bytes) -> None:
        self.written = b""
        self.typed = list(typed)

    def size(self) -> tuple[int, int]:
        return (80, 24)

    def write(self, data: bytes) -> None:
        self.written += data

    def read(self, timeout: float | None) -> Input:
        return Input(data=self.typed.pop(0)) if self.typed else Input(ended=True)

    def close(self) -> None:
        pass


def test_each_new_line_is_ended_the_cursor_left_on_a_fresh_line() -> None:
    """The convention a real reader speaks whole after any key (tests/test_orca.py):
    the screen scrolled once, then each line ended, the cursor after the last."""
    device = Device()
    front = ScreenReaderFrontEnd(device)
    engine = setup_game.new_game(SEED)
    game = conftest.dungeon(engine)
    console = tcod.console.Console(80, 50, order="F")
    front.present(console, engine.settings.options, game)
    written = device.written.decode()
    rows = device.size()[1]
    assert written.startswith("\r\n" * rows + engine.message_log.messages[-1].full_text + "\r\n")
    assert written.endswith("\r\n") and "\x1b" not in written
    front.present(console, engine.settings.options, game)
    assert device.written.decode() == written  # Nothing changed: nothing more is said.
    engine.message_log.add_message("An Orc attacks.")
    front.present(console, engine.settings.options, game)
    assert device.written.decode() == written + "An Orc attacks.\r\n"  # Scrolled once only.


class Reader:
    """What a blind player hears: the pane's lines, each read once, in order."""

    def __init__(self, pane: Pane) -> None:
        self.pane = pane
        self.read = 0

    def new_lines(self) -> list[str]:
        lines = self.pane.history()
        while lines and not lines[-1]:
            lines.pop()
        new, self.read = lines[self.read :], len(lines)
        return new

    def press(self, key: str) -> list[str]:
        """Press `key`, then what was said once nothing more comes; after a key that
        walks (explore, `>`, autofight), once something came: a walk says nothing until
        it stops, then says why."""
        self.pane.type(key) if len(key) == 1 else self.pane.send(key)
        heard: list[str] = []
        quiet_since = time.monotonic()
        deadline = quiet_since + PATIENCE
        while time.monotonic() - quiet_since < SETTLED * 2 or (key in ("x", ">", "Tab") and not heard):
            assert time.monotonic() < deadline, "the game never went quiet"
            time.sleep(0.05)
            new = self.new_lines()
            if new:
                heard += new
                quiet_since = time.monotonic()
        return heard

    def ask(self, key: str, title: str) -> list[str]:
        """The answer to a question: the lines after its title."""
        self.pane.type(key)
        deadline = time.monotonic() + PATIENCE
        heard: list[str] = []
        while f"{title}." not in heard:
            assert time.monotonic() < deadline, f"no answer to {key}: {heard}"
            time.sleep(0.05)
            heard += self.new_lines()
        time.sleep(0.1)  # The answer is written at once: its last lines, if not yet read.
        heard += self.new_lines()
        return heard[heard.index(f"{title}.") + 1 :]


def step_toward(offset: str) -> str:
    """The vi key of one step toward a place told as "2 north 1 west"."""
    dx = dy = 0
    for count, direction in STEPS.findall(offset):
        sx, sy = SIGN[direction]
        dx, dy = dx + sx * int(count), dy + sy * int(count)
    return STEP_KEYS[((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))]


def blind_key(in_view: list[str], where: list[str], heard: list[str]) -> str:
    """What a player who can't see the map presses next: the first choice of a
    level-up; at a monster in view, autofight, or a bump toward it when autofight
    refuses (HP low); else the stairs once found (`>` walks there, then takes them),
    else explore."""
    if "Level Up" in heard:
        return "a"
    monsters = [found for line in in_view if (found := MONSTER.match(line))]
    if monsters:
        refused = any(line.startswith((autofight.TOO_HURT, "There is no way")) for line in heard)
        return step_toward(monsters[0].group(2)) if refused else "Tab"
    stairs = next(line for line in where if line.startswith("The stairs down"))
    return "x" if "not found" in stairs else ">"


@pytest.fixture
def pane(tmp_path: Path) -> Iterator[Pane]:
    data = tmp_path / "data"
    data.mkdir()
    fast = options.Options(walk_speed=max(options.WALK_SPEEDS))
    (data / "options.txt").write_text(options.to_text(fast))
    pane = Pane(tmp_path)
    try:
        yield pane
    finally:
        pane.close()


@pytest.mark.skipif(not have_tmux(), reason="tmux is not installed")
def test_a_blind_player_reaches_floor_2_from_the_questions_alone(pane: Pane) -> None:
    pane.start(f"--data-dir={pane.folder / 'data'}", f"--seed={SEED}", front="--screen-reader")
    pane.wait_for("N, Play a new game")
    reader = Reader(pane)
    reader.new_lines()
    heard = reader.press("n")
    assert any("welcome" in line for line in heard), heard
    pressed: list[str] = []
    for _ in range(400):
        where = reader.ask(":", "Where you are")
        if where[0].startswith("Floor 2,"):
            break
        key = blind_key(reader.ask(";", "In view"), where, heard)
        pressed.append(key)
        heard = reader.press(key)
        assert not any("You died" in line for line in heard), pressed
    else:
        raise AssertionError(f"not on floor 2 after {pressed}")
    assert set(pressed) <= {"x", "Tab", ">", "a", *STEP_KEYS.values()}
    said = pane.history()
    assert all(len(line) < 80 for line in said)
    assert not any(char in line for line in said for char in "#█▒")  # No map was drawn.
    assert pane.shows("alternate_on") == "0"  # The shell's own screen: it scrolls.
    assert pane.shows("cursor_x") == "0"  # At the start of the newest line.


@pytest.mark.parametrize(
    ("argv", "option", "tty", "reads"),
    [
        (["--screen-reader"], False, False, True),
        ([], True, True, True),  # The option, started from a terminal.
        ([], True, False, False),  # Not from a terminal: the window.
        (["--terminal"], True, True, False),  # Asked to draw.
        ([], False, True, False),
    ],
)
def test_the_option_plays_aloud_only_when_started_from_a_terminal(
    argv: list[str], option: bool, tty: bool, reads: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys.stdin, "isatty", lambda: tty)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: tty)
    settings = options.Settings(options.Options(screen_reader=option))
    args = command_line.parse_args(argv)
    args.windowed = False  # As a game run from source is.
    assert main.reads_aloud(args, settings) is reads


@pytest.mark.skipif(not have_tmux(), reason="tmux is not installed")
def test_following_a_game_is_told_as_it_is_played(pane: Pane, tmp_path: Path) -> None:
    """`--replay FILE --follow --screen-reader`: what is following said once, then the
    followed game's news as its lines come, its end, and Escape gives the terminal back."""
    recorded = (Path(__file__).parent / "recordings" / "death.rec").read_text().splitlines(keepends=True)
    growing = tmp_path / "growing.rec"
    half = len(recorded) // 2
    growing.write_text("".join(recorded[:half]))
    pane.start("--replay", str(growing), "--follow", f"--data-dir={pane.folder / 'data'}", front="--screen-reader")
    following = spoken("Following growing.rec. Esc: stop watching")
    pane.wait_for(following)
    assert "You died!" not in pane.text()
    with growing.open("a") as file:
        file.writelines(recorded[half:])
    pane.wait_for(spoken("The game is over. Esc: leave"))
    said = pane.history()
    assert "You died!" in said and any(line.startswith("HP 0 of ") for line in said)
    assert said.count(following) == 1
    pane.send("Escape")
    assert pane.exit_status() == 0
    assert growing.read_text() == "".join(recorded)


@pytest.mark.skipif(not have_tmux(), reason="tmux is not installed")
@pytest.mark.parametrize("front", ["--terminal", "--screen-reader"])
def test_what_libraries_write_goes_to_the_log_not_the_terminal(pane: Pane, front: str) -> None:
    """Where XDG_RUNTIME_DIR is unset, SDL writes a complaint to file descriptor 2 at
    each help screen: in the data folder's log, never in the terminal."""
    data = pane.folder / "data"
    # As a player's shell runs it: not with the tests' dummy SDL drivers (conftest).
    pane.start(f"--data-dir={data}", front=front, unset=("XDG_RUNTIME_DIR", "SDL_VIDEODRIVER", "SDL_AUDIODRIVER"))
    pane.wait_for("Play a new game")
    pane.type("n")
    pane.wait_for("welcome")
    pane.type("?")
    pane.wait_for("Show this help")
    pane.settled()
    log = data / "game.log"
    assert "XDG_RUNTIME_DIR" in log.read_text()  # SDL did write: it went to the log.
    assert not any("XDG_RUNTIME_DIR" in line for line in pane.history())
    pane.send("Escape")
    pane.send("Escape")
    pane.type("y")
    assert pane.exit_status() == 0


def test_file_descriptor_2_is_given_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(paths, "_data_dir", tmp_path)
    before = os.fstat(2)
    with device.libraries_to_log():
        os.write(2, b"From a library.\n")
    after = os.fstat(2)
    assert (after.st_dev, after.st_ino) == (before.st_dev, before.st_ino)
    assert (tmp_path / "game.log").read_text() == "From a library.\n"


def test_control_characters_from_a_file_are_not_written() -> None:
    """A save's message holding escape sequences (a title, the clipboard, a clear
    screen) is written as its text only."""
    device = Device()
    front = ScreenReaderFrontEnd(device)
    front.say(["\x1b]0;pwned\x07Orc\x1b[2J attacks\x1b]52;c;Zm9v\x07.\x9b"])
    assert device.written.decode().endswith("\r\n]0;pwnedOrc[2J attacks]52;c;Zm9v.\r\n")
    assert not any(char in device.written.decode().strip("\r\n") for char in "\x1b\x07\x9b")


def test_a_screen_longer_than_the_terminal_is_said_a_page_at_a_time() -> None:
    """The help in a 24-row terminal: its first page from its start, how to go on, the
    next page at Space; another key goes to the game, the pages left unsaid."""
    device = Device(b" ", b"x")
    front = ScreenReaderFrontEnd(device)
    game = conftest.dungeon(setup_game.new_game(SEED))
    front.present(tcod.console.Console(80, 50, order="F"), None, game)
    game.press(conftest.typed("?"))
    said = front.narrator.news(game)
    assert len(said) > 2 * 22
    device.written = b""
    front.say(said)
    first = device.written.decode().split("\r\n")[:-1]
    assert first == [*said[:22], f"Page 1 of {-(-len(said) // 22)}. Space for more."]
    device.written = b""
    events = front.events()  # Space: the next page, and no event for the game.
    assert device.written.decode().split("\r\n")[:-1] == [*said[22:44], f"Page 2 of {-(-len(said) // 22)}. Space for more."]
    assert isinstance(events[0], tcod.event.KeyDown) and events[0].sym == tcod.event.KeySym.X
    assert not front.pages


def test_a_second_news_in_one_frame_leaves_no_page_of_the_first_for_space() -> None:
    """A frame's effects may bring news, drawn at once (the morgue file written at a
    death): said after a long screen's first page, it is what the player reads last,
    and Space then goes to the game, not to a page of the screen before."""
    device = Device(b" ")
    front = ScreenReaderFrontEnd(device)
    game = conftest.dungeon(setup_game.new_game(SEED))
    front.present(tcod.console.Console(80, 50, order="F"), None, game)
    game.press(conftest.typed("?"))
    front.present(tcod.console.Console(80, 50, order="F"), None, game)
    assert "Space for more." in device.written.decode()
    front.say(["Morgue file: morgue-1.txt"])
    device.written = b""
    events = front.events()
    assert device.written == b""
    assert isinstance(events[0], tcod.event.KeyDown) and events[0].sym == tcod.event.KeySym.SPACE


def test_a_walks_news_is_written_once_it_ends_in_one_write() -> None:
    """Writes in quick succession are misheard (tests/test_orca.py): explore's
    pickups and what comes into view are said together when the walk stops."""
    device = Device()
    front = ScreenReaderFrontEnd(device)
    console = tcod.console.Console(80, 50, order="F")
    engine = setup_game.new_game(SEED)
    for actor in list(engine.game_map.actors):  # Nothing to stop explore before its pickups.
        if actor is not engine.player:
            engine.game_map.entities.discard(actor)
    screen = conftest.dungeon(engine)
    front.present(console, None, screen)
    steps = 0
    for _ in range(3):  # Explore, as often as it stops (an item picked up).
        screen.press(conftest.key(tcod.event.KeySym.X))
        said = device.written
        while screen.walking:
            front.present(console, None, screen)
            assert device.written == said  # Nothing yet.
            screen.step()
            steps += 1
        front.present(console, None, screen)
        assert device.written != said
    assert steps > 1


def test_a_typed_digit_is_the_numpads_key() -> None:
    """Under Orca the numpad types digits (NumLock on): they walk as the numpad does."""
    front = ScreenReaderFrontEnd(Device(b"4", b"6"))
    events = front.events()
    assert [(type(event), getattr(event, "sym", None)) for event in events] == [
        (tcod.event.KeyDown, tcod.event.KeySym.KP_4)
    ]
