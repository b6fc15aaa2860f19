"""Build ``dejavu10x10_gs_tc.png``, the game's 10x10 tile sheet, from DejaVu Sans Mono.

Why: the game wants a crisp, square 10x10 font in the classic libtcod "gs_tc"
layout (greyscale, 32x8 tiles in ``tcod.tileset.CHARMAP_TCOD`` order) without
shipping a downloaded binary.  Rendering DejaVu naively at 10x10 with
``tcod.tileset.load_truetype_font`` gives thin, small, blurry letters that use
about half of the cell, and box-drawing glyphs that do not join.

How:

* Text glyphs are rendered by libtcod's TrueType loader at ``SUPERSAMPLE``
  times the final size, scaled so that capitals are ``CAP_HEIGHT`` pixels
  tall, emboldened a little and box-filtered down to 10x10.  The horizontal
  filter is narrower than the vertical one, which widens the narrow monospace
  letters by ``SUPERSAMPLE / SUPERSAMPLE_X`` so they fill the square cell.
  Each glyph is centred horizontally, trying every sub-pixel offset and keeping
  the sharpest result (a tiny brute-force "hinter").  Letters, digits and
  punctuation share one baseline, ``BASELINE`` pixels from the top; other
  symbols may also move vertically by up to half a pixel to get sharper.
* Box-drawing glyphs (single and double lines) are drawn as one-pixel lines
  that reach the cell edges, so frames join seamlessly.  Block and quadrant
  glyphs come from ``tcod.tileset.procedural_block_elements`` and shades are
  2x2 ordered-dither patterns, so they tile seamlessly too.
* A few map and UI glyphs whose outlines turn to mush at this size ('#', '.',
  '%', '<', '>', arrows, triangles, check boxes, circles) are pixel art.
* The sheet is written as a greyscale RGB PNG (grey level = coverage).
  ``tcod.tileset.load_tilesheet`` turns such tiles into white glyphs whose
  alpha is the grey level, and the black first tile (space) into transparency.

The output is deterministic.  Usage::

    python tools/make_tileset.py [OUTPUT.png]

Without an argument the sheet is written to the repository root, whatever the
current directory.  The game loads it with::

    tileset = tcod.tileset.load_tilesheet(
        "dejavu10x10_gs_tc.png", 32, 8, tcod.tileset.CHARMAP_TCOD
    )
"""

from __future__ import annotations

import string
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np
import tcod.image
import tcod.tileset
from numpy.typing import NDArray

FONT_PATH = Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")
DEFAULT_OUTPUT = Path(__file__).resolve().parent.parent / "dejavu10x10_gs_tc.png"

TILE = 10  # Final tile width and height in pixels.
COLUMNS, ROWS = 32, 8  # Sheet layout in tiles.

# DejaVu Sans Mono metrics in font units: hhea ascent and descent, the width
# of the head bounding box, and the height of 'H'.
FONT_ASCENT, FONT_DESCENT = 1901, -483
FONT_BBOX_WIDTH = 1470 - (-1144)
FONT_CAP_HEIGHT = 1493

SUPERSAMPLE = 8  # Supersampled pixels per final pixel, vertically.
SUPERSAMPLE_X = 6  # The same horizontally; glyphs are widened by 8/6.
CAP_HEIGHT = 7  # Height of capitals in final pixels (rows 1 to 7).
BASELINE = 8  # Baseline in final pixels from the top; descenders get 2 rows.
EMBOLDEN_X = 1  # Extra stroke width in supersampled pixels, horizontally.
EMBOLDEN_Y = 1  # Extra stroke width in supersampled pixels, vertically.
GAIN = 1.2  # Coverage multiplier that firms up anti-aliased strokes.

SINGLE_LINE = 4  # Row and column of single box-drawing lines.
DOUBLE_NEAR, DOUBLE_FAR = 3, 6  # Rows and columns of double lines.

# Glyphs that must sit on the shared baseline; other symbols may be nudged.
ON_BASELINE = frozenset(string.ascii_letters + string.digits + ".,;:!?")

Alpha = NDArray[np.float64]  # Coverage from 0.0 to 1.0.
Arms = tuple[bool, bool, bool, bool]  # Box-drawing arms: up, down, left, right.

