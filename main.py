#!/usr/bin/env python3
"""Start the game: parse options, load assets, open the window, run the loop."""

from __future__ import annotations

import argparse
import dataclasses
import gc
import itertools
import json
import logging
import os
import sys
import tempfile
import time
import traceback
import warnings
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Final

import tcod

import autosave
import color
import display
import exceptions
import game_lock
import icon
import input_handlers
import key_file
import keys
import options
import paths
import recording
import render_functions
import replay
import safe_io
import save_data
import savefile
import setup_game
import windowed

SCREEN_WIDTH: Final = 80
SCREEN_HEIGHT: Final = 50
TILESET_PATH: Final = Path(__file__).parent / "dejavu10x10_gs_tc.png"

# Gives the events that came, as `tcod.event.wait` does: waiting for them
# without end when called with nothing, at most `timeout` seconds when called
# with it (only while a walk is under way).
EventSource = Callable[..., Iterable[tcod.event.Event]]


def seed_value(text: str) -> int:
    """A seed from the command line: a whole number the game's generators accept."""
    try:
        seed = int(text)
    except ValueError:
        seed = -1
    if not 0 <= seed <= save_data.MAX_SEED:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a whole number from 0 to {save_data.MAX_SEED}"
        )
    return seed


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    default = paths.default_data_dir(setup_game.GAME_TITLE)
    where = "the working directory" if default == Path() else str(default)
    parser = argparse.ArgumentParser(
        description=f"{setup_game.GAME_TITLE}: a roguelike. Press ? in the game for the keys.",
        # Unwrapped, so that the folder's name is never broken across lines.
        epilog=f"Your own keys, if any, are read from {paths.KEYS_NAME} (see the README).\n"
        f"It, the save, recordings, morgue files, scores and screenshots go in:\n  {where}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--seed",
        type=seed_value,
        help="make a new game reproducible: the same seed gives the same floors and monsters",
    )
    parser.add_argument(
        "--fullscreen", action="store_true", help="start in fullscreen (Alt+Enter toggles)"
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=default,
        metavar="DIR",
        help="keep the files named below in DIR instead (made if missing)",
    )
    parser.add_argument(
        "--replay",
        type=Path,
        metavar="FILE",
        help="play a recording (Space pauses, + and - change the speed, Escape stops), "
        "then go on playing",
    )
    parser.add_argument(
        "--headless",
        action="store_true",
        help="with --replay: open no window, replay at full speed and print where the "
        "game ended as one line of JSON",
    )
    parser.add_argument(
        "--windowed",
        action="store_true",
        default=windowed.is_windowed_build(),
        help="print nothing: what the game says goes to game.log in the data folder, and a "
        "failure to start shows in a message box (the Windows and macOS downloads always do)",
    )
    parser.add_argument(
        "--screen",
        type=Path,
        metavar="FILE",
        help="with --replay --headless: also write the last frame's characters to FILE",
    )
    args = parser.parse_args(argv)
    if (args.headless or args.screen) and args.replay is None:
        parser.error("--headless and --screen go with --replay FILE")
    if args.screen and not args.headless:
        parser.error("--screen goes with --headless")
    if args.replay is not None and args.seed is not None:
        parser.error("--seed goes without --replay: a recording names its own seed")
    return args


def save_game(handler: input_handlers.BaseEventHandler, path: Path | None = None) -> None:
    """Save the game in play, if any, to `path` (by default the save).

    Raises what saving raised (`OSError`, `savefile.SaveError`, or a bug's
    exception); the old save, if any, is still whole then: the write is atomic.
    """
    engine = handler.engine_in_play()
    if engine is None:
        return
    engine.save_as(paths.save_path() if path is None else path)
    print("Game saved.")


def save_beside(handler: input_handlers.BaseEventHandler) -> None:
    """After a crash, save the game that failed beside the last good save, if it can be.

    That game may be what is broken, so it never replaces the save the player
    can Continue; it goes to `savegame.sav.crash`, for a bug report or by hand.
    """
    path = savefile.crash_path(paths.save_path())
    try:
        engine = handler.engine_in_play()
        if engine is not None:
            save_data.save(engine, path, keep_backup=False)
            print(f"The game that failed was saved as {path}; the last save is untouched.",
                  file=sys.stderr)
    except Exception:
        traceback.print_exc()


