"""A console as the bytes that draw it in a terminal: ANSI escapes, sending only the
cells that changed since the frame before.

Colours are 24-bit where the terminal says it has them (`COLORTERM`), else the
nearest of xterm's 256.  The tiles' code points become characters a terminal's
font has (`glyph`).
"""

from __future__ import annotations

import functools
import textwrap
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

ESC: Final = "\x1b"
# Set up: the alternate screen (the shell's lines come back at the end), no
# cursor, no wrapping at the right edge (the bottom-right cell must not scroll),
# the numpad's own keys (`key_parser`), and a cleared screen.
ENTER: Final = f"{ESC}[?1049h{ESC}[?25l{ESC}[?7l{ESC}={ESC}[0m{ESC}[2J"
# Given back: colours, wrapping, the numpad, the cursor, the shell's screen.
LEAVE: Final = f"{ESC}[0m{ESC}[?7h{ESC}>{ESC}[?25h{ESC}[?1049l"
# For lines a screen reader reads (`screen_reader`): no mode at all, only text, and the
# shell's prompt on a line of its own after the game.  The numpad is read without its
# application mode: its digits are taken as its keys (`screen_reader.numpad`), and
# without NumLock its arrows, Home, End, Page Up and Down and middle key (ESC [ E)
# move and wait as its own keys do (`key_parser`, `keys.MOVE_KEYS`).
LINES_ENTER: Final = ""
LINES_LEAVE: Final = "\r\n"
# A clear screen, for a frame sent whole.
CLEAR: Final = f"{ESC}[0m{ESC}[2J"

# Block quadrants (the menu's background) are missing from many terminal fonts:
# each becomes the half block nearest it.  Box lines and half blocks stay.
GLYPHS: Final[Mapping[int, str]] = {
    0x2596: "▄", 0x2597: "▄", 0x2598: "▀", 0x259D: "▀",  # One quadrant.
    0x2599: "▄", 0x259F: "▄", 0x259B: "▀", 0x259C: "▀",  # Three.
    0x259A: "▒", 0x259E: "▒",  # Two, diagonal: half shaded.
}

# xterm's 256 colours: a 6x6x6 cube from 16, then 24 greys from 232.
CUBE_LEVELS: Final = (0, 95, 135, 175, 215, 255)

Rgb = tuple[int, int, int]


def is_truecolor(environ: Mapping[str, str]) -> bool:
    """Whether the terminal says it draws 24-bit colour (the `COLORTERM` convention)."""
    return environ.get("COLORTERM", "").lower() in ("truecolor", "24bit")


@functools.cache
def glyph(code: int) -> str:
    """The character to send for a tile's code point: one a terminal font has,
    one column wide; a space for what can't be shown."""
    if code in GLYPHS:
        return GLYPHS[code]
    if code < 0x20 or code > 0x10FFFF or 0x7F <= code < 0xA0:
        return " "
    char = chr(code)
    if unicodedata.east_asian_width(char) in ("W", "F") or not char.isprintable():
        return " "
    return char


def nearest_level(value: int) -> int:
    """The index of the colour cube's level nearest `value` (0 to 255)."""
    return min(range(len(CUBE_LEVELS)), key=lambda index: abs(CUBE_LEVELS[index] - value))


@functools.cache
def nearest_256(rgb: Rgb) -> int:
    """The xterm colour (16 to 255) nearest `rgb`: of the cube's, or of the greys."""
    cube = [nearest_level(value) for value in rgb]
    cube_rgb = [CUBE_LEVELS[i] for i in cube]
    grey_index = min(23, max(0, round((sum(rgb) / 3 - 8) / 10)))
    grey = 8 + 10 * grey_index

    def distance(other: list[int]) -> int:
        return sum((a - b) ** 2 for a, b in zip(rgb, other, strict=True))

    if distance([grey] * 3) < distance(cube_rgb):
        return 232 + grey_index
    return 16 + 36 * cube[0] + 6 * cube[1] + cube[2]


@functools.cache
def colour_code(rgb: Rgb, ground: int, truecolor: bool) -> str:
    """The SGR parameters that set the foreground (`ground` 38) or background (48)."""
    if truecolor:
        return f"{ground};2;{rgb[0]};{rgb[1]};{rgb[2]}"
    return f"{ground};5;{nearest_256(rgb)}"


@dataclass
class Screen:
    """What the terminal shows: the last frame sent (None: unknown, so the next is sent
    whole), where it is drawn, and how colours are sent."""

    truecolor: bool
    left: int = 0
    top: int = 0
    shown: NDArray[np.void] | None = None

    def frame(self, cells: NDArray[np.void]) -> bytes:
        """The bytes that make the terminal show `cells` (a console's `rgb`, rows first):
        the cells that differ from the last frame, moving the cursor and changing colours
        only where needed."""
        if self.shown is None or self.shown.shape != cells.shape:
            changed = np.ones(cells.shape, dtype=bool)
        else:
            changed = self.shown != cells
        self.shown = cells.copy()
        out: list[str] = []
        pen: tuple[str, str] | None = None
        cursor: tuple[int, int] | None = None
        ys, xs = np.nonzero(changed)
        chars, fgs, bgs = (cells[field][ys, xs].tolist() for field in ("ch", "fg", "bg"))
        for y, x, ch, fg, bg in zip(ys.tolist(), xs.tolist(), chars, fgs, bgs, strict=True):
            colours = (colour_code(tuple(fg), 38, self.truecolor), colour_code(tuple(bg), 48, self.truecolor))
            if cursor != (y, x):
                out.append(f"{ESC}[{self.top + y + 1};{self.left + x + 1}H")
            if colours != pen:
                out.append(sgr(colours, pen))
                pen = colours
            out.append(glyph(ch))
            cursor = (y, x + 1)
        return "".join(out).encode("utf-8")

    def forget(self) -> None:
        """Send the next frame whole (the terminal was cleared, or resized)."""
        self.shown = None


def sgr(colours: tuple[str, str], pen: tuple[str, str] | None) -> str:
    """The escape that changes the pen `pen` to `colours`: only the part that differs."""
    changed = [new for new, old in zip(colours, pen or ("", ""), strict=True) if new != old]
    return f"{ESC}[{';'.join(changed)}m"


def too_small(columns: int, rows: int, needed: tuple[int, int]) -> bytes:
    """What a terminal too small for the game shows: the size needed, and how to leave
    (Ctrl+C, or `q` or Escape: `front_end.leaves`), wrapped to its width, cut to its rows."""
    text = (
        f"Make the terminal at least {needed[0]}x{needed[1]}, or press Ctrl+C to save and "
        f"quit. This one is {columns}x{rows}."
    )
    lines = textwrap.wrap(text, max(columns, 1), break_long_words=True)[: max(rows, 1)]
    drawn = "".join(f"{ESC}[{row};1H{line}" for row, line in enumerate(lines, start=1))
    return f"{CLEAR}{drawn}".encode()
