"""Build the game's square tile sheets, ``dejavuNxN_gs_tc.png``, from DejaVu Sans Mono.

Why: the game wants crisp, square fonts in the classic libtcod "gs_tc" layout
(greyscale, 32x8 tiles in ``tcod.tileset.CHARMAP_TCOD`` order) without
shipping downloaded binaries.  Rendering DejaVu naively at 10x10 with
``tcod.tileset.load_truetype_font`` gives thin, small, blurry letters that use
about half of the cell, and box-drawing glyphs that do not join.  Bigger
screens want bigger tiles, so the same drawing is done at several sizes (10,
16 and 24 pixels are shipped); every size-dependent number lives in one
`Metrics`, chosen by `metrics_for`.

How:

* Text glyphs are rendered by libtcod's TrueType loader at ``supersample``
  times the final size, scaled so that capitals are ``cap_height`` pixels
  tall, emboldened a little and box-filtered down to one tile.  The
  horizontal filter is narrower than the vertical one, which widens the
  narrow monospace letters by ``supersample / supersample_x`` so they fill
  the square cell.  Each glyph is centred horizontally, trying every
  sub-pixel offset and keeping the sharpest result (a tiny brute-force
  "hinter").  Letters, digits and punctuation share one baseline,
  ``baseline`` pixels from the top; other symbols may also move vertically by
  up to half a pixel to get sharper.
* Box-drawing glyphs (single and double lines) are drawn as ``line_width``
  pixel lines that reach the cell edges, so frames join seamlessly.  Block
  and quadrant glyphs come from ``tcod.tileset.procedural_block_elements``
  and shades are 2x2 ordered-dither patterns, so they tile seamlessly too.
* At 10 pixels a few map and UI glyphs whose outlines turn to mush ('#', '.',
  '%', '<', '>', arrows, triangles, check boxes, circles) are pixel art.  At
  bigger sizes the font's outlines are readable, so they are rendered like
  text, except that '#' is the same lattice as the pixel art, drawn to scale,
  and the geometric `SYMBOLS` are rendered bigger and not widened, so that
  circles stay round.
* The sheet is written as a greyscale RGB PNG (grey level = coverage).
  ``tcod.tileset.load_tilesheet`` turns such tiles into white glyphs whose
  alpha is the grey level, and the black first tile (space) into transparency.

The output is deterministic.  Usage::

    python tools/make_tileset.py [--size N] [OUTPUT.png]

``--size`` is the tile width and height in pixels, an even number of at least
10 (default 10).  Without an output path the sheet is written to the
repository root as ``dejavuNxN_gs_tc.png``, whatever the current directory.
The game loads it with::

    tileset = tcod.tileset.load_tilesheet(
        "dejavu10x10_gs_tc.png", 32, 8, tcod.tileset.CHARMAP_TCOD
    )
"""

from __future__ import annotations

import argparse
import string
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import tcod.image
import tcod.tileset
from numpy.typing import NDArray

FONT_PATH = Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")
ROOT = Path(__file__).resolve().parent.parent

COLUMNS, ROWS = 32, 8  # Sheet layout in tiles.
SIZES = (10, 16, 24)  # The tile sizes shipped with the game.

# DejaVu Sans Mono metrics in font units: hhea ascent and descent, the width
# of the head bounding box, and the height of 'H'.
FONT_ASCENT, FONT_DESCENT = 1901, -483
FONT_BBOX_WIDTH = 1470 - (-1144)
FONT_CAP_HEIGHT = 1493


@dataclass(frozen=True)
class Metrics:
    """Everything that depends on the tile size, in final pixels unless noted.

    Why a value rather than module constants: the tests build every size in
    one process, and each function should say which numbers it depends on.
    """

    tile: int  # Tile width and height.
    cap_height: int  # Height of capitals.
    baseline: int  # Baseline row from the top; rows below it are for descenders.
    line_width: int  # Thickness of box-drawing lines.
    single_line: int  # First row and column of single box-drawing lines.
    double_near: int  # First row and column of the first double line.
    double_far: int  # Last row and column of the second double line.
    pixel_art: bool  # Whether the 10x10 `PIXEL_ART` replaces the font's glyphs.
    symbol_cap_height: int  # Cap height of the font scale that `SYMBOLS` are drawn at.
    supersample: int = 8  # Supersampled pixels per final pixel, vertically.
    supersample_x: int = 6  # The same horizontally; glyphs are widened by 8/6.
    embolden_x: int = 1  # Extra stroke width in supersampled pixels, horizontally.
    embolden_y: int = 1  # Extra stroke width in supersampled pixels, vertically.
    gain: float = 1.2  # Coverage multiplier that firms up anti-aliased strokes.


