"""The player's options, each declared once as a field of `Options` (the
screen, the file `options.txt` and the game all read that one line), and the
settings in force.  An option missing from the file keeps its default, so a
file from before the option existed still loads."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Final, Generic, NamedTuple, TypeVar, cast

from controls.keys import KeyTables
from saving import paths, safe_io, savefile
from window import palettes

T = TypeVar("T")

# An options file is a few hundred bytes; anything much bigger is not one.
MAX_BYTES: Final = 4096
HEADER: Final = "# Tombs of the Ancient Kings: the options (the game rewrites this file)."


class OptionsError(ValueError):
    """The options file is not one this game wrote; the message says where."""


@dataclass(frozen=True)
class Choice(Generic[T]):
    """An option the screen lists: its label, and its values in the order Right
    steps through them, each with the name shown and written."""

    label: str
    names: Mapping[T, str]

    def format(self, value: T) -> str:
        """The name of `value`."""
        return self.names[value]

    def parse(self, text: str) -> T:
        """The value named `text`; OptionsError if none is."""
        for value, name in self.names.items():
            if name == text:
                return value
        raise OptionsError(f"{text!r} is none of {', '.join(self.names.values())}")

    def step(self, value: T, by: int) -> T:
        """The value `by` places after `value`, round the list."""
        values = list(self.names)
        return values[(values.index(value) + by) % len(values)]


class Placement(NamedTuple):
    """Where the window was, windowed: its size and its top-left corner, in pixels."""

    width: int
    height: int
    x: int
    y: int


class Remembered:
    """Where the window was, kept in the file for the next start but not on the
    screen; written as X11 writes a geometry, `1600x1000+160+40`."""

    PATTERN: Final = re.compile(r"(\d{1,5})x(\d{1,5})([+-]\d{1,5})([+-]\d{1,5})")

    def format(self, value: Placement) -> str:
        """`value` as a geometry."""
        return f"{value.width}x{value.height}{value.x:+d}{value.y:+d}"

    def parse(self, text: str) -> Placement:
        """The placement a geometry names; OptionsError if it is none."""
        match = self.PATTERN.fullmatch(text)
        if match is None:
            raise OptionsError(f"{text!r} is not a size and place like 1600x1000+160+40")
        width, height, x, y = map(int, match.groups())
        if width < 1 or height < 1:
            raise OptionsError(f"{text!r} is an empty window")
        return Placement(width, height, x, y)


class Declared(NamedTuple):
    """How an option of `Options` is shown (a `Choice`, or `Remembered`) and whether it
    changes play: its field's metadata, under `DECLARATION`."""

    setting: Choice[Any] | Remembered
    changes_play: bool = False


# The key of a field's metadata that holds how `Options` declares that option.
DECLARATION: Final = "option"


def declaration(setting: Choice[Any] | Remembered, changes_play: bool = False) -> dict[str, Declared]:
    """The metadata of a field of `Options`: how its option is shown (`Declared`)."""
    return {DECLARATION: Declared(setting, changes_play)}


def option(label: str, names: Mapping[T, str], changes_play: bool = False) -> dict[str, Declared]:
    """The metadata of an option of `Options` that the screen lists under `label`.

    An option that `changes_play` (what a key does, not how the game looks) is
    kept in each recording, which replays by its own (`replays.rules`).
    """
    return declaration(Choice(label, names), changes_play)


# The tile sizes the game has sheets of (`assets.TILESET_PATHS`), by their side in pixels.
TILE_SIZES: Final[Mapping[int, str]] = {10: "10x10", 16: "16x16", 24: "24x24"}

# Steps a walk takes a second (see `controls.travel`), the default first.
STEPS_PER_SECOND: Final = 40
WALK_SPEEDS: Final[Mapping[int, str]] = {10: "slow", 20: "medium", 40: "fast", 80: "very fast"}

# Autofight refuses below this share of HP, in per cent (DCSS's `autofight_stop`).  DCSS's 50
# by default would refuse from floor 1 on here, where HP never come back but by a potion (4 HP).
AUTOFIGHT_STOPS: Final[Mapping[int, str]] = {0: "never", 25: "25% HP", 50: "50% HP", 75: "75% HP"}

