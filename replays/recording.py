"""Recordings: a game as its seed, then each input event it acted on, one text line each.

All of the game's randomness comes from the seed, so the same lines replay the same game.
This module holds the format (an event to its line and back; docs/formats.md describes
every line) and the recording's file.  The lines themselves live on the `Engine` and are
saved with the game, so Continue carries on the same recording and it always matches its
save.  Play only adds lines (`record`); the main loop writes them to the file after each
frame (`write_new`), so a replay, `--verify` and `--follow` write none.
"""

from __future__ import annotations

import datetime
import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

import tcod.event
from tcod.event import KeySym, Modifier, MouseButton

import color
from controls import keys
from replays import rules
from replays.rules import Rule
from saving import paths, safe_io
from window.options import Settings
from words import program

if TYPE_CHECKING:
    from engine import Engine
    from input_handlers import BaseEventHandler

FORMAT_NAME: Final = "recording"
FORMAT_VERSION: Final = 4
# Format 1 is format 2 without `text` lines; format 2 is format 3 played
# with the tutorial's inventory letters; format 3 is format 4 without its
# bindings and options (`rules`), replayed by the viewer's.
READABLE_VERSIONS: Final = (1, 2, 3, 4)
LETTERS_BY_KIND_SINCE: Final = 3
SUFFIX: Final = ".rec"
NOT_WRITTEN: Final = (
    "The recording could not be written ({reason}): it is kept with the game and saved "
    "with it, but a crash before the next save would lose what is played until then."
)
# The comment after the seed that says a game is the daily game of a date
# (`replays.daily`): a comment, so every format reads it.
DAILY_PREFIX: Final = "# daily "

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

# Bounds on what reading a recording may cost: a long game is some 20,000
# lines of a dozen bytes; 2 MiB holds ten times that and parses in about a second.
MAX_BYTES: Final = 2 << 20
MAX_LINE: Final = 200
# The largest seed the game's generators take (as `--seed` checks).
MAX_SEED: Final = 2**64 - 1
MAX_NUMBER: Final = 1_000_000

RecordedEvent = (
    tcod.event.KeyDown | tcod.event.TextInput | tcod.event.MouseButtonDown | tcod.event.MouseMotion
)

# Format 1 recorded `>` and `?` as these US keys with Shift.
US_SHIFTED: Final[dict[KeySym, str]] = {KeySym.PERIOD: ">", KeySym.SLASH: "?"}


@dataclass(frozen=True)
class Steps:
    """A `steps N` line: the walk under way stopped after `count` steps."""

    count: int

    def line(self) -> str:
        return f"steps {self.count}"


@dataclass(frozen=True)
class Autofight:
    """An `autofight DX DY` line: autofight's key bumped that way (`controls.autofight`);
    `autofight` alone: it was refused, at no cost."""

    direction: tuple[int, int] | None = None

    def line(self) -> str:
        if self.direction is None:
            return "autofight"
        dx, dy = self.direction
        return f"autofight {dx} {dy}"


@dataclass(frozen=True)
class Resume:
    """A `resume` line: the game left on a menu goes on from its save, on the dungeon's screen."""

    def line(self) -> str:
        return "resume"


Recorded = RecordedEvent | Steps | Resume | Autofight | Rule
RULE_WORDS: Final = ("bind ", "option ")


class RecordingError(Exception):
    """A recording that can't be replayed; `str()` names the file and the line at fault."""


@dataclass(frozen=True)
class Script:
    """A recording read from text: the game's seed, the rules its header names
    (what its keys meant when it started), and its events in order."""

    seed: int
    events: list[Recorded]
    version: int = FORMAT_VERSION
    rules: tuple[Rule, ...] = ()
    daily: str | None = None  # The date of a daily game, as its `# daily` line says.


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
            words += [word for word, (held, _) in MODIFIER_WORDS.items() if event.mod & held]
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