def screenshot_path(folder: Path | None = None) -> Path:
    """The first of screenshot-001.png, screenshot-002.png, ... not yet taken."""
    folder = paths.data_dir() if folder is None else folder
    for number in itertools.count(1):
        path = folder / f"screenshot-{number:03d}.png"
        if not path.exists():
            return path
    raise AssertionError("unreachable")


def take_screenshot(
    context: tcod.context.Context,
    handler: input_handlers.BaseEventHandler,
    folder: Path | None = None,
) -> input_handlers.BaseEventHandler:
    """Save the frame on screen and tell the player where it went.

    In the game the message log says so; elsewhere a popup does.
    """
    path = screenshot_path(folder)
    folder = path.parent
    try:
        # libtcod fails silently when it can't write the file: check for it.
        context.save_screenshot(str(path))
        saved = path.is_file()
    except RuntimeError:
        saved = False
    if saved:
        text, fg = f"Screenshot saved as {path.name}.", color.white
    else:
        text, fg = f"Could not save a screenshot in {folder.resolve()}.", color.error
    engine = handler.engine_in_play()
    if engine is None:
        return input_handlers.PopupMessage(handler, text)
    engine.message_log.add_message(text, fg)
    return handler


def handle_event(
    context: tcod.context.Context,
    handler: input_handlers.BaseEventHandler,
    event: tcod.event.Event,
    menu: input_handlers.BaseEventHandler | None = None,
) -> input_handlers.BaseEventHandler:
    """Keys that mean the same on every screen first, then the handler's own.

    A finished game goes back to `menu` (by default a new main menu).
    """
    if isinstance(event, tcod.event.KeyDown):
        match keys.global_command(event):
            case keys.Command.FULLSCREEN:  # An option, kept as the options screen keeps it.
                now = options.current()
                notice = options.change(dataclasses.replace(now, fullscreen=not now.fullscreen))
                display.follow(context, options.current())
                return handler if notice is None else input_handlers.PopupMessage(handler, notice)
            case keys.Command.SCREENSHOT:
                return take_screenshot(context, handler)
    try:
        return handle_and_record(handler, event)
    except exceptions.BackToMainMenu:
        return setup_game.MainMenu() if menu is None else menu


def handle_and_record(
    handler: input_handlers.BaseEventHandler, event: tcod.event.Event
) -> input_handlers.BaseEventHandler:
    """Let the handler act on `event`, and record it if it belongs to the game in play.

    Recorded: key presses and symbols typed (not what `keys.does_nothing`), clicks, and
    pointer moves that changed the game's mouse location, while a game is in play;
    not the menu's keys, nor the window's (`handle_event` takes those
    first), nor an event that quits (the save ends there).  An event that
    raises an error is recorded too, so that the recording replays the error.
    Replays send their events here: every one of them went to the game.
    """
    engine = handler.engine_in_play()
    line = None if engine is None else recording.line_of(event)
    if keys.does_nothing(event):  # Not even stopping a walk.
        line = None
    # The steps of a walk under way, which the event may stop.
    walked = recording.Steps(handler.walk_steps) if handler.walking else None
    if engine is None or (line is None and walked is None):
        return handler.handle_events(event)
    pointer = engine.mouse_location
    try:
        after = handler.handle_events(event)
    except SystemExit:  # Leaving the game stops a walk too.
        if walked is not None:
            recording.record(engine, walked.line())
        raise
    except Exception:
        if line is not None:
            recording.record(engine, line)
        raise
    if walked is not None and not after.walking:
        # The key or click stopped the walk and did nothing else: what
        # replays it is the number of steps the walk took.
        recording.record(engine, walked.line())
    elif line is not None and (
        not isinstance(event, tcod.event.MouseMotion) or engine.mouse_location != pointer
    ):
        recording.record(engine, line)
    return after


