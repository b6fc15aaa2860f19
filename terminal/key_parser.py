"""The bytes a terminal sends for key presses, as the events the window gives for them.

A letter, digit or symbol comes as the KeyDown and TextInput pair SDL sends, so
the handlers, and the recordings, can't tell a terminal from the window.  Keys
with no character (arrows, Home, F1, the numpad's when the terminal sends them
apart) come as escape sequences, xterm's, the Linux console's and rxvt's.

Escape itself is the first byte of those sequences: a lone ESC is the Escape key
once nothing follows it for a moment (`Parser.flush`, after `ESCAPE_WAIT`); an
ESC followed by anything but `[` or `O` is Escape, then that key (a player's quick
Escape, `y`).
"""

from __future__ import annotations

import codecs
from typing import Final

import tcod.event
from tcod.event import KeySym, Modifier

# How long a lone ESC waits for the rest of a sequence (a terminal sends a
# sequence in one write; over a slow link its parts still come together).
ESCAPE_WAIT: Final = 0.05

# The longest sequence kept while waiting for its end; longer is noise.
MAX_SEQUENCE: Final = 32

# The most digits of a number in a sequence (the keys' go to 24, the modifiers' to 16).
MAX_DIGITS: Final = 3

# CSI sequences ending in a letter: ESC [ A, or ESC [ 1 ; 2 A with modifiers.
CSI_LETTERS: Final[dict[str, KeySym]] = {
    "A": KeySym.UP,
    "B": KeySym.DOWN,
    "C": KeySym.RIGHT,
    "D": KeySym.LEFT,
    "H": KeySym.HOME,
    "F": KeySym.END,
    "E": KeySym.KP_5,  # The numpad's middle key without NumLock.
    "G": KeySym.KP_5,  # The same on the Linux console.
    "P": KeySym.F1,  # ESC [ 1 ; 2 P: F1 with modifiers.
    "Z": KeySym.TAB,  # Shift+Tab (the modifier is added below).
}

# CSI sequences ending in `~`: ESC [ 5 ~, or ESC [ 5 ; 5 ~ with modifiers.
CSI_NUMBERS: Final[dict[int, KeySym]] = {
    1: KeySym.HOME,
    2: KeySym.INSERT,
    3: KeySym.DELETE,
    4: KeySym.END,
    5: KeySym.PAGEUP,
    6: KeySym.PAGEDOWN,
    7: KeySym.HOME,  # rxvt.
    8: KeySym.END,  # rxvt.
    11: KeySym.F1,  # rxvt.
    24: KeySym.F12,
}

# SS3 sequences (ESC O x): xterm's keys in application mode, and the numpad's
# own keys once the terminal is asked for them (`drawing.ENTER`).
SS3_KEYS: Final[dict[str, KeySym]] = {
    **{letter: key for letter, key in CSI_LETTERS.items() if letter != "Z"},
    "M": KeySym.KP_ENTER,
    "j": KeySym.KP_MULTIPLY,
    "k": KeySym.KP_PLUS,
    "m": KeySym.KP_MINUS,
    "n": KeySym.KP_PERIOD,
    "o": KeySym.KP_DIVIDE,
    **{chr(ord("p") + digit): KeySym[f"KP_{digit}"] for digit in range(10)},
}

# The characters the numpad's keys type, where the keypad types some (SS3 above).
KEYPAD_TEXT: Final[dict[KeySym, str]] = {
    KeySym.KP_MULTIPLY: "*",
    KeySym.KP_PLUS: "+",
    KeySym.KP_MINUS: "-",
    KeySym.KP_PERIOD: ".",
    KeySym.KP_DIVIDE: "/",
}

# The Linux console's F1 (ESC [ [ A).
LINUX_F1: Final = "[[A"

# Control characters that are keys of their own.
CONTROL_KEYS: Final[dict[str, KeySym]] = {
    "\r": KeySym.RETURN,
    "\n": KeySym.RETURN,
    "\t": KeySym.TAB,
    "\x7f": KeySym.BACKSPACE,
    "\x08": KeySym.BACKSPACE,
}

# Ctrl+C: the terminal's interrupt, which quits as closing the window does
# (the terminal is in raw mode, so it arrives as a byte, not a signal).
INTERRUPT: Final = "\x03"

# The modifier parameter of xterm's sequences is 1 + the sum of these.
MODIFIER_BITS: Final = ((1, Modifier.LSHIFT), (2, Modifier.LALT), (4, Modifier.LCTRL))


def key_down(sym: KeySym, mod: Modifier = Modifier.NONE) -> tcod.event.KeyDown:
    """A key press as SDL gives it (the terminal tells no scancode)."""
    return tcod.event.KeyDown(scancode=tcod.event.Scancode.UNKNOWN, sym=sym, mod=mod)


def typed(char: str) -> list[tcod.event.Event]:
    """The events of a key that types `char`: its KeyDown, then its TextInput, as SDL
    sends them; the key is the character's own (a layout's other keys can't be known),
    with Shift for a capital, which runs as Shift+letter does in the window."""
    lower = char.lower()
    events: list[tcod.event.Event] = []
    if char.isascii() and char.isprintable():
        mod = Modifier.LSHIFT if char != lower else Modifier.NONE
        events.append(key_down(KeySym(ord(lower)), mod))
    events.append(tcod.event.TextInput(text=char))
    return events


