"""Tutorial part 7: the message log: stacking, wrapping, drawing newest last."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import tcod

import color
import message_log
import setup_game
from engine import Engine
from message_log import MessageLog
from saving import save_data


def row(console: tcod.console.Console, y: int, x: int = 0) -> str:
    """The text on row `y` of an order="F" console, from column `x`, trailing blanks cut."""
    return "".join(map(chr, console.rgb["ch"][x:, y])).rstrip()


def log_of(*texts: str) -> MessageLog:
    log = MessageLog()
    for text in texts:
        log.add_message(text)
    return log


def test_repeats_stack_with_a_count() -> None:
    log = log_of("Hit.", "Hit.", "Hit.")
    assert [m.full_text for m in log.messages] == ["Hit. (x3)"]
    assert log.messages[0].plain_text == "Hit."


def test_different_messages_do_not_stack() -> None:
    log = log_of("Hit.", "Miss.", "Hit.")
    assert [m.full_text for m in log.messages] == ["Hit.", "Miss.", "Hit."]


def test_stack_false_keeps_repeats_apart() -> None:
    log = log_of("Hit.")
    log.add_message("Hit.", stack=False)
    assert [m.full_text for m in log.messages] == ["Hit.", "Hit."]


def test_wrap_to_width() -> None:
    lines = list(MessageLog.wrap("the quick brown fox jumps over the lazy dog", 10))
    assert lines == ["the quick", "brown fox", "jumps over", "the lazy", "dog"]


def test_a_capped_wrap_keeps_every_letter_of_its_full_rows() -> None:
    """Rows that fill the width, a space between them: `most` rows read `most * (width + 1)`
    characters, the last row's letters included."""
    full_rows = ["abcdefghij", "klmnopqrst", "uvwxyzabcd"]
    assert list(MessageLog.wrap(" ".join(full_rows), 10, 2)) == full_rows[:2]
    assert list(MessageLog.wrap(" ".join(full_rows), 10, 3)) == full_rows


def test_newlines_split_lines() -> None:
    assert list(MessageLog.wrap("first\nsecond line", 40)) == ["first", "second line"]


def test_render_messages_draws_newest_at_the_bottom() -> None:
    """Four one-line messages in three rows: the oldest falls off the top."""
    console = tcod.console.Console(20, 3, order="F")
    log = log_of("one", "two", "three")
    log.add_message("four", color.error)
    MessageLog.render_messages(console, 0, 0, 20, 3, log.messages)
    assert [row(console, y) for y in range(3)] == ["two", "three", "four"]
    assert tuple(console.rgb["fg"][0, 2]) == color.error


def test_render_wraps_long_messages_over_rows() -> None:
    console = tcod.console.Console(10, 4, order="F")
    log = log_of("old", "the quick brown fox", "new")
    log.render(console, 0, 0, 10, 4)
    assert [row(console, y) for y in range(4)] == ["old", "the quick", "brown fox", "new"]


def test_engine_shows_the_log_under_the_map(engine: Engine) -> None:
    """The log sits at x=21, rows 45-49; the welcome message wraps at 40 columns."""
    console = tcod.console.Console(80, 50, order="F")
    engine.render(console)
    assert row(console, 48, x=21) == "Hello and welcome, adventurer, to yet"
    assert row(console, 49, x=21) == "another dungeon!"


def test_the_games_log_is_40_columns_wide(engine: Engine) -> None:
    """A word longer than the log is cut at its width: 40 columns from x=21, none beyond."""
    engine.message_log.add_message("x" * 90)
    console = tcod.console.Console(80, 50, order="F")
    engine.render(console)
    assert [row(console, y, x=21) for y in (47, 48, 49)] == ["x" * 40, "x" * 40, "x" * 10]


def test_the_hp_bar_is_20_columns_wide_beside_the_log(engine: Engine) -> None:
    """Full, it fills columns 0 to 19 of row 45; half full, its first 10."""
    palette = engine.settings.options.palette
    filled, empty = palette.background(color.bar_filled), palette.background(color.bar_empty)
    console = tcod.console.Console(80, 50, order="F")
    engine.render(console)
    assert [tuple(bg) for bg in console.rgb["bg"][:21, 45]] == [filled] * 20 + [color.black]
    engine.player.fighter.hp = engine.player.fighter.max_hp // 2
    console.clear()
    engine.render(console)
    assert [tuple(bg) for bg in console.rgb["bg"][:21, 45]] == [filled] * 10 + [empty] * 10 + [color.black]


def test_a_wrapped_message_that_does_not_fit_whole_is_left_out() -> None:
    """The tutorial showed "brown fox" alone on the top row: a tail with no head."""
    console = tcod.console.Console(10, 3, order="F")
    log = log_of("the quick brown fox", "one", "two")
    log.render(console, 0, 0, 10, 3)
    assert [row(console, y) for y in range(3)] == ["", "one", "two"]


def test_a_newest_message_longer_than_the_log_shows_its_head() -> None:
    console = tcod.console.Console(10, 2, order="F")
    log = log_of("old", "the quick brown fox jumps")
    log.render(console, 0, 0, 10, 2)
    assert [row(console, y) for y in range(2)] == ["the quick", "brown fox"]


def test_the_log_keeps_the_last_messages_of_a_long_game_and_saves_them(in_tmp: Path) -> None:
    engine = setup_game.new_game(seed=3)
    for i in range(message_log.HISTORY + 500):
        engine.message_log.add_message(f"Message {i}.")
    messages = engine.message_log.messages
    assert len(messages) == message_log.HISTORY
    assert messages[-1].plain_text == f"Message {message_log.HISTORY + 499}."
    assert messages[0].plain_text == "Message 500."  # The oldest went first.
    engine.save_as("long.sav")
    loaded = setup_game.load_game("long.sav")
    assert [m.plain_text for m in loaded.message_log.messages] == [m.plain_text for m in messages]


def test_a_save_from_before_messages_kept_their_turn_and_floor_says_neither() -> None:
    """Format 8 kept neither: its messages load with 0, "not known", not a made-up turn 1."""
    old = save_data.load(Path(__file__).parent / "saves" / "format-8" / "pack.sav")
    messages = old.message_log.messages
    assert messages and all(message.turn == 0 and message.floor == 0 for message in messages)


def test_drawing_the_log_costs_the_rows_drawn_whatever_the_messages_hold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A saved log's messages may hold 100,000 line breaks each (a 3.8 KB save did, and
    each frame took 10 s): only what the rows drawn can show of them is wrapped."""
    log = MessageLog()
    log.messages = [message_log.Message("\n" * 100_000 + f"Message {n}.", color.white) for n in range(60)]
    log.messages[-1] = message_log.Message("The last.\n" * 100_000, color.white)
    wrapped: list[str] = []
    real_wrap = textwrap.wrap

    def counted(text: str, *args: object, **kwargs: object) -> list[str]:
        wrapped.append(text)
        return real_wrap(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(textwrap, "wrap", counted)
    console = tcod.console.Console(80, 10, order="F")
    log.render(console, 0, 0, 80, 5)
    assert len(wrapped) < 100
    rows = ["".join(chr(c) for c in console.ch[:, y]).strip() for y in range(5)]
    assert rows == ["The last."] * 5  # Its head, as the newest message too long to fit shows.
