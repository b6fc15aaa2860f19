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
import render_functions
import setup_game
from controls import keys
from replays import recording, replay, take_over
from saving import autosave, effects, safe_io
from screens.base import Push
from screens.stack import Screens
from window import display, error_report, options, screenshot, speech
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


def handle_event(context: tcod.context.Context | None, screens: Screens, event: tcod.event.Event) -> None:
    """Keys that mean the same on every screen first (speech; fullscreen and screenshots
    in the window), then the top screen's (`Screens.press`)."""
    if isinstance(event, tcod.event.KeyDown) and keys.global_command(event) is keys.Command.SPEECH:
        speech.toggle(screens, event)
        return
    if context is not None and isinstance(event, tcod.event.KeyDown):
        match keys.global_command(event):
            case keys.Command.FULLSCREEN:
                notice = display.toggle_fullscreen(context, screens.settings)
                if notice is not None:
                    screens.show(notice)
                return
            case keys.Command.SCREENSHOT:
                screenshot.take_screenshot(context, screens)
                return
    screens.press(event)


def main_loop(
    context: tcod.context.Context | FrontEnd,
    root_console: tcod.console.Console,
    screens: Screens,
    events: EventSource | None = None,
    playback: replay.Playback | None = None,
) -> None:
    """Draw, wait for input, handle it; until the player quits (see `Loop`).

    `context` is the window's, or another front end (the terminal's).
    `events` gives each frame's events; by default the front end's.  With a `playback`,
    its events are played first, at its pace.
    """
    front = front_end_of(context)
    try:
        Loop(front, root_console, screens, events or front.events, playback).run()
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


def progress_bar(
    present: Callable[[tcod.console.Console], None],
    console: tcod.console.Console,
    doing: str = "Recovering what was played after the last save...",
) -> Callable[[float], None]:
    """A progress (`recovery.Progress`) that draws how far a long recovery (or what it is `doing`) has come,
    shown by `present` (in the window, or the terminal)."""

    def show(share: float) -> None:
        console.clear()
        render_functions.render_progress(console, doing, share)
        present(console)

    return show


