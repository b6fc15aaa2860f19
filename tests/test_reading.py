"""Every screen as the screen reader says it (`words.reading`): menus with their
letters, the choice or cursor in focus said again as it moves, nothing said twice."""

from __future__ import annotations

import re

import conftest
from conftest import key, screens_of, stroke
from tcod.event import KeySym

import input_handlers
import setup_game
from controls.keys import MAIN_KEYS, Answer, Command, Key
from screens.base import Reset
from screens.question import enter_says
from screens.stack import Screens, next_screen
from window import options, title
from words.news import BACK
from words.reading import Narrator
from words.spoken import spoken


def key_for(command: Command) -> Key:
    return next(binding for binding, bound in MAIN_KEYS.items() if bound is command)


def arena() -> input_handlers.MainGameEventHandler:
    return input_handlers.MainGameEventHandler(conftest.arena(20, 15, (5, 5)))


def menu() -> Screens:
    """The main menu alone, as the program starts on it."""
    return Screens(setup_game.MainMenu())


def test_the_main_menu_is_read_with_its_letters() -> None:
    said = Narrator().news(menu())
    assert said[0] == title.GAME_TITLE
    assert "N, Play a new game" in said and "Q, Quit" in said


def test_the_inventory_is_read_with_its_letters() -> None:
    screens = screens_of(arena())
    narrator = Narrator()
    narrator.news(screens)
    screens.press(key(KeySym.I))
    inventory = screens.top
    assert isinstance(inventory, input_handlers.InventoryEventHandler)
    said = narrator.news(screens)
    assert said == [spoken(line) for line in [inventory.TITLE, *inventory.item_lines()]]
    assert inventory.item_lines()[0].startswith("(a) ")  # The window's letter; heard as a word.
    assert said[1].startswith("a, ") and not any(char in line for line in said for char in "()")
    screens.press(key(KeySym.Z))  # No item: the log says so, and only that is said.
    assert screens.top is inventory
    assert narrator.news(screens) == ["Invalid entry."]


def test_the_level_up_choice_is_read_with_its_letters() -> None:
    game = arena()
    level = game.engine.player.level
    level.add_xp(level.experience_to_next_level)
    screen = next_screen(game.engine)
    assert isinstance(screen, input_handlers.LevelUpEventHandler)
    said = Narrator().news(screens_of(screen))
    assert screen.TITLE in said
    assert [line[:3] for line in said[-3:]] == ["a, ", "b, ", "c, "]


def test_the_history_reads_one_message_at_a_time() -> None:
    game = arena()
    log = game.engine.message_log
    log.add_message("First.")
    log.add_message("Second.")
    screens = screens_of(game)
    narrator = Narrator()
    narrator.news(screens)
    screens.press(key(KeySym.V))
    said = narrator.news(screens)
    assert said[-1] == f"Second. Turn {log.messages[-1].turn}."
    screens.press(key(KeySym.UP))
    assert narrator.news(screens) == [f"First. Turn {log.messages[-2].turn}."]


def test_the_options_say_the_option_chosen_as_it_moves_and_changes() -> None:
    game = arena()
    screens = screens_of(game)
    narrator = Narrator()
    narrator.news(screens)
    screens.press(stroke("="))
    first, second = list(options.choices().values())[:2]
    now = game.engine.settings.options
    assert narrator.news(screens)[-1] == spoken(f"{first.label}: {first.format(now.tile_size)}")
    screens.press(key(KeySym.DOWN))
    assert narrator.news(screens) == [spoken(f"{second.label}: {second.format(now.palette)}")]


def test_the_help_reads_every_key_with_what_it_does() -> None:
    screens = screens_of(arena())
    screens.press(stroke("?"))
    said = Narrator().news(screens)
    assert "semicolon. What is in view" in said and "Tab. Fight the nearest monster in view" in said


def test_a_question_is_read_and_the_game_over_story_too() -> None:
    game = arena()
    screens = screens_of(game)
    narrator = Narrator()
    narrator.news(screens)
    screens.press(key(KeySym.ESCAPE))
    assert narrator.news(screens) == [spoken(input_handlers.SAVE_AND_QUIT), enter_says(Answer.YES)]
    game.engine.player.fighter.hp = 0
    screens.apply(Reset.to(next_screen(game.engine)))
    said = narrator.news(screens)
    assert "Game over" in said and any(line.startswith("Enter, Esc") for line in said)
    assert all(len(line) < 80 for line in said)


# What a reader at its default settings spells out or skips: brackets kept (the menus' letters).
SPELLED = re.compile(r"[();]| - |(?<!\S)[?;:/>=+_@.-](?=[,:]?(\s|$))")


def test_no_symbol_a_reader_spells_out_is_said_where_a_word_would_do() -> None:
    game = arena()
    log = game.engine.message_log
    log.add_message("A test happened.")
    log.add_message("A test happened.")
    said = Narrator().news(menu())
    assert "Press question mark for help." in said
    for opening in (key(KeySym.I), stroke("?"), key(KeySym.V), stroke("="), key(KeySym.C), stroke("/")):
        narrator = Narrator()
        screens = screens_of(game)
        said += narrator.news(screens)
        screens.press(opening)
        assert screens.top is not game
        said += narrator.news(screens)
    for command in (Command.IN_VIEW, Command.AROUND, Command.WHERE, Command.STATUS):
        screens = screens_of(game)
        screens.press(stroke(key_for(command)))
        said += Narrator().news(screens)
    assert "A test happened, twice." in said
    assert [line for line in said if SPELLED.search(line)] == []
    assert log.messages[-1].full_text == "A test happened. (x2)"  # The window's own, kept.


def test_closing_any_screen_over_the_game_says_so_and_a_new_game_does_not() -> None:
    """Escape on an answer, on a screen or on a question (or its no) says the dungeon
    is back: a blind player knows the next key is the game's."""
    game = arena()
    screens = screens_of(game)
    narrator = Narrator()
    narrator.news(screens)
    screens.press(stroke(";"))
    assert screens.top is not game
    narrator.news(screens)
    screens.press(key(KeySym.ESCAPE))
    assert isinstance(screens.top, input_handlers.MainGameEventHandler)
    assert narrator.news(screens) == [BACK]
    screens.press(key(KeySym.I))
    assert isinstance(screens.top, input_handlers.InventoryEventHandler)
    narrator.news(screens)
    screens.press(key(KeySym.ESCAPE))
    assert isinstance(screens.top, input_handlers.MainGameEventHandler)
    assert narrator.news(screens) == [BACK]
    screens.press(key(KeySym.ESCAPE))
    assert narrator.news(screens) == [spoken(input_handlers.SAVE_AND_QUIT), enter_says(Answer.YES)]
    screens.press(key(KeySym.N))
    assert isinstance(screens.top, input_handlers.MainGameEventHandler)
    assert narrator.news(screens) == [BACK]
    assert narrator.news(screens) == []  # Said once.
    menu_then_game = Narrator()
    shown = menu()
    menu_then_game.news(shown)
    shown.apply(Reset.to(arena()))
    assert BACK not in menu_then_game.news(shown)
