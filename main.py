#!/usr/bin/env python3
"""Start the game: read the options, load the assets, open the window, run the loop.

The rest is where a reader looks for it: `command_line`, `assets`, `paths` (the data
folder), `recording`, `replay`, `screenshot`, `error_report` (what failures say).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import gc
import sys
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Final

import tcod

import color
import exceptions
import input_handlers
import setup_game
from controls import key_file, keys
from replays import follow, recording, recovery, replay, take_over, verify
from saving import autosave, game_lock, paths, safe_io
from screens.save_failed import SaveFailedPopup
from window import (
    assets,
    command_line,
    display,
    display_area,
    error_report,
    icon,
    options,
    screenshot,
    windowed,
)
from window.front_end import FrontEnd, WindowFrontEnd
from words import program

SCREEN_WIDTH: Final = display_area.COLUMNS
SCREEN_HEIGHT: Final = display_area.ROWS

# Events as `tcod.event.wait` gives them: without end, or within `timeout` seconds (walks).
EventSource = Callable[..., Iterable[tcod.event.Event]]


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


@dataclasses.dataclass
class Loop:
    """The main loop: each frame drawn, then the input it waits for handled.

    Waiting blocks, so an idle game costs no CPU and draws nothing.  While a walk is under
    way (see `travel`), the wait lasts until its next step is due, at the walk speed of the
    options, and each step is drawn; input that comes first is handled first (and stops the
    walk).  An error while handling input is reported and play goes on.  Quitting saves a
    game in play; when that fails, a popup says why and the game stays open
    (`SaveFailedPopup`).  An exception the loop can't go on from saves the
    game beside the last save (`error_report.save_beside`).
    """

    front: FrontEnd
    console: tcod.console.Console
    handler: input_handlers.BaseEventHandler
    events: EventSource
    playback: replay.Playback | None
    menu: input_handlers.BaseEventHandler  # Where a finished game goes back to.
    next_step_at: float = 0.0  # When a walk's next step is due.

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
                error_report.save_beside(self.handler)
                raise

    def draw(self) -> None:
        self.console.clear()
        self.handler.on_render(console=self.console)
        status = None if self.playback is None else self.playback.status()
        if status is not None:
            self.console.print(0, 0, status, fg=color.white, bg=color.black)
        self.front.present(self.console, self.handler.settings.options, self.handler)
        safe_io.sync_pending()  # What the key press wrote: on disk, its answer on screen first.
        if self.playback is None:  # A replay's game is not the player's to save.
            autosave.after_frame(self.handler)

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
        """From now on, the player's: the data folder, saving as a game in play does."""
        paths.leave_replay_folder()
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


