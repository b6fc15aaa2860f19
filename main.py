#!/usr/bin/env python3
"""Start the game: read the options, load the tile sheet, open the window, show the
main menu at once; then load the rest of the game and run its loop (`window.loop`).

Only what the first frame needs is imported here: the game's modules load while
the player reads the menu (`first_frame`), or where a function needs them.
The rest is where a reader looks for it: `command_line`, `assets`, `paths` (the
data folder), `recording`, `replay`, `screenshot`, `error_report` (what failures say).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

import tcod

from controls import key_file
from replays import record_reader, recording
from saving import game_lock, paths
from window import (
    assets,
    command_line,
    display,
    display_area,
    error_report,
    icon,
    options,
    title,
    windowed,
)
from window.front_end import WindowFrontEnd
from words import program

if TYPE_CHECKING:
    from replays import follow
    from web import stream

SCREEN_WIDTH: Final = display_area.COLUMNS
SCREEN_HEIGHT: Final = display_area.ROWS


def open_window(tileset: tcod.tileset.Tileset, settings: options.Settings) -> tcod.context.Context:
    """The game's window, fitting the display, or where the options say it was last."""
    return display.open_window(tileset, settings.options.fullscreen, settings.options.window)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the game; 0 when the player quits, 1 (with one line on stderr) when it can't start.

    `argv` are the options (none when not given): the command line's only
    when run as a script, so that calling `main()` from elsewhere never
    reads another program's arguments.
    """
    standard_files_kept_open()
    args = command_line.parse_args([] if argv is None else argv)
    if args.windowed and not args.headless and args.verify is None:  # These print their answer.
        return windowed.run(lambda: play(args), args.data_dir)
    return play(args)


def standard_files_kept_open() -> None:
    """Files 0, 1 and 2 open, on the null device where the game was started with one closed
    (`0<&-`): else the next file it opens (its lock, a save) takes the number, and what a
    library writes to its "stderr" lands in that file.  (Python leaves sys.stdin None.)"""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            with contextlib.suppress(OSError):
                os.open(os.devnull, os.O_RDWR)  # The lowest free number: `fd`.


def play(args: argparse.Namespace) -> int:
    """`main` from its options on."""
    problem = paths.prepare_data_dir(args.data_dir)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 1
    windowed.quiet_library_logs()
    if args.served:
        paths.use_served()
    # Verifying, following and a headless replay only read the player's folder.
    read_only = args.verify is not None or (args.replay is not None and (args.follow or args.headless))
    settings, notice = read_settings(args.fullscreen, not read_only, args.speak)
    if read_only:
        return watch_only(args, settings)
    script = None
    if args.replay is not None:
        try:
            script = recording.Checked(args.replay)
        except record_reader.RecordingError as exc:
            print(f"{program.name()}: {exc}", file=sys.stderr)
            return 1
    writer = None
    if args.frames_fd is not None:  # A game of the web server's (`web.stream`).
        from web import browser, stream

        writer = stream.FramesWriter(args.frames_fd)
        if args.browser:
            return browser.play(settings, args, script, notice, writer)
    if args.terminal or reads_aloud(args, settings):
        return run_terminal(settings, args, script, notice, writer)
    return play_in_window(settings, args, script, notice)


def watch_only(args: argparse.Namespace, settings: options.Settings) -> int:
    """`--verify`, `--follow` or `--replay --headless`: a game watched, nothing written."""
    if args.verify is not None:
        from replays import verify

        return verify.answer(args.verify, settings)
    if args.follow:
        return follow_game(args, settings)
    from replays import replay

    return replay.replay_headless(args.replay, args.screen, settings)


def play_in_window(
    settings: options.Settings,
    args: argparse.Namespace,
    script: recording.Checked | None,
    notice: str | None,
) -> int:
    """Open the window, or say in one line why it can't be; then play in it."""
    notice = fitting_tiles(settings, notice)
    try:
        tileset = assets.load(settings.options.tile_size)
        context = open_window(tileset, settings)
    except assets.AssetError as exc:
        print(exc, file=sys.stderr)
        return 1
    except RuntimeError as exc:
        print(error_report.no_window(exc), file=sys.stderr)
        return 1
    with context:
        return run_window(context, tileset, settings, args, script, notice)


def reads_aloud(args: argparse.Namespace, settings: options.Settings) -> bool:
    """Whether to play as lines of text for a screen reader: `--screen-reader`, or the
    option, when the game is started from a terminal (else in the window)."""
    from terminal.device import is_terminal  # Light: the rest of `terminal` waits for --terminal.

    from_terminal = is_terminal(sys.stdin) and is_terminal(sys.stdout)
    chosen = settings.options.screen_reader and not (args.terminal or args.windowed)
    return args.screen_reader or (chosen and from_terminal)


