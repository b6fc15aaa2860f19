"""A recording's lines: how each event the game acts on, and each value it records
(a walk's steps, autofight's bump, a resumed game, the rules in force), becomes a
line of text and is read back.  docs/formats.md describes every line.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Final

import tcod.event
from tcod.event import KeySym, Modifier, MouseButton

from controls import keys
from replays import rules
from replays.rules import Rule

FORMAT_NAME: Final = "recording"
FORMAT_VERSION: Final = 4
# Format 1 is format 2 without `text` lines; format 2 is format 3 played
# with the tutorial's inventory letters; format 3 is format 4 without its
# bindings and options (`rules`), replayed by the viewer's.
READABLE_VERSIONS: Final = (1, 2, 3, 4)
LETTERS_BY_KIND_SINCE: Final = 3
# The comment after the seed that says a game is the daily game of a date
# (`replays.daily`): a comment, so every format reads it.
DAILY_PREFIX: Final = "# daily "
# The comment a save adds to its recording, saying which game it holds (`recording.save_line`).
SAVED_PREFIX: Final = "# saved "

# Each modifier word, and what a replayed event holds: the left key, as SDL
# reports a real press.
MODIFIER_WORDS: Final[dict[str, tuple[Modifier, Modifier]]] = {
    "shift": (Modifier.SHIFT, Modifier.LSHIFT),
    "ctrl": (Modifier.CTRL, Modifier.LCTRL),
    "alt": (Modifier.ALT, Modifier.LALT),
}

# A `click` with no button word is the left button.
BUTTON_WORDS: Final[dict[str, MouseButton]] = {
    button.name.lower(): button for button in MouseButton if button is not MouseButton.LEFT
}

# The largest seed the game's generators take (as `--seed` checks).
MAX_SEED: Final = 2**64 - 1
MAX_NUMBER: Final = 1_000_000

RecordedEvent = (
    tcod.event.KeyDown | tcod.event.TextInput | tcod.event.MouseButtonDown | tcod.event.MouseMotion
)

# Format 1 recorded `>` and `?` as these US keys with Shift.
US_SHIFTED: Final[dict[KeySym, str]] = {KeySym.PERIOD: ">", KeySym.SLASH: "?"}


@dataclasses.dataclass(frozen=True)
class Steps:
    """A `steps N` line: the walk under way stopped after `count` steps."""

    count: int

    def line(self) -> str:
        return f"steps {self.count}"


@dataclasses.dataclass(frozen=True)
class Autofight:
    """An `autofight DX DY` line: autofight's key bumped that way (`controls.autofight`);
    `autofight` alone: it was refused, at no cost."""

    direction: tuple[int, int] | None = None

    def line(self) -> str:
        if self.direction is None:
            return "autofight"
        dx, dy = self.direction
        return f"autofight {dx} {dy}"


@dataclasses.dataclass(frozen=True)
class Resume:
    """A `resume` line: the game left on a menu goes on from its save, on the dungeon's screen."""

    def line(self) -> str:
        return "resume"


Recorded = RecordedEvent | Steps | Resume | Autofight | Rule
RULE_WORDS: Final = ("bind ", "option ")
HEAD_LINES: Final = 2  # A recording's format and seed.


def letters_by_kind(version: int) -> bool:
    """Whether a recording of this format kept inventory letters by kind, not by place."""
    return version >= LETTERS_BY_KIND_SINCE


def header(
    seed: int,
    version: int = FORMAT_VERSION,
    in_force: Iterable[Rule] = (),
    daily: str | None = None,
) -> list[str]:
    """The first lines of every recording: the format, the game's seed (and a
    daily game's date), then the rules `in_force` (from format 4 on)."""
    dated = [] if daily is None else [f"{DAILY_PREFIX}{daily}"]
    return [f"{FORMAT_NAME} {version}", f"seed {seed}", *dated, *(rule.line() for rule in in_force)]


def line_of(event: tcod.event.Event | Recorded) -> str | None:
    """The line that records `event`, or None for a kind of event never recorded.

    Mouse events must be in tile coordinates, as `context.convert_event` leaves them.
    """
    match event:
        case Steps() | Resume() | Autofight() | rules.Bind() | rules.SetOption():
            return event.line()
        case tcod.event.KeyDown():
            words = [event.sym.name.lower()]
            mod = int(event.mod)  # Ints' `&`: a Modifier's makes a new flag in Python, three an event.
            words += [word for word, (held, _) in MODIFIER_WORDS.items() if mod & int(held)]
            return "key " + " ".join(words)
        case tcod.event.TextInput() if keys.is_symbol(event.text):
            return f"text {event.text}"
        case tcod.event.MouseButtonDown():
            x, y = event.integer_position
            button = "" if event.button is MouseButton.LEFT else f" {event.button.name.lower()}"
            return f"click {x} {y}{button}"
        case tcod.event.MouseMotion():
            x, y = event.integer_position
            return f"move {x} {y}"
    return None


def _tile(x: int, y: int) -> dict[str, tcod.event.Point[float] | tcod.event.Point[int]]:
    """A mouse event's position arguments for tile (x, y): the pointer mid-tile."""
    return {"position": tcod.event.Point(x + 0.5, y + 0.5), "tile": tcod.event.Point(x, y)}


