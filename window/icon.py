"""The game's icon: the player's `@` from the game's own tile sheet, white on dark stone.

Drawn at start-up for the window; tools/make_icon.py draws the same icon into
the downloads' icon files.  The `@` is scaled up by whole pixels, so it stays
crisp at every size.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import tcod.context
import tcod.tileset
from numpy.typing import NDArray

import color

Image = NDArray[np.uint8]  # Rows of RGBA pixels.

WINDOW_ICON_SIZE: Final = 64  # Pixels square: enough for a taskbar or a window list.
BACKGROUND: Final[color.Color] = (0x1C, 0x18, 0x24)  # Dark stone: a black taskbar shows its edge.
GLYPH_SHARE: Final = 0.75  # How much of the icon's width the `@` may take.
CORNER_SHARE: Final = 0.18  # The rounded corners' radius, in icon widths.


def glyph_coverage(tileset: tcod.tileset.Tileset, char: str = "@") -> NDArray[np.float64]:
    """`char`'s tile as coverage from 0 to 1, cropped to the pixels it inks."""
    alpha = tileset.get_tile(ord(char))[:, :, 3] / 255
    rows = np.flatnonzero(alpha.any(axis=1))
    columns = np.flatnonzero(alpha.any(axis=0))
    return alpha[rows[0] : rows[-1] + 1, columns[0] : columns[-1] + 1]


def rounded_square(size: int) -> NDArray[np.float64]:
    """How much of each pixel a square with rounded corners covers (4x4 samples a pixel)."""
    samples = 4
    centres = (np.arange(size * samples) + 0.5) / samples
    radius = size * CORNER_SHARE
    # How far past the inner square the corners are rounded around.
    past = np.maximum(np.abs(centres - size / 2) - (size / 2 - radius), 0)
    inside = past[:, None] ** 2 + past[None, :] ** 2 <= radius**2
    coverage: NDArray[np.float64] = inside.reshape(size, samples, size, samples).mean(axis=(1, 3))
    return coverage


def draw_icon(glyph: NDArray[np.float64], size: int) -> Image:
    """The icon, `size` pixels square: `glyph` scaled up by whole pixels, centred."""
    scale = max(1, int(size * GLYPH_SHARE / max(glyph.shape)))
    big = np.kron(glyph, np.ones((scale, scale)))
    ink = np.zeros((size, size))
    top, left = ((size - length) // 2 for length in big.shape)
    ink[top : top + big.shape[0], left : left + big.shape[1]] = big
    rgb = np.asarray(BACKGROUND) * (1 - ink[:, :, None]) + np.asarray(color.white) * ink[:, :, None]
    alpha = np.maximum(rounded_square(size), ink) * 255
    return np.dstack([rgb, alpha]).round().astype(np.uint8)


def set_window_icon(context: tcod.context.Context, tileset: tcod.tileset.Tileset) -> None:
    """Show the icon on the context's window (a context with no window has none)."""
    window = context.sdl_window
    if window is not None:
        window.set_icon(draw_icon(glyph_coverage(tileset), WINDOW_ICON_SIZE))
