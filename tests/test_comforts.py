"""Player comforts: help, fullscreen and resizing, screenshots, a clear start."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import numpy as np
import pytest
import tcod
from conftest import click, dungeon, key, screens_of, stroke, typed
from tcod.event import KeySym, Modifier

import entity_factories
import input_handlers
import main
import setup_game
from controls import key_help, keys
from controls.key_help import ASKING, GOING, HISTORY_JUMP_HELP, chord_name, help_sections, key_name
from controls.keys import (
    ANSWER_KEYS,
    COMMAND_HELP,
    CONFIRM_KEYS,
    CURSOR_MODIFIERS,
    CURSOR_Y_KEYS,
    GAME_OVER_KEYS,
    GLOBAL_KEYS,
    HISTORY_JUMP_KEYS,
    MAIN_BUTTONS,
    MAIN_KEYS,
    MENU_KEYS,
    MORE_KEY,
    MOVE_KEYS,
    OPTION_ROW_KEYS,
    OPTION_VALUE_KEYS,
    OPTIONS_CLOSE_KEYS,
    PAGE_KEYS,
    PLAYBACK_KEYS,
    RUN_MODIFIER,
    SAVE_FAILED_KEYS,
    TARGET_KEYS,
    WAIT_KEYS,
    Answer,
    Command,
    Key,
    KeyTables,
    types_symbol,
)
from engine import Engine
from screens.base import Push, Unchanged
from screens.help_screen import HelpScreen
from screens.save_failed import SaveFailedPopup
from screens.stack import Screens, next_screen
from window import assets, command_line, error_report, loop, options, screenshot, title

ROOT = Path(__file__).resolve().parent.parent
TILE = 10  # Pixels per tile side in the game's tile sheet.
WINDOW = (main.SCREEN_WIDTH * TILE, main.SCREEN_HEIGHT * TILE)


def window(context: tcod.context.Context) -> tcod.sdl.video.Window:
    assert context.sdl_window is not None
    return context.sdl_window


def show(context: tcod.context.Context, screens: Screens) -> tcod.console.Console:
    """Draw and present one frame of `screens`, as the main loop does."""
    console = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
    screens.draw(console)
    context.present(console, keep_aspect=True, integer_scaling=True)
    return console


def screen_lines(console: tcod.console.Console) -> list[str]:
    return ["".join(chr(c) for c in console.rgb["ch"][:, y]) for y in range(console.height)]


# --- Help -----------------------------------------------------------------

# What each table's keys do, written out here rather than taken from the game,
# so that a help text that drifts from the tables shows up.
DIRECTIONS = {
    (0, -1): "north",
    (0, 1): "south",
    (-1, 0): "west",
    (1, 0): "east",
    (-1, -1): "northwest",
    (1, -1): "northeast",
    (-1, 1): "southwest",
    (1, 1): "southeast",
}


def expected_bindings() -> dict[str, set[tuple[str, str]]]:
    """Section of the help -> every (key, what it does) the handlers bind there."""
    history = {
        (key_name(k), f"Scroll {abs(d)} up or down")
        for k, d in CURSOR_Y_KEYS.items()
    }
    history |= {(key_name(k), HISTORY_JUMP_HELP[jump]) for k, jump in HISTORY_JUMP_KEYS.items()}
    return {
        "Main menu": {(key_name(k), COMMAND_HELP[c]) for k, c in MENU_KEYS.items()},
        "In the dungeon": {(key_name(k), COMMAND_HELP[c]) for k, c in MAIN_KEYS.items() if c in GOING}
        | {(key_name(k), "Wait a turn") for k in WAIT_KEYS}
        | {(f"{(RUN_MODIFIER.name or '').title()}+direction", COMMAND_HELP[Command.RUN])}
        | {(f"{b.name.title()} click", COMMAND_HELP[c]) for b, c in MAIN_BUTTONS.items()},
        "Items and screens": {
            (key_name(k), COMMAND_HELP[c]) for k, c in MAIN_KEYS.items() if c not in (*GOING, *ASKING)
        },
        "Asking, for play without sight": {
            (key_name(k), COMMAND_HELP[c]) for k, c in MAIN_KEYS.items() if c in ASKING
        },
        "Moving (also moves a cursor)": {
            (key_name(k), f"Move {DIRECTIONS[d]}") for k, d in MOVE_KEYS.items()
        },
        "Choosing a tile": {(key_name(k), "Select the tile") for k in CONFIRM_KEYS}
        | {
            (chord_name(k, m), "Next or previous enemy in view")
            for (k, m), step in TARGET_KEYS.items()
        }
        | {("Mouse", "Point; left click selects")}
        | {
            (f"{(m.name or '').title()} x{factor}", "Move the cursor further")
            for m, factor in CURSOR_MODIFIERS.items()
        },
        "Message history": history,
        "Answering a question": {
            (key_name(k), {Answer.YES: "Yes", Answer.NO: "No"}[a]) for k, a in ANSWER_KEYS.items()
        }
        | {(key_name(k), COMMAND_HELP[c]) for k, c in SAVE_FAILED_KEYS.items()},
        "After a death": {(key_name(k), COMMAND_HELP[c]) for k, c in GAME_OVER_KEYS.items()},
        "Watching a replay": {(key_name(k), COMMAND_HELP[c]) for k, c in PLAYBACK_KEYS.items()},
        "In a terminal": {
            (key_name(k), f"{'Previous' if step < 0 else 'Next'} page, under 50 rows")
            for k, step in PAGE_KEYS.items()
        }
        | {(key_name(MORE_KEY), "Read on, with a screen reader")},
        "Options": {(key_name(k), "Choose an option") for k in OPTION_ROW_KEYS}
        | {(key_name(k), "Change its value") for k in OPTION_VALUE_KEYS}
        | {(key_name(k), COMMAND_HELP[c]) for k, c in OPTIONS_CLOSE_KEYS.items()},
        "Everywhere": {(chord_name(k, m), COMMAND_HELP[c]) for (k, m), c in GLOBAL_KEYS.items()},
    }


def help_bindings() -> dict[str, set[tuple[str, str]]]:
    """The help text parsed back: section -> every (key, what it does) it lists."""
    listed: dict[str, set[tuple[str, str]]] = {}
    for section, rows in help_sections(KeyTables()):
        pairs = listed.setdefault(section, set())
        for names, meaning in rows:
            for name in names.split(", "):
                assert name, f"empty key name in {names!r}"
                pairs.add((name, meaning))
    return listed


@functools.cache
def keysym_by_name() -> dict[str, Key]:
    """Every key by its name in the help, a symbol as itself; a name two keys share is left out."""
    found: dict[str, list[Key]] = {}
    for sym in KeySym:
        binding: Key = chr(sym.value) if types_symbol(sym) else sym
        found.setdefault(key_name(binding), []).append(binding)
    return {name: syms[0] for name, syms in found.items() if len(syms) == 1}


def global_key(name: str) -> KeySym:
    """A key that works everywhere, by its name in the help: never a symbol."""
    binding = keysym_by_name()[name]
    assert isinstance(binding, KeySym)
    return binding


def test_help_lists_every_key_of_every_table() -> None:
    listed = {name for pairs in help_bindings().values() for name, _ in pairs}
    for table in (
        MOVE_KEYS,
        WAIT_KEYS,
        CONFIRM_KEYS,
        CURSOR_Y_KEYS,
        HISTORY_JUMP_KEYS,
        MAIN_KEYS,
        MENU_KEYS,
        ANSWER_KEYS,
        GAME_OVER_KEYS,
        SAVE_FAILED_KEYS,
        PLAYBACK_KEYS,
        OPTION_ROW_KEYS,
        OPTION_VALUE_KEYS,
        OPTIONS_CLOSE_KEYS,
        PAGE_KEYS,
    ):
        for sym in table:
            assert key_name(sym) in listed, f"{sym!r} is bound but not in the help"
    for chords in (GLOBAL_KEYS, TARGET_KEYS):
        for sym, modifier in chords:
            assert chord_name(sym, modifier) in listed


def test_every_help_row_is_a_real_binding_and_every_binding_a_row() -> None:
    assert help_bindings() == expected_bindings()


# The rows of the dungeon's section that name no single key.
WALKS = {COMMAND_HELP[Command.RUN], COMMAND_HELP[Command.WALK_TO]}


def test_help_key_names_are_unambiguous() -> None:
    """Each key named in the help is one key: the player can't mistake it."""
    for section, pairs in help_bindings().items():
        if section in ("Choosing a tile", "Everywhere"):
            continue  # Mouse, modifiers and chords, checked elsewhere.
        for name, meaning in pairs:
            if meaning in WALKS:
                continue  # A modifier with any move key, a click: checked below.
            assert name in keysym_by_name(), f"{name!r} names no key, or several"


