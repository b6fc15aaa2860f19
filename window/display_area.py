"""The display's size and what of the game's screen fits on it; apart from
`display` so the options screen can ask without importing the window's code."""

from __future__ import annotations

from typing import Final

import tcod.sdl.sys
from tcod.cffi import ffi, lib

from window.options import Options, Placement

COLUMNS: Final = 80  # The screen the game draws on, in tiles.
ROWS: Final = 50
# Pixels left free on each axis for the first window's title bar and frame.
MARGIN: Final = 32

Area = tuple[int, int, int, int]  # x, y, width, height in pixels.


def usable_area(point: tuple[int, int] | None = None) -> Area | None:
    """The part of the display holding `point` (else the primary one) a window
    may take; None without a display, since opening the window will say why."""
    if not video_started():
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


def video_started() -> bool:
    """Start SDL's video if nothing has (the window is not open yet); whether it runs.

    Started once and left running: SDL counts who started it in one byte, so a
    start at every call wraps that count to 0 after 255, and the next start
    restarts the video, closing every window open.
    """
    video = tcod.sdl.sys.Subsystem.VIDEO
    if lib.SDL_WasInit(video):
        return True
    try:
        tcod.sdl.sys.init(video)
    except RuntimeError:
        return False
    return True


def unscaled_size(tile: tuple[int, int]) -> tuple[int, int]:
    """The screen's size in pixels at 1x: each tile pixel one screen pixel."""
    return COLUMNS * tile[0], ROWS * tile[1]


def largest_scale(tile: tuple[int, int], area: Area) -> int:
    """The largest whole scale (at least 1) at which the screen fits `area` with `MARGIN` free."""
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
    """Why `now` can't become `wanted` on this display (tiles too big), or None."""
    if wanted.tile_size == now.tile_size:
        return None
    return too_big(wanted.tile_size)


def too_big(tile_size: int, area: Area | None = None) -> str | None:
    """Why tiles of `tile_size` pixels can't be used: the screen at 1x is bigger
    than `area` (by default the primary display's); None if it fits or no display is known."""
    area = usable_area() if area is None else area
    width, height = unscaled_size((tile_size, tile_size))
    if area is None or (width <= area[2] and height <= area[3]):
        return None
    return (
        f"Tiles of {tile_size}x{tile_size} need a window of {width}x{height}; "
        f"this display has room for {area[2]}x{area[3]}."
    )
