"""Tile sizes (issue 24): a sheet for each size of the options, chosen on the
options screen, applied at once with the window as near its size in pixels as
whole scales allow, and never a size the display can't hold at 1x."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import pytest
import tcod
from conftest import after_frame, key
from tcod.event import KeySym

import input_handlers
import main
import setup_game
from saving import paths
from screens.options_screen import OptionsScreen
from screens.stack import Screens
from window import assets, display, display_area, loop, options
from window.options import Placement

FULL_HD = (0, 0, 1920, 1080)
UHD = (0, 0, 3840, 2160)


def test_every_tile_size_has_a_sheet_of_that_size() -> None:
    for size, path in assets.TILESET_PATHS.items():
        tileset = assets.load_tileset(path)
        assert (tileset.tile_width, tileset.tile_height) == (size, size), path


def blank_sheet(path: Path, width: int, height: int) -> Path:
    """A white PNG of `width` x `height` pixels: a tile sheet of 32x8 tiles, if it holds them."""
    image = tcod.image.Image(width, height)
    image.clear((255, 255, 255))
    image.save_as(path)
    return path


def test_a_sheet_of_one_pixel_tiles_loads(in_tmp: Path) -> None:
    """32x8 pixels hold 32x8 tiles: the least sheet that does."""
    tileset = assets.load_tileset(blank_sheet(in_tmp / "tiny.png", 32, 8))
    assert (tileset.tile_width, tileset.tile_height) == (1, 1)


@pytest.mark.parametrize(("width", "height"), [(31, 8), (32, 7)])
def test_a_sheet_too_small_for_32x8_tiles_is_refused(in_tmp: Path, width: int, height: int) -> None:
    """tcod would make tiles of no pixels of it; the start stops with the sheet's name and why."""
    path = blank_sheet(in_tmp / "small.png", width, height)
    with pytest.raises(RuntimeError, match="too small to hold 32x8 tiles"):
        assets.load_tileset(path)


@pytest.mark.parametrize(
    ("size", "area", "expected"),
    [
        # 1600x1000 (10x10 at 2x) on 1080p: 16x16 fits only at 1x.
        (16, FULL_HD, Placement(1280, 800, 160, 40)),
        # 3200x2000 (10x10 at 4x) on 4K: 16x16 at 2x is the nearest.
        (16, UHD, Placement(2560, 1600, 160, 40)),
        (24, UHD, Placement(1920, 1200, 160, 40)),
        (10, UHD, Placement(3200, 2000, 160, 40)),
    ],
)
def test_a_new_tile_size_keeps_the_window_near_its_size(
    size: int, area: display_area.Area, expected: Placement
) -> None:
    now = Placement(1600, 1000, 160, 40) if area == FULL_HD else Placement(3200, 2000, 160, 40)
    assert display.nearest_placement((size, size), now, area) == expected


def test_a_window_that_would_leave_the_display_is_centred_on_it() -> None:
    now = Placement(800, 500, 1000, 500)  # 10x10 at 1x, low and right.
    assert display.nearest_placement((16, 16), now, FULL_HD) == Placement(1280, 800, 320, 140)


def test_tiles_too_big_for_the_display_are_refused_saying_why() -> None:
    assert display_area.too_big(16, FULL_HD) is None
    assert display_area.too_big(24, FULL_HD) == (
        "Tiles of 24x24 need a window of 1920x1200; this display has room for 1920x1080."
    )
    assert display_area.too_big(24, UHD) is None


def test_tiles_that_fill_the_display_exactly_fit() -> None:
    """16x16 tiles need 1280x800 at 1x: a usable area of just that holds them, a pixel less not."""
    assert display_area.too_big(16, (0, 0, 1280, 800)) is None
    assert display_area.too_big(16, (0, 0, 1279, 800)) is not None
    assert display_area.too_big(16, (0, 0, 1280, 799)) is not None


class TwoDisplays:
    """SDL's calls that `usable_area` makes, on a desk of two displays side by side."""

    AREAS: ClassVar = {1: (0, 0, 1920, 1050), 2: (1920, 0, 2560, 1400)}

    def __init__(self) -> None:
        self.points_asked: list[tuple[int, int]] = []

    def SDL_WasInit(self, subsystems: int) -> int:
        return subsystems  # The video runs.

    def SDL_GetDisplayForPoint(self, point: Any) -> int:
        self.points_asked.append((point.x, point.y))
        return 2 if point.x >= 1920 else 1

    def SDL_GetPrimaryDisplay(self) -> int:
        return 1

    def SDL_GetDisplayUsableBounds(self, display: int, rect: Any) -> bool:
        rect.x, rect.y, rect.w, rect.h = self.AREAS[display]
        return True


