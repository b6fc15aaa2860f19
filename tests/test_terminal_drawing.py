"""A console as the bytes a terminal draws (`terminal.drawing`): only what changed."""

from __future__ import annotations

import re

import numpy as np
import tcod
from numpy.typing import NDArray

from terminal import drawing
from terminal.drawing import Screen

CURSOR_MOVE = re.compile(rb"\x1b\[(\d+);(\d+)H")


def console() -> tcod.console.Console:
    frame = tcod.console.Console(80, 50, order="F")
    frame.print(0, 0, "HP: 30/30", fg=(255, 255, 255), bg=(0, 0, 0))
    return frame


def cells(frame: tcod.console.Console) -> NDArray[np.void]:
    return frame.rgb.T


def test_the_first_frame_is_sent_whole_and_the_same_frame_again_sends_nothing() -> None:
    screen, frame = Screen(truecolor=True), console()
    first = screen.frame(cells(frame))
    assert first.decode().count(" ") >= 80 * 50 - len("HP: 30/30")
    assert b"HP: 30/30" in first
    # One cursor move a row: the cursor moves on along a row by itself (no wrapping).
    assert CURSOR_MOVE.findall(first) == [(str(row).encode(), b"1") for row in range(1, 51)]
    assert screen.frame(cells(frame)) == b""


def test_one_changed_cell_sends_a_cursor_move_its_colours_and_its_character() -> None:
    screen, frame = Screen(truecolor=True), console()
    screen.frame(cells(frame))
    frame.print(40, 20, "@", fg=(255, 255, 255), bg=(0, 0, 0))
    sent = screen.frame(cells(frame))
    assert sent == b"\x1b[21;41H\x1b[38;2;255;255;255;48;2;0;0;0m@"


def test_neighbouring_changes_share_one_cursor_move_and_one_colour_change() -> None:
    screen, frame = Screen(truecolor=True), console()
    screen.frame(cells(frame))
    frame.print(0, 0, "HP: 29/30", fg=(255, 255, 255), bg=(0, 0, 0))
    frame.print(10, 30, "o", fg=(63, 127, 63))
    sent = screen.frame(cells(frame))
    assert [move for move in CURSOR_MOVE.findall(sent)] == [(b"1", b"5"), (b"31", b"11")]
    assert sent.count(b"\x1b[") == 4
    assert b"38;2;63;127;63m" in sent  # Only the colour that changed.


def test_a_colour_change_alone_is_sent() -> None:
    screen, frame = Screen(truecolor=True), console()
    screen.frame(cells(frame))
    frame.rgb["bg"][5, 5] = (200, 180, 50)
    assert screen.frame(cells(frame)).endswith(b"48;2;200;180;50m ")


def test_forgetting_sends_the_next_frame_whole_where_the_game_is_placed() -> None:
    screen, frame = Screen(truecolor=False, left=3, top=2), console()
    screen.frame(cells(frame))
    screen.forget()
    again = screen.frame(cells(frame))
    assert again.startswith(b"\x1b[3;4H")
    assert b"HP: 30/30" in again


def test_without_24_bit_colour_the_nearest_of_256_is_sent() -> None:
    assert drawing.nearest_256((255, 0, 0)) == 196
    assert drawing.nearest_256((0, 0, 0)) == 16
    assert drawing.nearest_256((255, 255, 255)) == 231
    assert drawing.nearest_256((128, 128, 128)) == 244  # A grey, nearer than the cube's.
    assert drawing.nearest_256((200, 180, 50)) == 179  # (215, 175, 95).
    screen, frame = Screen(truecolor=False), console()
    assert b"\x1b[38;5;231;48;5;16mHP" in screen.frame(cells(frame))


def test_the_terminal_says_whether_it_has_24_bit_colour() -> None:
    assert drawing.is_truecolor({"COLORTERM": "truecolor"})
    assert drawing.is_truecolor({"COLORTERM": "24bit"})
    assert not drawing.is_truecolor({"COLORTERM": ""})
    assert not drawing.is_truecolor({})


def test_every_character_sent_is_one_a_terminal_font_has_one_column_wide() -> None:
    assert drawing.glyph(ord("@")) == "@"
    assert drawing.glyph(0x2500) == "─"  # Box lines stay.
    assert drawing.glyph(0x2580) == "▀"  # Half blocks stay.
    assert drawing.glyph(0x2596) == "▄"  # Quadrants become the nearest half block.
    assert drawing.glyph(0x259A) == "▒"
    assert drawing.glyph(0) == " "
    assert drawing.glyph(0x1B) == " "  # Never an escape of our own.
    assert drawing.glyph(0x9B) == " "
    assert drawing.glyph(ord("漢")) == " "  # Two columns wide.


def test_a_terminal_too_small_says_the_size_needed_and_how_to_leave_wrapped_to_its_width() -> None:
    sent = drawing.too_small(72, 20, (80, 24))
    rows = [part.decode() for part in CURSOR_MOVE.split(sent)[3::3]]
    assert " ".join(rows) == (
        "Make the terminal at least 80x24, or press Ctrl+C to save and quit. This one is 72x20."
    )
    narrow = [part.decode() for part in CURSOR_MOVE.split(drawing.too_small(20, 3, (80, 24)))[3::3]]
    assert len(narrow) == 3 and all(len(row) <= 20 for row in narrow)
    assert narrow[0].startswith("Make the terminal")
