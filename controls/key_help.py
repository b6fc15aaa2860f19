"""The help screen's text and the README's key list, made from the key tables,
so neither can disagree with what the keys do."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Final, TypeVar

from tcod.event import KeySym, Modifier, MouseButton, Scancode

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
    MENU_KEYS,
    MORE_KEY,
    OPTION_ROW_KEYS,
    OPTION_VALUE_KEYS,
    OPTIONS_CLOSE_KEYS,
    PAGE_KEYS,
    PLAYBACK_KEYS,
    RUN_MODIFIER,
    SAVE_FAILED_KEYS,
    TARGET_KEYS,
    Answer,
    Command,
    HistoryJump,
    Key,
    KeyTables,
)

# A table's keys: keys, symbols, or both.
K = TypeVar("K", bound=Key)

# One row for both ends, as one row for both ways of each scroll: the help fits one screen.
HISTORY_JUMP_HELP: Final[dict[HistoryJump, str]] = {
    HistoryJump.TOP: "Jump to either end",
    HistoryJump.BOTTOM: "Jump to either end",
}

ANSWER_HELP: Final[dict[Answer, str]] = {
    Answer.YES: "Yes",
    Answer.NO: "No",
}


def target_help(step: int) -> str:
    """What the keys of `TARGET_KEYS` do, on one row of the help."""
    return "Next or previous enemy in view"


def key_name(key: Key) -> str:
    """How the help screen writes a key, or a symbol (as it is typed)."""
    if isinstance(key, str):
        return key
    names = {
        KeySym.PAGEUP: "PgUp",
        KeySym.PAGEDOWN: "PgDn",
        KeySym.RETURN: "Enter",
        KeySym.KP_ENTER: "Num Enter",
        KeySym.ESCAPE: "Esc",
        KeySym.SPACE: "Space",
    }
    if key in names:
        return names[key]
    if key.name.startswith("KP_"):
        return f"Num {key.name[3:].title()}"
    if len(key.name) == 1 and key.name.isalpha():
        return key.name.lower()
    if key.value < 128 and chr(key.value).isprintable():
        return chr(key.value)
    return key.name.title()


def button_name(button: MouseButton) -> str:
    """How the help screen writes a mouse button's click: "Left click"."""
    return f"{button.name.title()} click"


DIRECTION_NAMES: Final[dict[tuple[int, int], str]] = {
    (0, -1): "north",
    (0, 1): "south",
    (-1, 0): "west",
    (1, 0): "east",
    (-1, -1): "northwest",
    (1, -1): "northeast",
    (-1, 1): "southwest",
    (1, 1): "southeast",
}


def chord_name(key: KeySym, modifier: Modifier) -> str:
    """A key with its modifier, as in "Alt+Enter"."""
    if not modifier:
        return key_name(key)
    return f"{(modifier.name or '').title()}+{key_name(key)}"


