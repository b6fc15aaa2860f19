"""The window's tiles as one PNG for the page's canvas (`web/static/canvas.js`), served at
`/tiles/SIZE.png`.

The tiles are the window's own (`window.assets.load_tileset`, the block elements drawn as the
window draws them), in `frames.CODEPOINTS` order, `frames.ATLAS_COLUMNS` a row: a frame's tile
byte is a tile's place in this picture.  The PNG is written here with zlib and struct so that
the server needs no imaging package; it is made once per size and kept.
"""

from __future__ import annotations

import functools
import struct
import zlib

import numpy as np

from web import frames
from window import assets, options

SIGNATURE = b"\x89PNG\r\n\x1a\n"


@functools.cache
def atlas_png(size: int) -> bytes:
    """The tiles `size` pixels a side as an RGBA PNG; ValueError for a size the game has not."""
    if size not in options.TILE_SIZES:
        raise ValueError(f"no tile sheet of {size} pixels")
    tileset = assets.load_tileset(assets.TILESET_PATHS[size])
    width, height = tileset.tile_width, tileset.tile_height
    columns = frames.ATLAS_COLUMNS
    rows = -(-len(frames.CODEPOINTS) // columns)
    pixels = np.zeros((rows * height, columns * width, 4), np.uint8)
    for index, codepoint in enumerate(frames.CODEPOINTS):
        y, x = divmod(index, columns)
        pixels[y * height : (y + 1) * height, x * width : (x + 1) * width] = tileset.get_tile(
            codepoint
        )
    return png(pixels)


def png(pixels: np.ndarray[tuple[int, int, int], np.dtype[np.uint8]]) -> bytes:
    """An RGBA picture (rows, columns, 4) as PNG bytes: each row unfiltered, all deflated."""
    rows, columns, _ = pixels.shape
    scanlines = np.zeros((rows, 1 + columns * 4), np.uint8)  # Filter byte 0: none.
    scanlines[:, 1:] = pixels.reshape(rows, columns * 4)
    header = struct.pack(">IIBBBBB", columns, rows, 8, 6, 0, 0, 0)  # 8 bits, RGBA.
    return (
        SIGNATURE
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(scanlines.tobytes(), 9))
        + _chunk(b"IEND", b"")
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
