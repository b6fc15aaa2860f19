#!/usr/bin/env python3
"""Start the game: parse options, load assets, open the window, run the loop."""

from __future__ import annotations

import argparse
import itertools
import sys
import traceback
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Final

import tcod

import color
import exceptions
import input_handlers
import savefile
import setup_game

SCREEN_WIDTH: Final = 80
SCREEN_HEIGHT: Final = 50
TILESET_PATH: Final = Path(__file__).parent / "dejavu10x10_gs_tc.png"

EventSource = Callable[[], Iterable[tcod.event.Event]]


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=f"{setup_game.GAME_TITLE}: a roguelike. Press ? in the game for the keys."
    )
    parser.add_argument(
        "--seed",
        type=int,
        help="make a new game reproducible: the same seed gives the same floors and monsters",
    )
    parser.add_argument(
        "--fullscreen", action="store_true", help="start in fullscreen (Alt+Enter toggles)"
    )
    # For tools/bench.py, which times start-up: quit once the first frame is shown.
    parser.add_argument("--bench-first-frame", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def save_game(handler: input_handlers.BaseEventHandler, filename: str) -> None:
    """If the current event handler has an active Engine then save it."""
    engine = handler.engine_in_play()
    if engine is not None:
        engine.save_as(filename)
        print("Game saved.")


def screenshot_path(folder: Path = Path()) -> Path:
    """The first of screenshot-001.png, screenshot-002.png, ... not yet taken."""
    for number in itertools.count(1):
        path = folder / f"screenshot-{number:03d}.png"
        if not path.exists():
            return path
    raise AssertionError("unreachable")


def take_screenshot(
    context: tcod.context.Context, handler: input_handlers.BaseEventHandler
) -> input_handlers.BaseEventHandler:
    """Save the frame on screen and tell the player where it went."""
    path = screenshot_path()
    context.save_screenshot(str(path))
    text = f"Screenshot saved as {path.name}."
    engine = handler.engine_in_play()
    if engine is None:
        return input_handlers.PopupMessage(handler, text)
    engine.message_log.add_message(text)
    return handler


def handle_event(
    context: tcod.context.Context,
    handler: input_handlers.BaseEventHandler,
    event: tcod.event.Event,
) -> input_handlers.BaseEventHandler:
    """Keys that mean the same on every screen first, then the handler's own."""
    if isinstance(event, tcod.event.KeyDown):
        match input_handlers.global_command(event):
            case input_handlers.Command.FULLSCREEN:
                window = context.sdl_window
                if window is not None:
                    window.fullscreen = not window.fullscreen
                return handler
            case input_handlers.Command.SCREENSHOT:
                return take_screenshot(context, handler)
    return handler.handle_events(event)


def main_loop(
    context: tcod.context.Context,
    root_console: tcod.console.Console,
    handler: input_handlers.BaseEventHandler,
    events: EventSource = tcod.event.wait,
) -> None:
    """Draw, wait for input, handle it; until the player quits.

    Waiting blocks, so an idle game costs no CPU and draws nothing.  Quitting
    saves a game in play; so does an exception the loop can't go on from.
    """
    try:
        while True:
            root_console.clear()
            handler.on_render(console=root_console)
            context.present(root_console, keep_aspect=True)

            try:
                for event in events():
                    handler = handle_event(context, handler, context.convert_event(event))
            except (SystemExit, KeyboardInterrupt):
                raise
            except Exception:  # Handle exceptions in game.
                traceback.print_exc()  # Print error to stderr.
                # Then print the error to the message log.
                engine = handler.engine_in_play()
                if engine is not None:
                    engine.message_log.add_message(traceback.format_exc(), color.error)
    except exceptions.QuitWithoutSaving:
        return
    except SystemExit:  # Save and quit.
        save_game(handler, savefile.SAVE_FILENAME)
        return
    except BaseException:  # Save on any other unexpected exception.
        save_game(handler, savefile.SAVE_FILENAME)
        raise


def load_tileset(path: Path = TILESET_PATH) -> tcod.tileset.Tileset:
    """The game's tile sheet, with every block element drawn solid.

    The menu's semigraphics use block glyphs that CP437's charmap lacks.
    """
    tileset = tcod.tileset.load_tilesheet(path, 32, 8, tcod.tileset.CHARMAP_TCOD)
    tcod.tileset.procedural_block_elements(tileset=tileset)
    return tileset


def open_window(tileset: tcod.tileset.Tileset, fullscreen: bool) -> tcod.context.Context:
    flags = tcod.context.SDL_WINDOW_RESIZABLE
    if fullscreen:
        flags |= tcod.context.SDL_WINDOW_FULLSCREEN
    return tcod.context.new(
        columns=SCREEN_WIDTH,
        rows=SCREEN_HEIGHT,
        tileset=tileset,
        title=setup_game.GAME_TITLE,
        vsync=True,
        sdl_window_flags=flags,
    )


def first_frame_only() -> Iterable[tcod.event.Event]:
    """An event source that says the first frame is on screen, then quits.

    `main_loop` asks for events only once it has presented a frame, so
    tools/bench.py times start-up to this line on standard output.
    """
    print("first frame", flush=True)
    raise exceptions.QuitWithoutSaving()


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        tileset = load_tileset()
    except (OSError, RuntimeError) as exc:
        print(f"main.py: cannot read the tile sheet {TILESET_PATH}: {exc}", file=sys.stderr)
        return 1
    try:
        setup_game.background_image()
    except (OSError, RuntimeError) as exc:
        print(
            f"main.py: cannot read the menu background {setup_game.BACKGROUND_PATH}: {exc}",
            file=sys.stderr,
        )
        return 1
    try:
        context = open_window(tileset, args.fullscreen)
    except RuntimeError as exc:
        print(
            f"main.py: cannot open a window ({exc}); run it on a desktop, "
            "or on a virtual screen: xvfb-run python main.py",
            file=sys.stderr,
        )
        return 1
    with context:
        root_console = tcod.console.Console(SCREEN_WIDTH, SCREEN_HEIGHT, order="F")
        events = first_frame_only if args.bench_first_frame else tcod.event.wait
        main_loop(context, root_console, setup_game.MainMenu(seed=args.seed), events)
    return 0


if __name__ == "__main__":
    sys.exit(main())
