"""What a terminal of fewer than 50 rows shows of the game's screen (`terminal.view`):
the map around the player with the rows under it, windows kept in view, pages."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import tcod
from numpy.typing import NDArray

import render_functions
from game_map import MAP_HEIGHT
from terminal import view
from window import command_line

ROOT = Path(__file__).resolve().parent.parent

UNDER_MAP = list(range(view.STATUS_TOP, 50))  # The prompt, the names line, HP, the floor, the log.


def frame() -> tcod.console.Console:
    """An 80x50 console with each row's number written in it, to tell the rows apart."""
    console = tcod.console.Console(80, 50, order="F")
    for y in range(50):
        console.print(70, y, f"row {y}")
    return console


def cells(console: tcod.console.Console) -> NDArray[np.void]:
    return console.rgb.T


def text(row: NDArray[np.void]) -> str:
    return "".join(chr(code) for code in row["ch"].tolist()).strip()


def test_a_terminal_of_50_rows_or_more_shows_every_row() -> None:
    assert view.view_of(50, cells(frame()), (10, 40)).rows == tuple(range(50))


def test_in_24_rows_the_map_follows_the_player_and_the_rows_under_it_stay() -> None:
    band = 24 - len(UNDER_MAP)
    for y in (0, 5, 20, 30, MAP_HEIGHT - 1):
        shown = view.view_of(24, cells(frame()), (10, y))
        map_rows, under = shown.rows[:band], shown.rows[band:]
        assert y in map_rows and list(under) == UNDER_MAP
        assert map_rows == tuple(range(map_rows[0], map_rows[0] + band))  # One piece of the map.
        assert map_rows[0] >= 0 and map_rows[-1] < MAP_HEIGHT
        # Centred on the player, but for the map's edges: nothing off it is shown.
        if band // 2 <= y < MAP_HEIGHT - band // 2:
            assert map_rows.index(y) == band // 2


def test_a_cursors_prompt_under_the_map_stays_in_view_with_the_map() -> None:
    console = frame()
    render_functions.render_prompt(console, "Travel where?")
    shown = view.view_of(24, cells(console), (10, 5))
    assert any(text(row).startswith("Travel where?") for row in shown.cells(cells(console)))


@pytest.mark.parametrize("height", [20, 23, 24])
def test_in_20_rows_or_more_the_map_follows_the_player_and_the_rows_under_it_stay(height: int) -> None:
    """From 20 rows (tmux's or screen's status line in an SSH client's 24)."""
    band = height - len(UNDER_MAP)
    for y in range(MAP_HEIGHT):
        shown = view.view_of(height, cells(frame()), (10, y))
        assert len(shown.rows) == height and list(shown.rows[band:]) == UNDER_MAP
        assert y in shown.rows[:band] and shown.pages == 1 and shown.moved is None


def test_a_window_over_the_map_near_the_player_is_seen_with_them_the_view_moved_to_hold_both() -> None:
    console = frame()
    render_functions.draw_text_window(console, 40, 0, "Inventory", ["(a) Dagger", "(b) Leather Armor"])
    shown = view.view_of(24, cells(console), (10, 12))
    assert shown.rows[:17] == tuple(range(17)) and shown.moved is None and shown.pages == 1
    assert text(shown.cells(cells(console))[12]) == "row 12"


@pytest.mark.parametrize("height", [20, 24])
def test_a_window_beside_the_player_far_from_them_is_drawn_down_the_view_beside_them(height: int) -> None:
    """The inventory or a question: the game draws it at the top of the map, on the
    side away from the player; the terminal keeps the player's surroundings in view
    and draws the window beside them, as near its own rows as the view goes."""
    console = frame()
    render_functions.draw_text_window(console, 40, 0, "Inventory", ["(a) Dagger", "(b) Leather Armor"])
    for y in (20, 30, MAP_HEIGHT - 1):
        shown = view.view_of(height, cells(console), (10, y))
        band = height - len(UNDER_MAP)
        assert y in shown.rows[:band] and list(shown.rows[band:]) == UNDER_MAP and shown.pages == 1
        drawn = [text(row) for row in shown.cells(cells(console))]
        assert drawn[0].startswith("┌─── Inventory ───┐") and drawn[1].startswith("│(a) Dagger")
        assert drawn[3].startswith("└") and drawn[4] == f"row {shown.rows[4]}"  # The map under it.
        assert drawn[shown.rows.index(y)] == f"row {y}"  # The player's row, the window not over it.