# How a player turns speech on with the keyboard alone, before anything is spoken: the
# speech key on any screen (`keys.GLOBAL_KEYS`), or = (the options, in the menu and the
# dungeon, on their first row), Up (which wraps to Speech, the last), Right.
SPEECH_KEYS: Final = "Ctrl+B on any screen, or = then Up then Right"


@dataclass(frozen=True)
class Options:
    """Every option, with its default.  `Options(walk_speed=80)`: those named, the rest
    at their defaults; `dataclasses.replace` makes a copy with some changed (none is
    changed in place)."""

    tile_size: int = field(default=10, metadata=option("Tile size", TILE_SIZES))
    palette: palettes.Palette = field(default=palettes.TUTORIAL, metadata=option("Colours", palettes.NAMES))
    fullscreen: bool = field(default=False, metadata=option("Fullscreen", {False: "off", True: "on"}))
    walk_speed: int = field(default=STEPS_PER_SECOND, metadata=option("Walk speed", WALK_SPEEDS))
    gather_items: bool = field(
        default=True, metadata=option("Explore picks up items", {True: "on", False: "off"}, changes_play=True)
    )
    # Recordings keep what each press of autofight did, so not this (`controls.autofight`).
    autofight_stop: int = field(
        default=25, metadata=option("Autofight stops below", AUTOFIGHT_STOPS, changes_play=True)
    )
    # Read at start-up: started from a terminal, the game plays as text (`--screen-reader`).
    screen_reader: bool = field(default=False, metadata=option("Screen reader", {False: "off", True: "on"}))
    # The window and the terminal speak each key's news (`window.speech`); the last row,
    # reached by Up from the first, as the options screen says (`SPEECH_KEYS`).
    speech: bool = field(default=False, metadata=option("Speech", {False: "off", True: "on"}))
    # Not on the screen: where the window was when the game last closed.
    window: Placement | None = field(default=None, metadata=declaration(Remembered()))


# Each option's declaration, by name, in the order `Options` declares them.
DECLARED: Final[dict[str, Declared]] = {
    each.name: each.metadata[DECLARATION] for each in fields(Options)
}


def settings() -> dict[str, Any]:
    """Each option of `Options` by name, with how it is written (a `Choice` or `Remembered`)."""
    return {name: declared.setting for name, declared in DECLARED.items()}


def choices() -> dict[str, Choice[Any]]:
    """The options the options screen lists, by field name, in declaration order."""
    return {name: setting for name, setting in settings().items() if isinstance(setting, Choice)}


def play_choices() -> dict[str, Choice[Any]]:
    """The options that change what a key does, by field name: a recording keeps them."""
    return {
        name: cast(Choice[Any], declared.setting)
        for name, declared in DECLARED.items()
        if declared.changes_play
    }


def to_text(options: Options) -> str:
    """The file's text: a header, then a line `name = value` for each option set."""
    lines = [HEADER]
    for name, setting in settings().items():
        value = getattr(options, name)
        if value is not None:
            lines.append(f"{name} = {setting.format(value)}")
    return "\n".join(lines) + "\n"


def parse(text: str) -> tuple[Options, list[str]]:
    """The options a file's text sets, the rest at their defaults; and each line
    that is not one this game writes, named with why (that option keeps its default)."""
    known = settings()
    values: dict[str, Any] = {}
    problems: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, equals, value = (part.strip() for part in line.partition("="))
        try:
            if not equals or name not in known:
                raise OptionsError("not an option")
            if name in values:
                raise OptionsError("set twice")
            values[name] = known[name].parse(value)
        except OptionsError as exc:
            problems.append(f"line {number}: {exc}")
    return Options(**values), problems


