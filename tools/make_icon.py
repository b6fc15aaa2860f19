#!/usr/bin/env python3
"""Draw the game's icon: the player's `@`, from the game's own tile sheet.

Why: the window, the Windows program and the macOS app each want an icon, and
the game has a face already: the `@` the player walks as, in the font the game
draws it with (dejavu10x10_gs_tc.png, made by tools/make_tileset.py).  Drawn
here rather than downloaded, so that it can be made again, bigger or in
another colour, by changing a line.

How: icon.py draws it at each size, as the game draws its window's icon (see
there).  Each size is a PNG image written by `png_bytes`; the Windows icon
(.ico) and the macOS one (.icns) are simple containers of such PNG images,
written by `ico_bytes` and `icns_bytes`, so no imaging library is needed.

Usage::

    python tools/make_icon.py [FOLDER]

writes icon.ico, icon.icns and icon.png (a 256-pixel picture of the icon, to
look at) into FOLDER, by default the repository's icons/ folder, where they
are committed.
The output is deterministic.
"""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from window.assets import load_tileset  # noqa: E402
from window.icon import Image, draw_icon, glyph_coverage  # noqa: E402

ICONS = ROOT / "icons"
PREVIEW_SIZE = 256  # icon.png, to look at: what a large Windows icon shows.
# Windows shows 16 to 48 pixels, and 256 when the icons are large.
ICO_SIZES = (16, 24, 32, 48, 64, 256)
# The .icns entry types that hold a PNG image, by size (Apple's icns format).
ICNS_TYPES = {16: b"icp4", 32: b"icp5", 64: b"icp6", 128: b"ic07", 256: b"ic08", 512: b"ic09", 1024: b"ic10"}  # fmt: skip


def png_bytes(image: Image) -> bytes:
    """`image` as a PNG file: 8-bit RGBA, unfiltered rows, zlib at its best."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    height, width = image.shape[:2]
    rows = np.hstack([np.zeros((height, 1), np.uint8), image.reshape(height, width * 4)])
    return b"".join([
        b"\x89PNG\r\n\x1a\n",
        chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)),
        chunk(b"IDAT", zlib.compress(rows.tobytes(), 9)),
        chunk(b"IEND", b""),
    ])  # fmt: skip


def ico_bytes(images: dict[int, bytes]) -> bytes:
    """A Windows .ico file of PNG `images` by size: a header, a directory, the images.

    A size of 256 is written as 0 in the directory's one-byte fields.
    """
    header = struct.pack("<HHH", 0, 1, len(images))
    offset = len(header) + 16 * len(images)
    directory, data = b"", b""
    for size, png in images.items():
        side = size % 256
        directory += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), offset + len(data))
        data += png
    return header + directory + data


def icns_bytes(images: dict[int, bytes]) -> bytes:
    """A macOS .icns file of PNG `images` by size: each entry a type, its length, the image."""
    entries = b"".join(
        ICNS_TYPES[size] + struct.pack(">I", 8 + len(png)) + png for size, png in images.items()
    )
    return b"icns" + struct.pack(">I", 8 + len(entries)) + entries


def write_icons(folder: Path) -> list[Path]:
    """Write icon.ico, icon.icns and icon.png into `folder`; return their paths, in that order."""
    glyph = glyph_coverage(load_tileset())
    sizes = sorted({PREVIEW_SIZE, *ICO_SIZES, *ICNS_TYPES})
    pngs = {size: png_bytes(draw_icon(glyph, size)) for size in sizes}
    files = {
        "icon.ico": ico_bytes({size: pngs[size] for size in ICO_SIZES}),
        "icon.icns": icns_bytes({size: pngs[size] for size in ICNS_TYPES}),
        "icon.png": pngs[PREVIEW_SIZE],
    }
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return [folder / name for name in files]


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else ICONS
    for path in write_icons(folder):
        print(f"wrote {path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
