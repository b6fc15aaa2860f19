"""The game speaking for itself (the option Speech, `--speak`): after each key, its
news in the words `--screen-reader` writes (`words.reading`), said through the
player's screen reader or the system's speech, as a self-voicing game does.

The speech library, prismatoid (`prism`), finds the best speech there is: NVDA,
JAWS or SAPI on Windows, VoiceOver on macOS, Orca or speech-dispatcher on Linux.
It is imported when speech is first wanted, so a start-up without speech does not
pay for it.  No library, or no speech engine, is one line in the log and a notice
for the player; the game plays on, silent.

Speech is turned on and off by one key on any screen (`toggle`, `keys.GLOBAL_KEYS`), and
the first start (no options file yet) says so aloud where a speech engine answers, before
the player could find the key on a screen they can't see.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Protocol

if TYPE_CHECKING:
    import tcod

    from screens.stack import Screens
    from window.options import Options, Settings
    from words.reading import Narrator

LOG: Final = logging.getLogger("speech")
SILENT: Final = "Speech is off: {}. The game goes on without it."
# Said first when speech starts and last when it stops, so the key is never met with silence.
ON: Final = "Speech on."
OFF: Final = "Speech off."
# Said once, at the first start: the key's name as a voice says it (`keys.GLOBAL_KEYS`).
GREETING: Final = "Tombs of the Ancient Kings. Press Control B for speech, on any screen."


def toggle(screens: Screens, event: tcod.event.KeyDown) -> None:
    """The speech key: speech on if it was off, off if on, kept like any option; said by
    the screen reader's front end too, where the key changes nothing it reads."""
    from screens.base import Unchanged  # Loaded with the game's screens, not for the first frame.

    settings = screens.settings
    settings.change(dataclasses.replace(settings.options, speech=not settings.options.speech))
    screens.count(event)
    screens.apply(Unchanged(ON if settings.options.speech else OFF))


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


def engine_running() -> bool:
    """Whether speech is there without starting any: on Linux, speech-dispatcher answering
    on its socket (Orca runs it; prismatoid would start the daemon, 5 s on a machine without
    it, for words nobody asked for); elsewhere, the system's speech always is (SAPI, the
    macOS voice)."""
    if not sys.platform.startswith("linux") or os.environ.get("SPEECHD_ADDRESS"):
        return True
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    places = [Path(runtime) / "speech-dispatcher"] if runtime else []
    places.append(Path.home() / ".cache" / "speech-dispatcher")
    return any(answers(place / "speechd.sock") for place in places)


def answers(path: Path) -> bool:
    """Whether a server listens on the Unix socket at `path` (a daemon killed leaves the file)."""
    with socket.socket(socket.AF_UNIX) as client:
        client.settimeout(1)
        try:
            client.connect(str(path))
        except OSError:
            return False
    return True


def narrator() -> Narrator:
    """A new narrator: the game's words loaded once speech is wanted, not for the first frame."""
    from words.reading import Narrator

    return Narrator()


def news_to_come(screens: Screens) -> bool:
    """`words.reading.news_to_come`, loaded with the narrator."""
    from words.reading import news_to_come as to_come

    return to_come(screens)


@dataclass
class Voice:
    """Says each key's news: what `Narrator` finds changed, the same lines
    `--screen-reader` writes, one utterance a line."""

    speaker: Speaker
    narrator: Narrator = field(default_factory=narrator)
    held: list[str] = field(default_factory=list)  # A key's news, until it is all in (a walk's end).
    fresh: bool = True  # Nothing told yet: "Speech on." is being said, and is not cut off.

    def tell(self, screens: Screens) -> None:
        """Say what changed on `screens`, a walk's news once it has ended.

        The first line cuts off what is still being said, as a screen reader stops
        at a key: the player has moved on (but not "Speech on.", said just before the
        first news).  A frame with nothing new (the mouse moved) cuts nothing off."""
        self.held += self.narrator.news(screens)
        if news_to_come(screens):
            return
        lines, self.held = [line for line in self.held if line.strip()], []
        for index, line in enumerate(lines):
            self.speaker.speak(line, interrupt=index == 0 and not self.fresh)
        self.fresh = self.fresh and not lines


@dataclass
class Speech:
    """Speech as the options want it, for a front end that shows frames: a voice started
    each time speech is turned on (on the speech `make` finds, the first time), let go
    when it is turned off."""

    make: Callable[[], Speaker | str] = system_speaker  # The speech, or why there is none.
    voice: Voice | None = None
    failed: bool = False  # Whether the player was told speech is missing: not told again.
    speaker: Speaker | str | None = None  # The speech found, or why there is none: looked for once.

    def found(self) -> Speaker | str:
        """The speech, or why there is none (said in the log once)."""
        if self.speaker is None:
            self.speaker = self.make()
            if isinstance(self.speaker, str):
                LOG.warning("No speech: %s.", self.speaker)
        return self.speaker

    def follow(self, options: Options, screens: Screens | None) -> str | None:
        """Say the news of `screens` if speech is on; the notice for the player the first
        time speech is wanted and there is none."""
        settings = None if screens is None else screens.settings
        if not options.speech:
            if self.voice is not None:
                self.voice.speaker.speak(OFF, interrupt=True)
            self.voice = None
            if settings is not None and settings.greet:
                self.greet(settings)
            return None
        if settings is not None:
            settings.greet = False  # Speech on: the player has found it.
        if self.voice is None and not self.failed:
            speaker = self.found()
            if isinstance(speaker, str):
                self.failed = True
                return SILENT.format(speaker)
            speaker.speak(ON, interrupt=True)
            self.voice = Voice(speaker)
        if self.voice is not None and screens is not None:
            self.voice.tell(screens)
        return None

    def greet(self, settings: Settings) -> None:
        """At the first start, say once how to turn speech on, where there is speech (the
        options file is written, so that it is said at the first start alone)."""
        settings.greet = False
        settings.changed = True
        speaker = self.found() if engine_running() else None
        if speaker is not None and not isinstance(speaker, str):
            speaker.speak(GREETING, interrupt=True)
