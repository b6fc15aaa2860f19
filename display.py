"""The window: a first size that fits the display, crisp whole-number scales,
and the options it follows (fullscreen) and remembers (its size and place).

Tiles are crisp only at whole multiples of their size: the first window is
the largest such multiple of the 80x50 screen that fits the part of the
display a window may take (SDL's "usable bounds": no task bar or panel), with
`MARGIN` pixels to spare for the window's frame; a 1080p display takes it at
2x (1600x1000 with 10x10 tiles), a 4K one at 4x.  The main loop presents the
screen at a whole-number scale too, letterboxed, whatever size the player
drags the window to, and the window can't be made smaller than 1x.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import Final

import tcod
import tcod.sdl.sys
from tcod.cffi import ffi, lib

import options as options_module
import setup_game
from options import Options, Placement

COLUMNS: Final = 80  # The screen the game draws on, in tiles.
ROWS: Final = 50
# Pixels left free around the first window, on each axis: its title bar and
# frame, and a little room.
MARGIN: Final = 32

Area = tuple[int, int, int, int]  # x, y, width, height in pixels.


def usable_area(point: tuple[int, int] | None = None) -> Area | None:
    """The part of a display a window may take: of the display that holds
    `point`, else of the primary one; None if SDL knows of no display."""
    tcod.sdl.sys.init(tcod.sdl.sys.Subsystem.VIDEO)
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


def first_placement(tile: tuple[int, int], remembered: Placement | None) -> Placement | None:
    """Where the window opens: where it was, if that still fits on a display;
    else at the largest whole-number scale, centred; None when SDL knows of
    no display (tcod then opens it at 1x)."""
    if remembered is not None:
        centre = (remembered.x + remembered.width // 2, remembered.y + remembered.height // 2)
        area = usable_area(centre)
        if area is not None and fits(remembered, area):
            return remembered
    area = usable_area()
    if area is None:
        return None
    scale = largest_scale(tile, area)
    width, height = (size * scale for size in unscaled_size(tile))
    return Placement(width, height, area[0] + (area[2] - width) // 2, area[1] + (area[3] - height) // 2)


def fits(placement: Placement, area: Area) -> bool:
    """Whether the window lies wholly inside `area`."""
    x, y, width, height = area
    return (
        x <= placement.x
        and y <= placement.y
        and placement.x + placement.width <= x + width
        and placement.y + placement.height <= y + height
    )


def open_window(
    tileset: tcod.tileset.Tileset, fullscreen: bool, remembered: Placement | None = None
) -> tcod.context.Context:
    """The game's window, fullscreen or not, where it was last (see `first_placement`)."""
    tile = (tileset.tile_width, tileset.tile_height)
    place = first_placement(tile, remembered)
    flags = tcod.context.SDL_WINDOW_RESIZABLE
    if fullscreen:
        flags |= tcod.context.SDL_WINDOW_FULLSCREEN
    context = tcod.context.new(
        x=None if place is None else place.x,
        y=None if place is None else place.y,
        width=None if place is None else place.width,
        height=None if place is None else place.height,
        columns=COLUMNS,
        rows=ROWS,
        tileset=tileset,
        title=setup_game.GAME_TITLE,
        # The game draws only when input arrives, so waiting for the screen's
        # refresh (the tutorial's vsync=True) would only delay each answer.
        vsync=False,
        sdl_window_flags=flags,
    )
    window = context.sdl_window
    if window is not None:
        window.min_size = unscaled_size(tile)
        # Symbols are bound by the character typed (`keys.is_symbol`), which
        # SDL 3 sends as TextInput events only once text input is started.
        window.start_text_input()
    return context


def follow(context: tcod.context.Context, options: Options) -> None:
    """Make the window what the options say, where it differs (the main loop
    calls this every frame, so an option changed anywhere applies at once)."""
    window = context.sdl_window
    if window is None:
        return
    if window.fullscreen != options.fullscreen:
        window.fullscreen = options.fullscreen


def toggle_fullscreen(context: tcod.context.Context) -> str | None:
    """Alt+Enter: fullscreen or not, an option kept as the options screen keeps it.

    None, or the notice of an options file that could not be written.
    """
    now = options_module.current()
    notice = options_module.change(dataclasses.replace(now, fullscreen=not now.fullscreen))
    follow(context, options_module.current())
    return notice


def placement(context: tcod.context.Context) -> Placement | None:
    """The window's size and place now, to open it there next time; None in
    fullscreen (the window it leaves to is what is remembered)."""
    window = context.sdl_window
    if window is None or window.fullscreen:
        return None
    width, height = window.size
    x, y = window.position
    return Placement(width, height, x, y)


def remember_window(context: tcod.context.Context) -> None:
    """Keep the window's size and place in the options, to open it there next time."""
    place = placement(context)
    now = options_module.current()
    if place is None or place == now.window:
        return
    notice = options_module.change(dataclasses.replace(now, window=place))
    if notice is not None:
        print(f"main.py: {notice}", file=sys.stderr)
