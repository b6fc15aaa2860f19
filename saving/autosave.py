"""The game saves itself: as it starts, at each descent, and every so many events;
after a crash, beside the last save (`save_beside`).

As Angband has done since 2009, taking the stairs saves the game; so does
starting one, and a long stay on one floor every `CHECKPOINT_LINES` lines
of its recording.  A kill, a crash or a power cut then loses nothing: the
recording holds every event since (see `recording`), and Continue replays
them from this save (`recovery`), which stays quick because there are never
many.

The main loop saves after presenting a frame, so the answer to the key
press that took the stairs is on screen before the save's 8 to 14 ms; and
only on the screen a loaded game starts on (the main game, or the level-up
choice owed), never in a menu or mid-walk, so that the save and its
recording replay to the same game.
"""

from __future__ import annotations

import sys
import traceback
from typing import Final

import color
from engine import Engine
from replays import record_format, recording
from saving import paths, save_fields, savefile
from screens.stack import Screens

# Events recorded on one floor between two saves.  Replaying this many takes
# about a second (`recovery`).
CHECKPOINT_LINES: Final = 10_000


def save_game(screens: Screens) -> None:
    """Save the game in play, if any: what quitting does.

    Raises what saving raised (`OSError`, `savefile.SaveError`, or a bug's exception);
    the old save, if any, is still whole then: the write is atomic."""
    engine = screens.engine_in_play()
    if engine is None:
        return
    recording.write_new(engine)  # The file holds what the save holds, and more.
    engine.save_as(paths.save_path())
    print("Game saved.")


def back_to_start(screens: Screens) -> None:
    """The game in play on the screen it would start on if loaded, for quitting.

    Leaving on a menu (the window closed on the inventory), the game is
    saved as it is but continues on the dungeon's screen: its recording says
    so (`resume`), or a replay would stay on the menu and read the next key
    as a choice in it.  A walk stops (its recording says where).
    """
    screens.stop_walking()
    engine = screens.engine_in_play()
    if engine is None or screens.on_start_screen():
        return
    recording.record(engine, record_format.Resume().line())
    screens.play()


def due(screens: Screens) -> Engine | None:
    """The game to save now, if the screens show one that is due for a save: on the
    screen it would start on if loaded (`Screens.on_start_screen`)."""
    engine = screens.engine_in_play()
    if engine is None or not screens.on_start_screen():
        return None
    saved = engine.saved_at
    if saved is None:
        return engine
    floor, lines = saved
    if floor != engine.game_world.current_floor:
        return engine
    return engine if len(engine.recording) - lines >= CHECKPOINT_LINES else None


def after_frame(screens: Screens) -> bool:
    """Save the game on screen if it is due: the main loop calls this after presenting.
    Whether it was due (tried).

    A save that fails is said in the message log, and the game goes on; the
    next descent tries again.  Nothing is lost meanwhile: the recording holds it.
    """
    engine = due(screens)
    if engine is None:
        return False
    try:
        engine.save_as(paths.save_path())
    except Exception as exc:
        traceback.print_exc()
        engine.mark_saved()  # Not again at every frame.
        reason = getattr(exc, "strerror", None) or exc
        kept = "its recording keeps it" if engine.recording_file is not None else (
            "but nothing keeps it: neither the save nor the recording could be written"
        )
        engine.message_log.add_message(
            f"The game could not be saved ({reason}); play on: {kept}.", color.error
        )
    return True


def save_beside(screens: Screens) -> None:
    """After a crash, save the game that failed beside the last good save, if it can be.

    That game may be what is broken, so it never replaces the save the player
    can Continue; it goes to `savegame.sav.crash`, for a bug report or by hand.
    """
    path = savefile.crash_path(paths.save_path())
    try:
        engine = screens.engine_in_play()
        if engine is not None:
            save_fields.save(engine, path, keep_backup=False)
            print(f"The game that failed was saved as {path}; the last save is untouched.",
                  file=sys.stderr)
    except Exception:
        traceback.print_exc()