def test_every_key_in_the_help_does_something_there(engine: Engine) -> None:
    """The help's keys, pressed on their screen, are not ignored."""
    listed = help_bindings()

    def answer_to(handler: input_handlers.BaseEventHandler, name: str) -> object:
        """What the screen makes of the key `name` (an action, or a transition: `Quit`,
        `BackToMenu`...); None if it ignores it, whatever it says of that (`Unchanged`)."""
        x, y = engine.player.x, engine.player.y
        events = {  # The rows that name no single key.
            f"{(RUN_MODIFIER.name or '').title()}+direction": key(KeySym.RIGHT, RUN_MODIFIER),
            "Left click": click(x + 1, y),
        }
        done = handler.dispatch(events.get(name) or stroke(keysym_by_name()[name]))
        return None if isinstance(done, Unchanged) else done

    for name, _ in listed["Main menu"]:
        assert answer_to(setup_game.MainMenu(), name) is not None, name
    for section in (
        "In the dungeon",
        "Items and screens",
        "Asking, for play without sight",
        "Moving (also moves a cursor)",
    ):
        for name, _ in listed[section]:
            said = [(m.full_text, m.count) for m in engine.message_log.messages]
            game = input_handlers.MainGameEventHandler(engine)
            done = answer_to(game, name)
            # It acts, starts a walk, or says why it can't (as `>` far from unseen stairs).
            now = [(m.full_text, m.count) for m in engine.message_log.messages]
            assert done is not None or game.walk is not None or now != said, name
    for name, meaning in listed["Choosing a tile"]:
        if meaning == "Select the tile":
            result = answer_to(input_handlers.LookHandler(engine), name)
            assert isinstance(result, Push) and isinstance(result.screen, input_handlers.LookDescription), name
    player = engine.player
    entity_factories.orc.spawn(engine.game_map, player.x + 1, player.y)
    engine.update_fov()
    for chord, meaning in listed["Choosing a tile"]:
        if "enemy" in meaning:
            modifier, _, name = chord.rpartition("+")
            mod = Modifier[modifier.upper()] if modifier else Modifier.NONE
            look = input_handlers.LookHandler(engine)
            look.dispatch(stroke(keysym_by_name()[name], mod))
            enemy = engine.game_map.get_actor_at_location(*engine.mouse_location)
            assert enemy is not None and enemy is not player, chord
    save_failed = {COMMAND_HELP[command] for command in SAVE_FAILED_KEYS.values()}
    for name, meaning in listed["Answering a question"]:
        if meaning in save_failed:
            popup = SaveFailedPopup("")
            assert answer_to(popup, name) is not None, name
            continue
        look = input_handlers.LookHandler(engine)
        answered: list[bool] = []

        def answer(answered: list[bool] = answered) -> None:
            answered.append(True)

        question = input_handlers.ConfirmHandler(look, "?", answer)
        assert answer_to(question, name) is not None, name
        assert answered == ([True] if meaning == "Yes" else []), name
    for name, _ in listed["Message history"]:
        viewer = input_handlers.HistoryViewer(engine)  # Any unbound key closes it.
        assert answer_to(viewer, name) is None, name
    engine.player.fighter.die()
    game_over = next_screen(engine)
    for name, _ in listed["After a death"]:
        assert answer_to(game_over, name) is not None, name
    for chord, _ in listed["Everywhere"]:
        modifier, _, name = chord.rpartition("+")
        mod = Modifier[modifier.upper()] if modifier else Modifier.NONE
        assert keys.global_command(key(global_key(name), mod)) is not None