def open_window(tileset: tcod.tileset.Tileset, settings: options.Settings) -> tcod.context.Context:
    """The game's window, fitting the display, or where the options say it was last."""
    return display.open_window(tileset, settings.options.fullscreen, settings.options.window)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the game; 0 when the player quits, 1 (with one line on stderr) when it can't start.

    `argv` are the options (none when not given): the command line's only
    when run as a script, so that calling `main()` from elsewhere never
    reads another program's arguments.
    """
    args = command_line.parse_args([] if argv is None else argv)
    if args.windowed and not args.headless and args.verify is None:  # These print their answer.
        return windowed.run(lambda: play(args), args.data_dir)
    return play(args)


def play(args: argparse.Namespace) -> int:
    """`main` from its options on."""
    problem = paths.prepare_data_dir(args.data_dir)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 1
    windowed.quiet_library_logs()
    settings, notice = read_settings(args.fullscreen)
    if args.verify is not None:
        return verify_file(args.verify, settings)
    script = None
    if args.replay is not None and args.follow:
        return follow_game(args, settings)
    if args.replay is not None:
        if args.headless:
            return replay.replay_headless(args.replay, args.screen, settings)
        try:
            script = recording.read(args.replay)
        except recording.RecordingError as exc:
            print(f"{program.name()}: {exc}", file=sys.stderr)
            return 1
    # What start-up made (modules, tcod, numpy: some 40,000 objects) lives as long as the
    # program.  Frozen, the collector's full passes skip it, not 12 ms at a random key press.
    gc.freeze()
    if args.terminal or reads_aloud(args, settings):
        return run_terminal(settings, args, script, notice)
    notice = fitting_tiles(settings, notice)
    try:
        tileset = assets.load(settings.options.tile_size)
        context = open_window(tileset, settings)
    except assets.AssetError as exc:
        print(exc, file=sys.stderr)
        return 1
    except RuntimeError as exc:
        why = error_report.reason(exc)
        print(
            f"{program.name()}: cannot open a window ({why}); run it on a desktop, or with no screen "
            f"under Xvfb: xvfb-run {program.command()}",
            file=sys.stderr,
        )
        return 1
    with context:
        return run_window(context, tileset, settings, args, script, notice)


def reads_aloud(args: argparse.Namespace, settings: options.Settings) -> bool:
    """Whether to play as lines of text for a screen reader: `--screen-reader`, or the
    option, when the game is started from a terminal (else in the window)."""
    from_terminal = sys.stdin.isatty() and sys.stdout.isatty()
    chosen = settings.options.screen_reader and not (args.terminal or args.windowed)
    return args.screen_reader or (chosen and from_terminal)


def verify_file(path: Path, settings: options.Settings) -> int:
    """`--verify FILE`: one line on whether it reaches the ending it claims; 0 if it does."""
    try:
        verified = verify.verify(path, settings)
    except verify.NotVerified as exc:
        print(f"{program.name()}: not verified: {exc}")
        return 1
    print(f"{program.name()}: {verified.line(path)}")
    return 0


def follow_game(args: argparse.Namespace, settings: options.Settings) -> int:
    """`--replay FILE --follow`: watch a game still being played, headless, in the
    window or in the terminal (`--terminal`).  No lock is taken on the data folder
    and nothing is written in it: the followed game may be playing there."""
    follower = follow.Follower(args.replay, settings)
    with paths.replay_folder():
        try:
            if args.headless:
                with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C: where it got to.
                    follow.wait_for_end(follower)
                return replay.report(follower.handler, follower.first, args.screen)
            follower.poll()
        except follow.FollowError as exc:
            print(f"{program.name()}: {exc}", file=sys.stderr)
            return 1
        console = tcod.console.Console(SCREEN_WIDTH, SCREEN_HEIGHT, order="F")
        if args.terminal:
            return follow_in_terminal(console, follower)
        try:
            context = open_window(assets.load(settings.options.tile_size), settings)
        except (assets.AssetError, RuntimeError) as exc:
            print(
                f"{program.name()}: cannot open a window: {error_report.reason(exc)}",
                file=sys.stderr,
            )
            return 1
        with context:
            follow.watch(WindowFrontEnd(context), console, follower)
    return 0


def follow_in_terminal(console: tcod.console.Console, follower: follow.Follower) -> int:
    """`--follow --terminal`: watch in the terminal, as over SSH; 1 (with one line on
    stderr) where there is no terminal."""
    from terminal import device, front_end  # Only here, as in `run_terminal`.

    try:
        with front_end.session() as front:
            follow.watch(front, console, follower)
    except device.TerminalError as exc:
        print(f"{program.name()}: {exc}", file=sys.stderr)
        return 1
    return 0


def fitting_tiles(settings: options.Settings, notice: str | None) -> str | None:
    """Tiles the display can hold at 1x: an options file from a bigger display
    asks for tiles too big for this one; the default size is used this time."""
    too_big = display_area.too_big(settings.options.tile_size)
    if too_big is None:
        return notice
    default = options.Options().tile_size
    settings.options = dataclasses.replace(settings.options, tile_size=default)
    return "\n\n".join(text for text in (notice, f"{too_big} Using {default}x{default}.") if text)


def read_settings(fullscreen: bool) -> tuple[options.Settings, str | None]:
    """The player's options and keys, as their files say; and None, or what is wrong in those files."""
    chosen, notice = options.read()
    # The player's keys (replays read them too: a recording holds the keys pressed).
    tables, key_notice = key_file.load()
    chosen = dataclasses.replace(chosen, fullscreen=chosen.fullscreen or fullscreen)
    notices = "\n\n".join(text for text in (notice, key_notice) if text) or None
    return options.Settings(chosen, tables), notices


