"""Where the main loop shows its frames and gets its input: a front end.

The window is one (`WindowFrontEnd`); the terminal (`terminal.front_end`) is
another.  The loop, the handlers, saving and recording are the same for both.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

import tcod

from window import display
from window.options import Options
from window.speech import Speech

if TYPE_CHECKING:
    from screens.stack import Screens


class FrontEnd(Protocol):
    """What the main loop needs of where it plays."""

    @property
    def context(self) -> tcod.context.Context | None:
        """The window's context; None with no window, where the window's own keys
        (fullscreen, screenshot) do nothing and events need no converting."""
        ...

    def present(
        self, console: tcod.console.Console, options: Options, screens: Screens | None = None
    ) -> None:
        """Show the frame drawn in `console`, following the options that apply here;
        `screens` drew it (a front end that speaks says what changed on them)."""
        ...

    def events(self, timeout: float | None = None) -> Iterable[tcod.event.Event]:
        """The input that came: waiting for it without end, or up to `timeout` seconds."""
        ...


class WindowFrontEnd:
    """The game's window: SDL's events, frames scaled to the window."""

    def __init__(self, context: tcod.context.Context) -> None:
        self.context = context
        self.speech = Speech()  # Each key's news said aloud, when the options want it.

    def present(
        self, console: tcod.console.Console, options: Options, screens: Screens | None = None
    ) -> None:
        display.follow(self.context, options)
        self.context.present(console, keep_aspect=True, integer_scaling=True)
        notice = self.speech.follow(options, screens)
        if notice is not None and screens is not None:
            screens.show(notice)

    def events(self, timeout: float | None = None) -> Iterable[tcod.event.Event]:
        # Looked up at each call, so that tests can replace it.
        return tcod.event.wait() if timeout is None else tcod.event.wait(timeout)
