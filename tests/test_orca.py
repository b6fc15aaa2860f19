"""`python main.py --screen-reader` heard through a real screen reader: Orca, at its
default settings, reading xfce4-terminal (a VTE terminal), its speech logged
(`orca_session`).

A blind-style player opens the game, asks to quit and says no, changes an option
with Down and Enter, looks around with the numpad and the arrows, reads the help a
page at a time with Space, then plays to floor 2 from the answers to
`:` and `;` alone (explore, Tab, `>`, a bump toward a monster by letter, arrow or
numpad).  For every key that made the game write, what Orca said after it must hold
each of the game's new lines whole, and nothing older.  The game's output is taken
from the terminal itself (`script` records it).  Skipped only where Orca, the
terminal or their helpers are missing (`.ci/run` installs them).

ORCA_TEST_FLOORS=3 (or more) plays on deeper, for a longer check;
ORCA_TEST_TRANSCRIPT=FILE keeps each key, what the game wrote and what Orca read out.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import pytest
from orca_session import OrcaSession, missing
from terminal_pane import ROOT, STEP_KEYS
from test_screen_reader import SEED, blind_key

import input_handlers
from controls.keys import Answer
from screens.question import enter_says
from window import options
from words.spoken import spoken

FLOORS: Final = int(os.environ.get("ORCA_TEST_FLOORS", "2"))
# Presses allowed to reach each floor: a bound on a game gone wrong, not a target.
PRESSES_A_FLOOR: Final = 150
# X's names for the keys typed as symbols.
X_NAMES: Final = {";": "semicolon", ":": "colon", ">": "greater", "?": "question", "=": "equal", "/": "slash"}
# A step by vi letter, as an arrow (straight steps only) and on the numpad (NumLock on:
# Orca's desktop layout takes the numpad as its own while NumLock is off).
ARROWS: Final = {"h": "Left", "l": "Right", "k": "Up", "j": "Down"}
NUMPAD: Final = {letter: f"KP_{digit}" for letter, digit in zip("bjnhlyku", "12346789", strict=True)}
# The keys that walk: explore, the stairs, autofight.
WALKS: Final = ("x", ">", "Tab")
# Quiet this long, Orca has said all a key brought: the game writes a key's news at
# once (a walk's steps come faster), and Orca speaks within milliseconds of it.
SETTLE: Final = 0.8
ESCAPES: Final = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|.)")


def kind(key: str) -> str:
    """The kind of key, as the report counts them."""
    if key.startswith("KP_"):
        return "numpad"
    if key in ARROWS.values():
        return "arrows"
    if key in ("Escape", "Return", "Tab", "space"):
        return {"Escape": "Escape", "Return": "Enter", "Tab": "Tab", "space": "Space"}[key]
    return "letters" if len(key) == 1 and key.isalpha() else "symbols"


@dataclass
class Press:
    """A key pressed, the lines the game wrote after it, and what Orca read out."""

    key: str
    written: list[str]
    heard: list[str]

    def whole(self) -> bool:
        """Every new line heard whole and once, and nothing but them (nothing older)."""
        heard = [line.strip() for text in self.heard for line in text.split("\n") if line.strip()]
        return Counter(heard) == Counter(self.written)


@dataclass
class Player:
    """The game in xfce4-terminal under Orca, played key by key."""

    session: OrcaSession
    transcript: Path
    read_to: int = 0
    presses: list[Press] = field(default_factory=list)

    def written(self) -> list[str]:
        """The lines the game wrote since last asked."""
        raw = self.transcript.read_bytes()
        new, self.read_to = raw[self.read_to :], len(raw)
        text = ESCAPES.sub("", new.decode(errors="replace"))
        return [line.strip() for line in re.split(r"\r?\n", text) if line.strip()]

    def press(self, key: str) -> list[str]:
        """Press `key` (a symbol, a letter or an X key name); the lines the game wrote.

        A walk (explore, `>`, autofight) says nothing until it stops, then always says
        why: for those keys, the game's words are waited for first (another key
        pressed meanwhile would stop the walk)."""
        mark = self.session.mark()
        self.session.press(X_NAMES.get(key, key))
        if key in WALKS:
            self.session.wait_until(lambda: self.transcript.stat().st_size > self.read_to, f"{key} said nothing")
        heard = [said.text for said in self.session.quiet(mark, SETTLE) if said.read]
        press = Press(key, self.written(), heard)
        self.presses.append(press)
        return press.written

    def ask(self, key: str, title: str) -> list[str]:
        """The answer to a question: the lines after its title."""
        written = self.press(key)
        assert f"{title}." in written, (key, written)
        return written[written.index(f"{title}.") + 1 :]

    def step(self, vi_key: str) -> str:
        """A step's key, by letter, arrow or numpad in turn, as many players mix them."""
        turn = sum(1 for press in self.presses if press.key in (*STEP_KEYS.values(), *ARROWS.values(), *NUMPAD.values()))
        choices = [vi_key, ARROWS.get(vi_key, NUMPAD[vi_key]), NUMPAD[vi_key]]
        return choices[turn % 3]