def replay_line(
    handler: input_handlers.BaseEventHandler, recorded: tcod.event.Event | recording.Steps | recording.Resume
) -> input_handlers.BaseEventHandler:
    """Play one recorded line as it was played: an event through
    `handle_and_record`, after the walk under way took the steps it took.

    A key or click came after the walk stopped by itself (one that stopped
    it was recorded as `steps N`); a pointer move may come during a walk.
    """
    if isinstance(recorded, recording.Resume):
        engine = handler.engine_in_play()
        if engine is None:
            return handler
        recording.record(engine, recorded.line())
        return input_handlers.EventHandler(engine).main_handler()
    if isinstance(recorded, recording.Steps):
        while handler.walking and handler.walk_steps < recorded.count:
            handler = handler.advance()
        engine = handler.engine_in_play()
        if not handler.walking or engine is None:
            return handler  # Ended sooner than recorded: nothing left to stop.
        recording.record(engine, recorded.line())
        return handler.stop_walking()
    if not isinstance(recorded, tcod.event.MouseMotion):
        handler = finish_walk(handler)
    return handle_and_record(handler, recorded)


def finish_walk(handler: input_handlers.BaseEventHandler) -> input_handlers.BaseEventHandler:
    """Take every step of the walk under way, if one is, as fast as they go."""
    while handler.walking:
        handler = handler.advance()
    return handler


def report_error(handler: input_handlers.BaseEventHandler, keep_recording: bool) -> None:
    """An unexpected error while handling an event: tell, and go on playing.

    The traceback goes to stderr and to the message log.  With
    `keep_recording`, the game's recording up to the error is kept as
    `crash-NNN.rec`, and stderr says how to replay it.
    """
    traceback.print_exc()  # Print error to stderr.
    # Then print the error to the message log.
    engine = handler.engine_in_play()
    if engine is None:
        return
    engine.message_log.add_message(traceback.format_exc(), color.error)
    if not keep_recording:
        return
    try:
        path = recording.write_crash(engine)
    except OSError as exc:
        print(f"main.py: could not keep the recording of this error: {reason(exc)}", file=sys.stderr)
        return
    print(
        f"main.py: the recording up to this error is in {path}; replay it with: "
        f"python main.py --replay {path}",
        file=sys.stderr,
    )


