"""The images the game reads at start-up: the tile sheets and the menu's background.

Every sheet is looked for before the window opens, so that choosing another
tile size in play finds it; only the one in use is decoded, the others when
chosen.  A missing or broken file stops the game with one line saying which
and why (`AssetError`).
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Final

import tcod

from window import error_report, options, title
from words import program

TILESET_PATHS: Final = {size: Path(__file__).resolve().parent.parent / f"dejavu{size}x{size}_gs_tc.png" for size in options.TILE_SIZES}


class AssetError(Exception):
    """A file the game needs can't be read; `str()` is the line for the terminal."""


def load_tileset(path: Path = TILESET_PATHS[10]) -> tcod.tileset.Tileset:
    """The game's tile sheet, with every block element drawn solid.

    The menu's semigraphics use block glyphs that CP437's charmap lacks.
    """
    tileset = tcod.tileset.load_tilesheet(path, 32, 8, tcod.tileset.CHARMAP_TCOD)
    if tileset.tile_width < 1 or tileset.tile_height < 1:
        raise RuntimeError("the image is too small to hold 32x8 tiles")
    with warnings.catch_warnings():
        # tcod 21.2 calls its own deprecated `Tileset.set_tile` inside: the
        # warning is tcod's, not ours.
        warnings.filterwarnings(
            "ignore", message="Assign to a tile using", category=DeprecationWarning
        )
        tcod.tileset.procedural_block_elements(tileset=tileset)
    return tileset


def load(size: int) -> tcod.tileset.Tileset:
    """The tile sheet of tiles `size` pixels a side, once every other asset is known to be there."""
    for each, path in TILESET_PATHS.items():
        if each != size and not (path.is_file() and os.access(path, os.R_OK)):
            raise AssetError(f"{program.name()}: cannot read the tile sheet {path}: it is missing or unreadable")
    try:
        tileset = load_tileset(TILESET_PATHS[size])
    except (OSError, RuntimeError) as exc:
        why = error_report.reason(exc)
        raise AssetError(f"{program.name()}: cannot read the tile sheet {TILESET_PATHS[size]}: {why}") from exc
    where = f"{program.name()}: cannot read the menu background {title.BACKGROUND_PATH}"
    try:
        title.background_image()
    except OSError as exc:
        raise AssetError(f"{where}: {error_report.reason(exc)}") from exc
    except RuntimeError as exc:  # tcod says no more than "Pointer must not be NULL."
        raise AssetError(f"{where}: not a PNG image it can read") from exc
    return tileset
