"""The help: every key, from the key tables."""

from __future__ import annotations

import tcod

import color
import render_functions
from controls.key_help import help_sections, layout_hint
from screens.base import Overlay


class HelpScreen(Overlay):
    """Every key, drawn over the screen it was opened from; any key closes it."""

    TITLE = "Keys"

    def on_render(self, console: tcod.console.Console) -> None:
        # The whole console, so nothing of the screen below shows at its edges.
        render_functions.draw_window(console, 0, 0, console.width, console.height, self.TITLE)
        half = console.width // 2
        sections = help_sections(self.settings.keys)
        # So that every key fits on one screen, the short sections flow down two
        # columns, each into the shorter one, and the wide ones span the screen below.
        narrow = [section for section in sections if self.fits_half(section[1], half)]
        column_y = [1, 1]
        for title, rows in narrow:
            column = column_y.index(min(column_y))
            column_y[column] += self.draw_section(console, (2, half)[column], column_y[column], title, rows)
        y = max(column_y)
        for title, rows in sections:
            if (title, rows) not in narrow:
                y += self.draw_section(console, 2, y, title, rows)
        close = "┤Press any key to close├"
        hint = layout_hint()
        if hint is None:
            console.print(console.width // 2, console.height - 1, close, alignment=tcod.constants.CENTER)
        else:  # The hint on the left, the close on the right.
            console.print(2, console.height - 1, f"┤{hint}├", fg=color.menu_title)
            console.print(console.width - 2 - len(close), console.height - 1, close)

    @staticmethod
    def fits_half(rows: list[tuple[str, str]], half: int) -> bool:
        """Whether a section's rows fit in half the screen, beside another."""
        keys_width = max(len(keys) for keys, _ in rows)
        return 1 + keys_width + 2 + max(len(meaning) for _, meaning in rows) <= half - 3

    @staticmethod
    def draw_section(
        console: tcod.console.Console,
        x: int,
        y: int,
        title: str,
        rows: list[tuple[str, str]],
    ) -> int:
        """Draw a section's title and rows at (x, y); return how many lines it took.

        The meanings line up just right of the section's longest keys, not at a
        fixed column, so each reads beside its keys.
        """
        meaning_x = x + 1 + max(len(keys) for keys, _ in rows) + 2
        console.print(x, y, title, fg=color.menu_title)
        for i, (keys, meaning) in enumerate(rows, start=1):
            console.print(x + 1, y + i, keys, fg=color.white)
            console.print(meaning_x, y + i, meaning, fg=color.white)
        return 1 + len(rows)
