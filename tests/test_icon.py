"""The game's icon: drawn from the tile sheet's `@`, on the window and in the
Windows (.ico) and macOS (.icns) files that tools/make_icon.py writes."""

from __future__ import annotations

import shutil
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
import tcod
from test_build import load_module
from test_window import LIBX11, MISSING, Window, virtual_screen

from window import assets, icon

ROOT = Path(__file__).resolve().parent.parent
make_icon = load_module("make_icon")


def png_pixels(data: bytes) -> np.ndarray:
    """The RGBA pixels of a PNG file as make_icon writes them (unfiltered rows)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height, depth, kind = struct.unpack(">IIBB", data[16:26])
    assert (depth, kind) == (8, 6), "not 8-bit RGBA"
    idat = data.index(b"IDAT")
    length = struct.unpack(">I", data[idat - 4 : idat])[0]
    rows = np.frombuffer(zlib.decompress(data[idat + 4 : idat + 4 + length]), np.uint8)
    rows = rows.reshape(height, 1 + width * 4)
    assert not rows[:, 0].any(), "a row is filtered"
    return rows[:, 1:].reshape(height, width, 4)


def test_the_icon_is_the_at_sign_white_on_a_rounded_dark_square() -> None:
    glyph = icon.glyph_coverage(assets.load_tileset())
    assert glyph.max() == 1.0 and glyph[0].any() and glyph[:, 0].any(), "not cropped to its ink"
    for size in (16, 64, 256):
        pixels = icon.draw_icon(glyph, size)
        assert pixels.shape == (size, size, 4)
        assert pixels[0, 0, 3] < 32, "a corner is not rounded off"
        assert (pixels[size // 2, :, 3] == 255).all(), "the middle row is not opaque"
        white = (pixels[:, :, :3] == 255).all(axis=2)
        # The fully inked pixels of the tile, each one a square of whole pixels.
        scale = int(size * icon.GLYPH_SHARE / max(glyph.shape))
        assert white.sum() == (glyph == 1).sum() * scale**2


def test_the_window_shows_the_icon(context: tcod.context.Context) -> None:
    icon.set_window_icon(context, assets.load_tileset())


@pytest.mark.skipif(
    bool(MISSING) or LIBX11 is None or shutil.which("xprop") is None,
    reason="needs Xvfb, xdotool, ImageMagick, xprop and libX11 (apt-get install xvfb xdotool imagemagick x11-utils)",
)
def test_a_real_window_carries_the_icon_for_the_desktop(tmp_path: Path) -> None:
    """X desktops draw a window's icon from its _NET_WM_ICON property."""
    with virtual_screen() as display:
        window = Window(display, tmp_path, 1)
        try:
            shown = window.x("xprop", "-id", window.id, "_NET_WM_ICON")
        finally:
            window.stop()
    size = icon.WINDOW_ICON_SIZE
    assert f"Icon ({size} x {size})" in shown, shown[:200]


def test_the_ico_and_icns_files_hold_the_icon_at_each_size(tmp_path: Path) -> None:
    ico, icns, preview = (Path(path) for path in make_icon.write_icons(tmp_path))
    glyph = icon.glyph_coverage(assets.load_tileset())

    data = ico.read_bytes()
    assert struct.unpack("<HHH", data[:6]) == (0, 1, len(make_icon.ICO_SIZES))
    for number, size in enumerate(make_icon.ICO_SIZES):
        width, height, _, _, planes, bits, length, offset = struct.unpack(
            "<BBBBHHII", data[6 + 16 * number : 22 + 16 * number]
        )
        assert (width, height, planes, bits) == (size % 256, size % 256, 1, 32)
        image = png_pixels(data[offset : offset + length])
        assert (image == icon.draw_icon(glyph, size)).all()

    data = icns.read_bytes()
    assert data[:4] == b"icns" and struct.unpack(">I", data[4:8])[0] == len(data)
    position, found = 8, {}
    while position < len(data):
        kind, length = data[position : position + 4], struct.unpack(">I", data[position + 4 : position + 8])[0]
        found[kind] = png_pixels(data[position + 8 : position + length])
        position += length
    assert found.keys() == {kind for kind in make_icon.ICNS_TYPES.values()}
    for size, kind in make_icon.ICNS_TYPES.items():
        assert (found[kind] == icon.draw_icon(glyph, size)).all()

    assert png_pixels(preview.read_bytes()).shape == (256, 256, 4)


def test_the_committed_icons_are_the_ones_the_tool_draws(tmp_path: Path) -> None:
    for path in make_icon.write_icons(tmp_path):
        committed = ROOT / "icons" / Path(path).name
        assert committed.read_bytes() == Path(path).read_bytes(), f"{committed} is stale: python tools/make_icon.py"
