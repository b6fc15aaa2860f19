"""The options screen: each option of `window.options`, changed in place."""

from __future__ import annotations

import dataclasses

import tcod

import color
import render_functions
from controls.keys import OPTION_ROW_KEYS, OPTION_VALUE_KEYS, OPTIONS_CLOSE_KEYS, Command, key_of
from saving import paths
from screens.base import OPTION_KEYS, Content, Overlay, Pop, Unchanged
from window import display_area, options
from window.options import Settings


class OptionsScreen(Overlay):
    """Every option `options.Options` declares, one a line, over the screen it was opened from.

    A change applies at once, and the main loop keeps it in the options file.
    """

    TITLE = "Options"
    WIDTH = 60
    HINT = "Up/Down: choose   Left/Right: change   Esc: close"

    def __init__(self, settings: Settings):
        self._settings = settings  # Changed in place: the main loop writes them after the frame.
        self.row = 0
        self.notice: str | None = None  # Why the last change stepped over values.

    @property
    def settings(self) -> Settings:
        return self._settings

    def content(self) -> Content:
        """Where the options are kept; the chosen one in focus."""
        label, value = self.lines()[self.row]
        return Content(self.TITLE, self.footer(), keys=self.HINT, focus=f"{label}: {value}")

    def lines(self) -> list[tuple[str, str]]:
        """(label, value) for each option, as the screen shows them."""
        now = self.settings.options
        return [
            (choice.label, choice.format(getattr(now, name)))
            for name, choice in options.choices().items()
        ]

    def footer(self) -> list[str]:
        """Where the options and the player's own keys are kept, and why the last change failed, if it did."""
        kept, keys = (paths.shown(path.resolve()) for path in (paths.options_path(), paths.keys_path()))
        text = f"For speech, press {options.SPEECH_KEYS} (= opens these options).\n\nKept in {kept}\n\nKeys of your own: {keys}"
        if self.notice is not None:
            text += f"\n\n{self.notice}"
        return render_functions.wrap_lines(text, self.WIDTH - 4)

    def on_render(self, console: tcod.console.Console) -> None:
        render_functions.dim(console)
        content, rows = self.content(), self.lines()
        footer = content.lines
        height = len(rows) + len(footer) + 6
        x, y = (console.width - self.WIDTH) // 2, (console.height - height) // 2
        render_functions.draw_window(console, x, y, self.WIDTH, height, content.title)
        for i, (label, value) in enumerate(rows):
            text = f" {label:<24}< {value} >"
            fg, bg = (color.black, color.white) if i == self.row else (color.white, color.black)
            console.print(x + 1, y + 2 + i, f"{text:<{self.WIDTH - 2}}", fg=fg, bg=bg)
        for i, line in enumerate(footer):
            console.print(x + 2, y + 3 + len(rows) + i, line, fg=color.white)
        console.print(x + 2, y + height - 2, content.keys, fg=color.menu_title)

    def ev_keydown(self, event: tcod.event.KeyDown) -> Pop | Unchanged | None:
        """A row chosen, a value changed, or the screen closed; any other key says which keys do."""
        if OPTIONS_CLOSE_KEYS.get(event.sym) is Command.CLOSE:
            return Pop()
        names = list(options.choices())
        if event.sym in OPTION_ROW_KEYS:
            self.row = (self.row + OPTION_ROW_KEYS[event.sym]) % len(names)
        elif event.sym in OPTION_VALUE_KEYS:
            return self.change(names[self.row], OPTION_VALUE_KEYS[event.sym])
        else:
            return Unchanged(OPTION_KEYS)
        return None

    def ev_textinput(self, event: tcod.event.TextInput) -> Pop | Unchanged:
        if OPTIONS_CLOSE_KEYS.get(key_of(event)) is Command.CLOSE:
            return Pop()
        return Unchanged(OPTION_KEYS)

    def ev_mousebuttondown(self, event: tcod.event.MouseButtonDown) -> None:
        """Options are chosen with the keys the hint names; a click closes nothing."""

    def change(self, name: str, by: int) -> Unchanged | None:
        """Move option `name` `by` places along its values, past any this display can't take,
        and keep it; where it can take none but its own, why (`Unchanged`)."""
        now = self.settings.options
        choice = options.choices()[name]
        value = getattr(now, name)
        skipped: list[str] = []
        for _ in choice.names:
            value = choice.step(value, by)
            wanted = dataclasses.replace(now, **{name: value})
            refusal = display_area.refusal(now, wanted)
            if refusal is None:
                self.settings.change(wanted)
                self.notice = skipped[0] if skipped else None
                return None if value != getattr(now, name) else Unchanged(self.notice or OPTION_KEYS)
            skipped.append(refusal)
        return Unchanged(skipped[0])