def scale(tile: int, numerator: int, denominator: int) -> int:
    """Return ``tile * numerator / denominator`` rounded half up.

    Integer arithmetic keeps the metrics exact, and unlike `round` it does not
    round halves to even, which would make the metrics jump unevenly with size.
    """
    return (tile * numerator + denominator // 2) // denominator


def metrics_for(tile: int) -> Metrics:
    """Return the metrics of `tile`-pixel tiles, scaled from the 10-pixel ones.

    The 10-pixel values were tuned by eye; the formulas reproduce them at 10
    and keep about the same proportions at other sizes: capitals 0.7 of the
    tile, the baseline at 0.8 (the descenders of 'g' and 'j' lose at most a
    third of a pixel at 16 and 24), lines about as thick as the letters'
    stems (a tenth of the tile: 1 pixel at 10, 2 at 16 and 24), and the gap
    inside double lines an eighth of it, doubled to keep it even.  Tiles are
    even and so is the span of a double line, so double lines sit exactly in
    the middle; single lines do when their width is even, and half a pixel
    up and left of it when it is odd, as at 10.
    """
    if tile < 10 or tile % 2:
        raise ValueError(f"tile size must be an even number of at least 10, not {tile}")
    cap_height = scale(tile, 7, 10)
    line_width = scale(tile, 1, 10)
    gap = 2 * scale(tile, 1, 8)  # Between the two lines of a double line.
    span = 2 * line_width + gap
    double_near = (tile - span) // 2
    return Metrics(
        tile=tile,
        cap_height=cap_height,
        baseline=scale(tile, 8, 10),
        line_width=line_width,
        single_line=(tile - line_width) // 2,
        double_near=double_near,
        double_far=double_near + span - 1,
        pixel_art=tile == 10,
        # DejaVu's circles are 0.82 cap heights across: make them about one.
        symbol_cap_height=scale(cap_height, 5, 4),
    )


def default_output(tile: int) -> Path:
    """Return where the sheet of `tile`-pixel tiles lives: the repository root."""
    return ROOT / f"dejavu{tile}x{tile}_gs_tc.png"


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

# Geometric symbols.  Without pixel art they are drawn from the font
# unwidened, so circles stay round and squares square, and larger than text,
# since DejaVu Sans Mono squeezes them into its narrow advance width.
SYMBOLS = frozenset("↑↓←→↕↔▲▼◄►☐☑○◉")

# Symbols drawn as one glyph centred on another.  DejaVu's fisheye '◉' leaves
# so thin a gap between its ring and its disc that they merge into a blob at
# these sizes; a ring around a bullet reads as a selected radio button.
COMPOSED: dict[str, tuple[str, str]] = {"◉": ("○", "•")}

# Pixel art for 10-pixel tiles.  '#' is a symmetric lattice so that walls form a regular grid;
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


def supersampled_font(m: Metrics) -> tcod.tileset.Tileset:
    """Render the whole font so that capitals are ``m.cap_height`` pixels tall.

    libtcod scales a font to the tile height unless the font's bounding box is
    wider than the tile, so the tile is made wide enough for that not to happen.
    Emboldening adds ``m.embolden_y`` to every height, so it is subtracted here.
    """
    cap_height = m.cap_height * m.supersample - m.embolden_y
    line_height = round(cap_height * (FONT_ASCENT - FONT_DESCENT) / FONT_CAP_HEIGHT)
    pixels_per_unit = line_height / (FONT_ASCENT - FONT_DESCENT)
    width = int(FONT_BBOX_WIDTH * pixels_per_unit) + 2
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


def composed_alpha(font: tcod.tileset.Tileset, outer: str, inner: str) -> Alpha:
    """Return the supersampled coverage of `inner` centred inside `outer`."""
    ring, dot = hires_alpha(font, outer), hires_alpha(font, inner)
    shift = [
        sum(ink_span(ring, axis)) // 2 - sum(ink_span(dot, axis)) // 2 for axis in (1, 0)
    ]
    moved: Alpha = np.roll(dot, shift, axis=(0, 1))  # The dot is far from the edges.
    return np.maximum(ring, moved)


def glyph_alpha(font: tcod.tileset.Tileset, char: str) -> Alpha:
    """Return the supersampled coverage of one character, composing `COMPOSED` ones."""
    if char in COMPOSED:
        return composed_alpha(font, *COMPOSED[char])
    return hires_alpha(font, char)


def embolden(alpha: Alpha, m: Metrics) -> Alpha:
    """Thicken strokes rightwards and upwards, keeping the baseline in place."""
    out = alpha.copy()
    for dx in range(1, m.embolden_x + 1):
        out[:, dx:] = np.maximum(out[:, dx:], alpha[:, :-dx])
    wide = out.copy()
    for dy in range(1, m.embolden_y + 1):
        out[:-dy, :] = np.maximum(out[:-dy, :], wide[dy:, :])
    return out


def ink_span(alpha: Alpha, axis: int) -> tuple[int, int]:
    """Return the first and past-the-last column (axis 0) or row (axis 1) with ink."""
    indices = np.flatnonzero(alpha.any(axis=axis))
    return int(indices[0]), int(indices[-1]) + 1


def fit_top(hires: Alpha, top: int, m: Metrics) -> int:
    """Move a window's top so that a glyph shorter than a tile is not clipped."""
    first, last = ink_span(hires, axis=1)
    height = m.tile * m.supersample
    if last - first > height:
        return top
    return min(max(top, last - height), first)


def crop(alpha: Alpha, top: int, left: int, m: Metrics) -> Alpha:
    """Return the supersampled window of one tile, zero-padded outside `alpha`."""
    height, width = m.tile * m.supersample, m.tile * m.supersample_x
    pad = max(height, width)
    padded = np.pad(alpha, pad)
    return padded[top + pad : top + pad + height, left + pad : left + pad + width]


def downsample(window: Alpha, m: Metrics) -> Alpha:
    """Box-filter a supersampled window down to one tile."""
    blocks = window.reshape(m.tile, m.supersample, m.tile, m.supersample_x)
    result: Alpha = blocks.mean(axis=(1, 3))
    return result


def sharpness(tile: Alpha) -> float:
    """Score how much coverage sits in fully lit pixels (higher is crisper)."""
    return float(np.square(tile).sum())


def phases(step: int) -> range:
    """Return the sub-pixel offsets that span one final pixel around zero."""
    return range(-(step // 2), step - step // 2)


def text_glyph(hires: Alpha, baseline: int, on_baseline: bool, m: Metrics) -> Alpha:
    """Reduce one supersampled glyph to a horizontally centred tile.

    Glyphs `on_baseline` keep the shared baseline; other symbols are kept
    inside the cell and may move vertically by up to half a pixel.
    """
    if not hires.any():
        return np.zeros((m.tile, m.tile))
    first, last = ink_span(hires, axis=0)
    left = (first + last) // 2 - m.tile * m.supersample_x // 2
    top = baseline - m.baseline * m.supersample
    rises: Iterable[int] = [0]
    if not on_baseline:
        top = fit_top(hires, top, m)
        rises = phases(m.supersample)
    candidates = [
        downsample(crop(hires, top + rise, left + shift, m), m)
        for rise in rises
        for shift in phases(m.supersample_x)
    ]
    best = max(candidates, key=sharpness)  # max() keeps the first of ties.
    return np.clip(best * m.gain, 0.0, 1.0)


def box_glyph(arms: Arms, double: bool, m: Metrics) -> Alpha:
    """Draw a single or double box-drawing glyph whose lines reach the edges.

    A single glyph is the region covered by its arms.  A double glyph is the
    outline, ``m.line_width`` thick, of a "pipe" between the two line
    positions, which gives correct corners and junctions for every
    combination of arms.
    """
    if double:
        low, high = m.double_near, m.double_far
    else:
        low, high = m.single_line, m.single_line + m.line_width - 1
    up, down, left, right = arms
    region = np.zeros((m.tile, m.tile), dtype=bool)
    region[low : high + 1, low : high + 1] = True
    region[: high + 1, low : high + 1] |= up
    region[low:, low : high + 1] |= down
    region[low : high + 1, : high + 1] |= left
    region[low : high + 1, low:] |= right
    if double:
        reach = m.line_width
        padded = np.pad(region, reach, mode="edge")  # Arms continue past the edge.
        interior = np.ones_like(region)
        for dy in range(2 * reach + 1):
            for dx in range(2 * reach + 1):
                interior &= padded[dy : dy + m.tile, dx : dx + m.tile]
        region &= ~interior
    return region.astype(np.float64)


def lattice_glyph(m: Metrics) -> Alpha:
    """Draw '#' as a symmetric lattice, so that walls of '#' form a regular grid.

    DejaVu's '#' has slanted bars, which look ragged in rows of walls.  The
    bars lie on the double box-drawing lines and stop one line width short of
    the cell edges, so neighbours stay apart; at 10 pixels this is the pixel art.
    """
    margin = m.line_width
    glyph = np.zeros((m.tile, m.tile))
    for start in (m.double_near, m.double_far - m.line_width + 1):
        bar = slice(start, start + m.line_width)
        glyph[bar, margin : m.tile - margin] = 1.0
        glyph[margin : m.tile - margin, bar] = 1.0
    return glyph


def shade_glyph(pattern: tuple[tuple[int, int], tuple[int, int]], m: Metrics) -> Alpha:
    """Repeat a 2x2 dither pattern over the tile."""
    return np.tile(np.array(pattern, dtype=np.float64), (m.tile // 2, m.tile // 2))


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


def special_glyphs(m: Metrics) -> dict[str, Alpha]:
    """Return the glyphs that are drawn here instead of taken from the font."""
    glyphs = {char: box_glyph(arms, False, m) for char, arms in SINGLE_BOX.items()}
    glyphs |= {char: box_glyph(arms, True, m) for char, arms in DOUBLE_BOX.items()}
    glyphs |= {char: shade_glyph(pattern, m) for char, pattern in SHADES.items()}
    if m.pixel_art:
        glyphs |= {char: pixel_art_glyph(rows) for char, rows in PIXEL_ART.items()}
        for char, (source, transforms) in DERIVED.items():
            glyphs[char] = derived_glyph(glyphs[source], transforms)
    else:
        glyphs["#"] = lattice_glyph(m)
    with warnings.catch_warnings():
        # tcod 21.2's `procedural_block_elements` calls tcod's own deprecated
        # `Tileset.set_tile` inside (as assets.py notes): the warning is tcod's.
        warnings.filterwarnings(
            "ignore", message="Assign to a tile using", category=DeprecationWarning
        )
        blocks = tcod.tileset.procedural_block_elements(shape=(m.tile, m.tile))
    for char in BLOCKS:
        glyphs[char] = blocks.get_tile(ord(char))[:, :, 3] / 255.0
    return glyphs


def symbol_metrics(m: Metrics) -> Metrics:
    """Return the metrics `SYMBOLS` are rendered with: bigger and not widened.

    Their outlines are thinner than letters' stems in DejaVu, so they are
    emboldened by half a pixel for each pixel that box-drawing lines, which
    they sit among in menus, are thicker than one.  A whole pixel would fill
    in the heads of the arrows.
    """
    extra = m.supersample * (m.line_width - 1) // 2
    return replace(
        m,
        cap_height=m.symbol_cap_height,
        supersample_x=m.supersample,
        embolden_x=m.embolden_x + extra,
        embolden_y=m.embolden_y + extra,
    )


def font_glyphs(chars: list[str], m: Metrics) -> dict[str, Alpha]:
    """Render `chars` from the font with the metrics `m`."""
    if not chars:
        return {}  # Rendering a font takes a while.
    font = supersampled_font(m)
    baseline = measure_baseline(font)
    return {
        char: text_glyph(embolden(glyph_alpha(font, char), m), baseline, char in ON_BASELINE, m)
        for char in chars
    }


def build_tiles(charmap: Iterable[int], m: Metrics) -> list[Alpha]:
    """Return one coverage tile per charmap entry (blank for control codes)."""
    chars = [chr(code) for code in charmap]
    glyphs = special_glyphs(m)
    blank = [char for char in chars if char.isspace() or not char.isprintable()]
    glyphs |= {char: np.zeros((m.tile, m.tile)) for char in blank}
    symbols = [char for char in chars if char in SYMBOLS and char not in glyphs]
    glyphs |= font_glyphs(symbols, symbol_metrics(m))
    glyphs |= font_glyphs([char for char in chars if char not in glyphs], m)
    return [glyphs[char] for char in chars]


def assemble_sheet(tiles: list[Alpha], m: Metrics) -> NDArray[np.uint8]:
    """Lay tiles out row-major into a greyscale RGB sheet, padding with blanks."""
    blanks = [np.zeros((m.tile, m.tile))] * (ROWS * COLUMNS - len(tiles))
    grid = np.array(tiles + blanks).reshape(ROWS, COLUMNS, m.tile, m.tile)
    grey = grid.transpose(0, 2, 1, 3).reshape(ROWS * m.tile, COLUMNS * m.tile)
    levels = np.rint(grey * 255).astype(np.uint8)
    return np.repeat(levels[:, :, np.newaxis], 3, axis=2)


def write_sheet(tile: int, output: Path) -> None:
    """Build the sheet of `tile`-pixel tiles and save it as a PNG at `output`."""
    m = metrics_for(tile)
    sheet = assemble_sheet(build_tiles(tcod.tileset.CHARMAP_TCOD, m), m)
    tcod.image.Image.from_array(sheet).save_as(output)


def parse_size(text: str) -> int:
    """Read ``--size``, refusing sizes that `metrics_for` cannot draw."""
    try:
        size = int(text)
        metrics_for(size)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from error
    return size


def main(argv: list[str] | None = None) -> None:
    """Build one sheet from the command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description="Draw a DejaVu tile sheet for the game.")
    parser.add_argument(
        "--size", type=parse_size, default=10, help="tile width and height in pixels (default 10)"
    )
    parser.add_argument("output", nargs="?", type=Path, help="where to write the PNG")
    args = parser.parse_args(argv)
    output: Path = args.output or default_output(args.size)
    write_sheet(args.size, output)
    print(f"Wrote {output}")


if __name__ == "__main__":
    main()