def main_loop(
    context: tcod.context.Context,
    root_console: tcod.console.Console,
    handler: input_handlers.BaseEventHandler,
    events: EventSource | None = None,
    playback: replay.Playback | None = None,
) -> None:
    """Draw, wait for input, handle it; until the player quits.

    Waiting blocks, so an idle game costs no CPU and draws nothing.  While a
    walk is under way (see `travel`), the wait lasts until its next step is
    due, at the walk speed of the options, and each step is drawn; input
    that comes first is handled first (and stops the walk).  Quitting
    saves a game in play; when that fails, a popup says why and the game
    stays open (`input_handlers.SaveFailedPopup`).  An exception the loop
    can't go on from saves the game beside the last save (`save_beside`).
    `events` gives each frame's events; by default `tcod.event.wait`.
    With a `playback`, its events are played first, at its pace.  A finished
    game goes back to the main menu the loop started with (so the next new
    game keeps its `--seed`), or to a new one.
    """
    if events is None:
        events = tcod.event.wait  # Looked up now, so that tests can replace it.
    # The menu, or the menu under the popup of an options file that was damaged.
    start = handler.parent if isinstance(handler, input_handlers.PopupMessage) else handler
    menu = start if isinstance(start, setup_game.MainMenu) else setup_game.MainMenu()
    next_step_at = 0.0  # When a walk's next step is due.
    while True:
        try:
            while True:
                root_console.clear()
                handler.on_render(console=root_console)
                if playback is not None and not playback.finished:
                    root_console.print(0, 0, playback.status(), fg=color.white, bg=color.black)
                display.follow(context, options.current())
                context.present(root_console, keep_aspect=True, integer_scaling=True)
                if playback is None:  # A replay's game is not the player's to save.
                    autosave.after_frame(handler)

                try:
                    if playback is not None and not playback.finished:
                        handler = play_frame(handler, playback)
                        continue
                    if handler.walking:
                        batch = list(events(max(0.0, next_step_at - time.monotonic())))
                    else:
                        batch = list(events())
                        next_step_at = 0.0  # A walk started now steps at once.
                    # Whether the last event was a key press that changed the
                    # screen: the character it types, if any, comes next (SDL
                    # sends both at once), and belongs to it.
                    screen_changed_by_key = False
                    for event in batch:
                        if screen_changed_by_key and isinstance(event, tcod.event.TextInput):
                            # The text of the key press that just left the
                            # screen it was meant for: it must not act again.
                            screen_changed_by_key = False
                            continue
                        before = handler
                        handler = handle_event(context, handler, context.convert_event(event), menu)
                        screen_changed_by_key = (
                            isinstance(event, tcod.event.KeyDown) and handler is not before
                        )
                    # The wait ran out (nothing came), or the step is due anyway
                    # (the mouse moving all the while must not hold a walk up).
                    if handler.walking and (not batch or time.monotonic() >= next_step_at):
                        next_step_at = time.monotonic() + 1 / options.current().walk_speed
                        handler = handler.advance()
                except Exception:  # Handle exceptions in game (quitting is no Exception).
                    report_error(handler, keep_recording=True)
                    handler = handler.stop_walking()  # Or the same error comes again.
        except exceptions.QuitWithoutSaving:
            return
        except SystemExit:  # Save and quit.
            # Continue starts on the screen a loaded game starts on: so must the replay.
            handler = autosave.back_to_start(handler)
            try:
                save_game(handler)
            except Exception as exc:
                # Closing now would lose what was played since the last save:
                # say why, and let the player retry or choose to lose it.
                traceback.print_exc()
                if isinstance(handler, input_handlers.SaveFailedPopup):
                    handler = handler.parent  # A retry failed: one popup, the new reason.
                # Quitting stopped a walk (and the recording says so).
                handler = handler.stop_walking()
                handler = input_handlers.SaveFailedPopup(handler, save_failure(exc))
                continue
            return
        except BaseException:  # Anything else unexpected: never over the last good save.
            save_beside(handler)
            raise


def save_failure(exc: Exception) -> str:
    """Why a save failed, in a sentence for the popup."""
    if isinstance(exc, savefile.SaveError):
        return str(exc)
    if isinstance(exc, OSError):
        # A rename names the save second, after the temporary file.
        return f"{exc.strerror or exc} ({exc.filename2 or exc.filename or paths.save_path()})."
    return f"a bug in the game ({type(exc).__name__}), the terminal shows where."


def play_frame(
    handler: input_handlers.BaseEventHandler,
    playback: replay.Playback,
) -> input_handlers.BaseEventHandler:
    """One frame of a replay in the window: the player's playback keys, then
    a walk's next step or the next recorded event, when due.

    A walk is drawn step by step at the game's own pace, as it was played;
    the recording says only where it stopped.
    """
    walking = handler.walking and playback.walk_goes_on(handler.walk_steps)
    if walking and not playback.paused:
        timeout: float | None = 1 / options.current().walk_speed
    else:
        timeout = playback.timeout()
    for event in tcod.event.wait(timeout):
        playback.control(event)
    if walking:
        return handler if playback.paused or playback.finished else handler.advance()
    recorded = playback.next_event()
    return handler if recorded is None else replay_line(handler, recorded)


def play_recording(
    handler: input_handlers.BaseEventHandler, events: Iterable[recording.Recorded]
) -> input_handlers.BaseEventHandler:
    """Play recorded events as fast as they go, with no window; return the last screen.

    As in the main loop, an unexpected error is reported and play goes on;
    an event that quits the game ends the replay.  A walk the last lines
    started goes on until it stops by itself, as it did in the game.
    """
    # Taken one by one, as they come: the recovery shows its progress as they are played.
    for recorded in itertools.chain(events, [None]):
        try:
            if recorded is None:
                return finish_walk(handler)
            handler = replay_line(handler, recorded)
        except (SystemExit, exceptions.QuitWithoutSaving):
            break
        except Exception:
            report_error(handler, keep_recording=False)
            handler = handler.stop_walking()
    return handler