def _merge_rows(rows: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(keys, meaning) rows with the keys of each meaning joined on one row."""
    grouped: dict[str, list[str]] = {}
    for keys, meaning in rows:
        grouped.setdefault(meaning, []).append(keys)
    return [(", ".join(keys), meaning) for meaning, keys in grouped.items()]


def _keys_by_meaning(table: Mapping[K, str]) -> list[tuple[str, str]]:
    """(keys, meaning) rows: every key of the table, grouped by what it does."""
    return _merge_rows([(key_name(key), meaning) for key, meaning in table.items()])


def command_rows(table: Mapping[K, Command]) -> list[tuple[str, str]]:
    """(keys, meaning) rows for a table of commands, the keys of each joined."""
    return _keys_by_meaning({key: COMMAND_HELP[command] for key, command in table.items()})


def aligned_rows(table: Mapping[K, Command]) -> list[str]:
    """A table's `command_rows` as lines, the meanings lined up after the longest keys."""
    rows = command_rows(table)
    width = max(len(pressed) for pressed, _ in rows)
    return [f"{pressed:<{width}}  {meaning}" for pressed, meaning in rows]


# The dungeon's commands that go somewhere or fight, and the questions
# (`words.questions`): each a section of the help, the other commands another.
GOING: Final = (Command.DESCEND, Command.EXPLORE, Command.AUTOFIGHT, Command.TRAVEL)
ASKING: Final = (Command.IN_VIEW, Command.AROUND, Command.WHERE, Command.STATUS, Command.MAP, Command.SIGN_MAP)


def _commands_rows(tables: KeyTables, commands: Collection[Command]) -> list[tuple[str, str]]:
    """The rows of the dungeon's `commands`, with the keys in force."""
    return command_rows({key: command for key, command in tables.main.items() if command in commands})


def _dungeon_rows(tables: KeyTables) -> list[tuple[str, str]]:
    """The dungeon's keys in force that go somewhere or fight, then waiting, running and the mouse."""
    wait = {key: "Wait a turn" for key in tables.wait}
    run = (f"{(RUN_MODIFIER.name or '').title()}+direction", COMMAND_HELP[Command.RUN])
    buttons = [
        (button_name(button), COMMAND_HELP[command]) for button, command in MAIN_BUTTONS.items()
    ]
    return _commands_rows(tables, GOING) + _keys_by_meaning(wait) + [run, *buttons]


def _screen_rows(tables: KeyTables) -> list[tuple[str, str]]:
    """The dungeon's other keys in force: items, screens, saving."""
    others = {command for command in tables.main.values() if command not in (*GOING, *ASKING)}
    return _commands_rows(tables, others)


def _tile_rows() -> list[tuple[str, str]]:
    """The keys of a screen that picks a tile with a cursor."""
    cursor = {key: "Select the tile" for key in CONFIRM_KEYS}
    targets = [
        (chord_name(key, modifier), target_help(step))
        for (key, modifier), step in TARGET_KEYS.items()
    ]
    steps = ", ".join(
        f"{(modifier.name or '').title()} x{factor}"
        for modifier, factor in CURSOR_MODIFIERS.items()
    )
    return [
        *_keys_by_meaning(cursor),
        *_merge_rows(targets),
        ("Mouse", "Point; left click selects"),
        (steps, "Move the cursor further"),
    ]


def _history_rows() -> list[tuple[str, str]]:
    """The message history's scrolling keys."""
    history = {key: f"Scroll {abs(step)} up or down" for key, step in CURSOR_Y_KEYS.items()}
    history.update({key: HISTORY_JUMP_HELP[jump] for key, jump in HISTORY_JUMP_KEYS.items()})
    return _keys_by_meaning(history)


def _option_rows() -> list[tuple[str, str]]:
    """The options screen's keys."""
    option_keys = dict.fromkeys(OPTION_ROW_KEYS, "Choose an option")
    option_keys |= dict.fromkeys(OPTION_VALUE_KEYS, "Change its value")
    return [*_keys_by_meaning(option_keys), *command_rows(OPTIONS_CLOSE_KEYS)]


def _terminal_rows() -> list[tuple[str, str]]:
    """The keys that turn a terminal's pages: a terminal under 50 rows shows a taller
    screen a page at a time (`terminal.view`), the screen reader reads a long one so."""
    pages = {key: f"{'Previous' if step < 0 else 'Next'} page, under 50 rows" for key, step in PAGE_KEYS.items()}
    return _keys_by_meaning({**pages, MORE_KEY: "Read on, with a screen reader"})


# What a key the game over doesn't take says (`screens.base.Unchanged`): its first keys.
DEATH_KEYS: Final = "Enter goes back to the main menu, question mark lists the keys."

# The sections' headings the places a help is opened from show first (`help_groups`).
MAIN_MENU: Final = "Main menu"
MOVING: Final = "Moving (also moves a cursor)"
DUNGEON: Final = "In the dungeon"
ITEMS: Final = "Items and screens"
ASKING_KEYS: Final = "Asking, for play without sight"
HISTORY: Final = "Message history"
AFTER_DEATH: Final = "After a death"
OPTIONS: Final = "Options"
EVERYWHERE: Final = "Everywhere"

# A place's own sections, in groups each begun on a page of its own, the help's first
# pages when opened there: each short enough for a terminal of 24 rows to show whole.
Place = tuple[tuple[str, ...], ...]
FROM_MENU: Final[Place] = ((MAIN_MENU, OPTIONS, EVERYWHERE),)
FROM_DUNGEON: Final[Place] = ((MOVING, ITEMS), (DUNGEON, ASKING_KEYS, EVERYWHERE))
FROM_DEATH: Final[Place] = ((AFTER_DEATH, HISTORY, EVERYWHERE),)

Sections = list[tuple[str, list[tuple[str, str]]]]


def help_sections(tables: KeyTables) -> Sections:
    """Every binding as (section, [(keys, meaning)]); the dungeon's from `tables`.  A section
    whose every key a key file cleared (`clear map`, ...) is left out, not shown empty."""
    move = {key: f"Move {DIRECTION_NAMES[d]}" for key, d in tables.move.items()}
    answers = {key: ANSWER_HELP[answer] for key, answer in ANSWER_KEYS.items()}
    everywhere = [
        (chord_name(key, modifier), COMMAND_HELP[command])
        for (key, modifier), command in GLOBAL_KEYS.items()
    ]
    sections = [
        (MAIN_MENU, command_rows(MENU_KEYS)),
        # Short enough to sit beside the menu's keys on the help screen.
        (MOVING, _keys_by_meaning(move)),
        (DUNGEON, _dungeon_rows(tables)),
        (ITEMS, _screen_rows(tables)),
        (ASKING_KEYS, _commands_rows(tables, ASKING)),
        ("Choosing a tile", _tile_rows()),
        (HISTORY, _history_rows()),
        (AFTER_DEATH, command_rows(GAME_OVER_KEYS)),
        # A save that failed on quitting asks its question with these keys too.
        ("Answering a question", _keys_by_meaning(answers) + command_rows(SAVE_FAILED_KEYS)),
        ("Watching a replay", command_rows(PLAYBACK_KEYS)),
        ("In a terminal", _terminal_rows()),
        (OPTIONS, _option_rows()),
        (EVERYWHERE, _merge_rows(everywhere)),
    ]
    return [(title, rows) for title, rows in sections if rows]


def help_groups(tables: KeyTables, opened_from: Place) -> list[Sections]:
    """The help's sections in groups, each begun on a page of its own: those of the place
    the help was opened from (`FROM_MENU`, ...), in its order, then all the others."""
    sections = dict(help_sections(tables))
    groups = [[(title, sections[title]) for title in group if title in sections] for group in opened_from]
    own = {title for group in opened_from for title in group}
    return [*groups, [(title, rows) for title, rows in sections.items() if title not in own]]


def layout_hint(key_at: Callable[[Scancode], KeySym] = lambda scancode: scancode.keysym) -> str | None:
    """A line for the help when the keyboard is German or French (`key_at`: the key
    the system's layout puts at a place on the keyboard), saying which preset fits."""
    if key_at(Scancode.Y) == KeySym.Z:  # QWERTZ: Y and Z trade places.
        return "German keyboard? keys.txt: preset qwertz"
    if key_at(Scancode.Q) == KeySym.A:  # AZERTY.
        return "French keyboard: keys as printed, no preset"
    return None
