"""The display's size, and what of the game's screen fits on it.

Kept apart from the window (`display`) so that the options screen can ask
whether a tile size fits before choosing it, without importing the window's
code and what it imports.
"""

from __future__ import annotations

from typing import Final

import tcod.sdl.sys
from tcod.cffi import ffi, lib

from window.options import Options, Placement

COLUMNS: Final = 80  # The screen the game draws on, in tiles.
ROWS: Final = 50
# Pixels left free around the first window, on each axis: its title bar and
# frame, and a little room.
MARGIN: Final = 32

Area = tuple[int, int, int, int]  # x, y, width, height in pixels.


def usable_area(point: tuple[int, int] | None = None) -> Area | None:
    """The part of a display a window may take: of the display that holds
    `point`, else of the primary one; None if SDL knows of no display (or
    has no video at all: opening the window says why)."""
    try:
        tcod.sdl.sys.init(tcod.sdl.sys.Subsystem.VIDEO)
    except RuntimeError:
        return None
    display = 0
    if point is not None:
        display = lib.SDL_GetDisplayForPoint(ffi.new("SDL_Point*", point))
    if not display:
        display = lib.SDL_GetPrimaryDisplay()
    rect = ffi.new("SDL_Rect*")
    if not display or not lib.SDL_GetDisplayUsableBounds(display, rect):
        return None
    return rect.x, rect.y, rect.w, rect.h


def unscaled_size(tile: tuple[int, int]) -> tuple[int, int]:
    """The screen's size in pixels at 1x: each tile pixel one screen pixel."""
    return COLUMNS * tile[0], ROWS * tile[1]


def largest_scale(tile: tuple[int, int], area: Area) -> int:
    """The largest whole-number scale at which the screen fits `area` with
    `MARGIN` to spare; 1 when not even 1x does."""
    width, height = unscaled_size(tile)
    return max(1, min((area[2] - MARGIN) // width, (area[3] - MARGIN) // height))


def fits(placement: Placement, area: Area) -> bool:
    """Whether the window lies wholly inside `area`."""
    x, y, width, height = area
    return (
        x <= placement.x
        and y <= placement.y
        and placement.x + placement.width <= x + width
        and placement.y + placement.height <= y + height
    )


def centred(width: int, height: int, area: Area) -> Placement:
    """A window of `width` x `height` pixels in the middle of `area`."""
    return Placement(width, height, area[0] + (area[2] - width) // 2, area[1] + (area[3] - height) // 2)


def refusal(now: Options, wanted: Options) -> str | None:
    """Why the options screen can't change `now` into `wanted` on this
    display (a tile size too big for it), or None."""
    if wanted.tile_size == now.tile_size:
        return None
    return too_big(wanted.tile_size)


def too_big(tile_size: int, area: Area | None = None) -> str | None:
    """Why tiles of `tile_size` pixels can't be used here: the screen at 1x
    is bigger than the display's usable area (of the primary display, unless
    `area` is given); None when it fits, or when SDL knows of no display."""
    area = usable_area() if area is None else area
    width, height = unscaled_size((tile_size, tile_size))
    if area is None or (width <= area[2] and height <= area[3]):
        return None
    return (
        f"Tiles of {tile_size}x{tile_size} need a window of {width}x{height}; "
        f"this display has room for {area[2]}x{area[3]}."
    )