SINGLE_BOX: dict[str, Arms] = {
    "│": (True, True, False, False),
    "─": (False, False, True, True),
    "┼": (True, True, True, True),
    "┤": (True, True, True, False),
    "┴": (True, False, True, True),
    "├": (True, True, False, True),
    "┬": (False, True, True, True),
    "└": (True, False, False, True),
    "┌": (False, True, False, True),
    "┐": (False, True, True, False),
    "┘": (True, False, True, False),
}
DOUBLE_BOX: dict[str, Arms] = {
    "║": (True, True, False, False),
    "═": (False, False, True, True),
    "╬": (True, True, True, True),
    "╣": (True, True, True, False),
    "╩": (True, False, True, True),
    "╠": (True, True, False, True),
    "╦": (False, True, True, True),
    "╚": (True, False, False, True),
    "╔": (False, True, False, True),
    "╗": (False, True, True, False),
    "╝": (True, False, True, False),
}

BLOCKS = "▘▝▀▖▚▐▗"  # Taken from tcod.tileset.procedural_block_elements.

# Shades as 2x2 ordered-dither masks; their period divides the tile size.
SHADES: dict[str, tuple[tuple[int, int], tuple[int, int]]] = {
    "░": ((1, 0), (0, 0)),
    "▒": ((1, 0), (0, 1)),
    "▓": ((1, 1), (1, 0)),
}

# Pixel art.  '#' is a symmetric lattice so that walls form a regular grid;
# '<' and '>' (stairs) get even two-pixel steps.  Lines of the UI symbols sit
# on row/column 4, like the single box-drawing lines.
PIXEL_ART: dict[str, tuple[str, ...]] = {
    "#": (
        "..........",
        "...#..#...",
        "...#..#...",
        ".########.",
        "...#..#...",
        "...#..#...",
        ".########.",
        "...#..#...",
        "...#..#...",
        "..........",
    ),
    ".": (
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "....##....",
        "....##....",
        "..........",
        "..........",
    ),
    "%": (
        "..........",
        "..###...#.",
        "..#.#..#..",
        "..###.#...",
        ".....#....",
        "....#.###.",
        "...#..#.#.",
        "..#...###.",
        "..........",
        "..........",
    ),
    ">": (
        "..........",
        "..........",
        "..##......",
        "....##....",
        "......##..",
        "....##....",
        "..##......",
        "..........",
        "..........",
        "..........",
    ),
    "↑": (
        "..........",
        "....#.....",
        "...###....",
        "..#####...",
        "....#.....",
        "....#.....",
        "....#.....",
        "....#.....",
        "....#.....",
        "..........",
    ),
    "↕": (
        "..........",
        "....#.....",
        "...###....",
        "..#####...",
        "....#.....",
        "....#.....",
        "..#####...",
        "...###....",
        "....#.....",
        "..........",
    ),
    "▲": (
        "..........",
        "..........",
        "..........",
        "....#.....",
        "...###....",
        "..#####...",
        ".#######..",
        "..........",
        "..........",
        "..........",
    ),
    "☐": (
        "..........",
        ".#######..",
        ".#.....#..",
        ".#.....#..",
        ".#.....#..",
        ".#.....#..",
        ".#.....#..",
        ".#######..",
        "..........",
        "..........",
    ),
    "☑": (
        "..........",
        ".#######..",
        ".#....##..",
        ".#...#.#..",
        ".##.#..#..",
        ".#.#...#..",
        ".#.....#..",
        ".#######..",
        "..........",
        "..........",
    ),
    "○": (
        "..........",
        "...###....",
        "..#...#...",
        ".#.....#..",
        ".#.....#..",
        ".#.....#..",
        "..#...#...",
        "...###....",
        "..........",
        "..........",
    ),
    "◉": (
        "..........",
        "...###....",
        "..#...#...",
        ".#..#..#..",
        ".#.###.#..",
        ".#..#..#..",
        "..#...#...",
        "...###....",
        "..........",
        "..........",
    ),
}


def flip_vertical(tile: Alpha) -> Alpha:
    """Mirror a tile top to bottom."""
    return tile[::-1, :].copy()


def flip_horizontal(tile: Alpha) -> Alpha:
    """Mirror a tile left to right."""
    return tile[:, ::-1].copy()


def transpose(tile: Alpha) -> Alpha:
    """Swap rows and columns, which turns an up-pointing glyph left-pointing."""
    return tile.T.copy()


# Pixel art derived from other pixel art: char -> (source, transforms).
DERIVED: dict[str, tuple[str, tuple[Callable[[Alpha], Alpha], ...]]] = {
    "<": (">", (flip_horizontal,)),
    "↓": ("↑", (flip_vertical,)),
    "←": ("↑", (transpose,)),
    "→": ("↑", (transpose, flip_horizontal)),
    "↔": ("↕", (transpose,)),
    "▼": ("▲", (flip_vertical,)),
    "◄": ("▲", (transpose,)),
    "►": ("▲", (transpose, flip_horizontal)),
}