def replay_headless(path: Path, screen: Path | None) -> int:
    """`--replay FILE --headless`: one line of JSON about where the game ended."""
    try:
        script = recording.read(path)
    except recording.RecordingError as exc:
        print(f"main.py: {exc}", file=sys.stderr)
        return 1
    # A check leaves nothing behind: what the game writes as it is played (a
    # morgue file, the hall of fame) goes to a folder of its own, then away.
    player_files = paths.data_dir()
    with tempfile.TemporaryDirectory(prefix="replay-") as folder:
        paths.use_data_dir(Path(folder))
        try:
            handler = play_recording(replay.start(script), script.events)
            console = tcod.console.Console(SCREEN_WIDTH, SCREEN_HEIGHT, order="F")
            handler.on_render(console)
        finally:
            paths.use_data_dir(player_files)
    print(json.dumps(replay.summary(handler)))
    if screen is not None:
        try:
            safe_io.write_atomic(screen, replay.screen_text(console).encode("utf-8"))
        except OSError as exc:
            print(f"main.py: cannot write the screen to {screen}: {reason(exc)}", file=sys.stderr)
            return 1
    return 0


def progress_bar(
    context: tcod.context.Context, console: tcod.console.Console
) -> Callable[[float], None]:
    """Draws how far a long recovery has come (`recovery`), in the window."""

    def show(share: float) -> None:
        console.clear()
        render_functions.render_progress(
            console, "Recovering what was played after the last save...", share
        )
        context.present(console, keep_aspect=True, integer_scaling=True)

    return show


def load_tileset(path: Path = TILESET_PATH) -> tcod.tileset.Tileset:
    """The game's tile sheet, with every block element drawn solid.

    The menu's semigraphics use block glyphs that CP437's charmap lacks.
    """
    tileset = tcod.tileset.load_tilesheet(path, 32, 8, tcod.tileset.CHARMAP_TCOD)
    if tileset.tile_width < 1 or tileset.tile_height < 1:
        raise RuntimeError("the image is too small to hold 32x8 tiles")
    with warnings.catch_warnings():
        # tcod 21.2's `procedural_block_elements` (and even the recommended
        # `tileset[codepoint] = tile`) call tcod's own deprecated
        # `Tileset.set_tile` inside: the warning is tcod's, not ours.
        warnings.filterwarnings(
            "ignore", message="Assign to a tile using", category=DeprecationWarning
        )
        tcod.tileset.procedural_block_elements(tileset=tileset)
    return tileset


def open_window(tileset: tcod.tileset.Tileset, fullscreen: bool) -> tcod.context.Context:
    """The game's window, fitting the display, or where the options say it was last."""
    return display.open_window(tileset, fullscreen, options.current().window)


def reason(exc: Exception) -> str:
    """Why something failed, in a few words on one line.

    libtcod's messages run over several lines, the cause last: that is kept.
    """
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    lines = str(exc).strip().splitlines()
    return lines[-1].strip() if lines else type(exc).__name__


def quiet_library_logs() -> None:
    """Keep tcod's and SDL's log records off the terminal.

    tcod passes SDL's informational messages ("App name: python3") on as
    warnings, which Python prints to stderr when logging is not set up.  With a
    handler of its own, the "tcod" logger no longer falls back to that; a
    program that does set up logging still gets the records.
    """
    logger = logging.getLogger("tcod")
    if not any(isinstance(handler, logging.NullHandler) for handler in logger.handlers):
        logger.addHandler(logging.NullHandler())


