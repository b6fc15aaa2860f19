"""The frames the browser draws, as bytes: what the game sends, the server passes on and keeps,
and the page's canvas reads (`web/static/canvas.js`).

A frame is the console's cells: a tile (its place in `CODEPOINTS`, the window's tile sheet in
the order the page's atlas holds it), a foreground and a background colour.  The game sends a
whole frame first (`FULL`), then only the cells that changed (`CHANGES`, web-brogue's records of
x, y, tile, foreground, background), and what its game is (`STATUS`, JSON for the lobby).  The
cells are deflated (zlib), once, by the game: the server sends the same bytes to every page.

    FULL     b"F", version, columns, rows, tile size; then deflated: the tiles (a byte each,
             row by row), the foregrounds and the backgrounds (r, g, b each, row by row, each
             byte less the one of the cell on its left, modulo 256, as PNG's Sub filter)
    CHANGES  b"C"; then deflated: 9-byte records x, y, tile, fg r g b, bg r g b
    STATUS   b"S"; then UTF-8 JSON, an object

Everything read here is hostile until checked: a message's size is capped before it is
inflated and its cells are checked against the frame's size (`FrameError`).
Only numpy and the standard library: the game imports this without the server's packages.
"""

from __future__ import annotations

import json
import struct
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import numpy as np
import tcod

if TYPE_CHECKING:
    from numpy.typing import NDArray

VERSION: Final = 1
FULL: Final = b"F"
CHANGES: Final = b"C"
STATUS: Final = b"S"
# The window's tiles in the page's atlas order: tcod's charmap, then the block elements the
# window draws itself (`window.assets.load_tileset`), for the menu's picture.
CODEPOINTS: Final[tuple[int, ...]] = (*tcod.tileset.CHARMAP_TCOD, *range(0x2580, 0x25A0))
ATLAS_COLUMNS: Final = 32
# The biggest message anyone reads (a whole frame inflates to 32,000 bytes at 80x50).
MAX_MESSAGE: Final = 1 << 16
MAX_CELLS: Final = 255 * 255
RECORD: Final = np.dtype([("x", "u1"), ("y", "u1"), ("tile", "u1"), ("fg", "u1", 3), ("bg", "u1", 3)])
HEADER: Final = struct.Struct("<cBBBB")  # FULL, version, columns, rows, tile size.
LENGTH: Final = struct.Struct(">I")  # Before each message on a pipe.


def _tile_lookup() -> NDArray[np.uint8]:
    assert len(CODEPOINTS) <= 256, "a tile is one byte"
    lookup = np.zeros(max(CODEPOINTS) + 1, np.uint8)  # Not in the sheet: tile 0, a space.
    for index, codepoint in reversed(list(enumerate(CODEPOINTS))):
        lookup[codepoint] = index
    return lookup


TILE_OF: Final = _tile_lookup()


class FrameError(ValueError):
    """A message that is not a frame this module wrote; `str()` says why in one line."""


@dataclass
class Frame:
    """What a page shows: each cell's tile, foreground and background (rows first), and the
    tile size the player chose, which picks the atlas."""

    tiles: NDArray[np.uint8]  # (rows, columns)
    fg: NDArray[np.uint8]  # (rows, columns, 3)
    bg: NDArray[np.uint8]  # (rows, columns, 3)
    tile_size: int

    @property
    def size(self) -> tuple[int, int]:
        """Columns and rows."""
        rows, columns = self.tiles.shape
        return columns, rows

    def copy(self) -> Frame:
        return Frame(self.tiles.copy(), self.fg.copy(), self.bg.copy(), self.tile_size)


def frame_of(console: tcod.console.Console, tile_size: int) -> Frame:
    """The console's cells as the page draws them."""
    rgb = console.rgb  # (rows, columns) in C order; its transpose in the window's F order.
    rows_first = rgb.shape == (console.height, console.width)
    cells = rgb if rows_first and (console.width != console.height or rgb.flags.c_contiguous) else rgb.T
    codepoints = cells["ch"].clip(0, None)
    tiles = np.where(codepoints < len(TILE_OF), TILE_OF[codepoints.clip(0, len(TILE_OF) - 1)], 0)
    return Frame(tiles.astype(np.uint8), cells["fg"].copy(), cells["bg"].copy(), tile_size)


def encode_full(frame: Frame) -> bytes:
    """The whole frame, for a page that has none yet."""
    columns, rows = frame.size
    body = frame.tiles.tobytes() + _less_left(frame.fg).tobytes() + _less_left(frame.bg).tobytes()
    return HEADER.pack(FULL, VERSION, columns, rows, frame.tile_size) + zlib.compress(body, 9)


