"""The hall of fame's ten best games, on screen."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final, TypeAlias

import tcod

import color
import render_functions
from screens.base import ANY_KEY_CLOSES, BaseEventHandler, Content, Overlay, PopupMessage
from window.options import Settings

if TYPE_CHECKING:
    from engine import Engine
    from saving import hall_of_fame

# Whether each entry's recording replays to its ending (None: it names none),
# as `replays.verify.entries_verified` finds; given by the main menu.
Verifier: TypeAlias = "Callable[[list[hall_of_fame.Entry], Settings], list[bool | None]]"
# Drawn with the tile sheet's own characters (it has no check mark).
MARKS: Final = {True: "+", False: "x", None: " "}


def when(entry: hall_of_fame.Entry) -> str:
    """The Date column: when the game ended, or which day's daily game it was."""
    return f"Daily {entry.daily}" if entry.daily else entry.date


LEGEND: Final = (
    "+ verified: its recording replays to this ending",
    "x not verified: its recording is gone, changed, or ends otherwise",
)


def how_it_ended(entry: hall_of_fame.Entry) -> str:
    """The cause, and which try of a daily game it was from the second on."""
    return entry.cause + (f" (try {entry.daily_try})" if entry.daily_try > 1 else "")


class HallOfFameScreen(Overlay):
    """The ten best games, over the screen it was opened from; any key closes it.

    After a death, the game that just ended is highlighted if it made the ten.
    With `marks`, each entry is marked + if its recording replays to its
    ending (verified), x if it does not or is gone.
    """

    TITLE = "Hall of fame"

    def __init__(
        self,
        entries: list[hall_of_fame.Entry],
        highlight: int | None = None,
        marks: list[bool | None] | None = None,
    ):
        self.entries = entries
        self.highlight = highlight
        self.marks = marks

    @classmethod
    def after_death(cls, engine: Engine) -> BaseEventHandler:
        """The hall of fame the game's death entered, highlighted; a replay's, as the file
        holds it (which a replay leaves as it is, damaged or not)."""
        record = engine.death_record
        if record is None:
            return cls.from_file(engine.settings, keep_aside=False)
        return cls(record.entered.entries, record.entered.rank)

    @classmethod
    def from_file(
        cls, settings: Settings, verifier: Verifier | None = None, keep_aside: bool = True
    ) -> BaseEventHandler:
        """The hall of fame as the scores file holds it, or a popup saying why not (a
        damaged file moved aside, unless a replay asks: `keep_aside`); marked by
        `verifier`, which replays each game by the player's `settings`."""
        from saving import hall_of_fame  # Loaded when the table is first shown, not at start-up.

        entries, notice = hall_of_fame.read(keep_aside)
        if notice is not None:
            return PopupMessage(notice)
        marks = None if verifier is None else verifier(entries, settings)
        return cls(entries, marks=marks)

    def content(self) -> Content:
        return Content(self.TITLE, self.lines(), keys=ANY_KEY_CLOSES)

    def lines(self) -> list[str]:
        """The table's lines, its header first."""
        if not self.entries:
            return ["No game has ended yet."]
        header = f"    {'Date':<16}  Level  Depth  {'XP':>5}  How it ended"
        lines = [
            f"{rank:>2}. {when(entry):<16}  {entry.character_level:>5}  {entry.depth:>5}  "
            f"{entry.xp:>5}  {how_it_ended(entry)}"
            for rank, entry in enumerate(self.entries, start=1)
        ]
        if self.marks is None:
            return [header, *lines]
        marked = [f"{MARKS[mark]} {line}" for mark, line in zip(self.marks, lines, strict=True)]
        return [f"  {header}", *marked, "", *LEGEND]

    def on_render(self, console: tcod.console.Console) -> None:
        console.rgb["fg"] //= 4
        console.rgb["bg"] //= 4
        content = self.content()
        lines = content.lines
        width = min(console.width, max(len(line) for line in lines) + 4)
        height = len(lines) + 4
        x, y = (console.width - width) // 2, (console.height - height) // 2
        render_functions.draw_window(console, x, y, width, height, content.title)
        for i, line in enumerate(lines):
            if self.highlight is not None and i == self.highlight + 1:
                # The game that just ended, inverted, across the window.
                console.print(x + 1, y + 2 + i, f" {line:<{width - 3}}", fg=color.black, bg=color.menu_title)
            else:
                fg = color.menu_title if i == 0 and self.entries else color.white
                console.print(x + 2, y + 2 + i, line, fg=fg)
        console.print(
            console.width // 2,
            y + height - 1,
            "┤Press any key to close├",
            alignment=tcod.constants.CENTER,
        )