def _number(word: str, low: int = -MAX_NUMBER, high: int = MAX_NUMBER) -> int:
    """The whole number `word`, from `low` to `high`; ValueError saying why not."""
    try:
        number = int(word) if len(word) <= len(str(high)) + 1 else None
    except ValueError:
        raise ValueError(f"{word[:20]!r} is not a whole number") from None
    if number is None or not low <= number <= high:
        raise ValueError(f"{word[:20]!r} is not a whole number from {low} to {high}")
    return number


def event_of(line: str) -> Recorded:
    """The event a line records (the inverse of `line_of`); ValueError saying what is wrong."""
    command, *words = line.split()
    match command:
        case "key":
            return _key_event(words)
        case "text":
            if len(words) != 1 or not keys.is_symbol(words[0]):
                raise ValueError("'text' takes one symbol, such as >")
            return tcod.event.TextInput(text=words[0])
        case "click":
            return _click_event(words)
        case "move":
            if len(words) != 2:
                raise ValueError("'move' takes X Y")
            x, y = _number(words[0]), _number(words[1])
            return tcod.event.MouseMotion(**_tile(x, y))  # type: ignore[arg-type]
        case "steps":
            if len(words) != 1:
                raise ValueError("'steps' takes N")
            return Steps(_number(words[0], 0))
        case "resume":
            if words:
                raise ValueError("'resume' takes nothing")
            return Resume()
        case "autofight":
            return _autofight(words)
        case "bind" | "option":
            return rules.rule_of(command, words)
    raise ValueError(
        f"unknown event {command[:20]!r} (key, text, click, move, steps, resume, autofight, bind or option)"
    )


def _autofight(words: list[str]) -> Autofight:
    """The press of `autofight [DX DY]`: a bump to a neighbouring tile, or none."""
    if not words:
        return Autofight()
    if len(words) != 2:
        raise ValueError("'autofight' takes DX DY (each -1, 0 or 1), or nothing")
    direction = _number(words[0], -1, 1), _number(words[1], -1, 1)
    if direction == (0, 0):
        raise ValueError("'autofight 0 0' bumps no neighbour")
    return Autofight(direction)


def _key_event(words: list[str]) -> tcod.event.KeyDown | tcod.event.TextInput:
    """The event of `key NAME [MODIFIER...]`."""
    if not words:
        raise ValueError("'key' needs a key name")
    name, *modifiers = words
    try:
        sym = KeySym[name.upper()]
    except KeyError:
        raise ValueError(f"unknown key name {name[:40]!r}") from None
    mod = Modifier.NONE
    for word in modifiers:
        if word not in MODIFIER_WORDS:
            raise ValueError(f"unknown modifier {word[:20]!r} (shift, ctrl or alt)")
        mod |= MODIFIER_WORDS[word][1]
    symbol = legacy_symbol(sym, mod)
    if symbol is not None:
        return tcod.event.TextInput(text=symbol)
    return tcod.event.KeyDown(scancode=tcod.event.Scancode.UNKNOWN, sym=sym, mod=mod)


def _click_event(words: list[str]) -> tcod.event.MouseButtonDown:
    """The event of `click X Y [BUTTON]`."""
    if len(words) not in (2, 3):
        raise ValueError("'click' takes X Y and optionally a button")
    x, y = _number(words[0]), _number(words[1])
    button = MouseButton.LEFT
    if len(words) == 3:
        if words[2] not in BUTTON_WORDS:
            raise ValueError(f"unknown button {words[2][:20]!r}")
        button = BUTTON_WORDS[words[2]]
    return tcod.event.MouseButtonDown(**_tile(x, y), button=button)  # type: ignore[arg-type]


def legacy_symbol(sym: KeySym, mod: Modifier) -> str | None:
    """The symbol a format-1 `key` line stands for (`key period shift` is `>`), else None.

    A symbol's KeyDown does nothing now (`keys.does_nothing`), its text does,
    so such a line is read as the text the US keys type.
    """
    if not keys.types_symbol(sym):
        return None
    if mod & Modifier.SHIFT and sym in US_SHIFTED:
        return US_SHIFTED[sym]
    return chr(sym.value)


def check_version(line: str) -> int:
    """The format version the first line names, if one this game reads."""
    words = line.split()
    if len(words) != 2 or words[0] != FORMAT_NAME:
        raise ValueError(f"not a recording: the first line must be '{FORMAT_NAME} {FORMAT_VERSION}'")
    if words[1] not in [str(version) for version in READABLE_VERSIONS]:
        raise ValueError(
            f"a recording of format version {words[1][:20]}; this game reads versions "
            f"{', '.join(map(str, READABLE_VERSIONS))}"
        )
    return int(words[1])


def seed_of(line: str) -> int:
    """The seed the second line names, if one the game's generators take."""
    words = line.split()
    if len(words) != 2 or words[0] != "seed":
        raise ValueError("the second line must be 'seed N'")
    return _number(words[1], 0, MAX_SEED)


def version_of(lines: Sequence[str]) -> int:
    """The format of a game's recording, from its first lines (a save's, checked when loaded)."""
    return check_version(lines[0]) if lines else FORMAT_VERSION


def rule_of(line: str) -> list[Rule]:
    """The rule a line records, if it is one (a save's lines are checked when loaded)."""
    event = event_of(line)
    return [event] if isinstance(event, Rule) else []