def test_cursor_modifier_rows_move_the_cursor_that_far(engine: Engine) -> None:
    rows = [
        keys
        for _, section in help_sections(KeyTables())
        for keys, meaning in section
        if meaning == "Move the cursor further"
    ]
    assert len(rows) == 1
    for part in rows[0].split(", "):
        name, factor = part.split(" x")
        look = input_handlers.LookHandler(engine)
        engine.mouse_location = (0, 0)
        look.dispatch(key(KeySym.RIGHT, Modifier[name.upper()]))
        assert engine.mouse_location == (int(factor), 0)


def menu(engine: Engine) -> Screens:
    """The main menu alone, as the program starts."""
    return Screens(setup_game.MainMenu())


def game(engine: Engine) -> Screens:
    """The game's dungeon, over the menu."""
    return dungeon(engine)


def over_game(engine: Engine, screen: input_handlers.BaseEventHandler) -> Screens:
    """`screen` opened over the game's dungeon."""
    return screens_of(input_handlers.MainGameEventHandler(engine), screen)


HELP_KEYS = {
    "question": typed("?"),
    "f1": key(KeySym.F1),
}


@pytest.mark.parametrize("screen", [menu, game])
@pytest.mark.parametrize("event", HELP_KEYS.values(), ids=HELP_KEYS.keys())
def test_help_opens_and_any_key_closes_it(
    screen: Callable[[Engine], Screens],
    event: tcod.event.KeyDown,
    engine: Engine,
) -> None:
    screens = screen(engine)
    below = list(screens.stack)
    turn_before = (engine.player.x, engine.player.y, len(engine.message_log.messages))
    screens.press(event)
    help_screen = screens.top
    assert isinstance(help_screen, HelpScreen)
    assert screens.stack == [*below, help_screen]
    screens.press(key(KeySym.LSHIFT))
    assert screens.top is help_screen  # Shift alone: still open.
    screens.press(key(KeySym.X))
    assert screens.stack == below
    screens.press(event)
    assert isinstance(screens.top, HelpScreen)
    screens.press(key(KeySym.ESCAPE))
    assert screens.stack == below and screens.quitting is None
    assert (engine.player.x, engine.player.y, len(engine.message_log.messages)) == turn_before


def test_slash_without_shift_still_looks(engine: Engine) -> None:
    screens = dungeon(engine)
    screens.press(typed("/"))
    assert isinstance(screens.top, input_handlers.LookHandler)