def run_window(
    context: tcod.context.Context,
    tileset: tcod.tileset.Tileset,
    settings: options.Settings,
    args: argparse.Namespace,
    script: recording.Script | None,
    notice: str | None,
) -> int:
    """Play in the open window: the main menu (over the options' `notice`, if
    any), today's daily game (`--daily`), or the replay of `script`; then
    remember where the window was.

    1 (with one line on stderr) when another copy of the game plays in the data folder.
    """
    # Locked once the window is open: a start that fails leaves no file behind.
    try:
        game_lock.hold(paths.data_dir())
    except (game_lock.InUseError, OSError) as exc:
        print(f"{program.name()}: {exc}", file=sys.stderr)
        return 1
    icon.set_window_icon(context, tileset)
    play_in(context, settings, args, script, notice)
    display.remember_window(context, settings)
    return 0


def run_terminal(
    settings: options.Settings,
    args: argparse.Namespace,
    script: recording.Script | None,
    notice: str | None,
) -> int:
    """`--terminal`: play in the terminal the game was started from, as in the window;
    or as lines for a screen reader (`reads_aloud`).

    1 (with one line on stderr) where there is no terminal, or another copy of the
    game plays in the data folder.
    """
    # Imported only here: a window's start-up pays nothing for the terminal.
    from terminal import device, front_end

    try:
        game_lock.hold(paths.data_dir())
    except (game_lock.InUseError, OSError) as exc:
        print(f"{program.name()}: {exc}", file=sys.stderr)
        return 1
    try:
        with front_end.session(screen_reader=reads_aloud(args, settings)) as front:
            play_in(front, settings, args, script, notice)
    except device.TerminalError as exc:
        print(f"{program.name()}: {exc}", file=sys.stderr)
        return 1
    return 0


def play_in(
    screen: tcod.context.Context | FrontEnd,
    settings: options.Settings,
    args: argparse.Namespace,
    script: recording.Script | None,
    notice: str | None,
) -> None:
    """In the window (its context) or another front end: the main menu (over the
    options' `notice`, if any), today's daily game (`--daily`), or the replay of `script`."""
    root_console = tcod.console.Console(SCREEN_WIDTH, SCREEN_HEIGHT, order="F")
    if script is None:
        present = presenter(screen, settings)
        menu = setup_game.MainMenu(
            settings,
            seed=args.seed,
            progress=recovery.progress_bar(present, root_console),
            verifier=functools.partial(
                verify.entries_verified,
                progress=recovery.progress_bar(
                    present, root_console, "Verifying the hall of fame..."
                ),
            ),
        )
        first = menu.daily_game() if args.daily else menu
        shown = first if notice is None else input_handlers.PopupMessage(first, notice)
        first_frame(screen, root_console, shown)
        if args.daily:  # Today's game at once; the menu after it.
            main_loop(screen, root_console, shown, menu=menu)
        else:
            main_loop(screen, root_console, shown)
    else:
        if notice is not None:
            print(f"{program.name()}: {notice}", file=sys.stderr)
        watch_replay(screen, root_console, settings, script)


def first_frame(
    context: tcod.context.Context | FrontEnd,
    root_console: tcod.console.Console,
    handler: input_handlers.BaseEventHandler,
) -> None:
    """Show the menu at once; then load what the first new game needs and the menu
    doesn't, while the player reads it: numpy's random generators (OpenSSL with them)."""
    root_console.clear()
    handler.on_render(console=root_console)
    front_end_of(context).present(root_console, handler.settings.options, handler)
    import numpy.random  # noqa: F401  # Loaded now, not by the first new game's key press.


def watch_replay(
    screen: tcod.context.Context | FrontEnd,
    root_console: tcod.console.Console,
    settings: options.Settings,
    script: recording.Script,
) -> None:
    """`--replay FILE` in the window: the replayed game is recorded anew as it plays, in a
    folder of its own, the player's game left as it was; played on, it becomes the
    player's (`take_over`); over, it leaves for the player's own main menu."""
    menu = setup_game.MainMenu(
        settings, progress=recovery.progress_bar(presenter(screen, settings), root_console)
    )
    with paths.replay_folder():
        handler = replay.start(script, settings)
        recording.start_file(handler.engine)
        main_loop(screen, root_console, handler, playback=replay.Playback(script.events), menu=menu)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
