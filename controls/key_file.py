"""The player's own keys: `keys.txt` in the data folder, read over the defaults.

Plain text as in DCSS's key files, one dungeon command a line followed by
keys it takes beside its defaults (`explore e`), `clear COMMAND` to take a
command's keys away first, or `preset NAME`.  The file is
untrusted: a bad line is named and skipped, and the rest still applies.
"""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path
from typing import Final

from tcod.event import KeySym, Modifier

from controls import keys
from controls.key_help import DIRECTION_NAMES, key_name
from controls.keys import Command, Key
from saving import paths, savefile

MAX_BYTES: Final = 16 * 1024  # A key file is a few hundred bytes.

# Key files that ship with the game, for `preset NAME`.
PRESETS: Final[dict[str, str]] = {
    "laptop": """\
# For a laptop without a numpad: wait with s as well as . (as in DCSS).
# The vi keys (h j k l y u b n) and the arrows move; Shift with them runs.
wait . s
""",
    "qwertz": """\
# For a QWERTZ keyboard (German, Swiss, Czech...), where Y and Z trade places:
# northwest is the key printed Y, and also the key beside T (printed Z),
# where the vi keys put it.
move_northwest y z
""",
}

# What a line can bind: a dungeon command, a direction to move, or waiting.
WAIT: Final = "wait"
CLEAR: Final = "clear"  # `clear COMMAND`: the command loses its keys, defaults and all.
Action = Command | tuple[int, int] | str

COMMAND_NAMES: Final[dict[str, Action]] = {
    **{command.name.lower(): command for command in dict.fromkeys(keys.MAIN_KEYS.values())},
    **{f"move_{name}": direction for direction, name in DIRECTION_NAMES.items()},
    WAIT: WAIT,
}


@functools.cache  # Made when a key file is first read: most starts have none.
def key_names() -> dict[str, Key]:
    """Every key by each of its names, in lower case: `up`, `kp_8`, `num8`, `pgup`."""
    names: dict[str, Key] = {}
    for sym in KeySym:
        if keys.types_symbol(sym):
            continue  # A symbol is written as itself.
        names.setdefault(sym.name.lower(), sym)
        names.setdefault(key_name(sym).replace(" ", "").lower(), sym)
    return names


class KeyFileError(Exception):
    """A key file that can't be used at all; `str()` says why, in one line."""


@dataclasses.dataclass
class Bindings:
    """The dungeon's keys: what each action takes, and the lines that were refused."""

    keys_of: dict[Action, list[Key]]
    refused: list[str] = dataclasses.field(default_factory=list)

    @classmethod
    def defaults(cls) -> Bindings:
        """The bindings of the default key tables."""
        return cls.of(keys.KeyTables())

    @classmethod
    def of(cls, tables: keys.KeyTables) -> Bindings:
        """The bindings that make `tables` (the inverse of `tables()`)."""
        keys_of: dict[Action, list[Key]] = {action: [] for action in COMMAND_NAMES.values()}
        for key, command in tables.main.items():
            keys_of[command].append(key)
        for key, direction in tables.move.items():
            keys_of[direction].append(key)
        keys_of[WAIT].extend(tables.wait)
        return cls(keys_of)

    def holder(self, key: Key) -> Action | None:
        """The action `key` is bound to, if any."""
        for action, bound in self.keys_of.items():
            if key in bound:
                return action
        return None


def key_of(word: str) -> Key:
    """The key a word of the file names; ValueError if none."""
    if keys.is_symbol(word):
        return word
    try:
        return key_names()[word.lower()]
    except KeyError:
        raise ValueError(f"unknown key {word[:20]!r}") from None


def reachable(key: Key) -> Key:
    """`key`, if the dungeon ever sees it pressed; ValueError naming why not: a modifier
    alone means nothing (`keys.does_nothing`), and the main loop keeps the keys of every screen."""
    if isinstance(key, str):
        return key
    if key in keys.MODIFIER_KEYS:
        raise ValueError(f"{key_name(key)} alone does nothing: a modifier acts only with another key")
    for (held, modifier), command in keys.GLOBAL_KEYS.items():
        if held == key and modifier == Modifier.NONE:
            raise ValueError(f"{key_name(key)} is {command.name.lower()} on every screen: it never reaches the dungeon")
    return key


def action_name(action: Action) -> str:
    """The name a key file gives `action`."""
    for name, named in COMMAND_NAMES.items():
        if named == action:
            return name
    raise AssertionError(action)


