"""The window: a first size that fits the display, whole-number scales, and the
options it follows (fullscreen, tile size) and remembers (its size and place).

Tiles are crisp only at whole multiples of their size, so every size the window
is given is one (README, "Play, or test").
"""

from __future__ import annotations

import dataclasses
import sys

import tcod

from window import assets, title
from window import options as options_module
from window.display_area import (
    COLUMNS,
    ROWS,
    Area,
    centred,
    fits,
    largest_scale,
    unscaled_size,
    usable_area,
)
from window.options import Options, Placement
from words import program


def first_placement(tile: tuple[int, int], remembered: Placement | None) -> Placement | None:
    """Where the window opens: where it was, if that still fits on a display, else
    at the largest whole-number scale, centred; None when SDL knows of no display."""
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
    return centred(width, height, area)


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
        title=title.GAME_TITLE,
        # Differs from the tutorial: the game draws only when input arrives,
        # so waiting for the screen's refresh would only delay each answer.
        vsync=False,
        sdl_window_flags=flags,
        # The command line is the game's (`command_line`); libtcod reads its own
        # options from it by default, and takes --windowed for a windowed window.
        argv=[],
    )
    window = context.sdl_window
    if window is not None:
        window.min_size = unscaled_size(tile)
        # Symbols are bound by the character typed (`keys.is_symbol`), which
        # SDL 3 sends as TextInput events only once text input is started.
        window.start_text_input()
    return context


def follow(context: tcod.context.Context, options: Options) -> None:
    """Make the window what the options say, where it differs.

    Called every frame, so an option changed anywhere applies at once.
    """
    window = context.sdl_window
    if window is None:
        return
    if window.fullscreen != options.fullscreen:
        switch_fullscreen(window, options.fullscreen)
    atlas = context.sdl_atlas
    if atlas is not None and atlas.tileset.tile_width != options.tile_size:
        change_tiles(context, window, options.tile_size)


def switch_fullscreen(window: tcod.sdl.video.Window, fullscreen: bool) -> str | None:
    """Make the window fullscreen or not; None, or why the display refused (it stays as it was).

    A display may refuse (SDL fails with no mode to switch to): the game goes on in its window.
    """
    try:
        window.fullscreen = fullscreen
    except RuntimeError as exc:
        return str(exc)
    return None


def change_tiles(context: tcod.context.Context, window: tcod.sdl.video.Window, size: int) -> None:
    """Draw with tiles of `size` pixels, the window as near its size as whole scales of them allow."""
    context.change_tileset(assets.load_tileset(assets.TILESET_PATHS[size]))
    tile = (size, size)
    window.min_size = unscaled_size(tile)
    if window.fullscreen:
        return
    x, y = window.position
    width, height = window.size
    area = usable_area((x + width // 2, y + height // 2))
    place = nearest_placement(tile, Placement(width, height, x, y), area)
    window.size = (place.width, place.height)
    window.position = (place.x, place.y)


def nearest_placement(tile: tuple[int, int], now: Placement, area: Area | None) -> Placement:
    """The whole scale of the screen in `tile`s nearest `now` in width that fits `area`
    (1x at least), where `now` is if it still fits, else centred."""
    unscaled_width, unscaled_height = unscaled_size(tile)
    most = 1 if area is None else largest_scale(tile, area)
    scale = min(range(1, most + 1), key=lambda k: abs(k * unscaled_width - now.width))
    place = Placement(unscaled_width * scale, unscaled_height * scale, now.x, now.y)
    if area is None or fits(place, area):
        return place
    return centred(place.width, place.height, area)


def toggle_fullscreen(context: tcod.context.Context, settings: options_module.Settings) -> str | None:
    """Alt+Enter: fullscreen or not, an option kept as the options screen keeps it.

    None, or the notice of a display that refused (the option is left as it
    was); the main loop keeps the change in the options file.
    """
    now = settings.options
    window = context.sdl_window
    refused = None if window is None else switch_fullscreen(window, not now.fullscreen)
    if refused is not None:
        return f"The display would not switch to {'a window' if now.fullscreen else 'fullscreen'}: {refused}"
    settings.change(dataclasses.replace(now, fullscreen=not now.fullscreen))
    follow(context, settings.options)
    return None


def placement(context: tcod.context.Context) -> Placement | None:
    """The window's size and place now, to open it there next time.

    None in fullscreen: the window it leaves to is what is remembered.
    """
    window = context.sdl_window
    if window is None or window.fullscreen:
        return None
    # Not below 1x, even where no window manager holds the window to its minimum.
    width, height = (max(size, least) for size, least in zip(window.size, window.min_size, strict=True))
    x, y = window.position
    return Placement(width, height, x, y)


def remember_window(context: tcod.context.Context, settings: options_module.Settings) -> None:
    """Keep the window's size and place in the options, to open it there next time."""
    place = placement(context)
    now = settings.options
    if place is None or place == now.window:
        return
    settings.change(dataclasses.replace(now, window=place))
    notice = settings.keep_changes()  # After the main loop: kept here.
    if notice is not None:
        print(f"{program.name()}: {notice}", file=sys.stderr)
