"""The images the game reads at start-up: the tile sheet and the menu's background.

Both ship beside the code.  A missing or broken one stops the game before
its window opens, with one line saying which file and why (`AssetError`).
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Final

import tcod

import error_report
import setup_game

TILESET_PATH: Final = Path(__file__).parent / "dejavu10x10_gs_tc.png"


class AssetError(Exception):
    """A file the game needs can't be read; `str()` is the line for the terminal."""


def load_tileset(path: Path = TILESET_PATH) -> tcod.tileset.Tileset:
    """The game's tile sheet, with every block element drawn solid.

    The menu's semigraphics use block glyphs that CP437's charmap lacks.
    """
    tileset = tcod.tileset.load_tilesheet(path, 32, 8, tcod.tileset.CHARMAP_TCOD)
    if tileset.tile_width < 1 or tileset.tile_height < 1:
        raise RuntimeError("the image is too small to hold 32x8 tiles")
    with warnings.catch_warnings():
        # tcod 21.2's `procedural_block_elements` (and even the recommended
        # `tileset[codepoint] = tile`) call tcod's own deprecated
        # `Tileset.set_tile` inside: the warning is tcod's, not ours.
        warnings.filterwarnings(
            "ignore", message="Assign to a tile using", category=DeprecationWarning
        )
        tcod.tileset.procedural_block_elements(tileset=tileset)
    return tileset


def load() -> tcod.tileset.Tileset:
    """The tile sheet, once the menu's background is known to be readable too."""
    try:
        tileset = load_tileset(TILESET_PATH)
    except (OSError, RuntimeError) as exc:
        raise AssetError(
            f"main.py: cannot read the tile sheet {TILESET_PATH}: {error_report.reason(exc)}"
        ) from exc
    where = f"main.py: cannot read the menu background {setup_game.BACKGROUND_PATH}"
    try:
        setup_game.background_image()
    except OSError as exc:
        raise AssetError(f"{where}: {error_report.reason(exc)}") from exc
    except RuntimeError as exc:  # tcod says no more than "Pointer must not be NULL."
        raise AssetError(f"{where}: not a PNG image it can read") from exc
    return tileset
