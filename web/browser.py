"""The front end of the browser's canvas page (`main.py --browser`): no window, no terminal.

What the page sends comes on stdin, one JSON object a line (the server checked it, and this
checks it again): keys, pointer moves, clicks, the touch bar's commands and a long press's look.
Each becomes the events the window would give for it (`events_of`), so that the handlers and
the recordings can't tell the browser from the window.  The frames go to the server through
the frames writer (`web.stream`); stdout and stderr are only the server's log.

    {"key": KeyboardEvent.key, "code": KeyboardEvent.code, "mod": bits}   (1 shift, 2 ctrl, 4 alt, 8 meta)
    {"move": [x, y]}            {"click": [x, y, button]}   (1 left, 2 middle, 3 right)
    {"command": name}           {"look": [x, y]}

The end of stdin (the page and the server gone) quits as closing the window does.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import sys
import time
from typing import TYPE_CHECKING, Final

import tcod
from tcod.event import KeySym, Modifier, MouseButton

import exceptions
from controls import keys
from saving import game_lock
from terminal import key_parser
from window.display_area import COLUMNS, ROWS

if TYPE_CHECKING:
    from replays import recording
    from screens.stack import Screens
    from web.stream import FramesWriter
    from window.options import Options, Settings

# The longest line read; the server forwards at most 256 bytes.  A longer one is dropped whole.
MAX_LINE: Final = 512

# KeyboardEvent.key of the keys that type nothing, as SDL names them.
NAMED_KEYS: Final[dict[str, KeySym]] = {
    "Escape": KeySym.ESCAPE,
    "Tab": KeySym.TAB,
    "Enter": KeySym.RETURN,
    "Backspace": KeySym.BACKSPACE,
    "Delete": KeySym.DELETE,
    "Insert": KeySym.INSERT,
    "Home": KeySym.HOME,
    "End": KeySym.END,
    "PageUp": KeySym.PAGEUP,
    "PageDown": KeySym.PAGEDOWN,
    "ArrowUp": KeySym.UP,
    "ArrowDown": KeySym.DOWN,
    "ArrowLeft": KeySym.LEFT,
    "ArrowRight": KeySym.RIGHT,
    "Clear": KeySym.CLEAR,  # The numpad's 5 without NumLock, on some systems.
    **{f"F{number}": KeySym[f"F{number}"] for number in range(1, 13)},
}

# KeyboardEvent.code of the numpad's keys: the key wherever the layout or NumLock puts it.
NUMPAD_CODES: Final[dict[str, KeySym]] = {
    **{f"Numpad{digit}": KeySym[f"KP_{digit}"] for digit in range(10)},
    "NumpadEnter": KeySym.KP_ENTER,
    "NumpadAdd": KeySym.KP_PLUS,
    "NumpadSubtract": KeySym.KP_MINUS,
    "NumpadMultiply": KeySym.KP_MULTIPLY,
    "NumpadDivide": KeySym.KP_DIVIDE,
    "NumpadDecimal": KeySym.KP_PERIOD,
}

MODIFIER_BITS: Final = ((1, Modifier.LSHIFT), (2, Modifier.LCTRL), (4, Modifier.LALT), (8, Modifier.LGUI))
# Held, a letter's key types nothing (a symbol still does: AltGr is Ctrl+Alt in a browser on Windows).
NO_TEXT: Final = Modifier.CTRL | Modifier.ALT | Modifier.GUI

# The touch bar's names that are no command of the key tables.
WAIT: Final = "wait"  # The tables' `wait` keys.
ESCAPE: Final = "escape"  # The Escape key, which closes any screen.

BUTTONS: Final = {1: MouseButton.LEFT, 2: MouseButton.MIDDLE, 3: MouseButton.RIGHT}


class BadEvent(ValueError):
    """A line that is no event the page sends."""


def events_of(line: bytes, tables: keys.KeyTables) -> list[tcod.event.Event]:
    """The events of one line from the page; BadEvent if it is not one of the shapes above."""
    try:
        sent = json.loads(line)
    except (UnicodeDecodeError, ValueError):
        raise BadEvent("not JSON") from None
    if not isinstance(sent, dict) or not sent:
        raise BadEvent("not a JSON object")
    if "key" in sent:
        return key_events(sent, set(sent) - {"key", "code", "mod"})
    if len(sent) != 1:
        raise BadEvent(f"unknown keys {sorted(sent)[:4]}")
    ((kind, value),) = sent.items()
    if kind == "move":
        return [tcod.event.MouseMotion(**_tile(*numbers(value, 2)))]  # type: ignore[arg-type]
    if kind == "click":
        x, y, number = numbers(value, 3)
        if number not in BUTTONS:
            raise BadEvent(f"button {number}")
        at, button = _tile(x, y), BUTTONS[number]
        return [
            tcod.event.MouseButtonDown(**at, button=button),  # type: ignore[arg-type]
            tcod.event.MouseButtonUp(**at, button=button),  # type: ignore[arg-type]
        ]
    if kind == "command" and isinstance(value, str):
        return pressed(command_key(value, tables))
    if kind == "look":
        # The look screen starts on the player: the pointer moved there once it is open
        # puts its cursor on the tile, as the window's pointer does in it.
        pointer = tcod.event.MouseMotion(**_tile(*numbers(value, 2)))  # type: ignore[arg-type]
        return [*pressed(command_key("look", tables)), pointer]
    raise BadEvent(f"unknown event {kind[:20]!r}")


def key_events(sent: dict[str, object], others: set[str]) -> list[tcod.event.Event]:
    """A key's events: its KeyDown, then the TextInput of the character it types, if any."""
    key, code, bits = sent["key"], sent.get("code", ""), sent.get("mod", 0)
    if others or not isinstance(key, str) or not isinstance(code, str) or not is_number(bits, 15):
        raise BadEvent("a key's fields of the wrong types")
    assert isinstance(bits, int)
    mod = Modifier.NONE
    for bit, modifier in MODIFIER_BITS:
        if bits & bit:
            mod |= modifier
    if code in NUMPAD_CODES:
        sym = NUMPAD_CODES[code]
        text = key_parser.KEYPAD_TEXT.get(sym, "")  # Its digits type nothing, as with NumLock off.
        return [key_parser.key_down(sym, mod), *text_of(text, mod)]
    if key in NAMED_KEYS:
        return [key_parser.key_down(NAMED_KEYS[key], mod)]
    if len(key) != 1 or not key.isprintable():
        raise BadEvent(f"unknown key {key[:20]!r}")
    found = key_parser.typed(key)  # KeyDown (if ASCII) and TextInput, as the terminal's.
    down = [event for event in found if isinstance(event, tcod.event.KeyDown)]
    return [key_parser.key_down(event.sym, event.mod | mod) for event in down] + text_of(key, mod)