def help_pages(screens: Screens) -> list[list[str]]:
    """The lines of each of the help's pages, opened over `screens` and turned with
    Space, until the Space after the last page goes back to the screen below."""
    below = list(screens.stack)
    screens.press(key(KeySym.F1))
    shown: list[list[str]] = []
    while screens.stack != below:
        assert isinstance(screens.top, HelpScreen) and len(shown) < 10
        assert screens.stack[:-1] == below
        console = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
        screens.draw(console)
        shown.append(screen_lines(console))
        screens.press(key(KeySym.SPACE))
    return shown


def after_death(engine: Engine) -> Screens:
    """The game-over screen, over the menu."""
    return screens_of(input_handlers.GameOverEventHandler(engine))


@pytest.mark.parametrize(
    ("screen", "first"),
    [(menu, key_help.FROM_MENU), (game, key_help.FROM_DUNGEON), (after_death, key_help.FROM_DEATH)],
    ids=["menu", "game", "death"],
)
def test_help_screen_fits_in_80x50(
    screen: Callable[[Engine], Screens], first: key_help.Place, engine: Engine
) -> None:
    """Opened with its key, the help shows the keys of the place it was opened from on
    its first page, then the others; every section whole, inside a frame a row and a
    column in from the edges."""
    every_page = help_pages(screen(engine))
    sections = help_sections(KeyTables())
    # The keys of the place it was opened from first, a group to a page, each page
    # short enough for a terminal of 24 rows (and a margin) to show whole.
    headings = [heading for heading, _ in sections]
    for lines, group in zip(every_page, first, strict=False):
        assert [heading for heading in headings if heading in "\n".join(lines)] == sorted(group, key=headings.index)
        assert all(line[2:-2].isspace() for line in lines[24 - 2 : -2]), "taller than a terminal's 24 rows"
    # Each section's title, then its rows on the lines below it: alone on the
    # line, or in one of two columns the short sections flow down.
    places = []
    for section, rows in sections:
        [(page, y, x)] = [
            (page, y, line.index(section))
            for page, lines in enumerate(every_page)
            for y, line in enumerate(lines)
            if section in line
        ]
        places.append((page, y, x))
        for i, (names, meaning) in enumerate(rows, start=1):
            row = every_page[page][y + i][x:]
            assert row.lstrip().startswith(names) and meaning in row, (y + i, row)
        assert y + len(rows) < main.SCREEN_HEIGHT - 2  # Above the bottom frame.
    assert len(set(places)) == len(places)
    for lines in every_page:
        assert lines[0].isspace() and lines[-1].isspace()  # The margin.
        assert "any key" in lines[-2] or "Space for more" in lines[-2]
        for line in lines[2:-2]:  # No text runs over the frame's sides, a column in from the edges.
            assert line[1] == "│" and line[-2] == "│", line