def apply_line(bindings: Bindings, line: str, depth: int = 0) -> None:
    """Apply one line of a key file; ValueError says why it can't be."""
    word, *rest = line.split()
    if word == "preset":
        if len(rest) != 1:
            raise ValueError("'preset' takes one name")
        apply_text(bindings, read_preset(rest[0]), f"preset {rest[0]}", depth + 1)
        return
    if word == CLEAR:
        if len(rest) != 1 or rest[0] not in COMMAND_NAMES:
            raise ValueError(f"'{CLEAR}' takes one command, such as '{CLEAR} wait'")
        bindings.keys_of[COMMAND_NAMES[rest[0]]] = []
        return
    if word not in COMMAND_NAMES:
        raise ValueError(f"unknown command {word[:20]!r}")
    if not rest:
        raise ValueError(f"'{word}' needs at least one key")
    action = COMMAND_NAMES[word]
    wanted = [reachable(key_of(name)) for name in rest]
    if isinstance(action, tuple) and any(isinstance(key, str) for key in wanted):
        raise ValueError("a move takes keys, not symbols (Shift with a move key runs)")
    for key in wanted:
        holder = bindings.holder(key)
        if holder is not None and holder != action:
            raise ValueError(f"{key_name(key)} is already {action_name(holder)}")
    # Differs from before: the keys are added to the command's, not put in their place.
    bindings.keys_of[action] = list(dict.fromkeys([*bindings.keys_of[action], *wanted]))


def apply_text(bindings: Bindings, text: str, source: str, depth: int = 0) -> None:
    """Apply every line of a key file's text; each bad line is kept in `refused`."""
    if depth > len(PRESETS):
        raise KeyFileError(f"{source}: presets include each other without end")
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip() if not raw.strip().startswith("#") else ""
        if not line:
            continue
        try:
            apply_line(bindings, line, depth)
        except ValueError as exc:
            bindings.refused.append(f"{source}, line {number}: {exc}")


def read_preset(name: str) -> str:
    """The text of a shipped preset; ValueError if there is none of that name."""
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name[:20]!r} ({', '.join(PRESETS)})")
    return PRESETS[name]


def read_text(path: Path) -> str | None:
    """The text of the key file at `path`, or None if there is none.

    KeyFileError if it is not a regular text file of at most MAX_BYTES.
    """
    try:
        data = savefile.read_file(path)
    except FileNotFoundError:
        return None
    except savefile.SaveError:
        raise KeyFileError(f"{paths.shown(path)} is not a regular file of at most {MAX_BYTES} bytes") from None
    except OSError as exc:
        raise KeyFileError(f"could not read {paths.shown(path)}: {exc.strerror or exc}") from None
    if len(data) > MAX_BYTES:
        raise KeyFileError(f"{paths.shown(path)} is bigger than {MAX_BYTES} bytes")
    try:
        return data.decode("utf-8-sig")  # A byte-order mark (Windows Notepad's) is nothing.
    except UnicodeDecodeError:
        raise KeyFileError(f"{paths.shown(path)} is not text") from None


def tables(bindings: Bindings) -> keys.KeyTables:
    """The dungeon's key tables that `bindings` make."""
    move: dict[KeySym, tuple[int, int]] = {}
    wait: list[Key] = []
    main: dict[Key, Command] = {}
    for action, bound in bindings.keys_of.items():
        for key in bound:
            if isinstance(action, Command):
                main[key] = action
            elif isinstance(action, tuple):
                assert isinstance(key, KeySym), "apply_line lets only keys move"
                move[key] = action
            else:
                wait.append(key)
    return keys.KeyTables(move, tuple(wait), main)


def load() -> tuple[keys.KeyTables, str | None]:
    """The key tables of the player's key file (or the defaults), and a notice
    for the player if it or any of its lines could not be used."""
    path = paths.keys_path()
    bindings = Bindings.defaults()
    try:
        text = read_text(path)
        if text is None:
            return keys.KeyTables(), None
        apply_text(bindings, text, path.name)
    except KeyFileError as exc:
        return keys.KeyTables(), f"The key file was not used: {exc}. The default keys apply."
    if not bindings.refused:
        return tables(bindings), None
    return tables(bindings), "Some lines of the key file were not used:\n" + "\n".join(bindings.refused[:8])