class Loop:
    """The main loop: each frame drawn, then the input it waits for handled, on the
    stack of screens it owns (`screens`).

    Waiting blocks, so an idle game costs no CPU and draws nothing.  While a walk is under
    way (see `travel`), the wait lasts until its next step is due, at the walk speed of the
    options, and each step is drawn; input that comes first is handled first (and stops the
    walk).  An error while handling input is reported and play goes on.  Quitting saves a
    game in play; when that fails, a popup says why and the game stays open
    (`SaveFailedPopup`).  An exception the loop can't go on from saves the
    game beside the last save (`autosave.save_beside`).

    After each frame the loop writes what play left to write (`effects`), unless it
    plays a replay (`playback`): the player's folder is not the replay's to write.
    """

    def __init__(
        self,
        front: FrontEnd,
        console: tcod.console.Console,
        screens: Screens,
        events: EventSource,
        playback: replay.Playback | None,
    ) -> None:
        self.front, self.console, self.screens, self.events = front, console, screens, events
        self.playback = playback
        self.next_step_at = 0.0  # When a walk's next step is due.

    def run(self) -> None:
        while True:
            try:
                self.draw()
                self.act()
            except exceptions.QuitWithoutSaving:  # The terminal is gone (`terminal.front_end`).
                return
            except BaseException:  # Anything else unexpected: never over the last good save.
                autosave.save_beside(self.screens)
                raise
            if self.screens.quitting is not None and self.quit():
                return

    def draw(self) -> None:
        self.present()
        if self.playback is not None:  # A replay's game is not the player's to write.
            return
        news = effects.after_frame(self.screens)
        safe_io.sync_pending()  # What the frame wrote: on disk, its answer on screen first.
        if news:
            self.present()

    def present(self) -> None:
        self.console.clear()
        self.screens.draw(self.console)
        status = None if self.playback is None else self.playback.status()
        if status == replay.TAKEN_OVER and self.screens.engine_in_play() is None:
            status = replay.OVER  # A finished game's replay: nothing to play on.
        if status is not None:
            self.console.print(0, 0, status, fg=color.white, bg=color.black)
        self.front.present(self.console, self.screens.settings.options, self.screens)

    def act(self) -> None:
        """A replay's next frame or the player's input; an error in it is told, and play goes on."""
        try:
            if self.playback is not None and not self.playback.finished:
                replay.play_frame(self.screens, self.playback, self.front.events)
                if self.screens.in_menu:  # The recording left its finished game.
                    self.end_replay()
            else:
                self.take_input()
                if self.playback is not None:
                    self.playback.handed_over = True  # The player has used the keys.
        except Exception:  # Handle exceptions in game (quitting is no Exception).
            error_report.report_error(self.screens, keep_recording=True)
            self.screens.stop_walking()  # Or the same error comes again.

    def take_input(self) -> None:
        """Wait for the events (until a walk's next step is due), handle them, step."""
        if self.screens.walking:
            batch = list(self.events(max(0.0, self.next_step_at - time.monotonic())))
        else:
            batch = list(self.events())
            self.next_step_at = 0.0  # A walk started now steps at once.
        self.handle(batch)
        # The wait ran out (nothing came), or the step is due anyway
        # (the mouse moving all the while must not hold a walk up).
        if self.screens.walking and (not batch or time.monotonic() >= self.next_step_at):
            self.next_step_at = time.monotonic() + 1 / self.screens.settings.options.walk_speed
            self.screens.step()

    def handle(self, batch: list[tcod.event.Event]) -> None:
        # Whether the last event was a key press that changed the screen: the character
        # it types, if any, comes next (SDL sends both at once), and belongs to it.
        screen_changed_by_key = False
        for event in batch:
            if self.screens.quitting is not None:
                return  # The rest came after the player asked to leave.
            if screen_changed_by_key and isinstance(event, tcod.event.TextInput):
                # Typed by the key press that left the screen it was meant for: not again.
                screen_changed_by_key = False
                continue
            before = (self.screens.top, self.screens.walking)
            context = self.front.context
            converted = event if context is None else context.convert_event(event)
            if self.playback is not None and take_over.plays_on(self.screens, converted):
                # Played on after a replay: asked first, and the key only asks.
                menu_settings = self.screens.menu.settings
                self.screens.apply(Push(take_over.ask(self.screens, menu_settings, self.end_replay)))
            else:
                handle_event(context, self.screens, converted)
            if self.playback is not None and self.screens.in_menu:
                self.end_replay()  # The replayed game is over: the player's own menu.
            screen_changed_by_key = isinstance(event, tcod.event.KeyDown) and (
                (self.screens.top, self.screens.walking) != before
            )

    def end_replay(self) -> None:
        """From now on, the player's: the loop writes and saves as for a game in play."""
        self.playback = None

    def quit(self) -> bool:
        """Save the game in play to quit (unless the `Quit` asked not to); or, when that
        fails, say why and stay.

        A replay's game, not taken over (`take_over`), is not the player's: nothing is saved.
        """
        asked, self.screens.quitting = self.screens.quitting, None
        if self.playback is not None or (asked is not None and not asked.save):
            return True
        # Continue starts on the screen a loaded game starts on: so must the replay.
        autosave.back_to_start(self.screens)
        try:
            autosave.save_game(self.screens)
        except Exception as exc:
            # Closing now would lose what was played since the last save:
            # say why, and let the player retry or choose to lose it.
            traceback.print_exc()
            self.screens.stop_walking()  # Quitting stopped a walk (and the recording says so).
            self.screens.save_failed(error_report.save_failure(exc))
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
    options' `notice`, if any), today's daily game (`--daily`), the saved game (`--continue`),
    or the replay of `script`."""
    # What start-up made (modules, tcod, numpy: some 40,000 objects) lives as long as the
    # program.  Frozen, the collector's full passes skip it, not 12 ms at a random key press.
    gc.freeze()
    if script is None:
        menu = players_menu(screen, root_console, settings, args.seed)
        screens = Screens(menu)
        if args.daily:  # Today's game at once, the menu after it; over a saved game, asked first.
            screens.apply(menu.abandoning(menu.daily_game))
        if args.continue_game and (loaded := menu.continue_game()) is not None:
            screens.apply(loaded)  # As C on the menu: the save's game, or why it can't be.
        if notice is not None:
            screens.show(notice)
        main_loop(screen, root_console, screens, quitting_after_first_frame())
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
        progress=progress_bar(present, root_console),
        verifier=functools.partial(
            verified, progress=progress_bar(present, root_console, "Verifying the hall of fame...")
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
    screens = Screens(players_menu(screen, root_console, settings), replay.start(script.script, settings))
    playback = replay.Playback(script.events(), total=script.count)
    main_loop(screen, root_console, screens, playback=playback)
