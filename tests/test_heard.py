"""What a blind player hears of the reader's lines (`--screen-reader`): no symbol spelled
out that the game didn't mean, at Orca's default punctuation level, by speech-dispatcher's
own symbol table (`spelled`); the window keeps its symbols."""

from __future__ import annotations

import random
from pathlib import Path

import conftest
import pytest
import spelled
from conftest import key, typed
from tcod.event import KeySym

import input_handlers
import setup_game
from saving import paths
from screens.stack import Screens
from words import descriptions
from words.reading import Narrator
from words.spoken import spoken

SEED = 8
TABLE = spelled.table()
needs_table = pytest.mark.skipif(TABLE is None, reason=f"speech-dispatcher's {spelled.SYMBOLS} is not installed")


def heard(line: str) -> list[str]:
    assert TABLE is not None
    return TABLE.spelled(line)


class Route:
    """A game played from the main menu through the reader's narrator: what each press said."""

    def __init__(self) -> None:
        random.seed(SEED)
        self.screens = Screens(setup_game.MainMenu(seed=SEED))
        self.narrator = Narrator()
        self.said: list[tuple[str, list[str]]] = []
        self.listen("start")

    def listen(self, label: str) -> None:
        """What the reader writes once the frame is shown (and its effects done)."""
        conftest.after_frame(self.screens)
        self.said.append((label, self.narrator.news(self.screens)))

    def press(self, *keys: KeySym | str) -> None:
        """Each key (a symbol typed, or a key), a walk it starts played to its end."""
        for binding in keys:
            self.screens.press(typed(binding) if isinstance(binding, str) else key(binding))
            while self.screens.walking:
                self.screens.step()
            self.listen(binding if isinstance(binding, str) else binding.name)

    def descend(self) -> None:
        """Fight what is in view (Tab), else take the stairs or explore toward them."""
        engine = conftest.engine_of(self.screens)
        floor = engine.game_world.current_floor
        for _ in range(200):
            if engine.game_world.current_floor > floor:
                return
            if isinstance(self.screens.top, input_handlers.LevelUpEventHandler):
                self.press(KeySym.A)
            elif any(engine.game_map.visible[actor.x, actor.y] for actor in engine.game_map.actors if actor is not engine.player):
                self.press(KeySym.TAB)
            else:
                stairs = engine.game_map.explored[engine.game_map.downstairs_location]
                self.press(">" if stairs else KeySym.X)
        raise AssertionError("Not down the stairs in 200 presses.")

    def lines(self) -> list[str]:
        return [line for _, lines in self.said for line in lines]


def long_route() -> Route:
    """The main menu and its help, a new game, its screens and questions, the options
    changed, the history scrolled, the stairs down, a death and its game over."""
    route = Route()
    route.press("?", KeySym.ESCAPE, KeySym.N, KeySym.I, KeySym.ESCAPE, KeySym.C, KeySym.ESCAPE)
    route.press(KeySym.M, KeySym.ESCAPE, ";", KeySym.A, ":", "@", "?", KeySym.ESCAPE)
    route.press("=", KeySym.DOWN, *[KeySym.RIGHT] * 3, KeySym.LEFT, KeySym.ESCAPE)
    route.descend()
    route.press(KeySym.V, KeySym.UP, KeySym.PAGEUP, KeySym.HOME, KeySym.END, KeySym.DOWN, KeySym.ESCAPE)
    route.press(KeySym.C, KeySym.ESCAPE, ";", ":", "@", KeySym.I, KeySym.ESCAPE)
    conftest.engine_of(route.screens).player.fighter.hp = 0
    route.press(KeySym.KP_5, KeySym.V, KeySym.ESCAPE, KeySym.H, KeySym.ESCAPE, KeySym.ESCAPE)
    return route


def spelled_per_100(route: Route) -> float:
    """Symbols said by name per 100 presses of `route`."""
    count = sum(len(heard(line)) for line in route.lines())
    return 100 * count / (len(route.said) - 1)


@needs_table
def test_the_table_spells_what_orca_says_at_most() -> None:
    """Read from speech-dispatcher's own table: a colon ending a phrase is said, a full
    stop ending a sentence is not, a bracket is, and a percent is the game's word."""
    assert heard("HP: 30/30") == ["colon", "slash"]
    assert heard("[N] Play a new game") == ["left bracket", "right bracket"]
    assert heard("colour-blind, +2 power") == ["dash", "plus"]
    assert heard("Hit. Nothing here... 25% HP!") == []
    assert heard("In view.") == [] and heard("In view:") == ["colon"]