def supersampled_font() -> tcod.tileset.Tileset:
    """Render the whole font so that capitals are `CAP_HEIGHT` pixels tall.

    libtcod scales a font to the tile height unless the font's bounding box is
    wider than the tile, so the tile is made wide enough for that not to happen.
    Emboldening adds `EMBOLDEN_Y` to every height, so it is subtracted here.
    """
    cap_height = CAP_HEIGHT * SUPERSAMPLE - EMBOLDEN_Y
    line_height = round(cap_height * (FONT_ASCENT - FONT_DESCENT) / FONT_CAP_HEIGHT)
    scale = line_height / (FONT_ASCENT - FONT_DESCENT)
    width = int(FONT_BBOX_WIDTH * scale) + 2
    return tcod.tileset.load_truetype_font(FONT_PATH, width, line_height)


def hires_alpha(font: tcod.tileset.Tileset, char: str) -> Alpha:
    """Return the supersampled coverage of one character."""
    alpha: Alpha = font.get_tile(ord(char))[:, :, 3] / 255.0
    return alpha


def measure_baseline(font: tcod.tileset.Tileset) -> int:
    """Return the supersampled baseline row, measured on the stem of 'H'."""
    alpha = hires_alpha(font, "H")
    stem = alpha[:, int(alpha.sum(axis=0).argmax())]
    first = int(np.flatnonzero(stem)[0])
    top = first + 1.0 - float(stem[first])
    return round(top + float(stem.sum()))


def embolden(alpha: Alpha) -> Alpha:
    """Thicken strokes rightwards and upwards, keeping the baseline in place."""
    out = alpha.copy()
    for dx in range(1, EMBOLDEN_X + 1):
        out[:, dx:] = np.maximum(out[:, dx:], alpha[:, :-dx])
    wide = out.copy()
    for dy in range(1, EMBOLDEN_Y + 1):
        out[:-dy, :] = np.maximum(out[:-dy, :], wide[dy:, :])
    return out


def ink_span(alpha: Alpha, axis: int) -> tuple[int, int]:
    """Return the first and past-the-last column (axis 0) or row (axis 1) with ink."""
    indices = np.flatnonzero(alpha.any(axis=axis))
    return int(indices[0]), int(indices[-1]) + 1


def fit_top(hires: Alpha, top: int) -> int:
    """Move a window's top so that a glyph shorter than a tile is not clipped."""
    first, last = ink_span(hires, axis=1)
    height = TILE * SUPERSAMPLE
    if last - first > height:
        return top
    return min(max(top, last - height), first)


def crop(alpha: Alpha, top: int, left: int) -> Alpha:
    """Return the supersampled window of one tile, zero-padded outside `alpha`."""
    height, width = TILE * SUPERSAMPLE, TILE * SUPERSAMPLE_X
    pad = max(height, width)
    padded = np.pad(alpha, pad)
    return padded[top + pad : top + pad + height, left + pad : left + pad + width]


def downsample(window: Alpha) -> Alpha:
    """Box-filter a supersampled window down to one tile."""
    blocks = window.reshape(TILE, SUPERSAMPLE, TILE, SUPERSAMPLE_X)
    result: Alpha = blocks.mean(axis=(1, 3))
    return result


def sharpness(tile: Alpha) -> float:
    """Score how much coverage sits in fully lit pixels (higher is crisper)."""
    return float(np.square(tile).sum())