def test_keys_that_outgrow_a_page_turn_to_a_second_with_space(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game that adds commands gets a second page, not rows over the frame:
    Space and Page Down turn forward, Page Up back, Space past the last page
    and any other key close it, as NetHack's and DCSS's long help."""

    sections = help_sections(KeyTables())
    more = [(f"{title} again", rows) for title, rows in sections]
    monkeypatch.setattr(key_help, "help_sections", lambda tables: sections + more)
    screens = game(engine)
    parent = screens.top
    every_page = help_pages(screens)
    assert len(every_page) >= 2
    assert "Page 1 of" in every_page[0][-2] and "Space for more" in every_page[0][-2]
    for heading, _ in sections + more:
        assert sum(heading in line for lines in every_page for line in lines) >= 1, heading
    screen = HelpScreen(screens.settings)
    screens.apply(Push(screen))
    screens.press(key(KeySym.PAGEDOWN))
    assert screens.top is screen and screen.page == 1
    screens.press(key(KeySym.PAGEUP))
    assert screens.top is screen and screen.page == 0
    screens.press(key(KeySym.PAGEUP))
    assert screens.top is parent and len(screens.stack) == 2  # Nothing before the first page.
    screens.apply(Push(HelpScreen(screens.settings)))
    screens.press(key(KeySym.X))
    assert screens.top is parent and len(screens.stack) == 2


def test_the_help_pages_keep_every_section_inside_the_frame() -> None:
    """However many sections, each lands whole between the top and bottom frames
    of a page, none over another."""
    from screens.help_screen import pages

    rows = [("k", "a meaning")] * 7
    wide = [("k", "a meaning " * 5)] * 3
    sections = [(f"narrow {n}", rows) for n in range(20)] + [(f"wide {n}", wide) for n in range(9)]
    placed = pages([sections], 80, 50)
    assert len(placed) > 2
    assert sorted(title for page in placed for _, _, title, _ in page) == sorted(t for t, _ in sections)
    for page in placed:
        taken: set[tuple[int, int]] = set()
        for x, y, heading, section_rows in page:
            assert y >= 2 and y + len(section_rows) < 50 - 2  # Inside the frame, a row in from the edge.
            columns = {x} if heading.startswith("narrow") else {3, 41}  # The wide span both.
            lines = {(column, line) for column in columns for line in range(y, y + 1 + len(section_rows))}
            assert not lines & taken
            taken |= lines


def test_wide_sections_start_below_the_longer_of_the_two_columns() -> None:
    """Two short sections side by side, the right one longer: a wide one starts under it."""
    from screens.help_screen import pages

    short, long = [("k", "a meaning")] * 2, [("k", "a meaning")] * 6
    wide = [("k", "a meaning " * 5)] * 2
    [page] = pages([[("short", short), ("long", long), ("wide", wide)]], 80, 50)
    assert [(x, y, title) for x, y, title, _ in page] == [(3, 2, "short"), (41, 2, "long"), (3, 9, "wide")]


def test_a_help_of_two_pages_numbers_them() -> None:
    """On a console that holds the keys on two pages (as a smaller terminal's), not one."""
    from screens.help_screen import pages

    groups = HelpScreen(setup_game.MainMenu().settings, opened_from=key_help.FROM_MENU).groups()
    height = max(h for h in range(main.SCREEN_HEIGHT, 10, -1) if len(pages(groups, 80, h)) == 2)
    bottoms = []
    for page in (0, 1):
        console = tcod.console.Console(main.SCREEN_WIDTH, height, order="F")
        menu_screen = setup_game.MainMenu()
        Screens(menu_screen, HelpScreen(menu_screen.settings, page, key_help.FROM_MENU)).draw(console)
        bottoms.append(screen_lines(console)[-2])
    assert "Page 1 of 2: Space for more" in bottoms[0]
    assert "Page 2 of 2: any key closes" in bottoms[1]


def test_main_menu_says_press_question_mark_for_help() -> None:
    console = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
    setup_game.MainMenu().on_render(console)
    assert any("Press ? for help" in line for line in screen_lines(console))


# --- Fullscreen -------------------------------------------------------------


def screens() -> dict[str, Callable[[Engine], Screens]]:
    return {
        "menu": menu,
        "game": game,
        "help": lambda engine: over_game(engine, HelpScreen(engine.settings)),
        "popup": lambda engine: Screens(setup_game.MainMenu(), input_handlers.PopupMessage("Hi.")),
        "look": lambda engine: over_game(engine, input_handlers.LookHandler(engine)),
        "history": lambda engine: over_game(engine, input_handlers.HistoryViewer(engine)),
        "inventory": lambda engine: over_game(engine, input_handlers.InventoryActivateHandler(engine)),
    }


@pytest.mark.parametrize("alt", [Modifier.LALT, Modifier.RALT])
@pytest.mark.parametrize("screen", screens().values(), ids=screens().keys())
def test_alt_enter_toggles_fullscreen_on_every_screen(
    context: tcod.context.Context,
    engine: Engine,
    screen: Callable[[Engine], Screens],
    alt: Modifier,
) -> None:
    screens = screen(engine)
    shown = list(screens.stack)
    show(context, screens)
    assert window(context).fullscreen is False
    loop.handle_event(context, screens, key(KeySym.RETURN, alt))
    assert screens.stack == shown
    assert window(context).fullscreen is True
    loop.handle_event(context, screens, key(KeySym.KP_ENTER, alt | Modifier.NUM))
    assert screens.stack == shown
    assert window(context).fullscreen is False


def test_enter_without_alt_is_not_fullscreen(context: tcod.context.Context, engine: Engine) -> None:
    screens = over_game(engine, input_handlers.LookHandler(engine))
    loop.handle_event(context, screens, key(KeySym.RETURN))
    assert isinstance(screens.top, input_handlers.LookDescription)  # Enter selected the tile.
    assert window(context).fullscreen is False


def test_open_window_fullscreen() -> None:
    with main.open_window(assets.load_tileset(), options.Settings(options.Options(fullscreen=True))) as context:
        assert window(context).fullscreen is True
    with main.open_window(assets.load_tileset(), options.Settings()) as context:
        assert window(context).fullscreen is False
        assert window(context).flags & tcod.sdl.video.WindowFlags.RESIZABLE


def test_the_command_line_is_the_games_not_libtcods(monkeypatch: pytest.MonkeyPatch) -> None:
    # libtcod would read --windowed (the downloads' way of printing) as "not fullscreen".
    monkeypatch.setattr(sys, "argv", ["main.py", "--windowed", "-help"])
    with main.open_window(assets.load_tileset(), options.Settings(options.Options(fullscreen=True))) as context:
        assert window(context).fullscreen is True


@pytest.mark.parametrize(
    ("argv", "fullscreen", "seed"), [([], False, None), (["--fullscreen", "--seed", "7"], True, 7)]
)
def test_main_starts_as_the_options_say(
    monkeypatch: pytest.MonkeyPatch, argv: list[str], fullscreen: bool, seed: int | None
) -> None:
    seen: list[tuple[bool, Screens]] = []

    def main_loop(
        context: tcod.context.Context, console: tcod.console.Console, screens: Screens, *args: object
    ) -> None:
        seen.append((window(context).fullscreen, screens))

    monkeypatch.setattr(loop, "main_loop", main_loop)
    assert main.main(argv) == 0
    [(was_fullscreen, screens)] = seen
    assert was_fullscreen is fullscreen
    handler = screens.top
    assert isinstance(handler, setup_game.MainMenu) and screens.in_menu
    assert handler.seed == seed


# --- Screenshots -----------------------------------------------------------


def load_png(path: Path) -> np.ndarray:
    return np.asarray(tcod.image.Image.from_file(path))


def test_f12_in_game_saves_numbered_screenshots(
    in_tmp: Path, context: tcod.context.Context, engine: Engine
) -> None:
    screens = dungeon(engine)
    shown = list(screens.stack)
    console = show(context, screens)
    frame = assets.load_tileset().render(console)[:, :, :3]

    loop.handle_event(context, screens, key(KeySym.F12))
    assert screens.stack == shown
    assert engine.message_log.messages[-1].plain_text == f"Screenshot saved as screenshot-001.png in {in_tmp.resolve()}."
    show(context, screens)
    loop.handle_event(context, screens, key(KeySym.F12, Modifier.NUM))
    assert screens.stack == shown
    assert engine.message_log.messages[-1].plain_text == f"Screenshot saved as screenshot-002.png in {in_tmp.resolve()}."

    assert sorted(p.name for p in in_tmp.iterdir()) == ["screenshot-001.png", "screenshot-002.png"]
    first = load_png(in_tmp / "screenshot-001.png")
    assert first.shape == (WINDOW[1], WINDOW[0], 3)
    assert window(context).size == WINDOW
    # It is the frame on screen (to a rounding of the blending).
    assert np.abs(first.astype(int) - frame).max() <= 2
    assert load_png(in_tmp / "screenshot-002.png").shape == first.shape


def test_f12_draws_the_frame_itself_never_reading_the_renderer_back(
    in_tmp: Path, context: tcod.context.Context, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """libtcod's save_screenshot can crash the game (it uses SDL's read-back
    unchecked): F12 draws the frame by the tile sheet, and never calls it."""

    def crash(path: str | None = None) -> None:
        raise AssertionError("context.save_screenshot called")

    monkeypatch.setattr(context, "save_screenshot", crash)
    screens = dungeon(engine)
    shown = list(screens.stack)
    console = show(context, screens)
    loop.handle_event(context, screens, key(KeySym.F12))
    assert screens.stack == shown
    assert engine.message_log.messages[-1].plain_text == f"Screenshot saved as screenshot-001.png in {in_tmp.resolve()}."
    frame = assets.load_tileset().render(console)[:, :, :3]
    assert np.array_equal(load_png(in_tmp / "screenshot-001.png"), frame)


def test_f12_never_overwrites_a_screenshot(
    in_tmp: Path, context: tcod.context.Context, engine: Engine
) -> None:
    (in_tmp / "screenshot-001.png").write_bytes(b"the player's own")
    screens = dungeon(engine)
    show(context, screens)
    loop.handle_event(context, screens, key(KeySym.F12))
    assert (in_tmp / "screenshot-001.png").read_bytes() == b"the player's own"
    assert load_png(in_tmp / "screenshot-002.png").shape == (WINDOW[1], WINDOW[0], 3)
    assert "screenshot-002.png" in engine.message_log.messages[-1].plain_text


def test_f12_in_the_menu_says_so_in_a_popup(in_tmp: Path, context: tcod.context.Context) -> None:
    menu_screen = setup_game.MainMenu()
    screens = Screens(menu_screen)
    show(context, screens)
    loop.handle_event(context, screens, key(KeySym.F12))
    popup = screens.top
    assert isinstance(popup, input_handlers.PopupMessage)
    assert screens.stack == [menu_screen, popup]
    assert popup.text == f"Screenshot saved as screenshot-001.png in {in_tmp.resolve()}."
    assert load_png(in_tmp / "screenshot-001.png").shape == (WINDOW[1], WINDOW[0], 3)
    # The popup's own screenshot goes on to the next number.
    show(context, screens)
    loop.handle_event(context, screens, key(KeySym.F12))
    again = screens.top
    assert isinstance(again, input_handlers.PopupMessage)
    assert screens.stack == [menu_screen, popup, again]
    assert (in_tmp / "screenshot-002.png").is_file()
    screens.press(key(KeySym.X))
    assert screens.stack == [menu_screen, popup]


def test_a_screenshot_that_cannot_be_written_is_reported(
    in_tmp: Path, context: tcod.context.Context, engine: Engine
) -> None:
    screens = dungeon(engine)
    shown = list(screens.stack)
    show(context, screens)
    screenshot.take_screenshot(context, screens, in_tmp / "no such folder")
    assert screens.stack == shown  # Said in the message log, not in a popup.
    text = engine.message_log.messages[-1].plain_text
    assert text.startswith("Could not save a screenshot"), text
    assert list(in_tmp.iterdir()) == []


def test_shift_f12_is_not_a_screenshot(in_tmp: Path, context: tcod.context.Context) -> None:
    menu_screen = setup_game.MainMenu()
    screens = Screens(menu_screen)
    show(context, screens)
    loop.handle_event(context, screens, key(KeySym.F12, Modifier.LSHIFT))
    assert screens.stack == [menu_screen]
    assert list(in_tmp.iterdir()) == []


# --- A clear start --------------------------------------------------------


def run_main(*args: str, cwd: Path, **env: str | None) -> subprocess.CompletedProcess[str]:
    environ = dict(os.environ)
    for name, value in env.items():
        if value is None:
            environ.pop(name, None)
        else:
            environ[name] = value
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def test_help_option_lists_every_option(in_tmp: Path) -> None:
    result = run_main("--help", cwd=in_tmp)
    assert result.returncode == 0
    assert result.stdout.startswith("usage:")
    for option in ("--help", "--seed", "--fullscreen"):
        assert option in result.stdout
    assert result.stderr == ""


@pytest.mark.parametrize(
    "env",
    [
        {"SDL_VIDEODRIVER": "nonexistent"},
        {"SDL_VIDEODRIVER": "x11", "DISPLAY": None, "WAYLAND_DISPLAY": None},
    ],
    ids=["bad driver", "no display"],
)
def test_no_window_exits_1_with_one_line(in_tmp: Path, env: dict[str, str | None]) -> None:
    result = run_main(cwd=in_tmp, **env)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "cannot open a window" in lines[0]
    # The ways to play all the same: the terminal's first, as a player over SSH wants.
    for way in ("python main.py --terminal", "--screen-reader", "xvfb-run python main.py"):
        assert way in lines[0], lines[0]
    assert result.stdout == ""
    assert list(in_tmp.iterdir()) == []


@pytest.fixture
def fresh_background() -> Iterator[None]:
    """`background_image` is cached: forget it before, and the bad one after."""
    title.background_image.cache_clear()
    yield
    title.background_image.cache_clear()


@pytest.fixture
def no_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """A start that should fail must not reach the (blocking) loop."""

    def main_loop(*args: object) -> None:
        raise AssertionError("main() went on to play")

    monkeypatch.setattr(loop, "main_loop", main_loop)


def write_garbage(path: Path) -> Path:
    path.write_bytes(b"\x89PNG but not really\x00\x01\x02")
    return path


BAD_ASSETS: dict[str, Callable[[Path], Path]] = {
    "missing": lambda folder: folder / "nowhere.png",
    "garbage": lambda folder: write_garbage(folder / "garbage.png"),
    "a folder": lambda folder: folder,
}


@pytest.mark.parametrize("bad", BAD_ASSETS.values(), ids=BAD_ASSETS.keys())
@pytest.mark.parametrize("asset", ["tile sheet", "menu background"])
@pytest.mark.usefixtures("fresh_background", "no_loop")
def test_a_bad_asset_gets_one_line_naming_it(
    in_tmp: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    asset: str,
    bad: Callable[[Path], Path],
) -> None:
    path = bad(in_tmp)
    if asset == "tile sheet":
        monkeypatch.setitem(assets.TILESET_PATHS, 10, path)
    else:
        monkeypatch.setattr(title, "BACKGROUND_PATH", path)
    assert main.main([]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert asset in lines[0]
    assert str(path) in lines[0]


@pytest.mark.usefixtures("no_loop")
def test_a_tile_sheet_too_small_for_its_tiles_gets_one_line(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = in_tmp / "one-pixel.png"
    tcod.image.Image(1, 1).save_as(path)
    monkeypatch.setitem(assets.TILESET_PATHS, 10, path)
    assert main.main([]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"main.py: cannot read the tile sheet {path}: the image is too small to hold 32x8 tiles\n"
    )


@pytest.mark.parametrize("seed", ["-1", "-5000", "2.5", "seven", str(2**64)])
def test_a_seed_the_game_cannot_use_is_refused_with_a_reason(
    seed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        command_line.parse_args(["--seed", seed])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --seed: {seed!r} is not a whole number from 0 to {2**64 - 1}" in err


@pytest.mark.parametrize("seed", ["0", "42", str(2**64 - 1)])
def test_every_seed_from_0_to_2_to_the_64_starts_a_game(seed: str) -> None:
    args = command_line.parse_args(["--seed", seed])
    engine = setup_game.new_game(args.seed)
    assert engine.game_world.seed == int(seed)


# --- Resizing and the mouse ---------------------------------------------

SIZES = [(1000, 500), (800, 800), (1600, 1000), (1200, 1000), (1700, 1234)]


def pixel_of(tile: tuple[int, int], size: tuple[int, int], at: float = 0.5) -> tuple[float, float]:
    """Where on a window of `size` the centre (or `at`) of `tile` is drawn.

    The 80x50 console keeps its aspect: scaled by the largest whole number
    that fits, centred, with bars on the sides left over.
    """
    scale = int(min(size[0] / WINDOW[0], size[1] / WINDOW[1]))
    left = (size[0] - WINDOW[0] * scale) / 2
    top = (size[1] - WINDOW[1] * scale) / 2
    return left + (tile[0] + at) * TILE * scale, top + (tile[1] + at) * TILE * scale


def raw_motion(x: float, y: float) -> tcod.event.MouseMotion:
    """A mouse motion in pixels, as SDL delivers it before `convert_event`."""
    return tcod.event.MouseMotion(position=tcod.event.Point(x, y))


def test_mouse_lands_on_the_right_tile_after_a_resize_to_1000x500(
    context: tcod.context.Context,
) -> None:
    window(context).size = (1000, 500)
    show(context, Screens(setup_game.MainMenu()))
    assert window(context).size == (1000, 500)
    # 1000x500 is wider than 80x50 tiles: the console is drawn at scale 1,
    # with a bar of 100 pixels on either side.
    assert context.convert_event(raw_motion(105, 5)).integer_position == (0, 0)
    assert context.convert_event(raw_motion(100 + 799, 499)).integer_position == (79, 49)
    assert context.convert_event(raw_motion(100 + 405, 255)).integer_position == (40, 25)
    assert context.convert_event(raw_motion(50, 250)).integer_position.x < 0  # In the bar.


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_mouse_to_tile_after_any_resize(
    context: tcod.context.Context, size: tuple[int, int]
) -> None:
    window(context).size = size
    show(context, Screens(setup_game.MainMenu()))
    for tile in [(0, 0), (79, 49), (40, 25), (13, 42), (79, 0), (0, 49)]:
        for at in (0.1, 0.5, 0.9):
            event = context.convert_event(raw_motion(*pixel_of(tile, size, at)))
            assert event.integer_position == tile, (tile, at)


class Script:
    """An event source for `loop.main_loop`: one batch of events per call."""

    def __init__(self, *frames: Iterable[tcod.event.Event]) -> None:
        self.frames = list(frames)

    def __call__(self, timeout: float | None = None) -> Iterable[tcod.event.Event]:
        assert self.frames, "the loop asked for more events than scripted"
        return self.frames.pop(0)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_mouse_look_through_the_loop_after_a_resize(
    context: tcod.context.Context, engine: Engine, size: tuple[int, int]
) -> None:
    window(context).size = size
    tile = (engine.player.x + 2, engine.player.y + 1)
    script = Script([raw_motion(*pixel_of(tile, size))], [tcod.event.Quit()])
    console = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
    loop.main_loop(context, console, dungeon(engine), script)
    assert engine.mouse_location == tile


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_mouse_targeting_through_the_loop_after_a_resize(
    context: tcod.context.Context, engine: Engine, size: tuple[int, int]
) -> None:
    window(context).size = size
    targets: list[tuple[int, int]] = []

    def target(xy: tuple[int, int]) -> None:
        targets.append(xy)

    tile = (engine.player.x - 3, engine.player.y + 2)
    x, y = pixel_of(tile, size)
    click = tcod.event.MouseButtonDown(
        position=tcod.event.Point(x, y), button=tcod.event.MouseButton.LEFT
    )
    script = Script([click], [tcod.event.Quit()])
    console = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
    handler = input_handlers.SingleRangedAttackHandler(engine, target)
    loop.main_loop(context, console, screens_of(input_handlers.MainGameEventHandler(engine), handler), script)
    assert targets == [tile]


def test_every_command_has_its_own_help_text() -> None:
    """A command's help is data beside it, not its identity: two commands
    saying the same thing stay two commands."""
    assert set(COMMAND_HELP) == set(keys.Command)
    assert len(set(COMMAND_HELP.values())) == len(COMMAND_HELP)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("libtcod 2.1.1 libtcod/src/libtcod/sdl2/sdl2.c:120\nSDL failed\nNo available video device", "No available video device"),
        ("  just one line  ", "just one line"),
        ("", "RuntimeError"),
    ],
)
def test_an_error_is_told_by_its_last_line(message: str, expected: str) -> None:
    assert error_report.reason(RuntimeError(message)) == expected


def test_the_window_cannot_be_made_smaller_than_one_tile_pixel_a_pixel(
    context: tcod.context.Context,
) -> None:
    """At 400x250 nothing is legible: the window stops at 1x, 800x500."""
    window(context).size = (400, 250)
    assert window(context).min_size == WINDOW
    assert window(context).size == WINDOW
