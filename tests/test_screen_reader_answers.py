"""`--screen-reader`: every key answers, repeat counts that count one key's presses,
and nothing but text written from start to exit.

A key that changes nothing still says so in a line (a question names its answers
again, a list says it is at its end, the dungeon that nothing is done); a message
said "twice" was caused twice in a row by the same key; and a real run under a
pseudo-terminal writes no escape sequence, not even to set a mode at start or exit.
"""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import conftest
import spelled
import tcod
from conftest import key
from tcod.event import KeySym

import setup_game
from controls.keys import Key
from engine import Engine
from input_handlers import (
    SAVE_AND_QUIT,
    GameOverEventHandler,
    LevelUpEventHandler,
    MainGameEventHandler,
    SingleRangedAttackHandler,
)
from screens.base import Push, Quit
from screens.history import HistoryViewer
from screens.question import ConfirmHandler
from screens.stack import Screens
from terminal.device import Input
from terminal.screen_reader import ScreenReaderFrontEnd

ROOT = Path(__file__).resolve().parent.parent
SEED = 8


class Device:
    """A terminal 80x24 that keeps what is written to it and reads no key."""

    def __init__(self) -> None:
        self.written = b""

    def size(self) -> tuple[int, int]:
        return (80, 24)

    def write(self, data: bytes) -> None:
        self.written += data

    def read(self, timeout: float | None) -> Input:
        return Input(ended=True)

    def close(self) -> None:
        pass


class Listener:
    """The reader's real lines after each press: the screens told by the front end."""

    def __init__(self, screens: Screens) -> None:
        self.screens = screens
        self.device = Device()
        self.front = ScreenReaderFrontEnd(self.device)
        self.console = tcod.console.Console(80, 50, order="F")
        self.heard()  # What the first screen says.

    def heard(self) -> list[str]:
        """What was said since last asked."""
        start = len(self.device.written)
        self.front.present(self.console, self.screens.settings.options, self.screens)
        said = self.device.written[start:].decode()
        return [line for line in said.split("\r\n") if line]

    def press(self, *events: tcod.event.Event) -> list[str]:
        """The events pressed, one at a time, then what was said."""
        for event in events:
            self.screens.press(event)
        return self.heard()


def quit_question() -> tuple[Listener, Screens]:
    """A game asked "Save and quit?" by Escape, and its listener."""
    engine = setup_game.new_game(SEED)
    screens = conftest.dungeon(engine)
    listener = Listener(screens)
    listener.press(key(KeySym.ESCAPE))
    assert isinstance(screens.top, ConfirmHandler)
    return listener, screens


def test_the_quit_question_names_its_answers_again_for_a_key_it_does_not_take() -> None:
    listener, screens = quit_question()
    others: list[list[tcod.event.Event]] = [
        [conftest.typed("/")],
        [key(KeySym.RIGHT)],
        [key(KeySym.KP_6)],
        [key(KeySym.TAB)],
        [key(KeySym.SPACE), conftest.typed(" ")],
        [key(KeySym.X)],
        [key(KeySym.X)],  # Again: said again.
    ]
    for events in others:
        assert listener.press(*events) == ["Answer y or n. Enter says yes."]
        assert isinstance(screens.top, ConfirmHandler) and screens.quitting is None


def test_enter_takes_the_quit_questions_default_shown_in_capitals() -> None:
    assert "(Y/n)" in SAVE_AND_QUIT
    for enter in (KeySym.RETURN, KeySym.KP_ENTER):
        _, screens = quit_question()
        screens.press(key(enter))
        assert screens.quitting == Quit()


def test_a_question_with_no_default_takes_no_enter() -> None:
    engine = setup_game.new_game(SEED)
    screens = conftest.dungeon(engine)
    dungeon = screens.top
    assert isinstance(dungeon, MainGameEventHandler)
    screens.apply(Push(ConfirmHandler(dungeon, "Really? (y/n)", lambda: None)))
    listener = Listener(screens)
    assert listener.press(key(KeySym.RETURN)) == ["Answer y or n."]
    assert isinstance(screens.top, ConfirmHandler)


def test_space_in_the_dungeon_says_nothing_is_done() -> None:
    engine = setup_game.new_game(SEED)
    listener = Listener(conftest.dungeon(engine))
    assert listener.press(key(KeySym.SPACE), conftest.typed(" ")) == ["Nothing to do here."]
    assert listener.press(key(KeySym.SPACE)) == ["Nothing to do here."]


def test_a_key_the_main_menu_does_not_take_says_how_to_choose(in_tmp: Path) -> None:
    listener = Listener(Screens(setup_game.MainMenu()))
    for sym in (KeySym.UP, KeySym.DOWN, KeySym.DOWN):
        assert listener.press(key(sym)) == ["Choose with a letter."]


