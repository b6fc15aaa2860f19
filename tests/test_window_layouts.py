"""German and French players, in a real window: the keys printed on their keyboards.

The X server's keyboard map is switched to each layout (`setxkbmap`, and
`xkbcomp` if that does nothing), and the switch is proved by the symbol the
map gives a key that differs between layouts (the key beside T is `y` in the
US and France, `z` in Germany; the key left of Z is `a` in the US, `q` in
France).  Then the physical keys are pressed, by key code, with Shift where
the keyboard's print says so: the game of `tests/recordings/descent.rec`
(moves, the level-up, `>` on the stairs) from floor 1 to floor 3, then look
(`/`) and help (`?`).  The recording the game keeps shows what each press
did; replayed, it ends on floor 3.
"""

from __future__ import annotations

import re
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import test_window
from conftest import after_header, played_lines, replay_text
from test_recorded_games import (
    REMAKE,  # The player replays the descent, which a rule change remakes.
)
from test_window import Window, explained, virtual_screen

import input_handlers
import setup_game
from replays import record_format, record_reader, replay
from saving import paths
from screens.help_screen import HelpScreen

pytestmark = test_window.pytestmark

RECORDINGS = Path(__file__).parent / "recordings"

# X key codes (evdev) of the keys, by where they sit on a 105-key keyboard.
KEY_BESIDE_T = 29  # US and French y, German z.
KEY_LEFT_OF_Z = 38  # US and German a, French q (the US "a" key).
# Every letter, so that a recording made again (a new item takes another
# inventory letter) still has its keys.
LETTERS_US = {
    "q": 24, "w": 25, "e": 26, "r": 27, "t": 28, "y": 29, "u": 30, "i": 31, "o": 32, "p": 33,
    "a": 38, "s": 39, "d": 40, "f": 41, "g": 42, "h": 43, "j": 44, "k": 45, "l": 46,
    "z": 52, "x": 53, "c": 54, "v": 55, "b": 56, "n": 57, "m": 58,
}  # fmt: skip


@dataclass(frozen=True)
class Layout:
    """A keyboard layout: the key codes of the letters the game uses, and of its symbols."""

    name: str
    letters: dict[str, int]
    symbols: dict[str, tuple[int, bool]]  # Symbol -> (key code, with Shift).
    probe: tuple[int, str]  # A key code, and the symbol this layout gives it.
    # The line a symbol's KeyDown records before its text, where that key is
    # no symbol's key (a digit, or a key SDL has no name for): it does nothing.
    keydowns: dict[str, str] = field(default_factory=dict)

    def recorded(self, line: str) -> list[str]:
        """What the game records for a line typed on this layout."""
        if line.startswith("text ") and line[5:] in self.keydowns:
            return [self.keydowns[line[5:]], line]
        return [line]


LAYOUTS = {
    "us": Layout("us", LETTERS_US, {">": (60, True), "/": (61, False), "?": (61, True)}, (KEY_BESIDE_T, "y")),
    # QWERTZ: y and z trade places; > is Shift with the key beside left Shift,
    # / is Shift+7, ? is Shift+ß.
    "de": Layout(
        "de", {**LETTERS_US, "y": 52, "z": 29}, {">": (94, True), "/": (16, True), "?": (20, True)},
        (KEY_BESIDE_T, "z"), {"/": "key n7 shift", "?": "key unknown shift"},
    ),
    # AZERTY: a and q, z and w trade places, m is right of l; > is Shift with
    # the key beside left Shift, / is Shift with :, ? is Shift with ,.
    "fr": Layout(
        "fr", {**LETTERS_US, "a": 24, "q": 38, "z": 25, "w": 52, "m": 47},
        {">": (94, True), "/": (60, True), "?": (58, True)},
        (KEY_LEFT_OF_Z, "q"),
    ),
}  # fmt: skip


