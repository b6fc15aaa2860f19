"""The terminal's bytes as the window's events (`terminal.key_parser`), from plain bytes."""

from __future__ import annotations

import pytest
import tcod.event
from conftest import key, typed
from tcod.event import KeySym, Modifier

from controls import keys
from replays import recording
from terminal.key_parser import Parser

Described = tuple[str, KeySym | str | None, Modifier | None]


def described(events: list[tcod.event.Event]) -> list[Described]:
    """Events as plain values, to compare (tcod's events have no equality)."""
    out: list[Described] = []
    for event in events:
        match event:
            case tcod.event.KeyDown():
                out.append(("key", event.sym, event.mod))
            case tcod.event.TextInput():
                out.append(("text", event.text, None))
            case _:
                out.append((type(event).__name__, None, None))
    return out


def parsed(data: bytes) -> list[Described]:
    return described(Parser().feed(data))


def test_a_letter_is_its_key_then_its_character_as_sdl_sends_them() -> None:
    assert parsed(b"g") == described([key(KeySym.G), typed("g")])
    assert parsed(b"L") == described([key(KeySym.L, Modifier.LSHIFT), typed("L")])
    assert parsed(b"3") == described([key(KeySym.N3), typed("3")])
    assert parsed(b" ") == described([key(KeySym.SPACE), typed(" ")])


def test_a_symbol_acts_by_its_character_whatever_key_typed_it() -> None:
    down, text = Parser().feed(b">")
    assert isinstance(down, tcod.event.KeyDown) and keys.does_nothing(down)
    assert isinstance(text, tcod.event.TextInput) and text.text == ">"
    assert recording.line_of(text) == "text >"


def test_a_character_of_another_alphabet_is_typed_even_split_across_reads() -> None:
    parser = Parser()
    assert parser.feed("é".encode()[:1]) == []
    assert described(parser.feed("é".encode()[1:])) == [("text", "é", None)]


@pytest.mark.parametrize(
    ("data", "sym", "mod"),
    [
        (b"\x1b[A", KeySym.UP, Modifier.NONE),
        (b"\x1b[B", KeySym.DOWN, Modifier.NONE),
        (b"\x1bOC", KeySym.RIGHT, Modifier.NONE),  # Cursor keys in application mode.
        (b"\x1b[1;2D", KeySym.LEFT, Modifier.LSHIFT),  # Shift runs.
        (b"\x1b[1;5A", KeySym.UP, Modifier.LCTRL),
        (b"\x1b[1;3B", KeySym.DOWN, Modifier.LALT),
        (b"\x1b[H", KeySym.HOME, Modifier.NONE),
        (b"\x1b[F", KeySym.END, Modifier.NONE),
        (b"\x1b[1~", KeySym.HOME, Modifier.NONE),  # The Linux console, tmux.
        (b"\x1b[4~", KeySym.END, Modifier.NONE),
        (b"\x1b[7~", KeySym.HOME, Modifier.NONE),  # rxvt.
        (b"\x1b[5~", KeySym.PAGEUP, Modifier.NONE),
        (b"\x1b[6;2~", KeySym.PAGEDOWN, Modifier.LSHIFT),
        (b"\x1bOP", KeySym.F1, Modifier.NONE),
        (b"\x1b[11~", KeySym.F1, Modifier.NONE),
        (b"\x1b[[A", KeySym.F1, Modifier.NONE),  # The Linux console.
        (b"\x1b[24~", KeySym.F12, Modifier.NONE),
        (b"\x1b[Z", KeySym.TAB, Modifier.LSHIFT),
        (b"\x1bOq", KeySym.KP_1, Modifier.NONE),  # The numpad, where the terminal tells it.
        (b"\x1bOy", KeySym.KP_9, Modifier.NONE),
        (b"\x1b[E", KeySym.KP_5, Modifier.NONE),
        (b"\x1bOM", KeySym.KP_ENTER, Modifier.NONE),
        (b"\r", KeySym.RETURN, Modifier.NONE),
        (b"\n", KeySym.RETURN, Modifier.NONE),
        (b"\t", KeySym.TAB, Modifier.NONE),
        (b"\x7f", KeySym.BACKSPACE, Modifier.NONE),
        (b"\x08", KeySym.BACKSPACE, Modifier.NONE),
        (b"\x18", KeySym.X, Modifier.LCTRL),
    ],
)
def test_keys_with_no_character_are_their_keys(data: bytes, sym: KeySym, mod: Modifier) -> None:
    assert parsed(data) == [("key", sym, mod)]


def test_the_numpads_operators_type_their_character() -> None:
    assert parsed(b"\x1bOk") == described([key(KeySym.KP_PLUS), typed("+")])


def test_a_lone_escape_is_the_escape_key_once_nothing_follows() -> None:
    parser = Parser()
    assert parser.feed(b"\x1b") == [] and parser.waiting
    assert described(parser.flush()) == [("key", KeySym.ESCAPE, Modifier.NONE)]
    assert not parser.waiting


def test_escape_then_a_key_at_once_is_both_keys() -> None:
    assert parsed(b"\x1by") == described([key(KeySym.ESCAPE), key(KeySym.Y), typed("y")])
    parser = Parser()
    assert described(parser.feed(b"\x1b\x1b")) == [("key", KeySym.ESCAPE, Modifier.NONE)]
    assert described(parser.flush()) == [("key", KeySym.ESCAPE, Modifier.NONE)]


def test_a_sequence_split_across_reads_is_one_key() -> None:
    parser = Parser()
    assert parser.feed(b"\x1b") == []
    assert parser.feed(b"[1;") == []
    assert described(parser.feed(b"2A")) == [("key", KeySym.UP, Modifier.LSHIFT)]


def test_keys_come_in_order_from_one_read() -> None:
    assert parsed(b"a\x1b[Bb") == described(
        [key(KeySym.A), typed("a"), key(KeySym.DOWN), key(KeySym.B), typed("b")]
    )


def test_an_unknown_or_unfinished_sequence_does_nothing() -> None:
    assert parsed(b"\x1b[99~") == []
    assert parsed(b"\x1b[200;1x") == []
    parser = Parser()
    assert parser.feed(b"\x1b[1;") == []
    assert parser.flush() == []
    assert parsed(b"\x1b[" + b"1;" * 40 + b"z") == []
    noise = Parser()
    assert noise.feed(b"\x1b[" + b"1;" * 40) == [] and not noise.waiting


def test_ctrl_c_quits_as_closing_the_window_does() -> None:
    assert parsed(b"\x03") == [("Quit", None, None)]


def test_other_control_characters_do_nothing() -> None:
    assert parsed(b"\x00\x1c\x1d") == []


def test_a_terminals_keys_record_the_lines_the_windows_keys_do() -> None:
    """Letters by key, symbols by character: the same lines, so a recording made
    in the terminal replays in the window, and back."""
    terminal = Parser().feed(b"xG>?\x1b[A\x1b[1;2C\r")
    window = [
        key(KeySym.X), typed("x"),
        key(KeySym.G, Modifier.LSHIFT), typed("G"),
        key(KeySym.PERIOD, Modifier.LSHIFT), typed(">"),  # On a US keyboard.
        key(KeySym.SLASH, Modifier.LSHIFT), typed("?"),
        key(KeySym.UP), key(KeySym.RIGHT, Modifier.LSHIFT), key(KeySym.RETURN),
    ]  # fmt: skip

    def lines(events: list[tcod.event.Event]) -> list[str | None]:
        return [recording.line_of(event) for event in events if not keys.does_nothing(event)]

    assert lines(terminal) == lines(window)
