"""The stack of screens (`Screens`), as HexDecimal's 2023 tutorial keeps its `g.states`:
the main menu at the bottom, a popup at the top; and one key press's path through it.

A key press is the top screen's handler (`on_event`), then the transition it returns
applied to the list (`apply`, the one place screens change), then the event recorded
if the game used it (`press`).  Nothing else changes the list, and no screen knows what
is under it.  A walk under way and autofight are the dungeon screen's (`walking`,
`autofight`); the main loop asks this object whether one goes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

import tcod

from controls.keys import does_nothing
from input_handlers import (
    EventHandler,
    GameOverEventHandler,
    LevelUpEventHandler,
    MainGameEventHandler,
)
from replays import record_format, recording
from replays.record_format import Autofight, Steps
from screens.answer import AnswerScreen
from screens.base import (
    BackToMenu,
    BaseEventHandler,
    Content,
    Overlay,
    PassOn,
    Play,
    Pop,
    PopupMessage,
    Push,
    Quit,
    Replace,
    Reset,
    Transition,
    Unchanged,
)
from screens.save_failed import SaveFailedPopup

if TYPE_CHECKING:
    from engine import Engine
    from window.options import Settings


class Pressed(NamedTuple):
    """A press (a key, a symbol typed, a click) handled, counted from the first, and its event."""

    number: int = 0
    event: tcod.event.Event | None = None


class Note(NamedTuple):
    """What a key that changed nothing said (`Unchanged`), and the press that said it."""

    words: str
    press: int


class Screens:
    """The screens shown, bottom first: the main menu (which holds the player's
    settings), then a game's screens, then whatever is shown over them.

    `engine` is the game they show, in play or over (None on the menus): it comes
    with the screens above the menu, and changes only with them (`reset`).
    `quitting` is what a `Quit` asked for, until the main loop has done it.
    `pressed` is the last press, `note` what the last key that changed nothing said:
    the screen reader tells each press once, and a key that changed nothing by its note.
    """

    def __init__(self, menu: BaseEventHandler, *above: BaseEventHandler) -> None:
        self.stack: list[BaseEventHandler] = [menu]
        self.engine: Engine | None = None
        self.quitting: Quit | None = None
        self.pressed = Pressed()
        self.note: Note | None = None
        self.reset(above)

    @property
    def top(self) -> BaseEventHandler:
        """The screen the keys go to."""
        return self.stack[-1]

    @property
    def menu(self) -> BaseEventHandler:
        """The main menu, where a finished game goes back to."""
        return self.stack[0]

    @property
    def in_menu(self) -> bool:
        """Whether the main menu shows, with nothing over it (a finished game left)."""
        return len(self.stack) == 1

    def reset(self, screens: Sequence[BaseEventHandler]) -> None:
        """`screens` in place of all above the menu, and their game as `engine`."""
        self.stack[1:] = screens
        games = (screen.game() for screen in reversed(screens))
        self.engine = next((engine for engine in games if engine is not None), None)

    # What the screens show, and of which game.

    def engine_in_play(self) -> Engine | None:
        """The game in play, while the player lives: what quitting saves."""
        engine = self.engine
        return engine if engine is not None and engine.player.is_alive else None

    def recorded_game(self) -> Engine | None:
        """The game whose recording keeps what is pressed now: the one in play, unless
        the top screen is a question outside its play (`keys_belong_to_game`)."""
        return self.engine_in_play() if self.top.keys_belong_to_game else None

    @property
    def settings(self) -> Settings:
        """The options and keys in force: the game's (a replay's are its own), else the player's."""
        engine = self.engine
        if engine is not None:
            return engine.settings
        return self.menu.settings

    def content(self) -> Content | None:
        """What the screens show as text: the top one's, or, under an `Overlay` that
        says nothing of its own, the one below's (`BaseEventHandler.content`)."""
        for screen in reversed(self.stack):
            content = screen.content()
            if content is not None or not isinstance(screen, Overlay):
                return content
        return None

    def map_focus(self) -> tuple[int, int] | None:
        """The map tile the top screen is about, or under an `Overlay`, the one below's
        (`BaseEventHandler.map_focus`)."""
        for screen in reversed(self.stack):
            focus = screen.map_focus()
            if focus is not None or not isinstance(screen, Overlay):
                return focus
        return None

    def draw(self, console: tcod.console.Console) -> None:
        """Draw the top screen over those it shows over (its `Overlay`s' screens below)."""
        first = len(self.stack) - 1
        while first > 0 and isinstance(self.stack[first], Overlay):
            first -= 1
        for screen in self.stack[first:]:
            screen.on_render(console)

    # The one path of a key press.

    def press(self, event: tcod.event.Event) -> None:
        """One key press, click or pointer move: the top screen's handler, what it asks
        for applied, and the event recorded if it belongs to the game in play.

        Recorded: keys and symbols typed (what means something: `keys.does_nothing`), clicks,
        pointer moves that changed the game's mouse location; a key that stops a walk as the
        steps it took; not an event that quits (the save ends there).  An event that raises
        is recorded too, so that the recording replays the error.
        """
        if does_nothing(event):
            return  # Means nothing on any screen, as half of a key press (`keys.does_nothing`).
        self.count(event)
        engine = self.recorded_game()
        walked = self.walk_steps()
        line = None if engine is None else record_format.line_of(event)
        if engine is None or (line is None and walked is None):
            self.apply(self.top.on_event(event), event)
            return
        pointer = engine.mouse_location
        engine.unrecorded = line  # Should the event end the game, its death records it first.
        try:
            self.apply(self.top.on_event(event), event)
        except Exception:
            recording.record_unrecorded(engine)
            raise
        line, engine.unrecorded = engine.unrecorded, None
        if self.quitting is not None:  # The save ends there; leaving stops a walk too.
            if walked is not None:
                recording.record(engine, Steps(walked).line())
            return
        if walked is not None and self.walk_steps() is None:
            # The event stopped the walk and did nothing else: what replays
            # it is the number of steps the walk took.
            recording.record(engine, Steps(walked).line())
        elif walked is not None and not isinstance(event, tcod.event.MouseMotion):
            pass  # Ignored by the walk, which goes on (a click on where it is going).
        elif line is not None and (
            not isinstance(event, tcod.event.MouseMotion) or engine.mouse_location != pointer
        ):
            recording.record(engine, line)

    def count(self, event: tcod.event.Event) -> None:
        """A press counted (`pressed`): a key, a symbol or a click; a pointer's move is none."""
        if not isinstance(event, tcod.event.MouseMotion):
            self.pressed = Pressed(self.pressed.number + 1, event)

    def apply(self, result: Transition | None, event: tcod.event.Event | None = None) -> None:
        """Change the screens as `result` asks: the one place they change.

        `PassOn` hands `event` to the screen below once the top one is closed.
        """
        match result:
            case None:
                return
            case Push(screen):
                self.stack.append(screen)
            case Replace(screen):
                self.stack[-1] = screen
            case Pop():
                if len(self.stack) > 1:
                    self.stack.pop()
            case PassOn():
                self.stack.pop()
                if event is not None:
                    self.apply(self.top.on_event(event))
            case Reset(screens):
                self.reset(screens)
            case Unchanged(why):
                self.note = Note(why, self.pressed.number)
            case Play(walk):
                self.play()
                if walk is not None and (dungeon := self.dungeon) is not None:
                    dungeon.start_walk(walk)
            case Quit():
                self.quitting = result
            case BackToMenu():
                self.reset(())

    def play(self) -> None:
        """Back to the game's own screen, as owed now (`input_handlers.next_screen`)."""
        if self.engine is not None:
            self.stack[1:] = [next_screen(self.engine)]

    def show(self, text: str) -> None:
        """Say `text` in a popup over the screens (what could not be written, a notice)."""
        self.stack.append(PopupMessage(text))

    def save_failed(self, reason: str) -> None:
        """Say why quitting could not save, and let the player choose (`SaveFailedPopup`);
        a retry that failed too says its new reason in the same popup's place."""
        if isinstance(self.top, SaveFailedPopup):
            self.stack.pop()
        self.stack.append(SaveFailedPopup(reason))

    # Walks and autofight: the dungeon's, asked for here by the loop and the replays.

    @property
    def dungeon(self) -> MainGameEventHandler | None:
        """The top screen if it is the dungeon's, which owns walks and autofight."""
        top = self.top
        return top if isinstance(top, MainGameEventHandler) else None

    @property
    def walking(self) -> bool:
        """Whether a walk is under way: the main loop takes its steps (`step`)."""
        return self.walk_steps() is not None

    def walk_steps(self) -> int | None:
        """The steps the walk under way has taken; None with no walk under way."""
        dungeon = self.dungeon
        return None if dungeon is None or dungeon.walk is None else dungeon.walk.steps

    def step(self) -> None:
        """The walk's next step, as a turn; the screen after it (death, a level-up)."""
        if (dungeon := self.dungeon) is not None:
            self.apply(dungeon.advance())

    def stop_walking(self) -> None:
        """Stop the walk under way, if any (quitting, an error, a replay's `steps N`)."""
        if (dungeon := self.dungeon) is not None:
            dungeon.stop_walk()

    def autofight(self, press: Autofight) -> None:
        """Play a recorded press of autofight, as the dungeon played it (`controls.autofight`);
        an answer shown beside the map closes, as a key closes it."""
        while isinstance(self.top, AnswerScreen):
            self.stack.pop()
        if (dungeon := self.dungeon) is not None:
            self.apply(dungeon.play_autofight(press))

    def on_start_screen(self) -> bool:
        """Whether the game shows on the screen it would start on if loaded (under its
        popups): the main game, or the level-up choice owed; not a menu, nor a walk."""
        engine = self.engine_in_play()
        shown = [screen for screen in self.stack if not isinstance(screen, PopupMessage)][-1]
        if engine is None or (isinstance(shown, MainGameEventHandler) and shown.walk is not None):
            return False
        return type(shown) is play_screen(engine)


def next_screen(engine: Engine) -> BaseEventHandler:
    """The one place that chooses the screen play goes on in, after a turn or on
    continuing (`Play`): once the player has died, the game over (its ending taken
    once: `saving.death`)."""
    if not engine.player.is_alive:
        from saving import death  # Loaded by a death, not by every start (with the morgue).

        death.ending(engine)
        return GameOverEventHandler(engine)
    return play_screen(engine)(engine)


def play_screen(engine: Engine) -> type[EventHandler]:
    """The level-up choice while one is owed, else the main game."""
    return LevelUpEventHandler if engine.player.level.requires_level_up else MainGameEventHandler
