"""The help: every key, from the key tables, on as many pages as they need."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import tcod
from tcod.event import KeySym

import color
import render_functions
from controls.key_help import help_sections, layout_hint
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
    """Whether a section's rows fit in half the screen, beside another."""
    keys_width = max(len(keys) for keys, _ in rows)
    return 1 + keys_width + 2 + max(len(meaning) for _, meaning in rows) <= half - 3


def pages(sections: Sequence[Section], width: int = COLUMNS, height: int = ROWS) -> list[list[Placed]]:
    """Where each section goes: the short ones flow down two columns, each into
    the shorter one, the wide ones span the screen below; a section that would
    run into the bottom frame starts a new page."""
    half = width // 2
    bottom = height - 1  # The frame's last line.
    placed: list[list[Placed]] = [[]]
    column_y = [1, 1]
    narrow = [section for section in sections if fits_half(section[1], half)]
    for title, rows in narrow:
        column = column_y.index(min(column_y))
        if column_y[column] + 1 + len(rows) > bottom:
            placed.append([])
            column_y, column = [1, 1], 0
        placed[-1].append(((2, half)[column], column_y[column], title, rows))
        column_y[column] += 1 + len(rows)
    y = max(column_y)
    for title, rows in sections:
        if (title, rows) in narrow:
            continue
        if y + 1 + len(rows) > bottom:
            placed.append([])
            y = 1
        placed[-1].append((2, y, title, rows))
        y += 1 + len(rows)
    return placed


class HelpScreen(Overlay):
    """Every key, drawn over the screen it was opened from; Space turns the
    page (when there are several) and any other key closes it."""

    TITLE = "Keys"

    def __init__(self, settings: Settings, page: int = 0):
        self._settings = settings  # Their keys are the ones shown.
        self.page = page

    @property
    def settings(self) -> Settings:
        return self._settings

    def content(self) -> Content:
        """Every key, a section at a time, as (keys, meaning) rows."""
        return Content(self.TITLE, sections=help_sections(self.settings.keys), keys=ANY_KEY_CLOSES)

    def pages(self, width: int = COLUMNS, height: int = ROWS) -> list[list[Placed]]:
        """The content's sections, placed on pages of the console's size."""
        return pages(self.content().sections, width, height)

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
        # The whole console, so nothing of the screen below shows at its edges.
        content = self.content()
        render_functions.draw_window(console, 0, 0, console.width, console.height, content.title)
        every_page = pages(content.sections, console.width, console.height)
        for x, y, title, rows in every_page[self.page]:
            self.draw_section(console, x, y, title, rows)
        close = "┤Press any key to close├"
        if len(every_page) > 1:
            more = "Space for more" if self.page < len(every_page) - 1 else "any key closes"
            close = f"┤Page {self.page + 1} of {len(every_page)}: {more}├"
        hint = layout_hint()
        if hint is None:
            console.print(console.width // 2, console.height - 1, close, alignment=tcod.constants.CENTER)
        else:  # The hint on the left, the close on the right.
            console.print(2, console.height - 1, f"┤{hint}├", fg=color.menu_title)
            console.print(console.width - 2 - len(close), console.height - 1, close)

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
