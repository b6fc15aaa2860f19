"""The main loop: each frame drawn, then the input it waits for handled (`Loop`);
and what it plays: the main menu, today's daily game, a replay.

The tutorial's loop was in `main.py`.  It is here so that `main` shows the
menu before the game's modules are loaded (`main.first_frame`): this module
loads them all.  The window's keys (fullscreen, screenshot) are answered here,
on any screen; the rest is the handlers'.
"""

from __future__ import annotations

import argparse
import functools
import gc
import os
import sys
import time
import traceback
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Final

import numpy.random  # noqa: F401  # Loaded with the game: not by the first new game's key press.
import tcod

import color
import exceptions
import input_handlers
import setup_game
from controls import keys
from replays import recording, recovery, replay, take_over
from saving import autosave, effects, safe_io
from screens.base import follow
from screens.save_failed import SaveFailedPopup
from window import display, error_report, options, screenshot
from window.front_end import FrontEnd, WindowFrontEnd
from words import program

if TYPE_CHECKING:
    from saving import hall_of_fame

# Events as `tcod.event.wait` gives them: without end, or within `timeout` seconds (walks).
EventSource = Callable[..., Iterable[tcod.event.Event]]

# Set (to anything but "") in the environment, the game quits once its loop has shown its
# first frame, and says so (on stdout; in game.log with --windowed): how the release
# workflow sees that each build, started as its players start it, gets a frame on screen.
FIRST_FRAME_ONLY: Final = "TOMBS_FIRST_FRAME_ONLY"
FIRST_FRAME_SHOWN: Final = "the first frame is shown"


def quitting_after_first_frame() -> EventSource | None:
    """The events of a start that only shows the first frame (`FIRST_FRAME_ONLY`): a Quit,
    as closing the window gives, once the frame is on screen; None for a player's start."""
    if not os.environ.get(FIRST_FRAME_ONLY):
        return None

    def quit_now(timeout: float | None = None) -> list[tcod.event.Event]:
        print(f"{program.name()}: {FIRST_FRAME_SHOWN}; quitting ({FIRST_FRAME_ONLY} is set)")
        return [tcod.event.Quit()]

    return quit_now


def handle_event(
    context: tcod.context.Context | None,
    handler: input_handlers.BaseEventHandler,
    event: tcod.event.Event,
    menu: input_handlers.BaseEventHandler | None = None,
) -> input_handlers.BaseEventHandler:
    """Keys that mean the same on every screen first (in the window), then the handler's own.

    A finished game goes back to `menu` (by default a new main menu).
    """
    if context is not None and isinstance(event, tcod.event.KeyDown):
        match keys.global_command(event):
            case keys.Command.FULLSCREEN:
                notice = display.toggle_fullscreen(context, handler.settings)
                return handler if notice is None else input_handlers.PopupMessage(handler, notice)
            case keys.Command.SCREENSHOT:
                return screenshot.take_screenshot(context, handler)
    try:
        return recording.handle_and_record(handler, event)
    except exceptions.BackToMainMenu:
        return setup_game.MainMenu(handler.settings) if menu is None else menu


def main_loop(
    context: tcod.context.Context | FrontEnd,
    root_console: tcod.console.Console,
    handler: input_handlers.BaseEventHandler,
    events: EventSource | None = None,
    playback: replay.Playback | None = None,
    menu: input_handlers.BaseEventHandler | None = None,
) -> None:
    """Draw, wait for input, handle it; until the player quits (see `Loop`).

    `context` is the window's, or another front end (the terminal's).
    `events` gives each frame's events; by default the front end's.  With a `playback`,
    its events are played first, at its pace.  A finished game goes back to `menu`, or the
    main menu the loop started with (so the next new game keeps its `--seed`), or a new one.
    """
    # The menu, or the menu under the popup of an options file that was damaged.
    start = handler.parent if isinstance(handler, input_handlers.PopupMessage) else handler
    if menu is None:
        menu = (
            start
            if isinstance(start, setup_game.MainMenu)
            else setup_game.MainMenu(handler.settings)
        )
    front = front_end_of(context)
    try:
        Loop(front, root_console, handler, events or front.events, playback, menu).run()
    finally:
        safe_io.sync_pending()  # What the last key press wrote.


def front_end_of(screen: tcod.context.Context | FrontEnd) -> FrontEnd:
    """The front end of the window's context, or the front end given."""
    return WindowFrontEnd(screen) if isinstance(screen, tcod.context.Context) else screen


