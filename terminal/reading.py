"""What the screen reader says (`--screen-reader`): each screen as lines of text,
and the news of the game after each key, as a narrator who remembers what it said.

The dungeon itself is never read as a map: its news is the new messages, the
player's HP when it changes and the monsters that come into view; the player asks
for the rest (`words.questions`).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

import input_handlers as screens
import setup_game
from controls import travel
from controls.key_help import help_sections
from controls.targeting import enemies_in_view
from replays.follow import Watching
from screens.hall_of_fame_screen import HallOfFameScreen
from screens.help_screen import HelpScreen
from screens.options_screen import OptionsScreen
from screens.question import Question
from window import title
from words import descriptions, questions

if TYPE_CHECKING:
    from engine import Engine
    from entity import Actor
    from message_log import Message

# Every line is shorter than 80 characters: a reader's terminal may be that narrow.
WIDTH: Final = 79

LOOKING: Final = "Look: move the cursor, Enter tells more, Escape leaves."
HISTORY: Final = "Message history: Up and Down read it, any other key closes."
CLOSE: Final = "Any key closes."


@dataclass
class Reading:
    """A screen as text: its lines, read when it opens or when they change, and the
    line in focus (a menu's choice, a cursor), read each time it moves."""

    lines: list[str]
    focus: str = ""


def read_screen(screen: screens.BaseEventHandler) -> Reading | None:
    """The screen as text; None for the dungeon, told by its news alone."""
    match screen:
        case screens.MainGameEventHandler() | screens.WalkHandler():
            return None
        case screens.AnswerScreen():
            return Reading([f"{screen.title}:", *screen.lines])
        case screens.LookDescription():
            name, lines = descriptions.describe_tile(screen.x, screen.y, screen.parent.engine)
            return Reading([f"{name}:", *lines, CLOSE])
        case screens.SelectIndexHandler():
            engine = screen.engine
            lines = [LOOKING] if type(screen) is screens.LookHandler else []
            return Reading(lines, questions.at_cursor(engine, *engine.mouse_location))
        case screens.InventoryEventHandler():
            return Reading([screen.TITLE, *screen.item_lines()])
        case screens.LevelUpEventHandler() | screens.CharacterScreenEventHandler():
            return Reading([screen.TITLE, *screen.lines()])
        case screens.GameOverEventHandler():
            return Reading([screen.TITLE, *screen.lines(WIDTH)])
        case screens.HistoryViewer():
            return read_history(screen)
        case screens.ConfirmHandler() | Question():
            return Reading([screen.question if isinstance(screen, screens.ConfirmHandler) else screen.text])
        case screens.PopupMessage():
            return Reading([*screen.text.splitlines(), CLOSE])
        case HelpScreen():
            return read_help(screen)
        case OptionsScreen():
            return read_options(screen)
        case HallOfFameScreen():
            return Reading([screen.TITLE, *screen.lines(), CLOSE])
        case setup_game.MainMenu():
            return Reading([title.GAME_TITLE, *title.menu_lines(), "Press ? for help."])
        case Watching():
            below = read_screen(screen.parent) or Reading([])
            return Reading([screen.notice, *below.lines], below.focus)
        case screens.Overlay():
            return read_screen(screen.parent)
    return None


def read_history(screen: screens.HistoryViewer) -> Reading:
    """The history: how to read it, then the message under its cursor and its turn."""
    messages = screen.engine.message_log.messages
    if not messages:
        return Reading([HISTORY], "No messages.")
    message = messages[screen.cursor]
    return Reading([HISTORY], f"{message.full_text} (turn {message.turn})")


def read_help(screen: HelpScreen) -> Reading:
    """Every key, a section at a time: "keys: meaning"."""
    lines = [screen.TITLE]
    for heading, rows in help_sections(screen.settings.keys):
        lines += [f"{heading}:", *(f"{keys}: {meaning}" for keys, meaning in rows)]
    return Reading([*lines, CLOSE])


def read_options(screen: OptionsScreen) -> Reading:
    """The options: how to change them, where they are kept; the chosen one in focus."""
    label, value = screen.lines()[screen.row]
    return Reading([screen.TITLE, screen.HINT, *screen.footer()], f"{label}: {value}")


def wrapped(lines: list[str]) -> list[str]:
    """The lines cut to `WIDTH` at spaces; a long word is broken."""
    return [part for line in lines for part in textwrap.wrap(line, WIDTH) or [""]]


@dataclass
class Narrator:
    """What changed since it last spoke: the screen, and the game's news."""

    screen: screens.BaseEventHandler | None = None
    reading: Reading | None = None
    engine: Engine | None = None
    last_message: Message | None = None
    last_count: int = 0
    hp: int = 0
    seen: list[Actor] = field(default_factory=list)

    def news(self, screen: screens.BaseEventHandler) -> list[str]:
        """The lines to say now that `screen` shows: the game's news, then what
        changed of the screen (all of it, if it is new)."""
        engine = engine_of(screen)
        lines = [] if engine is None else self.game_news(engine)
        reading = read_screen(screen)
        before = self.reading if screen is self.screen else None
        self.screen, self.reading = screen, reading
        if reading is not None:
            lines += [line for line in reading.lines if before is None or line not in before.lines]
            if reading.focus and (before is None or reading.focus != before.focus):
                lines.append(reading.focus)
        return wrapped(lines)

    def game_news(self, engine: Engine) -> list[str]:
        """New messages, a change of HP, monsters come into view."""
        if engine is not self.engine:  # A new game, or a game loaded: its last message only.
            self.engine, self.hp, self.seen = engine, engine.player.fighter.hp, []
            messages = engine.message_log.messages
            self.last_message = messages[-2] if len(messages) > 1 else None
            self.last_count = 0 if self.last_message is None else self.last_message.count
        lines = self.new_messages(engine)
        fighter = engine.player.fighter
        if fighter.hp != self.hp:
            self.hp = fighter.hp
            lines.append(f"HP {fighter.hp} of {fighter.max_hp}.")
        in_view = enemies_in_view(engine)
        for actor in in_view:
            if actor in self.seen:
                continue
            news = travel.comes_into_view(actor)
            told = f"{news.removesuffix('.')}, {questions.offset_from_player(actor, engine)}."
            if news in lines:  # A walk stopped for it: where it is, in the same line.
                lines[lines.index(news)] = told
            else:
                lines.append(told)
        self.seen = in_view
        return lines

    def new_messages(self, engine: Engine) -> list[str]:
        """The messages added since the last news, and the last one again if it repeated."""
        messages = engine.message_log.messages
        start = 0
        lines = []
        for index in range(len(messages) - 1, -1, -1):
            if messages[index] is self.last_message:
                start = index + 1
                if messages[index].count != self.last_count:
                    lines.append(messages[index].full_text)
                break
        lines += [message.full_text for message in messages[start:]]
        if messages:
            self.last_message, self.last_count = messages[-1], messages[-1].count
        return lines


def engine_of(screen: screens.BaseEventHandler) -> Engine | None:
    """The game a screen shows, if any: its own, or that of the screen it is over."""
    while True:
        engine = getattr(screen, "engine", None)
        if engine is not None or not isinstance(screen, screens.Overlay):
            return engine
        screen = screen.parent
