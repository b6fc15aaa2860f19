"""What the game says when something fails, in one line a player can act on:
a bug while playing (play goes on), a save that can't be written, a crash."""

from __future__ import annotations

import os
import sys
import traceback
from typing import TYPE_CHECKING

import color
from replays import recording
from saving import paths, savefile
from words import program

if TYPE_CHECKING:
    from screens.stack import Screens


def reason(exc: Exception) -> str:
    """Why something failed, in a few words on one line.

    libtcod's messages run over several lines, the cause last: that is kept.
    """
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    lines = str(exc).strip().splitlines()
    return lines[-1].strip() if lines else type(exc).__name__


def no_window(exc: Exception) -> str:
    """The line said when no window opens: why, and the ways to play all the same, the
    terminal's first, as a player over SSH wants; a virtual screen for the window's."""
    return (
        f"{program.name()}: cannot open a window ({reason(exc)}); run it on a desktop, or add "
        f"--terminal to play in this terminal ({program.command('--terminal')}; --screen-reader "
        f"for lines a screen reader reads), or run it on a virtual screen: xvfb-run {program.command()}"
    )


def report_error(screens: Screens, keep_recording: bool) -> None:
    """An unexpected error while handling an event: tell, and go on playing.

    The traceback goes to stderr and to the message log.  With
    `keep_recording`, the game's recording up to the error is kept as
    `crash-NNN.rec`, and stderr says how to replay it.
    """
    traceback.print_exc()
    engine = screens.engine_in_play()
    if engine is None:
        return
    engine.message_log.add_message(traceback.format_exc(), color.error)
    if not keep_recording:
        return
    try:
        path = recording.write_crash(engine)
    except OSError as exc:
        print(f"{program.name()}: could not keep the recording of this error: {reason(exc)}", file=sys.stderr)
        return
    print(
        f"{program.name()}: the recording up to this error is in {path}; replay it with: "
        f"{program.command('--replay', program.quoted(path))}",
        file=sys.stderr,
    )


def save_failure(exc: Exception) -> str:
    """Why a save failed, in a sentence for the popup."""
    if isinstance(exc, savefile.SaveError):
        return str(exc)
    if isinstance(exc, OSError):
        # A rename names the save second, after the temporary file.
        where = exc.filename2 or exc.filename or paths.save_path()
        return f"{exc.strerror or exc} ({paths.shown(os.fsdecode(where) if isinstance(where, bytes) else str(where))})."
    return f"a bug in the game ({type(exc).__name__}), the terminal shows where."