def presenter(
    screen: tcod.context.Context | FrontEnd, settings: options.Settings
) -> Callable[[tcod.console.Console], None]:
    """Shows a frame drawn outside the loop (a progress bar) where the game plays."""
    front = front_end_of(screen)
    return lambda frame: front.present(frame, settings.options)


class Loop:
    """The main loop: each frame drawn, then the input it waits for handled.

    Waiting blocks, so an idle game costs no CPU and draws nothing.  While a walk is under
    way (see `travel`), the wait lasts until its next step is due, at the walk speed of the
    options, and each step is drawn; input that comes first is handled first (and stops the
    walk).  An error while handling input is reported and play goes on.  Quitting saves a
    game in play; when that fails, a popup says why and the game stays open
    (`SaveFailedPopup`).  An exception the loop can't go on from saves the
    game beside the last save (`autosave.save_beside`).

    After each frame the loop writes what play left to write (`effects`), unless it
    plays a replay (`playback`): the player's folder is not the replay's to write.

    A plain class, not a dataclass: a dataclass compiles its methods when its
    module is imported, before the first key (start-up).
    """

    def __init__(
        self,
        front: FrontEnd,
        console: tcod.console.Console,
        handler: input_handlers.BaseEventHandler,
        events: EventSource,
        playback: replay.Playback | None,
        menu: input_handlers.BaseEventHandler,
    ) -> None:
        self.front, self.console, self.handler, self.events = front, console, handler, events
        self.playback = playback
        self.menu = menu  # Where a finished game goes back to.
        self.next_step_at = 0.0  # When a walk's next step is due.

    def run(self) -> None:
        while True:
            try:
                self.draw()
                self.act()
            except exceptions.QuitWithoutSaving:
                return
            except SystemExit:
                if self.saved_to_quit():
                    return
            except BaseException:  # Anything else unexpected: never over the last good save.
                autosave.save_beside(self.handler)
                raise

    def draw(self) -> None:
        self.present()
        if self.playback is not None:  # A replay's game is not the player's to write.
            return
        self.handler, news = effects.after_frame(self.handler)
        safe_io.sync_pending()  # What the frame wrote: on disk, its answer on screen first.
        if news:
            self.present()

    def present(self) -> None:
        self.console.clear()
        self.handler.on_render(console=self.console)
        status = None if self.playback is None else self.playback.status()
        if status == replay.TAKEN_OVER and self.handler.engine_in_play() is None:
            status = replay.OVER  # A finished game's replay: nothing to play on.
        if status is not None:
            self.console.print(0, 0, status, fg=color.white, bg=color.black)
        self.front.present(self.console, self.handler.settings.options, self.handler)

    def act(self) -> None:
        """A replay's next frame or the player's input; an error in it is told, and play goes on."""
        try:
            if self.playback is not None and not self.playback.finished:
                self.handler = replay.play_frame(self.handler, self.playback, self.front.events)
            else:
                self.take_input()
                if self.playback is not None:
                    self.playback.handed_over = True  # The player has used the keys.
        except exceptions.BackToMainMenu:  # The recording left its finished game.
            self.end_replay()
            self.handler = self.menu
        except Exception:  # Handle exceptions in game (quitting is no Exception).
            error_report.report_error(self.handler, keep_recording=True)
            self.handler = self.handler.stop_walking()  # Or the same error comes again.

    def take_input(self) -> None:
        """Wait for the events (until a walk's next step is due), handle them, step."""
        if self.handler.walking:
            batch = list(self.events(max(0.0, self.next_step_at - time.monotonic())))
        else:
            batch = list(self.events())
            self.next_step_at = 0.0  # A walk started now steps at once.
        self.handle(batch)
        # The wait ran out (nothing came), or the step is due anyway
        # (the mouse moving all the while must not hold a walk up).
        if self.handler.walking and (not batch or time.monotonic() >= self.next_step_at):
            self.next_step_at = time.monotonic() + 1 / self.handler.settings.options.walk_speed
            self.handler = self.handler.advance()

    def handle(self, batch: list[tcod.event.Event]) -> None:
        # Whether the last event was a key press that changed the screen: the character
        # it types, if any, comes next (SDL sends both at once), and belongs to it.
        screen_changed_by_key = False
        for event in batch:
            if screen_changed_by_key and isinstance(event, tcod.event.TextInput):
                # Typed by the key press that left the screen it was meant for: not again.
                screen_changed_by_key = False
                continue
            before = self.handler
            context = self.front.context
            converted = event if context is None else context.convert_event(event)
            if self.playback is not None and take_over.plays_on(self.handler, converted):
                # Played on after a replay: asked first, and the key only asks.
                self.handler = take_over.ask(self.handler, self.menu.settings, self.end_replay)
            else:
                self.handler = handle_event(context, self.handler, converted, self.menu)
            if self.playback is not None and self.handler is self.menu:
                self.end_replay()  # The replayed game is over: the player's own menu.
            screen_changed_by_key = (
                isinstance(event, tcod.event.KeyDown) and self.handler is not before
            )

    def end_replay(self) -> None:
        """From now on, the player's: the loop writes and saves as for a game in play."""
        self.playback = None

    def saved_to_quit(self) -> bool:
        """Save the game in play to quit; or, when that fails, say why and stay.

        A replay's game, not taken over (`take_over`), is not the player's: nothing is saved.
        """
        if self.playback is not None:
            return True
        # Continue starts on the screen a loaded game starts on: so must the replay.
        self.handler = autosave.back_to_start(self.handler)
        try:
            autosave.save_game(self.handler)
        except Exception as exc:
            # Closing now would lose what was played since the last save:
            # say why, and let the player retry or choose to lose it.
            traceback.print_exc()
            handler = self.handler
            if isinstance(handler, SaveFailedPopup):
                handler = handler.parent  # A retry failed: one popup, the new reason.
            # Quitting stopped a walk (and the recording says so).
            handler = handler.stop_walking()
            self.handler = SaveFailedPopup(handler, error_report.save_failure(exc))
            return False
        return True