def test_the_usable_area_is_of_the_display_holding_the_point_else_the_primary(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sdl = TwoDisplays()
    monkeypatch.setattr(display_area, "lib", sdl)
    assert display_area.usable_area((2000, 100)) == TwoDisplays.AREAS[2]
    assert display_area.usable_area((100, 100)) == TwoDisplays.AREAS[1]
    assert display_area.usable_area() == TwoDisplays.AREAS[1]
    assert sdl.points_asked == [(2000, 100), (100, 100)]  # No point given, none asked of.


def test_a_remembered_window_is_looked_for_on_the_display_under_its_centre(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A window left near the left edge of the first of two displays opens there again:
    its centre is on the first, though its right edge reaches past half the desk."""
    sdl = TwoDisplays()
    monkeypatch.setattr(display_area, "lib", sdl)
    left = Placement(1600, 1000, 100, 20)
    assert display.first_placement((10, 10), left) == left
    assert sdl.points_asked == [(900, 520)]


def test_the_display_can_be_asked_any_number_of_times_with_the_window_open(
    context: tcod.context.Context,
) -> None:
    """The options screen asks at each tile size it steps to.  SDL counts who started
    its video in one byte: were the video started at each ask, the count would wrap
    to 0 and the next start restart the video, closing the window under the game."""
    for _ in range(300):
        assert display_area.usable_area() is not None
    context.present(tcod.console.Console(80, 50, order="F"))


def options_screen_on_tile_size() -> Screens:
    screens = Screens(setup_game.MainMenu())
    screens.press(key(KeySym.O))
    for _ in range(list(options.choices()).index("tile_size")):
        screens.press(key(KeySym.DOWN))
    assert isinstance(screens.top, OptionsScreen)
    return screens


def test_the_options_screen_steps_past_a_size_the_display_cant_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(display_area, "usable_area", lambda point=None: FULL_HD)
    screens = options_screen_on_tile_size()
    screens.press(key(KeySym.RIGHT))
    assert screens.settings.options.tile_size == 16
    after_frame(screens)  # The main loop keeps it.
    assert "tile_size = 16x16\n" in paths.options_path().read_text()
    screens.press(key(KeySym.RIGHT))  # 24x24 does not fit 1080p: back round to 10x10.
    assert screens.settings.options.tile_size == 10
    screen = screens.top
    assert isinstance(screen, OptionsScreen)
    assert screen.notice is not None and screen.notice.startswith("Tiles of 24x24 need a window of 1920x1200")


def test_on_a_4k_display_every_size_can_be_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(display_area, "usable_area", lambda point=None: UHD)
    screens = options_screen_on_tile_size()
    seen = []
    for _ in options.TILE_SIZES:
        screens.press(key(KeySym.RIGHT))
        seen.append(screens.settings.options.tile_size)
    assert sorted(seen) == sorted(options.TILE_SIZES)


def test_the_window_takes_the_new_tiles_at_once(context: tcod.context.Context) -> None:
    window = context.sdl_window
    atlas = context.sdl_atlas
    assert window is not None and atlas is not None
    menu = setup_game.MainMenu(options.Settings(options.Options(tile_size=16)))
    loop.main_loop(context, tcod.console.Console(80, 50, order="F"), Screens(menu), lambda: [tcod.event.Quit()])
    assert context.sdl_atlas is not None and context.sdl_atlas.tileset.tile_width == 16
    assert window.min_size == (1280, 800)
    width, height = window.size
    assert (width, height) in {(1280 * k, 800 * k) for k in range(1, 4)}


def test_a_file_asking_for_tiles_too_big_for_this_display_starts_with_the_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    paths.options_path().write_text("tile_size = 24x24\n")
    monkeypatch.setattr(display_area, "usable_area", lambda point=None: FULL_HD)
    seen: list[Screens] = []
    monkeypatch.setattr(loop, "main_loop", lambda context, console, screens, *rest: seen.append(screens))
    assert main.main([]) == 0
    [screens] = seen
    popup = screens.top
    assert isinstance(popup, input_handlers.PopupMessage)
    assert isinstance(screens.menu, setup_game.MainMenu) and screens.stack == [screens.menu, popup]
    assert popup.text.endswith("this display has room for 1920x1080. Using 10x10.")
    assert screens.settings.options.tile_size == 10
