"""The help: every key, from the key tables, the keys of the place it was opened from
first, on as many pages as they need."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import tcod
from tcod.event import KeySym

import color
import render_functions
from controls.key_help import FROM_DUNGEON, Place, help_groups, layout_hint
from screens.base import ANY_KEY_CLOSES, Content, Overlay, Pop, Row, Section
from window.display_area import COLUMNS, ROWS

if TYPE_CHECKING:
    from screens.base import ActionOrHandler
    from window.options import Settings

Rows = Sequence[Row]
# A section placed on a page: its left column, top line, title and rows.
Placed = tuple[int, int, str, Rows]

# Keys that turn the page, as NetHack's and DCSS's long help: past the last
# page, they close it; any other key closes it at once.
NEXT_PAGE = frozenset({KeySym.SPACE, KeySym.PAGEDOWN, KeySym.RETURN, KeySym.KP_ENTER, KeySym.DOWN})
PREVIOUS_PAGE = frozenset({KeySym.PAGEUP, KeySym.UP})


def fits_half(rows: Rows, half: int) -> bool:
    """Whether a section's rows fit in half the screen, beside another: a column's
    `MARGIN`, its frame and two blank columns besides."""
    keys_width = max(len(keys) for keys, _ in rows)
    return 1 + keys_width + 2 + max(len(meaning) for _, meaning in rows) <= half - 3 - render_functions.MARGIN


def pages(groups: Sequence[Sequence[Section]], width: int = COLUMNS, height: int = ROWS) -> list[list[Placed]]:
    """Where each section goes in a window `MARGIN` in from the console's edges: each
    group from a page of its own; in a group, the short sections flow down two columns,
    each into the shorter one, the wide ones span the window below; a section that would
    run into the bottom frame starts a new page."""
    margin = render_functions.MARGIN
    half, left, top = width // 2, margin + 2, margin + 1
    bottom = height - 1 - margin  # The frame's last line.
    placed: list[list[Placed]] = []
    for sections in groups:
        placed.append([])
        column_y = [top, top]
        narrow = [section for section in sections if fits_half(section[1], half)]
        for title, rows in narrow:
            column = column_y.index(min(column_y))
            if column_y[column] + 1 + len(rows) > bottom:
                placed.append([])
                column_y, column = [top, top], 0
            placed[-1].append(((left, half + margin)[column], column_y[column], title, rows))
            column_y[column] += 1 + len(rows)
        y = max(column_y)
        for title, rows in sections:
            if (title, rows) in narrow:
                continue
            if y + 1 + len(rows) > bottom:
                placed.append([])
                y = top
            placed[-1].append((left, y, title, rows))
            y += 1 + len(rows)
    return [page for page in placed if page]


class HelpScreen(Overlay):
    """Every key, drawn over the screen it was opened from: first the keys of that place
    (`opened_from`: `key_help.FROM_MENU`, ...), then the others; Space turns the page
    and any other key closes it."""

    TITLE = "Keys"

    def __init__(self, settings: Settings, page: int = 0, opened_from: Place = FROM_DUNGEON):
        self._settings = settings  # Their keys are the ones shown.
        self.page = page
        self.opened_from = opened_from

    @property
    def settings(self) -> Settings:
        return self._settings

    def groups(self) -> list[list[Section]]:
        """The place's sections, then the others (`key_help.help_groups`)."""
        return [list(group) for group in help_groups(self.settings.keys, self.opened_from)]

    def content(self) -> Content:
        """Every key, a section at a time, as (keys, meaning) rows: the place's first."""
        sections = [section for group in self.groups() for section in group]
        return Content(self.TITLE, sections=sections, keys=ANY_KEY_CLOSES)

    def pages(self, width: int = COLUMNS, height: int = ROWS) -> list[list[Placed]]:
        """The content's sections, placed on pages of the console's size."""
        return pages(self.groups(), width, height)

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        last = len(self.pages()) - 1
        if event.sym in PREVIOUS_PAGE and self.page > 0:
            self.page -= 1
            return None
        if event.sym in NEXT_PAGE and self.page < last:
            self.page += 1
            return None
        return Pop()

    def on_render(self, console: tcod.console.Console) -> None:
        # The whole console cleared, so nothing of the screen below shows at the edges.
        console.clear()
        margin = render_functions.MARGIN
        width, height = console.width - 2 * margin, console.height - 2 * margin
        render_functions.draw_window(console, margin, margin, width, height, self.TITLE)
        every_page = self.pages(console.width, console.height)
        for x, y, title, rows in every_page[self.page]:
            self.draw_section(console, x, y, title, rows)
        close = "┤Press any key to close├"
        if len(every_page) > 1:
            more = "Space for more" if self.page < len(every_page) - 1 else "any key closes"
            close = f"┤Page {self.page + 1} of {len(every_page)}: {more}├"
        hint, bottom = layout_hint(), margin + height - 1
        if hint is None:
            console.print(console.width // 2, bottom, close, alignment=tcod.constants.CENTER)
        else:  # The hint on the left, the close on the right.
            console.print(margin + 2, bottom, f"┤{hint}├", fg=color.menu_title)
            console.print(margin + width - 2 - len(close), bottom, close)

    @staticmethod
    def draw_section(console: tcod.console.Console, x: int, y: int, title: str, rows: Rows) -> None:
        """Draw a section's title and rows at (x, y).

        The meanings line up just right of the section's longest keys, not at a
        fixed column, so each reads beside its keys.
        """
        meaning_x = x + 1 + max(len(keys) for keys, _ in rows) + 2
        console.print(x, y, title, fg=color.menu_title)
        for i, (keys, meaning) in enumerate(rows, start=1):
            console.print(x + 1, y + i, keys, fg=color.white)
            console.print(meaning_x, y + i, meaning, fg=color.white)
