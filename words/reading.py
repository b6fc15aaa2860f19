"""What the screen reader says (`--screen-reader`): each screen as lines of text,
and the news of the game after each key, as a narrator who remembers what it said.

The dungeon itself is never read as a map: its news is the new messages, the
player's HP when it changes and the monsters that come into view; the player asks
for the rest (`words.questions`).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, NamedTuple

from replays.record_format import line_of
from screens.stack import Pressed
from words import news
from words.spoken import spoken

if TYPE_CHECKING:
    from engine import Engine
    from message_log import Message
    from screens.base import BaseEventHandler
    from screens.stack import Screens

# Every line is shorter than 80 characters: a reader's terminal may be that narrow.
WIDTH: Final = 79
NO_PRESS: Final = Pressed()  # Before the first key.


@dataclass
class Reading:
    """A screen as text: its lines, read when it opens or when they change, and the
    line in focus (a menu's choice, a cursor), read each time it moves."""

    lines: list[str]
    focus: str = ""


def read_screen(screen: Screens | BaseEventHandler) -> Reading | None:
    """The screens (or a screen) as text, as declared (`content`): the title, lines
    and keys, and the line in focus; None for the dungeon, told by its news alone."""
    content = screen.content()
    if content is None:
        return None
    title = [content.title] if content.title else []
    keys = [content.keys] if content.keys else []
    return Reading([*title, *content.text(), *keys], content.focus)


def wrapped(lines: list[str]) -> list[str]:
    """The lines cut to `WIDTH` at spaces; a long word is broken."""
    return [part for line in lines for part in textwrap.wrap(line, WIDTH) or [""]]


def news_to_come(screens: Screens) -> bool:
    """Whether the key's news goes on right after this frame: a walk under way (told at its
    end), or a death whose record (the morgue file, the hall of fame) the main loop keeps
    once the frame is shown (`saving.effects`).  A reader holds the news till then, as one
    write: Orca reads a second write after a key as new, and says the end of the first
    one again with it."""
    engine = screens.engine
    if screens.walking:
        return True
    return engine is not None and engine.ending is not None and engine.death_record is None and screens.settings.keep


class Run(NamedTuple):
    """A message as last told: how often in a row one key caused it, and at which press."""

    message: Message
    times: int
    pressed: Pressed


def same_key(one: Pressed, other: Pressed) -> bool:
    """Whether two presses are one, or of the same key (as the recording names them)."""
    if one.number == other.number:
        return True
    return one.event is not None and other.event is not None and line_of(one.event) == line_of(other.event)


@dataclass
class Narrator:
    """What changed since it last spoke: the screen, and the game's news."""

    screen: BaseEventHandler | None = None  # The top screen when it last spoke.
    reading: Reading | None = None
    engine: Engine | None = None
    last_message: Message | None = None
    last_count: int = 0
    glance: news.Glance | None = None
    pressed: Pressed = NO_PRESS  # The press last told.
    run: Run | None = None

    def news(self, screens: Screens) -> list[str]:
        """The lines to say now that `screens` show: that a screen over the game
        closed, the game's news, then what changed of the top screen (all of it, if it is new);
        or, after a key that changed none of that, what it said (`Screens.note`)."""
        engine = screens.engine
        same_game = engine is not None and engine is self.engine
        lines = [] if engine is None else self.game_news(engine, screens.walking, screens.pressed)
        reading = read_screen(screens)
        if reading is None and self.reading is not None and same_game:
            lines.insert(0, news.BACK)  # A screen closed onto the same game's dungeon.
        before = self.reading if screens.top is self.screen else None
        self.screen, self.reading = screens.top, reading
        if reading is not None:
            lines += [line for line in reading.lines if before is None or line not in before.lines]
            if reading.focus and (before is None or reading.focus != before.focus):
                lines.append(reading.focus)
        note = screens.note
        if not lines and note is not None and note.press > self.pressed.number:
            lines = [note.words]
        self.pressed = screens.pressed
        # A line said as nothing (a piece of a path cut into lines) is left out.
        return wrapped([said for line in lines if (said := spoken(line)) or not line])

    def game_news(self, engine: Engine, walking: bool = False, pressed: Pressed = NO_PRESS) -> list[str]:
        """New messages, then what changed on the map (`words.news`); a walk's steps
        are told at its end."""
        if engine is not self.engine:  # A new game, or a game loaded: its last message only.
            self.engine, self.glance = engine, None
            messages = engine.message_log.messages
            self.last_message = messages[-2] if len(messages) > 1 else None
            self.last_count = 0 if self.last_message is None else self.last_message.count
        lines, self.glance = news.told(engine, self.glance, self.new_messages(engine, pressed), walking)
        return lines

    def new_messages(self, engine: Engine, pressed: Pressed = NO_PRESS) -> list[str]:
        """The messages added since the last news, and the last one again if it repeated."""
        messages = engine.message_log.messages
        start = 0
        lines = []
        for index in range(len(messages) - 1, -1, -1):
            if messages[index] is self.last_message:
                start = index + 1
                if messages[index].count != self.last_count:
                    lines.append(self.repeated(messages[index], pressed))
                break
        for message in messages[start:]:
            lines.append(message.full_text)
            self.run = Run(message, message.count, pressed)
        if messages:
            self.last_message, self.last_count = messages[-1], messages[-1].count
        return lines

    def repeated(self, message: Message, pressed: Pressed) -> str:
        """The last message, caused again: counted ("twice") only over presses of one
        key in a row, each telling it; the log stacks it across any keys, with questions
        asked between, and "3 times" after one bump of a wall would be heard as three."""
        count = message.count - self.last_count
        run = self.run
        told_last = run is not None and run.message is message and run.pressed == self.pressed
        if run is not None and told_last and same_key(run.pressed, pressed):
            count += run.times
        self.run = Run(message, count, pressed)
        return message.counted(count)