def test_a_window_that_would_cover_the_player_in_the_view_is_shown_alone_a_page_at_a_time() -> None:
    console = frame()
    render_functions.draw_text_window(console, 0, 0, "Keys", [f"line {n}" for n in range(8)])
    shown = view.view_of(24, cells(console), (5, 30))
    assert shown.rows[:17] == tuple(range(17)) and shown.moved is None


def test_a_screen_with_no_map_and_no_window_shows_its_middle() -> None:
    shown = view.view_of(24, cells(frame()), None)
    assert shown.rows == tuple(range(13, 37))


def test_a_window_taller_than_the_terminal_is_shown_a_page_at_a_time_each_row_on_a_page() -> None:
    console = frame()
    render_functions.draw_window(console, 0, 0, 80, 50, "Keys")
    console.print(2, 1, "first line")
    pages = [view.view_of(24, cells(console), None, page) for page in range(5)]
    assert [shown.page for shown in pages] == [0, 1, 2, 2, 2]  # Three pages; further stays on the last.
    assert all(shown.pages == 3 for shown in pages)
    seen: set[int] = set()
    for shown in pages[:3]:
        marked = {index for index, _ in shown.marks}
        seen |= {row for index, row in enumerate(shown.rows) if index not in marked}
        drawn = shown.cells(cells(console))
        assert len(drawn) == 24
        for index, _ in shown.marks:
            assert ("More below: PgDn" if index == 23 else "More above: PgUp") in text(drawn[index])
    assert seen == set(range(50))
    assert text(pages[0].cells(cells(console))[0]).startswith("┌")
    assert "first line" in text(pages[0].cells(cells(console))[1])


def test_a_window_written_at_its_bottom_opens_at_its_last_page() -> None:
    """The message history: its few messages at the bottom, where it opens."""
    console = tcod.console.Console(80, 50, order="F")
    render_functions.draw_window(console, 0, 0, 80, 50, "Message history")
    console.print(1, 48, "Hello and welcome")
    shown = view.view_of(24, cells(console), (10, 10))
    assert shown.page == shown.pages - 1 and 48 in shown.rows
    assert view.view_of(24, cells(console), (10, 10), page=0).page == 0


def test_a_window_over_the_map_taller_than_the_view_pages_above_the_rows_under_the_map() -> None:
    console = frame()
    lines = [f"({chr(ord('a') + i)}) item" for i in range(26)]
    render_functions.draw_text_window(console, 0, 0, "Inventory", lines)
    first = view.view_of(24, cells(console), (10, 40))
    assert first.pages == 2 and list(first.rows[-len(UNDER_MAP) :]) == UNDER_MAP
    last = view.view_of(24, cells(console), (10, 40), page=1)
    assert 27 in last.rows and list(last.rows[-len(UNDER_MAP) :]) == UNDER_MAP


def test_the_readme_the_guide_and_help_give_the_smallest_terminal_the_game_plays_in() -> None:
    """The size a terminal must be, told alike in the three places a player reads it
    (`--help` once said 80x50, the README 80x24, and the game asked for 80x24)."""
    smallest = f"80x{view.MIN_ROWS}"
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    guide = " ".join((ROOT / "docs" / "playing.md").read_text(encoding="utf-8").split())
    helped = " ".join(command_line._parser().format_help().split())
    terminal_help = helped[helped.index("--terminal play") : helped.index("--screen-reader play")]
    assert f"in any terminal from {smallest} " in readme
    assert f"any terminal of 80 columns by {view.MIN_ROWS} rows or more" in guide
    assert f"A terminal smaller than {smallest} shows only how big it must be" in guide
    assert f"from {smallest}, all of the screen from 80x50" in terminal_help