def encode_changes(old: Frame | None, new: Frame) -> bytes | None:
    """What makes `old` into `new`: the changed cells, or the whole frame where the size or
    the tiles changed (or there was none); None if nothing changed."""
    if old is None or old.size != new.size or old.tile_size != new.tile_size:
        return encode_full(new)
    changed = (old.tiles != new.tiles) | (old.fg != new.fg).any(axis=2) | (old.bg != new.bg).any(axis=2)
    ys, xs = np.nonzero(changed)
    if len(xs) == 0:
        return None
    records = np.empty(len(xs), RECORD)
    records["x"], records["y"] = xs, ys
    records["tile"] = new.tiles[ys, xs]
    records["fg"], records["bg"] = new.fg[ys, xs], new.bg[ys, xs]
    return CHANGES + zlib.compress(records.tobytes(), 9)


def encode_status(status: dict[str, object]) -> bytes:
    """What the game is now, for the lobby."""
    return STATUS + json.dumps(status, separators=(",", ":")).encode("utf-8")


def inflate(data: bytes, limit: int) -> bytes:
    """`data` inflated, refused past `limit` bytes or if it is not zlib's."""
    inflater = zlib.decompressobj()
    try:
        body = inflater.decompress(data, limit)
    except zlib.error as exc:
        raise FrameError(f"not deflated data ({exc})") from None
    if inflater.unconsumed_tail or not inflater.eof:
        raise FrameError(f"cells cut short or longer than {limit} bytes")
    return body


def apply(message: bytes, frame: Frame | None) -> Frame | None:
    """The frame `message` makes of `frame` (a new one for FULL, `frame` changed in place for
    CHANGES); a STATUS leaves it as it was.  FrameError if the message is not one of ours."""
    if len(message) > MAX_MESSAGE or not message:
        raise FrameError(f"a message of {len(message)} bytes")
    kind = message[:1]
    if kind == STATUS:
        return frame
    if kind == FULL:
        return _full(message)
    if kind != CHANGES:
        raise FrameError(f"unknown message kind {kind!r}")
    if frame is None:
        raise FrameError("changes before a whole frame")
    columns, rows = frame.size
    body = inflate(message[1:], MAX_CELLS * RECORD.itemsize)
    if len(body) % RECORD.itemsize:
        raise FrameError("a record cut short")
    records = np.frombuffer(body, RECORD)
    xs, ys = records["x"].astype(np.intp), records["y"].astype(np.intp)
    if (xs >= columns).any() or (ys >= rows).any() or (records["tile"] >= len(CODEPOINTS)).any():
        raise FrameError("a cell outside the frame, or a tile outside the sheet")
    frame.tiles[ys, xs] = records["tile"]
    frame.fg[ys, xs], frame.bg[ys, xs] = records["fg"], records["bg"]
    return frame


def _full(message: bytes) -> Frame:
    if len(message) < HEADER.size:
        raise FrameError("a header cut short")
    _, version, columns, rows, tile_size = HEADER.unpack_from(message)
    if version != VERSION or not columns or not rows:
        raise FrameError(f"version {version}, {columns}x{rows}")
    cells = columns * rows
    body = inflate(message[HEADER.size :], cells * 7)
    if len(body) != cells * 7:
        raise FrameError(f"{len(body)} bytes of cells for {columns}x{rows}")
    tiles = np.frombuffer(body, np.uint8, cells).reshape(rows, columns).copy()
    if (tiles >= len(CODEPOINTS)).any():
        raise FrameError("a tile outside the sheet")
    fg = _plus_left(np.frombuffer(body, np.uint8, cells * 3, cells).reshape(rows, columns, 3))
    bg = _plus_left(np.frombuffer(body, np.uint8, cells * 3, cells * 4).reshape(rows, columns, 3))
    return Frame(tiles, fg, bg, tile_size)


def _less_left(colours: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """Each colour less the one on its left (PNG's Sub filter): a picture's neighbours are
    alike, and their differences deflate to a tenth less than the colours."""
    less = colours.copy()
    less[:, 1:] -= colours[:, :-1]  # Modulo 256, as uint8.
    return less


def _plus_left(less: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """The colours `_less_left` took the left ones from."""
    return np.cumsum(less, axis=1, dtype=np.uint8)


def status_of(message: bytes) -> dict[str, object] | None:
    """A STATUS message's object; None for any other message or one that is not an object."""
    if message[:1] != STATUS or len(message) > MAX_MESSAGE:
        return None
    try:
        status = json.loads(message[1:].decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return status if isinstance(status, dict) else None


def framed(message: bytes) -> bytes:
    """`message` as it goes down a pipe: its length first."""
    return LENGTH.pack(len(message)) + message


class Unframer:
    """The messages in bytes read from a pipe, in whatever pieces they come."""

    def __init__(self) -> None:
        self.buffer = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        """The messages `data` completes; FrameError for one over `MAX_MESSAGE`."""
        self.buffer += data
        messages = []
        while len(self.buffer) >= LENGTH.size:
            (length,) = LENGTH.unpack_from(self.buffer)
            if length > MAX_MESSAGE:
                raise FrameError(f"a message of {length} bytes")
            if len(self.buffer) < LENGTH.size + length:
                break
            messages.append(bytes(self.buffer[LENGTH.size : LENGTH.size + length]))
            del self.buffer[: LENGTH.size + length]
        return messages