def load(path: Path) -> tuple[Options, list[str]]:
    """The options in `path` (or the defaults if there is no file yet), and its lines that
    could not be used.  OptionsError for a file that is not one, OSError for one that can't be read.
    """
    try:
        # Only a regular file (a FIFO would hang the game), and only so much of it.
        data = savefile.read_file(path)
    except FileNotFoundError:
        return Options(), []
    except savefile.SaveError as exc:
        raise OptionsError("not a regular file of an options file's size") from exc
    if len(data) > MAX_BYTES:
        raise OptionsError("too big")
    try:
        # A byte-order mark (Windows Notepad's) is read as nothing.
        return parse(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise OptionsError("not text") from exc


def save(options: Options, path: Path) -> None:
    """Write the options to `path` atomically (flushed to disk after the frame, `safe_io`)."""
    safe_io.remove_temporaries(path)
    safe_io.write_atomic(path, to_text(options).encode("utf-8"))


def read(keep_aside: bool = True) -> tuple[Options, str | None]:
    """The player's options, and a line for the player if their file could not all be used.

    Where the player plays (`keep_aside`), a damaged file is moved aside, and a file
    with lines the game can't use is copied aside, so that the next save does not
    overwrite what the player wrote.  A replay, `--verify` and `--follow` only read.
    """
    path = paths.options_path()
    bad = path.with_name(path.name + ".bad")
    try:
        chosen, problems = load(path)
    except OptionsError as exc:
        return Options(), _damaged(path, bad, exc, keep_aside)
    except OSError as exc:
        return Options(), (
            f"Could not read the options file {paths.shown(path)} ({exc.strerror or exc}): the defaults apply."
        )
    if not problems:
        return chosen, None
    return chosen, _lines_not_used(path, bad, problems, keep_aside)


def _damaged(path: Path, bad: Path, exc: OptionsError, keep_aside: bool) -> str:
    """What the player is told of a file that is no options file; the file moved aside."""
    if not keep_aside:
        return f"The options file {paths.shown(path)} is damaged ({exc}): the defaults apply."
    try:
        os.replace(path, bad)
    except OSError as move_error:
        return (
            f"The options file {paths.shown(path)} is damaged ({exc}) and could not be moved aside "
            f"({move_error.strerror or move_error}): the defaults apply."
        )
    return f"The options file {paths.shown(path)} was damaged ({exc}): kept as {bad.name}, the defaults apply."


def _lines_not_used(path: Path, bad: Path, problems: list[str], keep_aside: bool) -> str:
    """What the player is told of lines of their file that were not used; the file copied aside."""
    said = "; ".join(problems[:3]) + ("; ..." if len(problems) > 3 else "")
    text = f"Some lines of the options file {paths.shown(path)} were not used ({said}): those options keep their defaults"
    if not keep_aside:
        return f"{text}."
    try:
        safe_io.write_atomic(bad, savefile.read_file(path))
    except (OSError, savefile.SaveError) as exc:
        kept = f"it could not be copied aside ({getattr(exc, 'strerror', None) or exc})"
    else:
        kept = f"the file is copied as {bad.name}"
    return f"{text}; {kept}."


class Settings:
    """The options and keys in force: one object shared by the main menu and
    every game it starts, so that the options screen changes them for all.

    A change applies at once; the main loop keeps it in the player's file after
    the frame (`keep_changes`)."""

    def __init__(
        self, options: Options | None = None, keys: KeyTables | None = None, keep: bool = True, greet: bool = False
    ) -> None:
        self.options = Options() if options is None else options
        self.keys = KeyTables() if keys is None else keys
        # Whether a change is kept in the player's options file: not for a replay's game.
        self.keep = keep
        # Whether `options` changed since the file was read or written.
        self.changed = False
        # Whether this is the first start (no options file was found): speech says how it is
        # turned on, once (`window.speech`).
        self.greet = greet

    def private(self) -> Settings:
        """A copy whose changes apply to one game alone, the player's file left as it is."""
        return Settings(self.options, self.keys, keep=False)

    def change(self, options: Options) -> None:
        """Use `options` from now on (kept in the file after the frame)."""
        self.options = options
        self.changed = True

    def keep_changes(self) -> str | None:
        """Write the options to the player's file if they changed; a line for the
        player if they could not be kept (they apply all the same)."""
        if not (self.changed and self.keep):
            return None
        self.changed = False
        path = paths.options_path()
        try:
            save(self.options, path)
        except OSError as exc:
            return f"Could not save the options in {paths.shown(path)}: {exc.strerror or exc}"
        return None
