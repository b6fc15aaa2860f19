"""`python main.py --screen-reader` heard through a real screen reader: Orca, at its
default settings, reading xfce4-terminal (a VTE terminal), what it says handed to
speech-dispatcher, whose symbol rules make the text espeak-ng is given (`orca_session`).

A blind-style player reads the main menu's help a page at a time, starts a game, asks
to quit and says no (and presses a key the question doesn't take), opens the
inventory, the character and the map, asks `;`, `a`, `:` and `@`, changes an option
with Left and Right, scrolls the history to both ends, looks around with the numpad
and the arrows, reads the help, then plays to floor 2 from the answers to `:` and `;`
alone (explore, Tab, `>`, a bump toward a monster by letter, arrow or numpad).  A
second player, in a terminal of 43 rows with `--terminal --screen-reader`, continues a
game about to end, dies, and goes through the game over, its history and hall of fame
back to the main menu.  For every key: the game wrote something, what Orca said
holds each of the game's new lines whole and nothing older, speech was given words,
and no symbol was spelled out that the game didn't mean (a symbol's name in what
espeak-ng is given, not in what the game wrote).  Skipped only where Orca, the
terminal or their helpers are missing (`.ci/run` installs them).

ORCA_TEST_FLOORS=3 (or more) plays on deeper, for a longer check;
ORCA_TEST_TRANSCRIPT=FILE keeps each key, what the game wrote, what Orca read out and
what espeak-ng was given, as JSON (`tools/orca_figures.py` makes the guide's figures from it).
"""

from __future__ import annotations

import json
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
import spelled
from orca_session import OrcaSession, missing
from terminal_pane import ROOT, STEP_KEYS
from test_screen_reader import SEED, blind_key

import entity_factories
import input_handlers
import setup_game
from controls.keys import Answer
from saving import paths
from screens.question import enter_says
from window import options
from words.spoken import spoken

FLOORS: Final = int(os.environ.get("ORCA_TEST_FLOORS", "2"))
# Presses allowed to reach each floor: a bound on a game gone wrong, not a target.
PRESSES_A_FLOOR: Final = 150
# X's names for the keys typed as symbols.
X_NAMES: Final = {
    ";": "semicolon", ":": "colon", ">": "greater", "?": "question", "=": "equal", "/": "slash", "@": "at", ".": "period",
}  # fmt: skip
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
TABLE = spelled.table()
# The kinds of key the figures count, in their order.
KINDS: Final = ("letters", "symbols", "arrows", "numpad", "Escape", "Enter", "Tab", "Space")


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
    """A key pressed, the lines the game wrote after it, what Orca read out, and what
    espeak-ng was given of it after speech-dispatcher's symbol rules."""

    key: str
    written: list[str]
    heard: list[str]
    given: list[str] = field(default_factory=list)

    def whole(self) -> bool:
        """Every new line heard whole and once, and nothing but them (nothing older)."""
        heard = [line.strip() for text in self.heard for line in text.split("\n") if line.strip()]
        return Counter(heard) == Counter(self.written)

    def verdict(self) -> str:
        """"whole" (all its news, as written), "partly", or "silent" (no words given to the speech)."""
        if not self.written or not any(text.strip() for text in self.given):
            return "silent"
        return "whole" if self.whole() else "partly"

    def spelled(self) -> list[str]:
        """The symbols' names in what espeak-ng was given, beyond those the game wrote itself
        ("semicolon" in the help is the game's word): symbols spelled out that it didn't mean."""
        assert TABLE is not None
        meant = Counter(name for line in self.written for name in names_in(line))
        given = Counter(name for text in self.given for name in names_in(text))
        return sorted((given - meant).elements())


def names_in(text: str) -> list[str]:
    """The symbols' names said in `text`, as whole words, longest first ("left bracket", not "bracket")."""
    assert TABLE is not None
    found = []
    for name in TABLE.names():
        pattern = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE)
        found += [name] * len(pattern.findall(text))
        text = pattern.sub(" ", text)
    return found


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
        mark, given = self.session.mark(), self.session.given_mark()
        self.session.press(X_NAMES.get(key, key))
        if key in WALKS:
            self.session.wait_until(lambda: self.transcript.stat().st_size > self.read_to, f"{key} said nothing")
        heard = [said.text for said in self.session.quiet(mark, SETTLE) if said.read]
        press = Press(key, self.written(), heard, self.session.given(given))
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


def playing(folder: Path, front: str, rows: int = 24) -> Iterator[Player]:
    """The game started with `front` in a terminal of `rows` under Orca, its data in
    `folder`'s data folder (made first, with fast walks), once the main menu shows."""
    if missing() or shutil.which("script") is None or TABLE is None:
        pytest.skip(f"needs {', '.join(missing()) or 'script'} (apt-get install orca speech-dispatcher "
                    "espeak-ng at-spi2-core dbus-x11 xfce4-terminal xvfb xdotool)")  # fmt: skip
    data = folder / "data"
    data.mkdir(exist_ok=True)
    fast = options.Options(walk_speed=max(options.WALK_SPEEDS))
    (data / "options.txt").write_text(options.to_text(fast))
    session = OrcaSession(folder, rows=rows)
    transcript = folder / "transcript"
    try:
        session.start()
        game = f"{sys.executable} {ROOT / 'main.py'} {front} --data-dir={data} --seed={SEED}"
        session.open_terminal(f"script -q -f -c '{game}' {transcript}", "N, Play a new game")
        session.quiet(0)
        player = Player(session, transcript)
        player.written()  # The menu, written before any key: no key caused it.
        yield player
    finally:
        session.close()


