"""The game speaking for itself (the option Speech, `--speak`): after each key, its
news in the words `--screen-reader` writes (`words.reading`), said through the
player's screen reader or the system's speech, as a self-voicing game does.

The speech library, prismatoid (`prism`), finds the best speech there is: NVDA,
JAWS or SAPI on Windows, VoiceOver on macOS, Orca or speech-dispatcher on Linux.
It is imported when speech is first wanted, so a start-up without speech does not
pay for it.  No library, or no speech engine, is one line in the log and a notice
for the player; the game plays on, silent.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Protocol

if TYPE_CHECKING:
    from screens.stack import Screens
    from window.options import Options
    from words.reading import Narrator

LOG: Final = logging.getLogger("speech")
SILENT: Final = "Speech is off: {}. The game goes on without it."


class Speaker(Protocol):
    """What says a line: the first of a key's lines `interrupt`s what is still being said."""

    def speak(self, text: str, interrupt: bool = False) -> None:
        """Say `text`, after what is being said, or in its place (`interrupt`)."""
        ...


@dataclass
class SystemSpeaker:
    """The best speech prismatoid finds, and its context, kept alive as long as it speaks."""

    context: Any
    backend: Any

    def speak(self, text: str, interrupt: bool = False) -> None:
        self.backend.speak(text, interrupt=interrupt)


def system_speaker() -> Speaker | str:
    """The best speech there is, or why there is none."""
    try:
        # Only once speech is wanted: a start-up without it doesn't load it.
        import prism  # type: ignore[import-untyped]
    except ImportError as exc:
        return f"the speech library prismatoid is not installed ({exc})"
    try:
        context = prism.Context()
        return SystemSpeaker(context, context.acquire_best())
    except (RuntimeError, ValueError, prism.PrismError) as exc:
        return f"no screen reader or speech engine answered ({exc})"


def narrator() -> Narrator:
    """A new narrator: the game's words loaded once speech is wanted, not for the first frame."""
    from words.reading import Narrator

    return Narrator()


@dataclass
class Voice:
    """Says each key's news: what `Narrator` finds changed, the same lines
    `--screen-reader` writes, one utterance a line."""

    speaker: Speaker
    narrator: Narrator = field(default_factory=narrator)
    held: list[str] = field(default_factory=list)  # A walk's news, until it ends.

    def tell(self, screens: Screens) -> None:
        """Say what changed on `screens`, a walk's news once it has ended.

        The first line cuts off what is still being said, as a screen reader stops
        at a key: the player has moved on.  A frame with nothing new (the mouse
        moved) cuts nothing off."""
        self.held += self.narrator.news(screens)
        if screens.walking:
            return
        lines, self.held = [line for line in self.held if line.strip()], []
        for index, line in enumerate(lines):
            self.speaker.speak(line, interrupt=index == 0)


@dataclass
class Speech:
    """Speech as the options want it, for a front end that shows frames: a voice started
    the first time speech is on (`make` finds it), let go when it is turned off."""

    make: Callable[[], Speaker | str] = system_speaker  # The speech, or why there is none.
    voice: Voice | None = None
    failed: bool = False  # Whether speech was found missing: not looked for again.

    def follow(self, options: Options, screens: Screens | None) -> str | None:
        """Say the news of `screens` if speech is on; the notice for the player the first
        time speech is wanted and there is none."""
        if not options.speech:
            self.voice = None
            return None
        if self.voice is None and not self.failed:
            speaker = self.make()
            if isinstance(speaker, str):
                self.failed = True
                LOG.warning("No speech: %s.", speaker)
                return SILENT.format(speaker)
            self.voice = Voice(speaker)
        if self.voice is not None and screens is not None:
            self.voice.tell(screens)
        return None