def follow_game(args: argparse.Namespace, settings: options.Settings) -> int:
    """`--replay FILE --follow`: watch a game still being played, headless, in the
    window or in the terminal (`--terminal`, `--screen-reader`).  No lock is taken on the data folder
    and nothing is written in it: the followed game may be playing there."""
    from replays import follow, replay

    follower = follow.Follower(args.replay, settings)
    try:
        if args.headless:
            with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C: where it got to.
                follow.wait_for_end(follower)
            return replay.report(follower.screens, follower.first, args.screen)
        follower.poll()
    except follow.FollowError as exc:
        print(f"{program.name()}: {exc}", file=sys.stderr)
        return 1
    console = tcod.console.Console(SCREEN_WIDTH, SCREEN_HEIGHT, order="F")
    if args.terminal or args.screen_reader:
        return follow_in_terminal(console, follower, args.screen_reader)
    try:
        context = open_window(assets.load(settings.options.tile_size), settings)
    except (assets.AssetError, RuntimeError) as exc:
        print(f"{program.name()}: cannot open a window: {error_report.reason(exc)}", file=sys.stderr)
        return 1
    with context:
        follow.watch(WindowFrontEnd(context), console, follower)
    return 0


def follow_in_terminal(
    console: tcod.console.Console, follower: follow.Follower, screen_reader: bool
) -> int:
    """`--follow --terminal`: watch in the terminal, as over SSH, or as lines a
    `screen_reader` reads; 1 (with one line on stderr) where there is no terminal."""
    from replays import follow
    from terminal import device, session  # Only here, as in `run_terminal`.

    try:
        with session.opened(screen_reader=screen_reader) as front:
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


def read_settings(fullscreen: bool, keep_aside: bool = True, speak: bool = False) -> tuple[options.Settings, str | None]:
    """The player's options and keys, as their files say; and None, or what is wrong in those
    files (a bad options file kept aside, where the player plays: `keep_aside`); `--fullscreen`
    and `--speak` turn their options on."""
    chosen, notice = options.read(keep_aside)
    # The player's keys (replays read them too: a recording holds the keys pressed).
    tables, key_notice = key_file.load()
    chosen = dataclasses.replace(chosen, fullscreen=chosen.fullscreen or fullscreen, speech=chosen.speech or speak)
    notices = "\n\n".join(text for text in (notice, key_notice) if text) or None
    return options.Settings(chosen, tables, greet=not paths.options_path().exists()), notices


def run_window(
    context: tcod.context.Context,
    tileset: tcod.tileset.Tileset,
    settings: options.Settings,
    args: argparse.Namespace,
    script: recording.Checked | None,
    notice: str | None,
) -> int:
    """Play in the open window: the main menu (over the options' `notice`, if
    any), today's daily game (`--daily`), or the replay of `script`; then
    remember where the window was.

    1 (with one line on stderr) when another copy of the game plays in the data folder.
    """
    # Locked once the window is open: a start that fails leaves no file behind.
    if (taken := game_lock.taken()) is not None:
        print(taken, file=sys.stderr)
        return 1
    root_console = tcod.console.Console(SCREEN_WIDTH, SCREEN_HEIGHT, order="F")
    if script is None:
        first_frame(context, root_console, settings)
    from window import loop  # The rest of the game, while the player reads the menu.

    icon.set_window_icon(context, tileset)
    loop.play_in(context, root_console, settings, args, script, notice)
    display.remember_window(context, settings)
    return 0


def first_frame(
    context: tcod.context.Context, root_console: tcod.console.Console, settings: options.Settings
) -> None:
    """Show the main menu at once, drawn by the one module of it that loads no
    more of the game (`window.title`): a player's first frame costs little more
    than python, numpy and tcod.  The loop draws it again, the same, once loaded."""
    root_console.clear()
    title.draw(root_console)
    WindowFrontEnd(context).present(root_console, settings.options)


def run_terminal(
    settings: options.Settings,
    args: argparse.Namespace,
    script: recording.Checked | None,
    notice: str | None,
    writer: stream.FramesWriter | None = None,
) -> int:
    """`--terminal`: play in the terminal the game was started from, as in the window;
    or as lines for a screen reader (`reads_aloud`).

    1 (with one line on stderr) where there is no terminal, or another copy of the
    game plays in the data folder.
    """
    # Imported only here: a window's start-up pays nothing for the terminal.
    from terminal import device, session
    from window import loop

    if (taken := game_lock.taken()) is not None:
        print(taken, file=sys.stderr)
        return 1
    root_console = tcod.console.Console(SCREEN_WIDTH, SCREEN_HEIGHT, order="F")
    try:
        with session.opened(screen_reader=reads_aloud(args, settings)) as front:
            if writer is not None:  # `--frames-fd`: the frames written for the web server too.
                front = writer.beside(front)
            loop.play_in(front, root_console, settings, args, script, notice)
    except device.TerminalError as exc:
        print(f"{program.name()}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