def play_in(
    screen: tcod.context.Context | FrontEnd,
    root_console: tcod.console.Console,
    settings: options.Settings,
    args: argparse.Namespace,
    script: recording.Checked | None,
    notice: str | None,
) -> None:
    """In the window (its context) or another front end: the main menu (over the
    options' `notice`, if any), today's daily game (`--daily`), or the replay of `script`."""
    # What start-up made (modules, tcod, numpy: some 40,000 objects) lives as long as the
    # program.  Frozen, the collector's full passes skip it, not 12 ms at a random key press.
    gc.freeze()
    if script is None:
        menu = players_menu(screen, root_console, settings, args.seed)
        # Over a saved game, `--daily` asks first, as `d` on the menu does (no: the menu).
        first = follow(menu, menu.abandoning(menu.daily_game)) if args.daily else menu
        shown = first if notice is None else input_handlers.PopupMessage(first, notice)
        events = quitting_after_first_frame()
        if args.daily:  # Today's game at once; the menu after it.
            main_loop(screen, root_console, shown, events, menu=menu)
        else:
            main_loop(screen, root_console, shown, events)
    else:
        if notice is not None:
            print(f"{program.name()}: {notice}", file=sys.stderr)
        watch_replay(screen, root_console, settings, script)


def players_menu(
    screen: tcod.context.Context | FrontEnd,
    root_console: tcod.console.Console,
    settings: options.Settings,
    seed: int | None = None,
) -> setup_game.MainMenu:
    """The player's main menu: its progress bars drawn where the game plays, and its hall
    of fame verified (`verify.entries_verified`), at start-up and after a replay alike."""
    present = presenter(screen, settings)
    return setup_game.MainMenu(
        settings,
        seed=seed,
        progress=recovery.progress_bar(present, root_console),
        verifier=functools.partial(
            verified, progress=recovery.progress_bar(present, root_console, "Verifying the hall of fame...")
        ),
    )


def verified(
    entries: list[hall_of_fame.Entry], settings: options.Settings, progress: Callable[[float], None]
) -> list[bool | None]:
    """`verify.entries_verified`, imported when the hall of fame is first opened: not
    before the game is ready for its first key (docs/performance.md, "Start-up")."""
    from replays import verify

    return verify.entries_verified(entries, settings, progress)


def watch_replay(
    screen: tcod.context.Context | FrontEnd,
    root_console: tcod.console.Console,
    settings: options.Settings,
    script: recording.Checked,
) -> None:
    """`--replay FILE` in the window: nothing is written while it plays, the player's
    game left as it was; played on, it becomes the player's (`take_over`); over, it
    leaves for the player's own main menu."""
    menu = players_menu(screen, root_console, settings)
    handler = replay.start(script.script, settings)
    playback = replay.Playback(script.events(), total=script.count)
    main_loop(screen, root_console, handler, playback=playback, menu=menu)