def control(char: str) -> list[tcod.event.Event]:
    """The events of a control character: Enter, Tab, Backspace, or Ctrl+letter;
    Ctrl+C quits.  Nothing for the rest."""
    if char == INTERRUPT:
        return [tcod.event.Quit()]
    if char in CONTROL_KEYS:
        return [key_down(CONTROL_KEYS[char])]
    if "\x01" <= char <= "\x1a":
        return [key_down(KeySym(ord(char) + ord("a") - 1), Modifier.LCTRL)]
    return []


def number(parameter: str) -> int | None:
    """A sequence's number parameter (`5` of ESC [ 5 ~); None for anything else.  ASCII
    digits only: `str.isdigit` also takes "²", which `int` refuses, and "٣", which no
    terminal sends; and few of them: `int` refuses thousands, and no key needs more."""
    if parameter.isascii() and parameter.isdigit() and len(parameter) <= MAX_DIGITS:
        return int(parameter)
    return None


def modifiers(parameter: str) -> Modifier:
    """The modifiers of xterm's parameter (`2` is Shift, `5` Ctrl, ...); none if not one."""
    value = number(parameter)
    value = value - 1 if value is not None and 0 < value < 64 else 0
    mod = Modifier.NONE
    for bit, modifier in MODIFIER_BITS:
        if value & bit:
            mod |= modifier
    return mod


def csi_key(body: str) -> list[tcod.event.Event]:
    """The key of a whole CSI sequence (what follows ESC [); nothing for one not known."""
    final, parameters = body[-1], body[:-1].split(";")
    mod = modifiers(parameters[1]) if len(parameters) > 1 else Modifier.NONE
    if final == "Z":
        mod |= Modifier.LSHIFT
    if final in CSI_LETTERS and parameters[0] in ("", "1"):
        return [key_down(CSI_LETTERS[final], mod)]
    code = number(parameters[0])
    if final == "~" and code in CSI_NUMBERS:
        return [key_down(CSI_NUMBERS[code], mod)]
    return []


def ss3_key(final: str) -> list[tcod.event.Event]:
    """The key of ESC O `final`: the numpad's digits type nothing (as in the window,
    NumLock off), its operators type their character."""
    if final not in SS3_KEYS:
        return []
    sym = SS3_KEYS[final]
    events: list[tcod.event.Event] = [key_down(sym)]
    if sym in KEYPAD_TEXT:
        events.append(tcod.event.TextInput(text=KEYPAD_TEXT[sym]))
    return events


def sequence_end(text: str) -> int | None:
    """Where the escape sequence at the start of `text` (ESC [ or ESC O ...) ends,
    or None if it has not ended yet; one longer than `MAX_SEQUENCE` is noise, and
    ends where `text` does."""
    if text.startswith(f"\x1b{LINUX_F1}"):
        return len(LINUX_F1) + 1
    if text.startswith("\x1bO"):
        return 3 if len(text) >= 3 else None
    for index in range(2, len(text)):
        if "\x40" <= text[index] <= "\x7e" and not (index == 2 and text[index] == "["):
            return index + 1
    return None if len(text) <= MAX_SEQUENCE else len(text)


class Parser:
    """Turns the bytes read from the terminal into events, keeping an unfinished
    sequence (or character) until its end comes, or `flush` says it never will."""

    def __init__(self) -> None:
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.pending = ""

    def feed(self, data: bytes) -> list[tcod.event.Event]:
        """The events of the keys `data` ends, in order; the start of one it doesn't end is kept."""
        self.pending += self.decoder.decode(data)
        events: list[tcod.event.Event] = []
        while self.pending:
            taken = self.take(events)
            if taken is None:
                break
            self.pending = self.pending[taken:]
        return events

    def take(self, events: list[tcod.event.Event]) -> int | None:
        """Add the events of the key at the start of `pending`; how many characters it was,
        or None if it is not whole yet."""
        text = self.pending
        if text[0] != "\x1b":
            events.extend(typed(text[0]) if text[0].isprintable() else control(text[0]))
            return 1
        if len(text) == 1:
            return None  # A lone ESC: Escape, or the start of a sequence (`flush`).
        if text[1] not in "[O":
            events.append(key_down(KeySym.ESCAPE))  # Escape, then another key.
            return 1
        end = sequence_end(text)
        if end is None:
            return None
        events.extend(self.sequence(text[:end]))
        return end

    @staticmethod
    def sequence(text: str) -> list[tcod.event.Event]:
        """The key of a whole escape sequence."""
        if text == f"\x1b{LINUX_F1}":
            return [key_down(KeySym.F1)]
        if text[1] == "O":
            return ss3_key(text[2])
        return csi_key(text[2:])

    @property
    def waiting(self) -> bool:
        """Whether an ESC or a sequence's start waits for more (see `flush`)."""
        return bool(self.pending)

    def flush(self) -> list[tcod.event.Event]:
        """Nothing more came: a lone ESC was the Escape key; an unfinished sequence
        is dropped, as the key it began is not known."""
        lone = self.pending == "\x1b"
        self.pending = ""
        return [key_down(KeySym.ESCAPE)] if lone else []
