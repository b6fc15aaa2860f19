"""Tile types as numpy structured values, so a whole map is one array."""

from typing import Final

import numpy as np
from numpy.typing import NDArray

# Tile graphics structured type compatible with Console.rgb.
graphic_dt: Final = np.dtype(
    [
        ("ch", np.int32),  # Unicode codepoint.
        ("fg", "3B"),  # 3 unsigned bytes, for RGB colors.
        ("bg", "3B"),
    ]
)

# Tile struct used for statically defined tile data.
tile_dt: Final = np.dtype(
    [
        ("name", "U16"),  # What the player is told this tile is: "floor", "wall".
        ("sign", "U1"),  # How the map as text (and the morgue) shows it: ".", "#".
        ("walkable", np.bool_),  # True if this tile can be walked over.
        ("transparent", np.bool_),  # True if this tile doesn't block FOV.
        ("dark", graphic_dt),  # Graphics for when this tile is not in FOV.
        ("light", graphic_dt),  # Graphics for when the tile is in FOV.
    ]
)

Graphic = tuple[int, tuple[int, int, int], tuple[int, int, int]]


def new_tile(
    *,  # Enforce the use of keywords, so that parameter order doesn't matter.
    name: str,
    sign: str,
    walkable: int,
    transparent: int,
    dark: Graphic,
    light: Graphic,
) -> NDArray[np.void]:
    """Helper function for defining individual tile types."""
    return np.array((name, sign, walkable, transparent, dark, light), dtype=tile_dt)


# SHROUD represents unexplored, unseen tiles.
SHROUD: Final = np.array((ord(" "), (255, 255, 255), (0, 0, 0)), dtype=graphic_dt)

floor: Final = new_tile(
    name="floor",
    sign=".",
    walkable=True,
    transparent=True,
    dark=(ord(" "), (255, 255, 255), (50, 50, 150)),
    light=(ord(" "), (255, 255, 255), (200, 180, 50)),
)
wall: Final = new_tile(
    name="wall",
    sign="#",
    walkable=False,
    transparent=False,
    dark=(ord(" "), (255, 255, 255), (0, 0, 100)),
    light=(ord(" "), (255, 255, 255), (130, 110, 50)),
)
down_stairs: Final = new_tile(
    name="stairs down",
    sign=">",
    walkable=True,
    transparent=True,
    dark=(ord(">"), (0, 0, 100), (50, 50, 150)),
    light=(ord(">"), (255, 255, 255), (200, 180, 50)),
)

# Every tile type, in the order the map as text names them in its key.
TILE_TYPES: Final = (wall, floor, down_stairs)