@needs_table
def test_a_long_route_is_heard_without_a_spelled_symbol(in_tmp: Path) -> None:
    route = long_route()
    lines = route.lines()
    for screen in ("Game over", "Character Information", "Options", "Keys"):
        assert screen in lines
    assert any("colour blind" in line for line in lines)
    assert any(line.startswith("Morgue file") for line in lines)
    assert any(line.startswith(" 1. ") for line in lines)  # The hall of fame's row.
    assert "Died on dungeon level 2." in lines
    assert [(line, heard(line)) for line in lines if heard(line)] == []
    assert len(route.said) > 60


def test_a_choice_in_brackets_is_said_as_its_letter() -> None:
    assert spoken("[N] Play a new game") == "N, Play a new game"


def test_a_colon_between_words_is_a_pause() -> None:
    """A comma before the value, a full stop before a capital or at the line's end;
    the colon key named in the help is still a word."""
    assert spoken("HP: 30/30") == "HP, 30 of 30"
    assert spoken("In view:") == "In view."
    assert spoken("Message history: Up and Down read it") == "Message history. Up and Down read it"
    assert spoken(":: Where you are") == "colon. Where you are"
    assert spoken(";: What is in view") == "semicolon. What is in view"


def test_a_sign_before_a_number_is_said_as_a_word() -> None:
    assert spoken("a, Dagger (E), +2 power") == "a, Dagger, equipped, 2 more power"
    assert spoken("b, Cursed Ring, -1 defense") == "b, Cursed Ring, 1 less defense"
    assert spoken("Colours: colour-blind safe") == "Colours, colour blind safe"


def test_dates_times_speeds_and_file_names_are_said_in_words() -> None:
    """The hall of fame's rows, a replay's status, what is followed, an aside's full stop."""
    assert spoken(" 1. 2026-11-29 06:11   1  Died") == " 1. 29 November 2026 6 11   1  Died"
    assert spoken("Ended 2026-01-02 14:00.") == "Ended 2 January 2026 14 o'clock."
    assert spoken("Daily 2026-13-40") == "Daily 2026 13 40"  # No such month: a file's, said as numbers.
    assert spoken("Replay 12/300, 4 events/s. Space: pause, +/-: speed") == (
        "Replay 12 of 300, 4 events a second. Space, pause, plus or minus, speed"
    )
    assert spoken("Following growing.rec. Esc: stop watching") == (
        "Following the growing recording file. Esc, stop watching"
    )
    assert spoken("You stop. (Autofight stops below 25% HP: = opens the options.)") == (
        "You stop. Autofight stops below 25% HP, equals opens the options."
    )


def test_a_path_is_said_as_the_data_folder_and_the_files_name(tmp_path: Path) -> None:
    paths.use_data_dir(tmp_path / "tombs")
    data = tmp_path / "tombs"
    assert spoken(f"Kept in {data / 'options.txt'}") == "Kept in the options text file in your data folder"
    morgue = data / "morgue" / "morgue-1.txt"
    assert spoken(f"Morgue file: {morgue}") == (
        "Morgue file, the morgue 1 text file in the morgue folder of your data folder"
    )
    assert spoken(f"{tmp_path / 'elsewhere' / 'keys.txt'}") == "the keys text file in the elsewhere folder"
    assert spoken(str(data)) == "your data folder"
    assert spoken(f"Screenshot saved as screenshot-001.png in {data}.") == (
        "Screenshot saved as the screenshot 001 picture file in your data folder."
    )
    assert spoken("Kept in C:\\Users\\me\\options.txt") == "Kept in the options text file in the me folder"
    assert spoken("Up/Down") == "Up or Down"


def test_a_chord_is_said_by_its_keys_names() -> None:
    assert spoken("Ctrl+B: Speech on or off") == "Control B. Speech on or off"
    assert spoken("Shift+Tab, Alt+Enter") == "Shift Tab, Alt Enter"


def test_a_long_data_folder_cut_into_lines_is_said_once(tmp_path: Path) -> None:
    """The character screen cuts the folder's path into lines of `FILES_WIDTH`."""
    data = tmp_path / ("a-long-folder-name-" * 4)
    paths.use_data_dir(data)
    engine = setup_game.new_game(SEED)
    screens = conftest.press(engine, KeySym.C)
    said = Narrator().news(screens)
    assert len(paths.shown(data)) > 2 * descriptions.FILES_WIDTH
    assert said[said.index("Files kept in.") :] == ["Files kept in.", "your data folder"]


def test_the_window_keeps_its_symbols(in_tmp: Path) -> None:
    """Only the reader's words change: the window still shows the menu's brackets, the
    character's colons and the options' paths."""
    menu = conftest.screen_rows(setup_game.MainMenu())
    assert any("[N] Play a new game" in row for row in menu)
    engine = setup_game.new_game(SEED)
    character = conftest.screen_rows(conftest.press(engine, KeySym.C))
    assert any("HP: 30/30" in row for row in character)
    options = conftest.screen_rows(conftest.press(setup_game.new_game(SEED), "="))
    assert any("options.txt" in row for row in options)