def text_of(text: str, mod: Modifier) -> list[tcod.event.Event]:
    """The TextInput a key types with `mod` held: none for a letter with Ctrl, Alt or Meta."""
    if not text or (mod & NO_TEXT and not keys.is_symbol(text)):
        return []
    return [tcod.event.TextInput(text=text)]


def command_key(name: str, tables: keys.KeyTables) -> keys.Key:
    """The first key the player's `tables` bind to the command `name` (a `keys.Command`'s
    name in lower case, as `descend`), or the first wait key (`wait`), or Escape (`escape`)."""
    if name == ESCAPE:
        return KeySym.ESCAPE
    if name == WAIT:
        if not tables.wait:
            raise BadEvent("no wait key")
        return tables.wait[0]
    command = keys.Command.__members__.get(name.upper()) if name.islower() else None
    bound = [key for key, bound_to in tables.main.items() if bound_to is command]
    if not bound:
        raise BadEvent(f"no key for {name[:20]!r}")
    return bound[0]


def pressed(key: keys.Key) -> list[tcod.event.Event]:
    """The events of pressing `key`: a symbol as typed, a key as its KeyDown (and the
    character it types, as SDL sends it)."""
    if isinstance(key, str):
        return key_parser.typed(key)
    text = chr(key) if int(key) < 128 and chr(key).isprintable() else ""
    return [key_parser.key_down(key), *text_of(text, Modifier.NONE)]