def use_data_dir(folder: Path) -> str | None:
    """Keep the player's files in `folder`, made if missing; or say in one line why not.

    Checked at start-up, so that the player hears of it before playing, not
    when the game can't be saved.
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"main.py: cannot use {folder} as the data folder: {reason(exc)}"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"main.py: cannot write in the data folder {folder}"
    paths.use_data_dir(folder)
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the game; 0 when the player quits, 1 (with one line on stderr) when it can't start.

    `argv` are the options (none when not given): the command line's only
    when run as a script, so that calling `main()` from elsewhere never
    reads another program's arguments.
    """
    args = parse_args([] if argv is None else argv)
    if args.windowed and not args.headless:  # --headless prints its answer.
        return windowed.run(lambda: play(args), args.data_dir)
    return play(args)


def play(args: argparse.Namespace) -> int:
    """`main` from its options on."""
    problem = use_data_dir(args.data_dir)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 1
    quiet_library_logs()
    settings, notice = options.read()
    # The player's keys (replays read them too: a recording holds the keys pressed).
    key_notice = key_file.load()
    notice = "\n\n".join(text for text in (notice, key_notice) if text) or None
    options.use(dataclasses.replace(settings, fullscreen=settings.fullscreen or args.fullscreen))
    script = None
    if args.replay is not None:
        if args.headless:
            return replay_headless(args.replay, args.screen)
        try:
            script = recording.read(args.replay)
        except recording.RecordingError as exc:
            print(f"main.py: {exc}", file=sys.stderr)
            return 1
    try:
        game_lock.hold(paths.data_dir())
    except (game_lock.InUseError, OSError) as exc:
        print(f"main.py: {exc}", file=sys.stderr)
        return 1
    # What start-up made (modules, tcod, numpy: some 40,000 objects) lives as
    # long as the program.  Frozen, the garbage collector's full passes skip
    # it; else each one scans it all, about 12 ms (most of a 60 Hz frame) at
    # a random key press.
    gc.freeze()
    try:
        tileset = load_tileset(TILESET_PATH)
    except (OSError, RuntimeError) as exc:
        print(
            f"main.py: cannot read the tile sheet {TILESET_PATH}: {reason(exc)}", file=sys.stderr
        )
        return 1
    try:
        setup_game.background_image()
    except OSError as exc:
        print(
            f"main.py: cannot read the menu background {setup_game.BACKGROUND_PATH}: "
            f"{reason(exc)}",
            file=sys.stderr,
        )
        return 1
    except RuntimeError:  # tcod says no more than "Pointer must not be NULL."
        print(
            f"main.py: cannot read the menu background {setup_game.BACKGROUND_PATH}: "
            "not a PNG image it can read",
            file=sys.stderr,
        )
        return 1
    try:
        context = open_window(tileset, options.current().fullscreen)
    except RuntimeError as exc:
        print(
            f"main.py: cannot open a window ({reason(exc)}); run it on a desktop, "
            "or with no screen under Xvfb: xvfb-run python main.py",
            file=sys.stderr,
        )
        return 1
    with context:
        icon.set_window_icon(context, tileset)
        root_console = tcod.console.Console(SCREEN_WIDTH, SCREEN_HEIGHT, order="F")
        if script is None:
            menu = setup_game.MainMenu(seed=args.seed, progress=progress_bar(context, root_console))
            first = menu if notice is None else input_handlers.PopupMessage(menu, notice)
            main_loop(context, root_console, first)
        else:
            if notice is not None:
                print(f"main.py: {notice}", file=sys.stderr)
            # The replayed game is recorded anew as it plays: its new file ends
            # up holding the recording, then whatever is played after it.
            handler = replay.start(script)
            recording.start_file(handler.engine)
            main_loop(context, root_console, handler, playback=replay.Playback(script.events))
        remember_window(context)
    return 0


def remember_window(context: tcod.context.Context) -> None:
    """Keep the window's size and place in the options, to open it there next time."""
    place = display.placement(context)
    now = options.current()
    if place is None or place == now.window:
        return
    notice = options.change(dataclasses.replace(now, window=place))
    if notice is not None:
        print(f"main.py: {notice}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
