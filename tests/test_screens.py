"""Screens over screens: popups in their own framed window over the dimmed
screen below, full-screen windows that cover every cell, and the map dimmed
behind the game's windows.  Checked on the console's characters and colours."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import conftest
import numpy as np
import pytest
import tcod
from conftest import give, key, screens_of
from tcod.event import KeySym

import entity_factories
import input_handlers
import main
import render_functions
import setup_game
from controls import key_help
from controls.keys import KeyTables
from engine import Engine
from saving import paths
from screens.help_screen import HelpScreen
from screens.options_screen import OptionsScreen
from screens.stack import Screens
from words import questions

W, H = main.SCREEN_WIDTH, main.SCREEN_HEIGHT


def render(shown: Screens | input_handlers.BaseEventHandler) -> tcod.console.Console:
    """What the screens (over one another), or a screen alone, draw."""
    console = tcod.console.Console(W, H, order="F")
    if isinstance(shown, Screens):
        shown.draw(console)
    else:
        shown.on_render(console)
    return console


def frame_of(console: tcod.console.Console) -> tuple[int, int, int, int]:
    """The one framed window on the console: its left, top, right and bottom."""
    ch = console.rgb["ch"]
    (left, top), = zip(*(ch == ord("┌")).nonzero(), strict=True)
    (right, bottom), = zip(*(ch == ord("┘")).nonzero(), strict=True)
    return int(left), int(top), int(right), int(bottom)


def menu_popups(tmp: Path) -> dict[str, Screens]:
    """The main menu's popups over it, as Continue makes them: no save, a damaged one."""
    popups = {}
    popups["no save"] = Screens(setup_game.MainMenu())
    popups["no save"].press(key(tcod.event.KeySym.C))
    Path(paths.SAVE_NAME).write_bytes(b"hello, this is not a save at all")
    popups["damaged"] = Screens(setup_game.MainMenu())
    popups["damaged"].press(key(tcod.event.KeySym.C))
    popups["long line"] = Screens(setup_game.MainMenu(), input_handlers.PopupMessage("word " * 60))
    return popups


def test_menu_popups_sit_in_their_own_window_over_the_dimmed_menu(in_tmp: Path) -> None:
    for name, screens in menu_popups(in_tmp).items():
        popup = screens.top
        assert isinstance(popup, input_handlers.PopupMessage), name
        assert isinstance(screens.stack[-2], setup_game.MainMenu), name
        below = render(setup_game.MainMenu())
        shown = render(screens)
        left, top, right, bottom = frame_of(shown)
        inside = np.zeros((W, H), dtype=bool)
        inside[left : right + 1, top : bottom + 1] = True
        # Outside the window: the menu's own characters, every one, dimmed.
        assert (shown.rgb["ch"][~inside] == below.rgb["ch"][~inside]).all(), name
        assert (shown.rgb["bg"][~inside] <= below.rgb["bg"][~inside]).all(), name
        assert shown.rgb["bg"][~inside].sum() < below.rgb["bg"][~inside].sum() / 2, name
        # Inside: the frame, and the popup's words on black, nothing of the menu's.
        rows = ["".join(map(chr, shown.rgb["ch"][left : right + 1, y])) for y in range(top, bottom + 1)]
        assert all(row[0] == "│" == row[-1] for row in rows[1:-1]), name
        words = " ".join(row[1:-1] for row in rows[1:-1]).split()
        assert words == popup.text.split(), name
        assert (shown.rgb["bg"][inside] == 0).all(), name
        assert right < W and bottom < H


def test_a_popup_over_the_game_dims_the_map(engine: Engine) -> None:
    game = input_handlers.MainGameEventHandler(engine)
    below, shown = render(game), render(screens_of(game, input_handlers.PopupMessage("Screenshot saved.")))
    left, top, right, bottom = frame_of(shown)
    outside = np.ones((W, H), dtype=bool)
    outside[left : right + 1, top : bottom + 1] = False
    assert (shown.rgb["ch"][outside] == below.rgb["ch"][outside]).all()
    assert shown.rgb["bg"][outside].sum() < below.rgb["bg"][outside].sum() / 2


def help_over_the_menu() -> Screens:
    menu = setup_game.MainMenu()
    return Screens(menu, HelpScreen(menu.settings))


def full_screens() -> dict[str, Callable[[Engine], Screens]]:
    return {
        "help over the game": lambda e: screens_of(input_handlers.MainGameEventHandler(e), HelpScreen(e.settings)),
        "help over the menu": lambda e: help_over_the_menu(),
        "history": lambda e: screens_of(input_handlers.MainGameEventHandler(e), input_handlers.HistoryViewer(e)),
    }