def test_the_historys_keys_at_its_ends_say_so() -> None:
    engine = setup_game.new_game(SEED)
    engine.message_log.add_message("A second message.")
    screens = conftest.dungeon(engine)
    screens.apply(Push(HistoryViewer(engine)))
    listener = Listener(screens)
    assert listener.press(key(KeySym.END)) == ["Bottom of the list."]
    assert listener.press(key(KeySym.END)) == ["Bottom of the list."]
    assert listener.press(key(KeySym.HOME)) != ["Top of the list."]  # It moved: the line read.
    assert listener.press(key(KeySym.HOME)) == ["Top of the list."]


def test_a_history_of_one_message_says_which_end_each_key_goes_to() -> None:
    engine = setup_game.new_game(SEED)
    assert len(engine.message_log.messages) == 1
    screens = conftest.dungeon(engine)
    screens.apply(Push(HistoryViewer(engine)))
    listener = Listener(screens)
    for sym, said in ((KeySym.DOWN, "Bottom"), (KeySym.UP, "Top"), (KeySym.END, "Bottom"), (KeySym.PAGEUP, "Top")):
        assert listener.press(key(sym)) == [f"{said} of the list."]


def test_a_repeat_is_counted_over_one_keys_presses_in_a_row_only() -> None:
    engine = conftest.arena(at=(1, 1))  # Walls north and west.
    listener = Listener(conftest.dungeon(engine))
    blocked = "That way is blocked."
    assert listener.press(key(KeySym.KP_9)) == [blocked]
    assert listener.press(conftest.typed(";"))  # Questions asked between: their answers.
    assert listener.press(key(KeySym.A))
    assert listener.press(key(KeySym.LEFT)) == ["Back to the dungeon.", blocked]
    assert listener.press(key(KeySym.UP)) == [blocked]
    assert listener.press(key(KeySym.UP)) == ["That way is blocked, twice."]
    assert listener.press(key(KeySym.UP)) == ["That way is blocked, 3 times."]
    assert engine.message_log.messages[-1].full_text == "That way is blocked. (x5)"  # The log stacks them all.


def test_a_real_run_writes_no_escape_from_start_to_exit(tmp_path: Path) -> None:
    """`main.py --screen-reader` under a pseudo-terminal: the main menu, a new game, a
    turn waited, Escape and y (save and quit): every byte it wrote is text."""
    leader, follower = pty.openpty()
    game = subprocess.Popen(
        [sys.executable, str(ROOT / "main.py"), "--screen-reader", "--seed", str(SEED), "--data-dir", str(tmp_path)],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        cwd=tmp_path,
        close_fds=True,
    )
    os.close(follower)
    written = b""
    try:
        for keys, wanted in ((b"", b"Play a new game"), (b"n", b"welcome"), (b".", b"\r\n"), (b"\x1b", b"Save and quit")):
            os.write(leader, keys)
            written += read_until(leader, wanted, written)
        os.write(leader, b"y")
        written += read_until(leader, None, written)
        assert game.wait(timeout=30) == 0
    finally:
        game.kill()
        game.wait()
        os.close(leader)
    assert any(tmp_path.glob("*.sav"))  # Saved: the run went to its end.
    assert b"\x1b" not in written, written


def read_until(leader: int, wanted: bytes | None, before: bytes) -> bytes:
    """What the game writes until `wanted` is among it (None: until it ends)."""
    got = b""
    deadline = time.monotonic() + 30
    while wanted is None or wanted not in got:
        assert time.monotonic() < deadline, before + got
        ready, _, _ = select.select([leader], [], [], 0.5)
        if not ready:
            continue
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # The game has ended: its end of the terminal is closed.
            chunk = b""
        if not chunk:
            if wanted is None:
                return got
            raise AssertionError(f"the game ended before {wanted!r}: {before + got!r}")
        got += chunk
    return got


def symbol(text: str) -> list[tcod.event.Event]:
    """A key that types a symbol, as SDL sends it: its KeyDown, then its TextInput."""
    return [key(KeySym(ord(text))), conftest.typed(text)]


# Keys that change nothing on the screen they are pressed on (see `every_screen`).
TAB, LETTER_X, SLASH, SPACE = [key(KeySym.TAB)], [key(KeySym.X)], symbol("/"), [key(KeySym.SPACE)]


def game() -> Engine:
    return setup_game.new_game(SEED)