@pytest.fixture
def player(tmp_path: Path) -> Iterator[Player]:
    if missing() or shutil.which("script") is None:
        pytest.skip(f"needs {', '.join(missing()) or 'script'} (apt-get install orca speech-dispatcher "
                    "espeak-ng at-spi2-core dbus-x11 xfce4-terminal xvfb xdotool)")  # fmt: skip
    data = tmp_path / "data"
    data.mkdir()
    fast = options.Options(walk_speed=max(options.WALK_SPEEDS))
    (data / "options.txt").write_text(options.to_text(fast))
    session = OrcaSession(tmp_path)
    transcript = tmp_path / "transcript"
    try:
        session.start()
        game = f"{sys.executable} {ROOT / 'main.py'} --screen-reader --data-dir={data} --seed={SEED}"
        session.open_terminal(f"script -q -f -c '{game}' {transcript}", "N, Play a new game")
        session.quiet(0)
        player = Player(session, transcript)
        player.written()  # The menu, written before any key: no key caused it.
        yield player
    finally:
        session.close()


def report(presses: list[Press]) -> str:
    """For each kind of key: how many of the presses that wrote news were heard whole."""
    wrote = Counter(kind(press.key) for press in presses if press.written)
    whole = Counter(kind(press.key) for press in presses if press.written and press.whole())
    silent = Counter(kind(press.key) for press in presses if not press.written)
    return "; ".join(
        f"{name}: {whole[name]} of {wrote[name]} heard whole ({silent[name]} wrote nothing)"
        for name in ("letters", "symbols", "arrows", "numpad", "Escape", "Enter", "Tab", "Space")
    )


def test_orca_speaks_every_keys_news_whole_once_in_order(player: Player) -> None:
    assert any("welcome" in line for line in player.press("n"))
    assert player.press("Escape") == [spoken(input_handlers.SAVE_AND_QUIT), enter_says(Answer.YES)]
    player.press("n")
    player.press("=")
    player.press("Down")
    player.press("Return")
    player.press("Escape")
    player.press("/")
    for key in ("KP_6", "Left", "Up", "KP_2", "Right", "KP_8", "Down", "KP_4", "Return"):
        player.press(key)  # Look mode: the cursor's tile, then Enter's description.
    player.press("Escape")
    player.press("Escape")
    player.press("?")
    while any(line.endswith("Space for more.") for line in player.presses[-1].written):
        player.press("space")
    player.press("Escape")
    heard: list[str] = []
    for _ in range(PRESSES_A_FLOOR * FLOORS):
        where = player.ask(":", "Where you are")
        if where[0].startswith(f"Floor {FLOORS},"):
            break
        key = blind_key(player.ask(";", "In view"), where, heard)
        heard = player.press(player.step(key) if key in STEP_KEYS.values() else key)
        assert not any("You died" in line for line in heard)
    else:
        raise AssertionError(f"not on floor {FLOORS}")
    kinds = report(player.presses)
    print(kinds)
    transcript = "\n".join(f"{press.key}: wrote {press.written}, heard {press.heard}" for press in player.presses)
    (player.transcript.parent / "presses.txt").write_text(transcript + "\n")
    if os.environ.get("ORCA_TEST_TRANSCRIPT"):  # Kept where asked: the figures' source.
        Path(os.environ["ORCA_TEST_TRANSCRIPT"]).write_text(f"{kinds}\n{transcript}\n")
    missed = [press for press in player.presses if press.written and not press.whole()]
    assert not missed, f"{kinds}\n" + "\n".join(f"{press.key}: wrote {press.written}, heard {press.heard}" for press in missed)
    assert {kind(press.key) for press in player.presses if press.written} >= {"letters", "symbols", "Escape", "Tab"}