def parse(text: str, source: str) -> Script:
    """Read a recording's text; RecordingError names `source` and the line at fault."""
    version: int | None = None
    seed: int | None = None
    daily: str | None = None
    events: list[Recorded] = []
    in_header: list[Rule] = []
    number = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if len(line) > MAX_LINE:
            raise RecordingError(f"{source}, line {number}: longer than {MAX_LINE} characters")
        if line.startswith(DAILY_PREFIX) and seed is not None and not events:
            daily = line.removeprefix(DAILY_PREFIX)
        if not line or line.startswith("#"):
            continue
        try:
            if version is None:
                version = _check_version(line)
            elif seed is None:
                seed = _seed_of(line)
            else:
                event = event_of(line)
                if isinstance(event, Rule) and not events:
                    in_header.append(event)
                else:
                    events.append(event)
        except ValueError as exc:
            raise RecordingError(f"{source}, line {number}: {exc}") from None
    if version is None:
        raise RecordingError(f"{source}, line {number + 1}: the file is empty, not a recording")
    if seed is None:
        raise RecordingError(f"{source}, line {number + 1}: the 'seed N' line is missing")
    return Script(seed, events, version, tuple(in_header), daily)


def _check_version(line: str) -> int:
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


def _seed_of(line: str) -> int:
    words = line.split()
    if len(words) != 2 or words[0] != "seed":
        raise ValueError("the second line must be 'seed N'")
    return _number(words[1], 0, MAX_SEED)


def settings_recorded(lines: Sequence[str], viewer: Settings) -> Settings:
    """The keys and options a game's recording lines leave it playing by (see
    `rules.settings_of`): those its rules name, or the viewer's before format 4."""
    found = [rule for line in lines if line.startswith(RULE_WORDS) for rule in _rule_of(line)]
    return rules.settings_of(version_of(lines), found, viewer)


def version_of(lines: Sequence[str]) -> int:
    """The format of a game's recording lines (a save's, checked when loaded)."""
    return _check_version(lines[0]) if lines else FORMAT_VERSION


def _rule_of(line: str) -> list[Rule]:
    """The rule a line records, if it is one (a save's lines are checked when loaded)."""
    event = event_of(line)
    return [event] if isinstance(event, Rule) else []


def read(path: Path) -> Script:
    """Read a recording file; RecordingError for a missing, unreadable or bad one.

    Only a regular file of at most `MAX_BYTES` is read, so any file is read or
    refused in bounded time and memory.
    """
    try:
        text = safe_io.read_bytes(path, MAX_BYTES).decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not a text file"
        raise RecordingError(f"{path}: cannot read it: {reason}") from None
    return parse(text, str(path))


def new_file_name(seed: int, now: datetime.datetime | None = None) -> str:
    """`game-YYYYMMDD-HHMMSS-<seed>.rec`: sorted by date, and saying which game."""
    now = datetime.datetime.now() if now is None else now
    return f"game-{now:%Y%m%d-%H%M%S}-{seed}{SUFFIX}"


