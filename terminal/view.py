"""What of the game's 80x50 screen a terminal with fewer rows shows (20 at least: the
24 an SSH client opens, less the status line tmux or screen keeps in it): the game draws
its whole screen as in the window, and the terminal shows the rows that matter, so that
no screen needs to know how big the terminal is.

In play, the map is seen through a view that follows the player (or the look cursor:
`map_focus`), as DCSS's console does, and the seven rows under the map (a cursor's prompt,
the line naming what is looked at, HP, the floor, the newest messages) are always shown:
in 20 rows, 13 of the map, the player on the middle one.  A window drawn over the map (the
inventory, a question) is shown with the player: the view moves to hold both where it
can; else the window is drawn down the screen, beside the player as the game put it
beside them (`render_functions.draw_side_window`), so that the player chooses with the
monsters around them in sight.  A window that would cover the player there, one taller
than the view, or a screen of its own (the help, the history), is shown a page at a time
instead, PgUp and PgDn turning the pages (`keys.PAGE_KEYS`).  A screen with neither map
nor window (the main menu) shows its middle.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final

import numpy as np

from game_map import MAP_HEIGHT
from window.display_area import COLUMNS, ROWS

if TYPE_CHECKING:
    from numpy.typing import NDArray

# The fewest rows the game is played in: an SSH client's 24, less tmux's or screen's status
# line, with room to spare (a second status line, a title bar).
MIN_ROWS: Final = 20
# The first row under the map: a cursor's prompt (`render_functions.PROMPT_AT`), then the
# line naming what is looked at, HP, the floor and the newest messages.
STATUS_TOP: Final = MAP_HEIGHT
# A window's frame (`render_functions.draw_window`): its top-left and bottom-right corners.
TOP_LEFT: Final = ord("┌")
BOTTOM_RIGHT: Final = ord("┘")
SIDES: Final = (ord(" "), ord("│"))  # What a window's row holds with nothing written in it.

Span = tuple[int, int]  # The first and last row of what must be seen.
# A window's rows and columns in the frame, and the index into `View.rows` it is drawn from.
Moved = tuple[Span, Span, int]


@dataclass(frozen=True)
class View:
    """The console's rows a terminal shows, top first; the page of a window shown, of
    how many; the rows (indices into `rows`) replaced by a line saying there is more;
    and a window drawn elsewhere than the game drew it (`Moved`)."""

    rows: tuple[int, ...]
    page: int = 0
    pages: int = 1
    marks: tuple[tuple[int, str], ...] = ()
    moved: Moved | None = None

    def cells(self, frame: NDArray[np.void]) -> NDArray[np.void]:
        """The rows of `frame` (a console's `rgb`, rows first) this view shows."""
        shown = frame[list(self.rows)]
        for index, text in self.marks:
            shown[index] = marked_row(text, frame.dtype)
        if self.moved is not None:
            (top, bottom), (left, right), at = self.moved
            columns = slice(left, right + 1)
            shown[at : at + bottom - top + 1, columns] = frame[top : bottom + 1, columns]
        return shown



def view_of(
    height: int, frame: NDArray[np.void], focus: tuple[int, int] | None, page: int | None = None
) -> View:
    """What a terminal of `height` rows shows of `frame`: all of it from 50 rows; else
    the map's rows around `focus` and any window over it (`around`), with the rows
    under the map; else (no map, or a window reaching under it) the rows around the
    window, or the middle.  A window paged is shown at its `page`, by default the
    first that holds its text (the history's few messages are at its bottom)."""
    if height >= ROWS:
        return View(tuple(range(ROWS)))
    window = windows(frame)
    opening = None if window is None else written_from(frame, window)
    if focus is not None and (window is None or window[1] < STATUS_TOP):
        band = height - (ROWS - STATUS_TOP)
        shown = around(frame, focus, window, band)
        if shown is None:  # The window alone, a page at a time.
            shown = paged(window or (focus[1], focus[1]), band, MAP_HEIGHT, page, opening)
        return replace(shown, rows=(*shown.rows, *range(STATUS_TOP, ROWS)))
    return paged(window or (ROWS // 2, ROWS // 2), height, ROWS, page, opening)


def around(frame: NDArray[np.void], focus: tuple[int, int], window: Span | None, band: int) -> View | None:
    """`band` rows of the map with `focus` on the middle one (or as near as the map's
    edges let it be) and `window` in sight: the band moved as little as holds both; else
    the window drawn into the band as near its own rows as it goes, if it covers no
    `focus` there.  None where neither can be: the window is taller than the band, or
    drawn there it would hide the player (a popup across the middle of the map)."""
    x, y = focus
    start = max(0, min(y - band // 2, MAP_HEIGHT - band))
    if window is None:
        return View(tuple(range(start, start + band)))
    top, bottom = window
    if max(bottom, y) - min(top, y) < band:  # Both fit: the band slides just enough.
        start = max(bottom - band + 1, min(start, top))
        return View(tuple(range(start, start + band)))
    height = bottom - top + 1
    if height > band:
        return None
    at = max(start, min(top, start + band - height))  # Its top's row in the frame, once moved.
    left, right = window_columns(frame, window)
    if left <= x <= right and at <= y < at + height:
        return None
    return View(tuple(range(start, start + band)), moved=((top, bottom), (left, right), at - start))


def windows(frame: NDArray[np.void]) -> Span | None:
    """The rows from the top of the highest window drawn to the bottom of the lowest,
    found by their frames' corners (no tile of the map is drawn with them); None if none."""
    chars = frame["ch"]
    tops = np.nonzero((chars == TOP_LEFT).any(axis=1))[0]
    bottoms = np.nonzero((chars == BOTTOM_RIGHT).any(axis=1))[0]
    if len(tops) == 0 or len(bottoms) == 0:
        return None
    return int(tops[0]), int(bottoms[-1])


def window_columns(frame: NDArray[np.void], window: Span) -> Span:
    """The columns from the left edge of the leftmost window in rows `window` to the
    right edge of the rightmost (`windows` found them)."""
    top, bottom = window
    chars = frame["ch"][top : bottom + 1]
    lefts = np.nonzero((chars == TOP_LEFT).any(axis=0))[0]
    rights = np.nonzero((chars == BOTTOM_RIGHT).any(axis=0))[0]
    return int(lefts[0]), int(rights[-1])


def written_from(frame: NDArray[np.void], window: Span) -> int:
    """The first row inside `window` that holds more than its frame's sides: where its
    text begins, and its pages open (`paged`); its top if none does."""
    top, bottom = window
    inside = frame["ch"][top + 1 : bottom]
    written = ~np.isin(inside, SIDES).all(axis=1)
    return top + 1 + int(np.argmax(written)) if written.any() else top


def paged(span: Span, size: int, limit: int, page: int | None, opening: int | None = None) -> View:
    """`size` rows of the first `limit` that show `span`: centred on it where it fits,
    else its `page`th page, by default the first that shows row `opening` (the first
    row of a page after the first says there is more above, the last of a page before
    the last that there is more below)."""
    top, bottom = span
    if bottom - top + 1 <= size:
        start = max(0, min((top + bottom + 1) // 2 - size // 2, limit - size))
        return View(tuple(range(start, start + size)))
    starts = page_starts(top, bottom, size)
    pages = len(starts)
    if page is None:
        row = top if opening is None else opening
        page = next(index for index in range(pages) if index == pages - 1 or row < starts[index] + size - 1)
    page = max(0, min(page, pages - 1))
    start = starts[page]
    marks: list[tuple[int, str]] = []
    if page > 0:
        marks.append((0, f" More above: PgUp (page {page + 1} of {pages}) "))
    if page < pages - 1:
        marks.append((size - 1, f" More below: PgDn (page {page + 1} of {pages}) "))
    return View(tuple(range(start, start + size)), page, pages, tuple(marks))


def page_starts(top: int, bottom: int, size: int) -> list[int]:
    """The first row of each page of rows `top` to `bottom`, `size` rows a page: each
    page begins with the row the page before hid under its line saying there is more."""
    starts = [top]
    while starts[-1] + size - 1 < bottom:
        starts.append(min(starts[-1] + size - 2, bottom + 1 - size))
    return starts


def marked_row(text: str, dtype: np.dtype[np.void]) -> NDArray[np.void]:
    """A row of the screen holding `text` in its middle, black on white as a window's
    title is, so that it reads as the terminal's, not the game's."""
    row = np.zeros(COLUMNS, dtype=dtype)
    row["ch"] = ord(" ")
    row["fg"] = (255, 255, 255)
    left = (COLUMNS - len(text)) // 2
    for x, char in enumerate(text[:COLUMNS], start=max(0, left)):
        row[x] = (ord(char), (0, 0, 0), (255, 255, 255))
    return row
