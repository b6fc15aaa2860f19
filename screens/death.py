"""What a death leaves behind, kept once (`input_handlers.next_screen`): the save
deleted, the morgue file and the hall of fame entry; the game-over screen only shows it."""

from __future__ import annotations

import dataclasses
import datetime
from typing import TYPE_CHECKING

import color
from replays import recording
from saving import paths, savefile
from screens import game_over, hall_of_fame, morgue

if TYPE_CHECKING:
    from engine import Engine


@dataclasses.dataclass(frozen=True)
class Record:
    """How the game ended, and what of it was kept on disk."""

    ending: game_over.Ending
    morgue_path: str | None  # None when the morgue file could not be written.
    kept: morgue.KeptRecording | None  # The recording kept beside it.
    entered: hall_of_fame.Entered
    notices: list[str]  # What could not be written, for a popup.


def keep_record(engine: Engine) -> Record:
    """End the recording with its claim, delete the save, write the morgue file
    (with the recording beside it) and enter the hall of fame."""
    ending = game_over.ending_of(engine, datetime.datetime.now())
    recording.end(engine, ending.claim.line())
    remove_save(engine)
    notices = []
    morgue_path, kept = None, None
    try:
        path, kept = morgue.write(engine, ending)
        morgue_path = str(path)
    except OSError as exc:
        notices.append(f"Could not write the morgue file: {exc.strerror or exc}")
    entered = hall_of_fame.enter(ending, kept)
    if entered.notice is not None:
        notices.append(entered.notice)
    return Record(ending, morgue_path, kept, entered, notices)


def remove_save(engine: Engine) -> None:
    """Delete the save and its backup; when that fails, the log says why."""
    try:
        savefile.remove(paths.save_path())
    except OSError as exc:
        engine.message_log.add_message(
            f"The save could not be deleted ({exc.strerror or exc}), "
            "so Continue would bring back the game before this death.",
            color.error,
        )