@pytest.mark.parametrize("screen", full_screens().values(), ids=full_screens().keys())
def test_full_screen_windows_cover_every_cell(screen: Callable[[Engine], Screens], engine: Engine) -> None:
    console = tcod.console.Console(W, H, order="F")
    console.rgb["ch"] = ord("#")
    console.rgb["bg"] = (1, 2, 3)
    screen(engine).draw(console)
    assert not (console.rgb["bg"] == (1, 2, 3)).all(axis=-1).any()
    assert not (console.rgb["ch"] == ord("#")).any()
    # The frame a row and a column in from the console's edges (`render_functions.MARGIN`).
    ch, m = console.rgb["ch"], render_functions.MARGIN
    assert chr(ch[m, m]) == "┌" and chr(ch[W - 1 - m, m]) == "┐"
    assert chr(ch[m, H - 1 - m]) == "└" and chr(ch[W - 1 - m, H - 1 - m]) == "┘"
    assert all(chr(ch[m, y]) == "│" == chr(ch[W - 1 - m, y]) for y in range(m + 1, H - 1 - m))


def game_windows() -> dict[str, Callable[[Engine], input_handlers.BaseEventHandler]]:
    return {
        "inventory": input_handlers.InventoryActivateHandler,
        "drop": input_handlers.InventoryDropHandler,
        "character": input_handlers.CharacterScreenEventHandler,
        "level up": input_handlers.LevelUpEventHandler,
    }


@pytest.mark.parametrize("screen", game_windows().values(), ids=game_windows().keys())
def test_the_map_dims_behind_the_games_windows(screen: Callable[[Engine], input_handlers.BaseEventHandler]) -> None:
    engine = conftest.arena(80, 43, (60, 20))
    give(engine, entity_factories.lightning_scroll)
    below = render(input_handlers.MainGameEventHandler(engine))
    shown = render(screen(engine))
    left, top, right, _ = frame_of(shown)
    assert (left, top) == (render_functions.MARGIN, render_functions.MARGIN) and right < 60  # Away from the player.
    beside = (slice(right + 1, W), slice(0, 43))
    assert (shown.rgb["ch"][beside] == below.rgb["ch"][beside]).all()
    assert shown.rgb["bg"][beside].sum() < below.rgb["bg"][beside].sum() / 2


def test_the_help_puts_each_meaning_just_right_of_its_sections_keys(engine: Engine) -> None:
    """Read across: at most two columns after a section's longest keys (at half
    the screen, a short key once stood 37 columns from what it does)."""
    screens = screens_of(input_handlers.MainGameEventHandler(engine), HelpScreen(engine.settings))
    rows: list[str] = []
    while isinstance(screens.top, HelpScreen):  # Every page, turned with Space.
        console = render(screens)
        rows += ["".join(map(chr, console.rgb["ch"][:, y])) for y in range(H)]
        screens.press(key(KeySym.SPACE))
    checked = 0
    for _, section in key_help.help_sections(KeyTables()):
        longest = max(len(keys) for keys, _ in section)
        for keys, meaning in section:
            pattern = re.compile(rf" {re.escape(keys)}( +){re.escape(meaning)}")
            gaps = [len(found.group(1)) for row in rows if (found := pattern.search(row))]
            assert gaps, (keys, meaning)
            assert min(gaps) <= longest - len(keys) + 2, (keys, meaning, gaps)
            checked += 1
    assert checked > 20


def shown_text(screens: Screens) -> str:
    """Every row the screens draw, as one text."""
    return "\n".join(conftest.screen_rows(screens))


@pytest.mark.parametrize(
    "make",
    [
        lambda engine: input_handlers.PopupMessage("Nothing here.\nNor there."),
        lambda engine: input_handlers.AnswerScreen(engine, next(iter(questions.QUESTIONS))),
        lambda engine: input_handlers.LookDescription(engine, engine.player.x, engine.player.y),
        lambda engine: input_handlers.CharacterScreenEventHandler(engine),
        lambda engine: input_handlers.InventoryActivateHandler(engine),
        lambda engine: OptionsScreen(engine.settings),
    ],
    ids=["popup", "answer", "look", "character", "inventory", "options"],
)
def test_what_a_screen_declares_is_what_the_window_shows(
    make: Callable[[Engine], input_handlers.BaseEventHandler], in_tmp: Path
) -> None:
    """Declared once: every line a screen says it shows (`Content`: what the reader
    reads) is drawn in the window, which draws from the same declaration."""
    engine = conftest.arena()
    give(engine, entity_factories.health_potion)
    screens = screens_of(input_handlers.MainGameEventHandler(engine), make(engine))
    content = screens.content()
    assert content is not None
    drawn = shown_text(screens)
    for line in [*content.text(), content.focus]:
        assert line.strip() in drawn or line.split(": ", 1)[-1] in drawn, line


def test_the_help_draws_every_row_it_declares_on_its_pages(in_tmp: Path) -> None:
    """The help's keys are declared once, as (keys, meaning) rows under headings: the
    window sets them in columns over its pages, the reader reads them a row a line."""
    screens = screens_of(setup_game.MainMenu(), HelpScreen(setup_game.MainMenu().settings))
    help_screen = screens.top
    assert isinstance(help_screen, HelpScreen)
    content = help_screen.content()
    pages = []
    for _ in range(len(help_screen.pages())):
        pages.append(shown_text(screens))
        screens.press(key(KeySym.SPACE))
    drawn = "\n".join(pages)
    for heading, rows in content.sections:
        assert heading in drawn
        for keys, meaning in rows:
            assert re.search(rf"{re.escape(keys)} +{re.escape(meaning)}", drawn), (keys, meaning)
