"""What a terminal of fewer than 50 rows shows of the game's screen (`terminal.view`):
the map around the player with the rows under it, windows kept in view, pages."""

from __future__ import annotations

import numpy as np
import tcod
from numpy.typing import NDArray

import render_functions
from game_map import MAP_HEIGHT
from terminal import view

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


def test_a_window_over_the_map_is_kept_in_view_rather_than_the_player() -> None:
    console = frame()
    render_functions.draw_text_window(console, 0, 0, "Inventory", ["(a) Dagger", "(b) Leather Armor"])
    shown = view.view_of(24, cells(console), (10, 40))
    assert {0, 1, 2, 3} <= set(shown.rows) and list(shown.rows[-len(UNDER_MAP) :]) == UNDER_MAP
    assert shown.pages == 1


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