def numbers(value: object, count: int) -> list[int]:
    """`count` whole numbers, the first two a tile of the console; BadEvent if not."""
    if not isinstance(value, list) or len(value) != count or not all(is_number(each, 255) for each in value):
        raise BadEvent(f"not {count} small whole numbers")
    if value[0] >= COLUMNS or value[1] >= ROWS:
        raise BadEvent("a tile outside the console")
    return value


def is_number(value: object, most: int) -> bool:
    """Whether `value` is a whole number from 0 to `most` (not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= most


def _tile(x: int, y: int) -> dict[str, tcod.event.Point[float] | tcod.event.Point[int]]:
    """A mouse event's position arguments for tile (x, y), as the window's converted events
    have them: the pointer mid-tile (`replays.record_format` makes them the same)."""
    return {"position": tcod.event.Point(x + 0.5, y + 0.5), "tile": tcod.event.Point(x, y)}


class Lines:
    """The lines in bytes read in whatever pieces: a line over `MAX_LINE` is dropped whole."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.skipping = False  # In a line too long, until its end.

    def feed(self, data: bytes) -> list[bytes | None]:
        """The whole lines `data` ends (without their newline); None for each one too long."""
        self.buffer += data
        lines: list[bytes | None] = []
        while (end := self.buffer.find(b"\n")) >= 0:
            line = bytes(self.buffer[:end])
            del self.buffer[: end + 1]
            lines.append(None if self.skipping or len(line) > MAX_LINE else line)
            self.skipping = False
        if len(self.buffer) > MAX_LINE:
            self.buffer.clear()
            self.skipping = True
        return lines


class BrowserFrontEnd:
    """The game played from the browser's canvas page: its events from stdin, its frames
    written by `writer` only."""

    def __init__(self, settings: Settings, writer: FramesWriter, fd: int = 0) -> None:
        self.settings, self.writer, self.fd = settings, writer, fd
        self.lines = Lines()
        self.ended = False  # Whether stdin ended.
        self.quitting = False  # Whether the game was told to quit.
        self.complained = False  # Whether a bad line was logged (once).

    @property
    def context(self) -> tcod.context.Context | None:
        return None

    def present(self, console: tcod.console.Console, options: Options, screens: Screens | None = None) -> None:
        self.writer.present(console, options, screens)

    def events(self, timeout: float | None = None) -> list[tcod.event.Event]:
        """The page's events; waiting without end, or up to `timeout` seconds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.ended:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self.fd], [], [], wait)
            if not ready:
                return []
            data = os.read(self.fd, 4096)
            if not data:
                self.ended = True
                break
            found = [event for line in self.lines.feed(data) for event in self.parsed(line)]
            if found:
                return found
            if deadline is not None and time.monotonic() >= deadline:
                return []
        return self.quit()

    def parsed(self, line: bytes | None) -> list[tcod.event.Event]:
        """A line's events; none for a bad one (or one too long: None), the first of which is logged."""
        try:
            if line is None:
                raise BadEvent(f"over {MAX_LINE} bytes")
            return events_of(line, self.settings.keys)
        except BadEvent as exc:
            if not self.complained:
                self.complained = True
                print(f"browser: a line from the page ignored ({exc}); the next ones are not logged", file=sys.stderr)
            return []

    def quit(self) -> list[tcod.event.Event]:
        """Quit as closing the window does; asked again (the save failed, and no one can
        see its popup), quit without saving, as the terminal does (`TerminalKeys.quit`)."""
        if self.quitting:
            raise exceptions.QuitWithoutSaving()
        self.quitting = True
        return [tcod.event.Quit()]


def play(
    settings: Settings,
    args: argparse.Namespace,
    script: recording.Checked | None,
    notice: str | None,
    writer: FramesWriter,
) -> int:
    """`--browser`: play from the web server's canvas page, its events on stdin, its frames
    to `--frames-fd`; stdout and stderr are the server's log.  1 (with one line on stderr)
    where another copy of the game plays in the data folder."""
    from window import loop

    if (taken := game_lock.taken()) is not None:
        print(taken, file=sys.stderr)
        return 1
    console = tcod.console.Console(COLUMNS, ROWS, order="F")
    loop.play_in(BrowserFrontEnd(settings, writer), console, settings, args, script, notice)
    return 0