def _text(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


def _warn(engine: Engine, exc: OSError) -> None:
    """Say, in the message log and on stderr, that the file can't be written, and forget it:
    said once, since a game with no file writes none.

    The lines stay with the game, so the next save keeps them and the next
    Continue starts a new file from them.
    """
    reason = exc.strerror or str(exc)
    print(
        f"{program.name()}: could not write the recording {engine.recording_file}: "
        f"{reason}; it is kept with the game",
        file=sys.stderr,
    )
    engine.message_log.add_message(NOT_WRITTEN.format(reason=reason), color.error)
    engine.recording_file = None


def write_new(engine: Engine) -> None:
    """Write the lines the game's file lacks: the main loop's, after each frame.

    The first time for a game (new, continued or taken over), its file is written
    whole: a new game gets a new file, a continued one its own file again (`resume_file`).
    A game whose file could not be written writes no more (`_warn` said so).
    """
    if engine.recording_written is None:
        if engine.recording_file is None:
            start_file(engine)
        else:
            resume_file(engine)
    elif engine.recording_file is not None and engine.recording_written < len(engine.recording):
        try:
            safe_io.append(
                paths.recordings_dir() / engine.recording_file,
                _text(engine.recording[engine.recording_written :]).encode("utf-8"),
            )
        except OSError as exc:
            _warn(engine, exc)
    engine.recording_written = len(engine.recording)


def start_file(engine: Engine) -> None:
    """Give the game in play a new file in `paths.recordings_dir()`, holding its lines so far."""
    stem = new_file_name(engine.game_world.seed).removesuffix(SUFFIX)
    names = safe_io.numbered(stem, SUFFIX, first_bare=True)
    try:
        paths.recordings_dir().mkdir(parents=True, exist_ok=True)
        path = safe_io.write_first_free(paths.recordings_dir(), names, _text(engine.recording).encode("utf-8"))
    except OSError as exc:
        _warn(engine, exc)
        return
    engine.recording_file = path.name


def resume_file(engine: Engine) -> None:
    """On Continue: rewrite the game's file from the lines its save holds.

    Whatever the file held after the save (play that was never saved) is not
    part of this game any more, so the file and the save agree again.
    """
    if engine.recording_file is None:
        start_file(engine)
        return
    path = paths.recordings_dir() / engine.recording_file
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        safe_io.write_atomic(path, _text(engine.recording).encode("utf-8"))
    except OSError as exc:
        _warn(engine, exc)


def record(engine: Engine, line: str) -> None:
    """Add a line to the game's recording; the main loop writes it to the file
    after the frame (`write_new`), so that a process killed at any moment loses at
    most the events of one frame."""
    engine.recording.append(line)


def record_unrecorded(engine: Engine) -> None:
    """Record the line of the event being handled, if not yet recorded."""
    line, engine.unrecorded = engine.unrecorded, None
    if line is not None:
        record(engine, line)


def end(engine: Engine, claim: str) -> None:
    """A finished game's last lines: the event that ended it, then the ending it
    claims (a comment, which replays skip, and `--verify` checks)."""
    record_unrecorded(engine)
    record(engine, claim)


def text_of(engine: Engine) -> str:
    """The recording's text, as its file holds it."""
    return _text(engine.recording)


def sync(engine: Engine) -> None:
    """Flush the game's recording file to the disk (at each save, against power cuts)."""
    if engine.recording_file is None:
        return
    try:
        with (paths.recordings_dir() / engine.recording_file).open("a", encoding="utf-8") as file:
            os.fsync(file.fileno())
    except OSError as exc:
        _warn(engine, exc)


def write_crash(engine: Engine) -> Path:
    """Keep the recording up to an unexpected error as `crash-NNN.rec` in the data folder."""
    names = safe_io.numbered("crash", SUFFIX)
    return safe_io.write_first_free(paths.data_dir(), names, _text(engine.recording).encode("utf-8"))


def handle_and_record(handler: BaseEventHandler, event: tcod.event.Event) -> BaseEventHandler:
    """Let the handler act on `event`, and record it if it belongs to the game in play.

    Recorded, while a game is in play: keys and symbols typed (not what
    `keys.does_nothing`), clicks, and pointer moves that changed the game's mouse
    location; not an event that quits, since the save ends there.  An event that
    raises is recorded too, so that the recording replays the error.
    """
    engine = handler.engine_in_play()
    press = None if engine is None else handler.autofight_press(event)
    if engine is not None and press is not None:
        # Kept as what it did, not as the key (see `controls.autofight`).
        record(engine, press.line())
        return handler.play_autofight(press)
    line = None if engine is None or keys.does_nothing(event) else line_of(event)
    # The steps of a walk under way, which the event may stop.
    walked = Steps(handler.walk_steps) if handler.walking else None
    if engine is None or (line is None and walked is None):
        return handler.handle_events(event)
    return _handle_kept(handler, engine, event, line, walked)


def _handle_kept(
    handler: BaseEventHandler,
    engine: Engine,
    event: tcod.event.Event,
    line: str | None,
    walked: Steps | None,
) -> BaseEventHandler:
    """Handle an event of the game in play, then record what replays it."""
    pointer = engine.mouse_location
    # Should the event end the game, its death records it first (`end`).
    engine.unrecorded = line
    try:
        after = handler.handle_events(event)
    except SystemExit:  # Leaving the game stops a walk too.
        engine.unrecorded = None
        if walked is not None:
            record(engine, walked.line())
        raise
    except Exception:
        record_unrecorded(engine)
        raise
    line, engine.unrecorded = engine.unrecorded, None
    if walked is not None and not after.walking:
        # The key or click stopped the walk and did nothing else: what
        # replays it is the number of steps the walk took.
        record(engine, walked.line())
    elif walked is not None and after is handler and not isinstance(event, tcod.event.MouseMotion):
        pass  # Ignored by the walk, which goes on (a click on where it is going): nothing to replay.
    elif line is not None and (
        not isinstance(event, tcod.event.MouseMotion) or engine.mouse_location != pointer
    ):
        record(engine, line)
    return after
