"""The game's command-line options (`python main.py --help` lists them)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path

from replays.record_format import MAX_SEED
from saving import paths
from window import title, windowed
from words import program


def seed_value(text: str) -> int:
    """A seed from the command line: a whole number the game's generators accept."""
    try:
        seed = int(text)
    except ValueError:
        seed = -1
    if not 0 <= seed <= MAX_SEED:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a whole number from 0 to {MAX_SEED}"
        )
    return seed


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The options in `argv`; a wrong one ends the program with argparse's message."""
    parser = _parser()
    args = parser.parse_args(argv)
    if (args.headless or args.screen) and args.replay is None:
        parser.error("--headless and --screen go with --replay FILE")
    if args.terminal and args.headless:
        parser.error("--terminal goes without --headless")
    if args.screen_reader and args.headless:
        parser.error("--screen-reader goes without --headless")
    if args.speak and (args.screen_reader or args.headless or args.browser):
        parser.error("--speak goes without --screen-reader (your reader speaks it), --headless and --browser")
    if args.screen and not args.headless:
        parser.error("--screen goes with --headless")
    if args.follow and args.replay is None:
        parser.error("--follow goes with --replay FILE")
    if args.replay is not None and args.seed is not None:
        parser.error("--seed goes without --replay: a recording names its own seed")
    if args.verify is not None and (args.replay is not None or args.seed is not None):
        parser.error("--verify goes alone: it replays the file it names")
    if args.daily and (args.replay or args.seed is not None or args.verify):
        parser.error("--daily goes without --seed, --replay and --verify: its seed is the date's")
    if args.continue_game and (args.daily or args.replay or args.seed is not None or args.verify):
        parser.error("--continue goes without --daily, --seed, --replay and --verify: it loads the save")
    if args.browser and args.frames_fd is None:
        parser.error("--browser goes with --frames-fd N: its frames go there")
    if args.browser and (args.terminal or args.screen_reader or args.headless or args.follow):
        parser.error("--browser goes without --terminal, --screen-reader, --headless and --follow")
    if args.frames_fd is not None and (args.headless or args.follow or args.verify is not None):
        parser.error("--frames-fd goes without --headless, --follow and --verify: they play no game")
    if args.frames_fd is not None and not (args.browser or args.terminal or args.screen_reader):
        parser.error("--frames-fd goes with --browser, --terminal or --screen-reader")
    return args


def _parser() -> argparse.ArgumentParser:
    default = paths.default_data_dir(title.GAME_TITLE)
    where = "the working directory" if default == Path() else paths.shown(default)
    parser = argparse.ArgumentParser(
        prog=program.name(),
        description=f"{title.GAME_TITLE}: a roguelike. Press ? in the game for the keys.",
        # Unwrapped, so that the folder's name is never broken across lines.
        epilog=f"Your own keys, if any, are read from {paths.KEYS_NAME} (see {program.quoted(program.readme())}).\n"
        f"It, the save, recordings, morgue files, scores and screenshots go in:\n  {where}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_game_options(parser, default)
    _add_terminal_options(parser)
    _add_replay_options(parser)
    _add_served_options(parser)
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
    return parser


def _add_game_options(parser: argparse.ArgumentParser, data_dir: Path) -> None:
    """`--seed`, `--daily`, `--continue`, `--fullscreen`, `--speak` and `--data-dir`, in the order
    `--help` lists them."""
    parser.add_argument(
        "--seed",
        type=seed_value,
        help="make a new game reproducible: the same seed gives the same floors and monsters",
    )
    parser.add_argument(
        "--daily",
        action="store_true",
        help="play today's daily dungeon (UTC's date): the same game for everyone today",
    )
    parser.add_argument(
        "--continue",
        dest="continue_game",
        action="store_true",
        help="continue the saved game at once, as C on the main menu does (the browser "
        "server's node that takes over a game passes it)",
    )
    parser.add_argument(
        "--fullscreen", action="store_true", help="start in fullscreen (Alt+Enter toggles)"
    )
    parser.add_argument(
        "--speak",
        action="store_true",
        help="say each key's news through your screen reader or the system's speech, in the "
        "window or with --terminal; also an option (=, Up, Right)",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=data_dir,
        metavar="DIR",
        help="keep the files named below in DIR instead (made if missing)",
    )


def _add_terminal_options(parser: argparse.ArgumentParser) -> None:
    """`--terminal` and `--screen-reader`."""
    parser.add_argument(
        "--terminal",
        action="store_true",
        help="play in this terminal, with no window (over SSH, in tmux too): from 80x20, "
        "all of the screen from 80x50",
    )
    parser.add_argument(
        "--screen-reader",
        action="store_true",
        help="play in this terminal as lines of text a screen reader reads (NVDA, Orca, "
        "VoiceOver), the map only when asked for (m); also an option",
    )


def _add_served_options(parser: argparse.ArgumentParser) -> None:
    """`--frames-fd`, `--browser` and `--served`: the game as the web server runs it."""
    parser.add_argument(
        "--frames-fd",
        type=open_descriptor,
        metavar="N",
        help="also write each frame shown to the open file descriptor N, as the web server "
        "reads them (web/frames.py)",
    )
    parser.add_argument(
        "--browser",
        action="store_true",
        help="with --frames-fd: play from a web page, its events read as JSON lines on stdin, "
        "its frames written only to --frames-fd",
    )
    parser.add_argument(
        "--served",
        action="store_true",
        help="played through the web server: files are named inside the data folder, never "
        "by the server's paths",
    )


def _add_replay_options(parser: argparse.ArgumentParser) -> None:
    """`--replay FILE` and `--headless`, in the order `--help` lists them."""
    parser.add_argument(
        "--replay",
        type=Path,
        metavar="FILE",
        help="play a recording (Space pauses, + and - change the speed, Escape stops), "
        "then go on playing",
    )
    parser.add_argument(
        "--verify",
        type=Path,
        metavar="FILE",
        help="replay a finished game's recording (or the one a morgue file names) with no "
        "window, and say in one line whether it reaches exactly the ending it claims",
    )
    parser.add_argument(
        "--follow",
        action="store_true",
        help="with --replay: watch a game as it is played, its recording read as it grows, "
        "until it ends (Escape stops watching), in a window, with --terminal over SSH, or "
        "with --screen-reader told as lines; "
        "it writes nothing of the followed game's",
    )
    parser.add_argument(
        "--headless",
        action="store_true",
        help="with --replay: open no window, replay at full speed and print where the "
        "game ended as one line of JSON",
    )


def open_descriptor(text: str) -> int:
    """`--frames-fd`'s number, of a file descriptor open now (the server's pipe)."""
    fd = int(text)
    try:
        os.fstat(fd)
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"{fd} is no open file descriptor ({exc.strerror})") from None
    return fd