def every_screen() -> list[tuple[str, Callable[[], Screens], Sequence[Sequence[tcod.event.Event]]]]:
    """Each screen a game shows, made as a key makes it, and keys that do nothing there
    (the look cursors start in the map's top-left corner)."""
    return [
        ("main menu", lambda: Screens(setup_game.MainMenu()), [[key(KeySym.UP)], TAB, SLASH]),
        ("dungeon", lambda: conftest.dungeon(game()), [SPACE, [key(KeySym.F5)], symbol("!")]),
        ("quit question", lambda: conftest.press(game(), KeySym.ESCAPE), [TAB, LETTER_X, SLASH]),
        ("history", lambda: conftest.press(game(), KeySym.V), [[key(KeySym.END)], [key(KeySym.DOWN)]]),
        ("inventory", lambda: conftest.press(game(), KeySym.I), [[key(KeySym.Z)], [key(KeySym.Y)]]),
        ("drop", lambda: conftest.press(game(), KeySym.D), [[key(KeySym.Z)]]),
        ("options", lambda: conftest.press(game(), "="), [TAB, LETTER_X, SLASH, SPACE, [key(KeySym.F5)]]),
        ("menu's options", lambda: pressing(Screens(setup_game.MainMenu()), "="), [TAB, SLASH]),
        ("level up", lambda: levelled(game()), [LETTER_X, TAB, SLASH, [key(KeySym.UP)]]),
        ("look", lambda: conftest.press(conftest.arena(at=(0, 0)), "/"), [TAB, [key(KeySym.LEFT)], [key(KeySym.UP)], [key(KeySym.KP_7)]]),
        ("travel", lambda: conftest.press(conftest.arena(at=(0, 0)), "_"), [TAB, [key(KeySym.LEFT)]]),
        ("aim", lambda: aiming(conftest.arena(at=(0, 0))), [TAB, [key(KeySym.LEFT)], [key(KeySym.UP)]]),
        ("game over", lambda: dying(game()), [TAB, LETTER_X, SLASH, SPACE, [key(KeySym.UP)], [key(KeySym.F5)]]),
        ("save failed", save_failed, [TAB, LETTER_X, SLASH, SPACE]),
    ]


def pressing(screens: Screens, *bindings: Key) -> Screens:
    for binding in bindings:
        screens.press(conftest.stroke(binding))
    return screens


def levelled(engine: Engine) -> Screens:
    """The level-up choice, owed as a kill gives it."""
    engine.player.level.add_xp(engine.player.level.experience_to_next_level)
    screens = conftest.dungeon(engine)
    screens.play()
    assert isinstance(screens.top, LevelUpEventHandler)
    return screens


def aiming(engine: Engine) -> Screens:
    """A scroll's aim, with no enemy in view: the cursor on the player, in the map's corner."""
    screens = conftest.dungeon(engine)
    screens.apply(Push(SingleRangedAttackHandler(engine, lambda xy: None, "Aim.")))
    return screens


def dying(engine: Engine) -> Screens:
    """The game over of a death, its ending kept."""
    engine.player.fighter.hp = 0
    screens = conftest.dungeon(engine)
    screens.play()
    conftest.after_frame(screens)
    assert isinstance(screens.top, GameOverEventHandler)
    return screens


def save_failed() -> Screens:
    screens = conftest.dungeon(setup_game.new_game(SEED))
    screens.save_failed("The disk is full.")
    return screens


def test_every_key_that_changes_nothing_says_so_on_every_screen(in_tmp: Path) -> None:
    """On every screen, each key it doesn't take writes words, and the screen stays."""
    silent, heard = [], []
    for name, make, presses in every_screen():
        screens = make()
        listener = Listener(screens)
        for events in presses:
            top = screens.top
            said = listener.press(*events)
            if not any(line.strip() for line in said):
                silent.append((name, conftest.names(events)))
            heard += said
            assert screens.top is top, (name, events, said)  # The key changed nothing.
    assert silent == [], "\n".join(map(str, silent))
    table = spelled.table()  # What a reader would spell out of the answers, if it is installed.
    assert table is None or [line for line in heard if table.spelled(line)] == []


class Writes(Device):
    """A terminal that keeps each write apart."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []

    def write(self, data: bytes) -> None:
        super().write(data)
        self.writes.append(data)


def test_a_death_and_its_record_are_one_write(in_tmp: Path) -> None:
    """The game over is shown, then the morgue file and the hall of fame are kept
    (`saving.effects`) and named: Orca reads a second write after a key as new and says
    the end of the first again, so the reader writes them all at once."""
    engine = setup_game.new_game(SEED)
    screens = conftest.dungeon(engine)
    device = Writes()
    front = ScreenReaderFrontEnd(device)
    console = tcod.console.Console(80, 50, order="F")
    front.present(console, screens.settings.options, screens)
    engine.player.fighter.hp = 0
    screens.play()
    start = len(device.writes)
    front.present(console, screens.settings.options, screens)  # The frame the loop shows first.
    conftest.after_frame(screens)
    front.present(console, screens.settings.options, screens)  # Its record kept and named.
    writes = device.writes[start:]
    assert len(writes) == 1, writes
    assert b"Game over" in writes[0] and b"Morgue file" in writes[0]