@pytest.fixture
def player(tmp_path: Path) -> Iterator[Player]:
    yield from playing(tmp_path, "--screen-reader")


@pytest.fixture
def dying(tmp_path: Path) -> Iterator[Player]:
    """`--terminal --screen-reader` in 43 rows, over a saved game at 1 HP beside a Troll."""
    paths.use_data_dir(tmp_path / "data")
    (tmp_path / "data").mkdir()
    engine = setup_game.new_game(SEED)
    engine.player.fighter.hp = 1
    player, game_map = engine.player, engine.game_map
    beside = [(player.x + dx, player.y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
    x, y = next(
        (x, y) for x, y in beside if game_map.tiles["walkable"][x, y] and game_map.get_blocking_entity_at_location(x, y) is None
    )
    entity_factories.troll.spawn(game_map, x, y)
    engine.update_fov()
    engine.save_as(paths.save_path())
    yield from playing(tmp_path, "--terminal --screen-reader", rows=43)


def report(presses: list[Press]) -> str:
    """For each kind of key: how many presses were heard whole, partly, or not at all,
    and the symbols spelled out per 100 presses."""
    counts = {verdict: Counter(kind(press.key) for press in presses if press.verdict() == verdict) for verdict in ("whole", "partly", "silent")}
    kinds = "; ".join(
        f"{name}: {counts['whole'][name]} whole, {counts['partly'][name]} partly, {counts['silent'][name]} silent"
        for name in KINDS
    )
    symbols = sum(len(press.spelled()) for press in presses)
    return f"{kinds}; {100 * symbols / max(1, len(presses)):.1f} symbols spelled per 100 presses"


def keep(route: str, presses: list[Press]) -> None:
    """Each press as the figures count it, added to ORCA_TEST_TRANSCRIPT's file if it is set."""
    file = os.environ.get("ORCA_TEST_TRANSCRIPT")
    if not file:
        return
    rows = [
        {"route": route, "key": press.key, "kind": kind(press.key), "written": press.written, "heard": press.heard,
         "given": press.given, "verdict": press.verdict(), "spelled": press.spelled()}
        for press in presses
    ]  # fmt: skip
    with Path(file).open("a") as out:
        out.writelines(json.dumps(row) + "\n" for row in rows)


def check(route: str, presses: list[Press]) -> None:
    """Every press heard whole, with no symbol spelled that the game didn't mean."""
    keep(route, presses)
    kinds = report(presses)
    print(kinds)
    wrong = [press for press in presses if press.verdict() != "whole" or press.spelled()]
    assert not wrong, f"{kinds}\n" + "\n".join(
        f"{press.key} ({press.verdict()}, spelled {press.spelled()}): wrote {press.written}, heard {press.heard}, "
        f"given {press.given}"
        for press in wrong
    )


def pages(player: Player) -> None:
    """The rest of a screen said a page at a time."""
    while any(line.endswith("Space for more.") for line in player.presses[-1].written):
        player.press("space")


def test_orca_speaks_every_keys_news_whole_once_in_order(player: Player) -> None:
    player.press("?")  # The main menu's help.
    pages(player)
    player.press("Escape")
    assert any("welcome" in line for line in player.press("n"))
    assert player.press("Escape") == [spoken(input_handlers.SAVE_AND_QUIT), enter_says(Answer.YES)]
    player.press("x")  # Not an answer: the answers again.
    player.press("n")
    for key in ("i", "Escape", "c", "Escape", "m", "Escape", ";", "a", ":", "@", "Escape"):
        player.press(key)
    for key in ("=", "Down", "Right", "Left", "Tab", "Escape"):
        player.press(key)  # The colours changed and back; Tab names the keys.
    for key in ("v", "Up", "Home", "Home", "End", "End", "Escape"):
        player.press(key)  # The history to both ends, each said at its end.
    player.press("/")
    for key in ("KP_6", "Left", "Up", "KP_2", "Right", "KP_8", "Down", "KP_4", "Return"):
        player.press(key)  # Look mode: the cursor's tile, then Enter's description.
    player.press("Escape")
    player.press("Escape")
    player.press("?")
    pages(player)
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
    transcript = "\n".join(f"{press.key}: wrote {press.written}, heard {press.heard}" for press in player.presses)
    (player.transcript.parent / "presses.txt").write_text(transcript + "\n")
    check("24 rows, --screen-reader", player.presses)
    assert {kind(press.key) for press in player.presses} >= set(KINDS)


def test_a_death_and_its_game_over_heard_in_43_rows_of_terminal_mode(dying: Player) -> None:
    assert any("Troll comes into view" in line for line in dying.press("c"))
    assert "You died!" in dying.press(".")
    for key in ("Tab", "x", "v", "Home", "Home", "End", "End", "Escape", "h", "Escape", "Return"):
        dying.press(key)
    assert "N, Play a new game" in dying.presses[-1].written
    dying.press("Up")  # The main menu's letters choose.
    dying.press("?")
    pages(dying)
    dying.press("Escape")
    check("43 rows, --terminal --screen-reader", dying.presses)
