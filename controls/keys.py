"""Every key binding of the game, declared once as data, so that the handlers,
the help screen and the README's key list (`key_help`) can't disagree."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from enum import Enum, auto
from typing import Final

import tcod
from tcod.event import KeySym, Modifier, MouseButton

Key = KeySym | str
"""A binding: a key, matched on its KeyDown, or a symbol such as `>`, matched on
its TextInput so that it works whatever key types it (`is_symbol`)."""

MOVE_KEYS: Final[dict[KeySym, tuple[int, int]]] = {
    # Arrow keys.
    KeySym.UP: (0, -1),
    KeySym.DOWN: (0, 1),
    KeySym.LEFT: (-1, 0),
    KeySym.RIGHT: (1, 0),
    KeySym.HOME: (-1, -1),
    KeySym.END: (-1, 1),
    KeySym.PAGEUP: (1, -1),
    KeySym.PAGEDOWN: (1, 1),
    # Numpad keys.
    KeySym.KP_1: (-1, 1),
    KeySym.KP_2: (0, 1),
    KeySym.KP_3: (1, 1),
    KeySym.KP_4: (-1, 0),
    KeySym.KP_6: (1, 0),
    KeySym.KP_7: (-1, -1),
    KeySym.KP_8: (0, -1),
    KeySym.KP_9: (1, -1),
    # Vi keys.
    KeySym.H: (-1, 0),
    KeySym.J: (0, 1),
    KeySym.K: (0, -1),
    KeySym.L: (1, 0),
    KeySym.Y: (-1, -1),
    KeySym.U: (1, -1),
    KeySym.B: (-1, 1),
    KeySym.N: (1, 1),
}

WAIT_KEYS: Final[list[Key]] = [
    ".",
    KeySym.KP_5,
    KeySym.CLEAR,
]

CONFIRM_KEYS: Final = {
    KeySym.RETURN,
    KeySym.KP_ENTER,
}

# The history viewer's scrolling keys; Home and End jump to either end.
CURSOR_Y_KEYS: Final[dict[KeySym, int]] = {
    KeySym.UP: -1,
    KeySym.DOWN: 1,
    KeySym.PAGEUP: -10,
    KeySym.PAGEDOWN: 10,
}


class HistoryJump(Enum):
    """Where Home and End take the history viewer."""

    TOP = auto()
    BOTTOM = auto()


HISTORY_JUMP_KEYS: Final[dict[KeySym, HistoryJump]] = {
    KeySym.HOME: HistoryJump.TOP,
    KeySym.END: HistoryJump.BOTTOM,
}

# How many tiles a cursor moves at once while a modifier is held; modifiers
# held together multiply.
CURSOR_MODIFIERS: Final[dict[Modifier, int]] = {
    Modifier.SHIFT: 5,
    Modifier.CTRL: 10,
    Modifier.ALT: 20,
}

# Keys that move a targeting cursor through the enemies in view, nearest
# first: (key, modifier) -> how many places along the list.
TARGET_KEYS: Final[dict[tuple[KeySym, Modifier], int]] = {
    (KeySym.TAB, Modifier.NONE): 1,
    (KeySym.TAB, Modifier.SHIFT): -1,
}


class Answer(Enum):
    """A reply to a yes-or-no question."""

    YES = auto()
    NO = auto()


ANSWER_KEYS: Final[dict[KeySym, Answer]] = {
    KeySym.Y: Answer.YES,
    KeySym.N: Answer.NO,
    KeySym.ESCAPE: Answer.NO,
}

# Lock keys, which say nothing about what the player meant.
IGNORED_MODIFIERS: Final = Modifier.NUM | Modifier.CAPS | Modifier.MODE

# Keys that only modify others: pressing one alone never closes a menu.
MODIFIER_KEYS: Final = {
    KeySym.LSHIFT,
    KeySym.RSHIFT,
    KeySym.LCTRL,
    KeySym.RCTRL,
    KeySym.LALT,
    KeySym.RALT,
    KeySym.LGUI,
    KeySym.RGUI,
}


class Command(Enum):
    """What a key does in the main game, on the menu, or anywhere."""

    DESCEND = auto()
    EXPLORE = auto()
    AUTOFIGHT = auto()
    TRAVEL = auto()
    RUN = auto()
    WALK_TO = auto()
    PICKUP = auto()
    INVENTORY = auto()
    QUAFF = auto()
    READ = auto()
    WEAR = auto()
    DROP = auto()
    CHARACTER = auto()
    HISTORY = auto()
    LOOK = auto()
    HELP = auto()
    QUIT = auto()
    EXIT = auto()
    NEW_GAME = auto()
    DAILY = auto()
    CONTINUE = auto()
    FULLSCREEN = auto()
    SCREENSHOT = auto()
    SPEECH = auto()
    HALL_OF_FAME = auto()
    MAIN_MENU = auto()
    RETRY_SAVE = auto()
    QUIT_WITHOUT_SAVING = auto()
    RESUME = auto()
    PAUSE_REPLAY = auto()
    FASTER = auto()
    SLOWER = auto()
    STOP_REPLAY = auto()
    OPTIONS = auto()
    CLOSE = auto()
    IN_VIEW = auto()
    AROUND = auto()
    WHERE = auto()
    STATUS = auto()
    MAP = auto()
    SIGN_MAP = auto()


# What the help screen and the README say each command does.
COMMAND_HELP: Final[dict[Command, str]] = {
    Command.DESCEND: "Take the stairs down, or walk to them",
    Command.EXPLORE: "Explore, then walk to the stairs",
    Command.AUTOFIGHT: "Fight the nearest monster in view",
    Command.TRAVEL: "Travel to a tile (also from look mode)",
    Command.RUN: "Run that way",
    Command.WALK_TO: "Walk to the tile",
    Command.PICKUP: "Pick up the item underfoot",
    Command.INVENTORY: "Use an item you carry",
    Command.QUAFF: "Quaff a potion",
    Command.READ: "Read a scroll",
    Command.WEAR: "Wear or wield, or take off",
    Command.DROP: "Drop an item",
    Command.CHARACTER: "Character information",
    Command.HISTORY: "View the message history",
    Command.LOOK: "Look around with a cursor",
    Command.HELP: "Show this help",
    Command.QUIT: "Save and quit",
    Command.EXIT: "Quit the game",
    Command.NEW_GAME: "Play a new game",
    Command.DAILY: "Play today's daily dungeon",
    Command.CONTINUE: "Continue the last game",
    Command.FULLSCREEN: "Fullscreen",
    Command.SCREENSHOT: "Screenshot",
    Command.SPEECH: "Speech on or off",
    Command.HALL_OF_FAME: "Show the hall of fame",
    Command.MAIN_MENU: "Back to the main menu",
    Command.RETRY_SAVE: "Try saving again",
    Command.QUIT_WITHOUT_SAVING: "Quit without saving",
    Command.RESUME: "Back to the game",
    Command.PAUSE_REPLAY: "Pause or resume",
    Command.FASTER: "Play twice as fast",
    Command.SLOWER: "Play half as fast",
    Command.STOP_REPLAY: "Stop, then play on",
    Command.OPTIONS: "Change the options",
    Command.CLOSE: "Close the screen",
    Command.IN_VIEW: "What is in view",
    Command.AROUND: "What is around you",
    Command.WHERE: "Where you are",
    Command.STATUS: "Health, level, gear",
    Command.MAP: "The map around you, row by row",
    Command.SIGN_MAP: "The map in signs, for braille",
}


MAIN_KEYS: Final[dict[Key, Command]] = {
    ">": Command.DESCEND,
    KeySym.X: Command.EXPLORE,  # Brogue's key.
    KeySym.O: Command.EXPLORE,  # DCSS's key.
    KeySym.TAB: Command.AUTOFIGHT,  # DCSS's key.
    "_": Command.TRAVEL,  # NetHack's key.
    KeySym.G: Command.PICKUP,
    KeySym.I: Command.INVENTORY,
    KeySym.Q: Command.QUAFF,  # NetHack's and DCSS's verbs.
    KeySym.R: Command.READ,
    KeySym.W: Command.WEAR,
    KeySym.D: Command.DROP,
    KeySym.C: Command.CHARACTER,
    KeySym.V: Command.HISTORY,
    "/": Command.LOOK,
    "?": Command.HELP,
    KeySym.F1: Command.HELP,
    "=": Command.OPTIONS,  # Angband's key (`o` explores, as in DCSS).
    KeySym.ESCAPE: Command.QUIT,
    # The questions a player who can't see the map asks (`words.questions`).
    ";": Command.IN_VIEW,  # NetHack's farlook key.
    KeySym.A: Command.AROUND,
    ":": Command.WHERE,  # NetHack's and DCSS's "look here".
    "@": Command.STATUS,  # DCSS's key.
    KeySym.M: Command.MAP,  # Angband's map key.
    "&": Command.SIGN_MAP,  # Not "#": a key file's comments start with it.
}



@dataclasses.dataclass(frozen=True)
class KeyTables:
    """The dungeon's keys in force: the tables above, or those the player's key
    file makes (`key_file.load`).  A game holds them in `engine.settings`."""

    move: Mapping[KeySym, tuple[int, int]] = dataclasses.field(default_factory=MOVE_KEYS.copy)
    wait: Sequence[Key] = tuple(WAIT_KEYS)
    main: Mapping[Key, Command] = dataclasses.field(default_factory=MAIN_KEYS.copy)


# Held with a move key, runs that way (NetHack, DCSS): `Command.RUN`.
RUN_MODIFIER: Final = Modifier.SHIFT

MAIN_BUTTONS: Final[dict[MouseButton, Command]] = {
    MouseButton.LEFT: Command.WALK_TO,
}

MENU_KEYS: Final[dict[Key, Command]] = {
    KeySym.N: Command.NEW_GAME,
    KeySym.D: Command.DAILY,
    KeySym.C: Command.CONTINUE,
    KeySym.H: Command.HALL_OF_FAME,
    KeySym.O: Command.OPTIONS,
    "=": Command.OPTIONS,  # As in the dungeon.
    KeySym.Q: Command.EXIT,
    KeySym.ESCAPE: Command.EXIT,
    "?": Command.HELP,
    KeySym.F1: Command.HELP,
}

# The options screen's keys: Up and Down choose an option, Left and Right
# (or Enter) change it, by this many places along its values.
OPTION_ROW_KEYS: Final[dict[KeySym, int]] = {
    KeySym.UP: -1,
    KeySym.DOWN: 1,
}
OPTION_VALUE_KEYS: Final[dict[KeySym, int]] = {
    KeySym.LEFT: -1,
    KeySym.RIGHT: 1,
    KeySym.RETURN: 1,
}
OPTIONS_CLOSE_KEYS: Final[dict[Key, Command]] = {
    KeySym.ESCAPE: Command.CLOSE,
    "=": Command.CLOSE,
    KeySym.O: Command.CLOSE,
}

# The game-over screen's keys; closing the window quits.
GAME_OVER_KEYS: Final[dict[Key, Command]] = {
    KeySym.RETURN: Command.MAIN_MENU,
    KeySym.ESCAPE: Command.MAIN_MENU,
    KeySym.V: Command.HISTORY,
    KeySym.H: Command.HALL_OF_FAME,
    "?": Command.HELP,
    KeySym.F1: Command.HELP,
}

# The choices when the game could not be saved on quitting.
SAVE_FAILED_KEYS: Final[dict[KeySym, Command]] = {
    KeySym.R: Command.RETRY_SAVE,
    KeySym.Q: Command.QUIT_WITHOUT_SAVING,
    KeySym.ESCAPE: Command.RESUME,
}

# For a screen reader, a screen longer than the terminal is said a page at a time:
# this key says the next page (`terminal.screen_reader`); any other acts as ever.
MORE_KEY: Final = KeySym.SPACE

# While a recording plays in the window (`python main.py --replay FILE`).
# The numpad's + and - type those characters too.
PLAYBACK_KEYS: Final[dict[Key, Command]] = {
    KeySym.SPACE: Command.PAUSE_REPLAY,
    "+": Command.FASTER,
    "=": Command.FASTER,  # `+` without Shift on US keyboards.
    "-": Command.SLOWER,
    KeySym.ESCAPE: Command.STOP_REPLAY,
}

# In a terminal too small for the game (`terminal.front_end`), besides Ctrl+C: the keys
# that leave a menu or the game elsewhere save and quit, as the line there says.
TOO_SMALL_QUIT_KEYS: Final = frozenset({KeySym.ESCAPE, KeySym.Q})

# In a terminal under 50 rows, where a window taller than it is shown a page at a time
# (`terminal.view`): the pages these keys turn; elsewhere they are the screen's.
PAGE_KEYS: Final[dict[KeySym, int]] = {
    KeySym.PAGEUP: -1,
    KeySym.PAGEDOWN: 1,
}

MODIFIER_CODES: Final = frozenset(map(int, MODIFIER_KEYS))

# Keys that work on every screen, handled by the main loop: (key, modifier).  Speech is
# Minecraft's narrator key (Ctrl+B), which no screen reader takes: one chord, at the menu or
# anywhere, before anything is said; the terminal sends it as a byte of its own (0x02).
GLOBAL_KEYS: Final[dict[tuple[KeySym, Modifier], Command]] = {
    (KeySym.RETURN, Modifier.ALT): Command.FULLSCREEN,
    (KeySym.KP_ENTER, Modifier.ALT): Command.FULLSCREEN,
    (KeySym.F12, Modifier.NONE): Command.SCREENSHOT,
    (KeySym.B, Modifier.CTRL): Command.SPEECH,
}

def is_symbol(text: str) -> bool:
    """Whether `text` is one printable ASCII character, not a letter, digit or space.

    Symbols are bound by the character typed because each keyboard layout puts
    them on other keys (`>` is Shift+`.` in the US, Shift+`<` in Germany);
    letters and digits stay keys, since Shift+letter runs and numpad digits move.
    """
    return len(text) == 1 and text.isascii() and text.isprintable() and not text.isalnum() and text != " "


def types_symbol(key: KeySym) -> bool:
    """Whether a key's KeyDown is that of a symbol: its TextInput acts, not it."""
    code = int(key)  # Not `key.value`: an enum's property, asked several times an event.
    return code < 128 and is_symbol(chr(code))