def phases(step: int) -> range:
    """Return the sub-pixel offsets that span one final pixel around zero."""
    return range(-(step // 2), step - step // 2)


def text_glyph(hires: Alpha, baseline: int, on_baseline: bool) -> Alpha:
    """Reduce one supersampled glyph to a horizontally centred tile.

    Glyphs `on_baseline` keep the shared baseline; other symbols are kept
    inside the cell and may move vertically by up to half a pixel.
    """
    if not hires.any():
        return np.zeros((TILE, TILE))
    first, last = ink_span(hires, axis=0)
    left = (first + last) // 2 - TILE * SUPERSAMPLE_X // 2
    top = baseline - BASELINE * SUPERSAMPLE
    rises: Iterable[int] = [0]
    if not on_baseline:
        top = fit_top(hires, top)
        rises = phases(SUPERSAMPLE)
    candidates = [
        downsample(crop(hires, top + rise, left + shift))
        for rise in rises
        for shift in phases(SUPERSAMPLE_X)
    ]
    best = max(candidates, key=sharpness)  # max() keeps the first of ties.
    return np.clip(best * GAIN, 0.0, 1.0)


def box_glyph(arms: Arms, double: bool) -> Alpha:
    """Draw a single or double box-drawing glyph whose lines reach the edges.

    A single glyph is the region covered by its arms.  A double glyph is the
    outline of a "pipe" between the two line positions, which gives correct
    corners and junctions for every combination of arms.
    """
    low, high = (DOUBLE_NEAR, DOUBLE_FAR) if double else (SINGLE_LINE, SINGLE_LINE)
    up, down, left, right = arms
    region = np.zeros((TILE, TILE), dtype=bool)
    region[low : high + 1, low : high + 1] = True
    region[: high + 1, low : high + 1] |= up
    region[low:, low : high + 1] |= down
    region[low : high + 1, : high + 1] |= left
    region[low : high + 1, low:] |= right
    if double:
        padded = np.pad(region, 1, mode="edge")  # Arms continue past the edge.
        interior = np.ones_like(region)
        for dy in range(3):
            for dx in range(3):
                interior &= padded[dy : dy + TILE, dx : dx + TILE]
        region &= ~interior
    return region.astype(np.float64)


def shade_glyph(pattern: tuple[tuple[int, int], tuple[int, int]]) -> Alpha:
    """Repeat a 2x2 dither pattern over the tile."""
    return np.tile(np.array(pattern, dtype=np.float64), (TILE // 2, TILE // 2))


def pixel_art_glyph(rows: tuple[str, ...]) -> Alpha:
    """Convert a picture made of '#' and '.' into a tile."""
    return np.array([[pixel == "#" for pixel in row] for row in rows], dtype=np.float64)


def derived_glyph(
    source: Alpha, transforms: Iterable[Callable[[Alpha], Alpha]]
) -> Alpha:
    """Apply `transforms` to `source` in order."""
    for transform in transforms:
        source = transform(source)
    return source


def special_glyphs() -> dict[str, Alpha]:
    """Return the glyphs that are drawn here instead of taken from the font."""
    glyphs = {char: box_glyph(arms, double=False) for char, arms in SINGLE_BOX.items()}
    glyphs |= {char: box_glyph(arms, double=True) for char, arms in DOUBLE_BOX.items()}
    glyphs |= {char: shade_glyph(pattern) for char, pattern in SHADES.items()}
    glyphs |= {char: pixel_art_glyph(rows) for char, rows in PIXEL_ART.items()}
    for char, (source, transforms) in DERIVED.items():
        glyphs[char] = derived_glyph(glyphs[source], transforms)
    blocks = tcod.tileset.procedural_block_elements(shape=(TILE, TILE))
    for char in BLOCKS:
        glyphs[char] = blocks.get_tile(ord(char))[:, :, 3] / 255.0
    return glyphs


def build_tiles(charmap: Iterable[int]) -> list[Alpha]:
    """Return one coverage tile per charmap entry (blank for control codes)."""
    font = supersampled_font()
    baseline = measure_baseline(font)
    specials = special_glyphs()
    tiles: list[Alpha] = []
    for char in map(chr, charmap):
        if char in specials:
            tiles.append(specials[char])
        elif char.isspace() or not char.isprintable():
            tiles.append(np.zeros((TILE, TILE)))
        else:
            hires = embolden(hires_alpha(font, char))
            tiles.append(text_glyph(hires, baseline, char in ON_BASELINE))
    return tiles


def assemble_sheet(tiles: list[Alpha]) -> NDArray[np.uint8]:
    """Lay tiles out row-major into a greyscale RGB sheet, padding with blanks."""
    blanks = [np.zeros((TILE, TILE))] * (ROWS * COLUMNS - len(tiles))
    grid = np.array(tiles + blanks).reshape(ROWS, COLUMNS, TILE, TILE)
    grey = grid.transpose(0, 2, 1, 3).reshape(ROWS * TILE, COLUMNS * TILE)
    levels = np.rint(grey * 255).astype(np.uint8)
    return np.repeat(levels[:, :, np.newaxis], 3, axis=2)


def main(argv: list[str]) -> None:
    """Build the sheet and save it to the path in `argv`, if any."""
    output = Path(argv[1]) if len(argv) > 1 else DEFAULT_OUTPUT
    sheet = assemble_sheet(build_tiles(tcod.tileset.CHARMAP_TCOD))
    tcod.image.Image.from_array(sheet).save_as(output)
    print(f"Wrote {output}")


if __name__ == "__main__":
    main(sys.argv)
