"""The terminal's bytes as the window's events (`terminal.key_parser`), from plain bytes."""

from __future__ import annotations

import random

import pytest
import tcod.event
from conftest import key, typed
from tcod.event import KeySym, Modifier

from controls import keys
from replays import record_format
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
    assert record_format.line_of(text) == "text >"


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
        return [record_format.line_of(event) for event in events if not keys.does_nothing(event)]

    assert lines(terminal) == lines(window)


def test_ctrl_a_to_ctrl_z_are_ctrl_with_their_letter() -> None:
    """The first and last of the range (Ctrl+Z, a key in raw mode, not a suspend)."""
    assert parsed(b"\x01") == [("key", KeySym.A, Modifier.LCTRL)]
    assert parsed(b"\x1a") == [("key", KeySym.Z, Modifier.LCTRL)]


@pytest.mark.parametrize(
    ("data", "events"),
    [
        ("\x1b[²~".encode(), []),  # str.isdigit takes "²"; int refuses it.
        ("\x1b[٣~".encode(), []),  # int takes this one: a 3 no terminal sends.
        ("\x1b[5;²~".encode(), [("key", KeySym.PAGEUP, Modifier.NONE)]),
        ("\x1b[1;²A".encode(), [("key", KeySym.UP, Modifier.NONE)]),
        (b"\x1b[" + b"5" * 5000 + b"~", []),  # int refuses over 4300 digits.
        (b"\x1b[5;" + b"2" * 5000 + b"~", [("key", KeySym.PAGEUP, Modifier.NONE)]),
    ],
    ids=["superscript", "arabic-indic", "superscript-modifier", "superscript-letter", "long", "long-modifier"],
)
def test_a_sequence_with_numbers_no_key_has_is_no_error(data: bytes, events: list[Described]) -> None:
    assert parsed(data) == events


def sequence_like(rng: random.Random) -> bytes:
    """ESC, [ or O, up to three parameters of odd digits, and a final byte."""
    numbers = ["", "1", "5", "24", "²", "٣", "1²", "9" * 40]
    parameters = ";".join(rng.choice(numbers) for _ in range(rng.randint(0, 3)))
    return f"\x1b{rng.choice('[O')}{parameters}{rng.choice('~AZPqx[')}".encode()


def test_any_bytes_give_keys_text_or_quit_and_never_an_error() -> None:
    """Sequences, their pieces and odd bytes, in any order, split anywhere across reads (seeded)."""
    pieces = [b"\x1b", b"[", b"O", b";", b"~", b"1", b"5", b"24", b"A", b"Z", b"P", b"[A", b"q"]
    pieces += ["²".encode(), "٣".encode(), b"\x03", b"\x1a", b"\x00", b"\xff", b"\xc3", b"\x7f"]
    rng = random.Random(47)
    for _ in range(3000):
        data = b"".join(
            sequence_like(rng) if rng.random() < 0.3 else rng.choice(pieces) for _ in range(rng.randint(1, 12))
        )
        parser = Parser()
        events: list[tcod.event.Event] = []
        start = 0
        while start < len(data):
            end = start + rng.randint(1, 4)
            events += parser.feed(data[start:end])
            start = end
        events += parser.flush()
        assert all(isinstance(event, tcod.event.KeyDown | tcod.event.TextInput | tcod.event.Quit) for event in events)
