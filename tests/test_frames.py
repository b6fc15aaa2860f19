"""The frames the browser draws (`web.frames`) and the game's writer of them (`web.stream`):
round trips of real consoles, hostile messages refused, a real pipe whose reader goes away."""

from __future__ import annotations

import os
import struct
import zlib

import numpy as np
import pytest
import tcod
from conftest import dungeon, engine_of, pressing, stroke
from tcod.event import KeySym

from engine import Engine
from screens.stack import Screens
from web import frames, stream
from window import options, title


def menu_console() -> tcod.console.Console:
    """The main menu's picture, as the window draws it first."""
    console = tcod.console.Console(80, 50, order="F")
    title.draw(console)
    return console


def text_of(frame: frames.Frame) -> str:
    """A frame's tiles back as the characters they draw, row by row."""
    return "\n".join("".join(chr(frames.CODEPOINTS[tile]) for tile in row) for row in frame.tiles)


def test_a_whole_frame_and_its_changes_come_back_as_they_were() -> None:
    console = menu_console()
    first = frames.frame_of(console, 16)
    shown = frames.apply(frames.encode_full(first), None)
    assert shown is not None and shown.size == (80, 50) and shown.tile_size == 16
    assert "TOMBS OF THE ANCIENT KINGS" in text_of(shown)
    console.print(1, 1, "Hello", fg=(1, 2, 3), bg=(200, 100, 50))
    second = frames.frame_of(console, 16)
    changes = frames.encode_changes(first, second)
    assert changes is not None and changes[:1] == frames.CHANGES
    shown = frames.apply(changes, shown)
    assert shown is not None
    assert (shown.tiles == second.tiles).all() and (shown.fg == second.fg).all() and (shown.bg == second.bg).all()
    assert frames.encode_changes(second, second) is None
    assert frames.encode_changes(second, frames.frame_of(console, 24))[:1] == frames.FULL  # type: ignore[index]


@pytest.mark.parametrize(
    "message",
    [
        b"",
        b"X",
        b"F\x01",  # A header cut short.
        frames.HEADER.pack(b"F", 2, 80, 50, 16) + zlib.compress(bytes(80 * 50 * 7)),  # Another version.
        frames.HEADER.pack(b"F", 1, 80, 50, 16) + zlib.compress(bytes(80 * 50 * 7 - 1)),  # Cells short.
        frames.HEADER.pack(b"F", 1, 2, 1, 16) + zlib.compress(bytes([255, 0]) + bytes(12)),  # No tile 255.
        frames.HEADER.pack(b"F", 1, 80, 50, 16) + zlib.compress(bytes(80 * 50 * 7))[:-3],  # Deflate cut.
        frames.HEADER.pack(b"F", 1, 1, 1, 16) + zlib.compress(bytes(1 << 20)),  # A bomb.
        b"C" + zlib.compress(bytes([90, 0, 0, 0, 0, 0, 0, 0, 0])),  # Outside the frame.
        b"C" + zlib.compress(bytes(8)),  # A record cut short.
        b"C" + b"not zlib",
        b"F" + bytes(frames.MAX_MESSAGE),  # Too big to read.
    ],
)
def test_a_message_that_is_not_one_of_the_games_is_refused(message: bytes) -> None:
    frame = frames.frame_of(menu_console(), 16)
    with pytest.raises(frames.FrameError):
        frames.apply(message, frame)


def test_changes_before_a_whole_frame_are_refused_and_a_status_changes_nothing() -> None:
    with pytest.raises(frames.FrameError):
        frames.apply(b"C" + zlib.compress(b""), None)
    status = frames.encode_status({"screen": "menu"})
    assert frames.apply(status, None) is None and frames.status_of(status) == {"screen": "menu"}
    assert frames.status_of(b"S[1]") is None and frames.status_of(b"S\xff") is None


def test_a_pipe_gives_back_the_messages_in_any_pieces_and_refuses_an_oversize_length() -> None:
    messages = [frames.encode_status({"screen": "menu"}), frames.encode_full(frames.frame_of(menu_console(), 10))]
    data = b"".join(map(frames.framed, messages))
    unframer = frames.Unframer()
    got = [message for at in range(0, len(data), 7) for message in unframer.feed(data[at : at + 7])]
    assert got == messages and not unframer.buffer
    with pytest.raises(frames.FrameError):
        frames.Unframer().feed(struct.pack(">I", frames.MAX_MESSAGE + 1))


def test_the_status_says_the_menu_then_the_game_its_level_floor_and_turns(engine: Engine) -> None:
    screens = dungeon(engine)
    assert stream.status_of(Screens(screens.menu)) == {"screen": "menu"}
    assert stream.status_of(screens) == {"screen": "playing", "level": 1, "depth": 1, "turns": 0}
    pressing(screens, stroke(KeySym.KP_5))
    assert stream.status_of(screens)["turns"] == 1
    engine_of(screens).player.fighter.die()
    assert stream.status_of(screens)["screen"] == "dead"


def test_the_writer_sends_a_whole_frame_then_changes_and_a_status_when_it_changed(engine: Engine) -> None:
    read, write = os.pipe()
    try:
        writer = stream.FramesWriter(write)
        screens = dungeon(engine)
        console = tcod.console.Console(80, 50, order="F")
        chosen = options.Options()
        for _ in range(2):  # The second frame is the same: nothing is written for it.
            console.clear()
            screens.draw(console)
            writer.present(console, chosen, screens)
        pressing(screens, stroke(KeySym.KP_5))
        console.clear()
        screens.draw(console)
        writer.present(console, chosen, screens)
        os.close(write)
        data = b""
        while chunk := os.read(read, 1 << 16):
            data += chunk
    finally:
        os.close(read)
    messages = frames.Unframer().feed(data)
    assert [message[:1] for message in messages] == [b"F", b"S", b"C", b"S"]
    assert frames.status_of(messages[3]) == {"screen": "playing", "level": 1, "depth": 1, "turns": 1}
    frame = None
    for message in messages:
        frame = frames.apply(message, frame)
    assert frame is not None and (frame.tiles == frames.frame_of(console, chosen.tile_size).tiles).all()


def test_a_reader_gone_stops_the_frames_not_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    read, write = os.pipe()
    os.close(read)
    writer = stream.FramesWriter(write)
    try:
        console = menu_console()
        writer.present(console, options.Options(), None)  # EPIPE: Python ignores SIGPIPE.
        writer.present(console, options.Options(), None)
    finally:
        os.close(write)
    assert writer.broken
    assert capsys.readouterr().err.count("frames: stopped") == 1


def test_the_window_order_and_the_rows_order_make_the_same_frame() -> None:
    window = menu_console()
    rows = tcod.console.Console(80, 50, order="C")
    rows.rgb[...] = window.rgb.T
    assert all(
        np.array_equal(getattr(frames.frame_of(window, 16), part), getattr(frames.frame_of(rows, 16), part))
        for part in ("tiles", "fg", "bg")
    )