def does_nothing(event: tcod.event.Event) -> bool:
    """Whether a key event means nothing on any screen, so that one press acts once.

    A press comes as a KeyDown and then a TextInput: a symbol acts by its
    TextInput only, a letter by its KeyDown only, a lone modifier never.
    """
    match event:
        case tcod.event.KeyDown():
            # By number: tcod's KeySym hashes in Python, and each event is asked
            # this three times (a tenth of `--verify`'s time).
            return int(event.sym) in MODIFIER_CODES or types_symbol(event.sym)
        case tcod.event.TextInput():
            return not is_symbol(event.text)
    return False


def key_of(event: tcod.event.KeyDown | tcod.event.TextInput) -> Key:
    """What a binding names for this event: the key pressed, or the symbol typed."""
    if isinstance(event, tcod.event.TextInput):
        return event.text
    return event.sym


def is_chord(event: tcod.event.KeyDown, key: KeySym, modifier: Modifier) -> bool:
    """Whether the event is `key` with `modifier` held (either side's), or with
    no modifier at all when `modifier` is NONE; lock keys don't count."""
    held = event.mod & modifier if modifier else not event.mod & ~IGNORED_MODIFIERS
    return event.sym == key and bool(held)


def global_command(event: tcod.event.KeyDown) -> Command | None:
    """The command of a key that means the same on every screen, if it is one."""
    for (key, modifier), command in GLOBAL_KEYS.items():
        if event.sym == key and is_chord(event, key, modifier):
            return command
    return None


def main_command(event: tcod.event.Event, tables: KeyTables) -> Command | None:
    """The dungeon's command that a key press or typed symbol gives by `tables`, if any."""
    if not isinstance(event, tcod.event.KeyDown | tcod.event.TextInput) or does_nothing(event):
        return None
    return tables.main.get(key_of(event))


def target_step(event: tcod.event.KeyDown) -> int | None:
    """How far along the enemies in view a key moves a targeting cursor, if it does."""
    for (key, modifier), step in TARGET_KEYS.items():
        if is_chord(event, key, modifier):
            return step
    return None


def cursor_step(mod: Modifier) -> int:
    """How many tiles one cursor key press moves, given the modifiers held."""
    step = 1
    for modifier, factor in CURSOR_MODIFIERS.items():
        if mod & modifier:
            step *= factor
    return step


def letter_key(letter: str) -> KeySym:
    """The key that types an inventory letter, `a` to `z`."""
    return KeySym(ord(letter))


def letter_index(key: KeySym) -> int | None:
    """0 for `a` up to 25 for `z`; None for any other key."""
    index = key.value - KeySym.A.value
    return index if 0 <= index < 26 else None