def key_symbol(display: str, code: int) -> str:
    """The symbol the server's keyboard map gives key `code` without Shift."""
    table = subprocess.run(
        ["xkbcomp", "-xkb", display, "-"], capture_output=True, text=True, timeout=20, check=False
    ).stdout
    names = {int(number): name for name, number in re.findall(r"^\s*(<\w+>)\s*=\s*(\d+);", table, re.M)}
    if code not in names:
        return "?"
    block = re.search(rf"key {re.escape(names[code])}\s*{{(.*?)}};", table, re.S)
    # `[ y, Y ]`, or `symbols[Group1]= [ y, Y, ... ]`: the first symbol of the list.
    found = re.search(r"(?:^|[^\w\]])\[\s*(\w+)\s*[,\]]", block[1]) if block else None
    return found[1] if found else "?"


def switch(display: str, layout: Layout) -> None:
    """Switch the server's keyboard map to `layout`; skip if this X server won't."""
    env = {"DISPLAY": display, "PATH": "/usr/bin:/bin"}
    subprocess.run(["setxkbmap", "-layout", layout.name], env=env, timeout=20, check=False)
    code, expected = layout.probe
    if key_symbol(display, code) == expected:
        return
    printed = subprocess.run(
        ["setxkbmap", "-layout", layout.name, "-print"], env=env, capture_output=True, text=True, timeout=20, check=False
    ).stdout
    subprocess.run(["xkbcomp", "-w", "0", "-", display], input=printed, text=True, env=env, timeout=20, check=False)
    found = key_symbol(display, code)
    if found != expected:
        pytest.skip(
            f"this X server keeps its keyboard map: after setxkbmap and xkbcomp -layout "
            f"{layout.name}, key {code} still gives {found!r}, not {expected!r}"
        )


def press(window: Window, code: int | str, shift: bool = False) -> None:
    """Press a physical key, by its code (or X name), with Shift if asked."""
    window.x("xdotool", "key", "--window", window.id, f"shift+{code}" if shift else str(code))
    time.sleep(0.02)


def physical(layout: Layout, line: str) -> tuple[int | str, bool]:
    """The key a player with `layout` presses for a recorded line."""
    kind, what = line.split()[:2]
    if kind == "text":
        return layout.symbols[what]
    if what == "escape":
        return "Escape", False  # The same key everywhere.
    return layout.letters[what], False


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_a_player_goes_down_to_floor_3_looks_and_asks_for_help(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    layout = LAYOUTS[name]
    script = record_reader.read(RECORDINGS / "descent.rec")
    lines = [record_format.line_of(event) or "" for event in script.events]
    monkeypatch.setattr(test_window, "SEED", script.seed)
    with virtual_screen() as display, explained(tmp_path):
        switch(display, layout)
        window = Window(display, tmp_path, 1)
        try:
            menu = window.screenshot("menu")
            press(window, layout.letters["n"])  # A new game.
            window.screen_after("new game", menu)
            for line in [*lines, "text /", "key escape", "text ?", "key escape"]:
                press(window, *physical(layout, line))
            time.sleep(1.0)
            window.close()
            assert window.wait_exit() == 0, window.output()
        finally:
            window.stop()
        (kept,) = (tmp_path / "recordings").iterdir()
        played = [line for line in kept.read_text().splitlines() if not line.startswith("move ")]
        typed = [*lines, "text /", "key escape", "text ?", "key escape"]
        assert played_lines(after_header(played)) == [recorded for line in typed for recorded in layout.recorded(line)], REMAKE
        saved = setup_game.load_game(str(tmp_path / paths.SAVE_NAME))
        assert saved.game_world.current_floor == 3, REMAKE
        # What each of the last presses opened: look mode, then the help.
        text = kept.read_text()
        looked = replay_text(text.rsplit("key escape", 2)[0])
        assert type(looked.top) is input_handlers.LookHandler
        helped = replay_text(text.rsplit("key escape", 1)[0])
        assert type(helped.top) is HelpScreen
        assert replay.summary(helped)["floor"] == 3, REMAKE
