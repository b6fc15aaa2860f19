"""A death: its ending, taken once as the player dies (`ending`), and what it leaves
behind, kept by the main loop after the frame (`keep_record`): the save deleted, the
morgue file and the hall of fame entry.  The game-over screen only shows them."""

from __future__ import annotations

import dataclasses
import datetime
from typing import TYPE_CHECKING

import color
from replays import recording
from saving import hall_of_fame, morgue, paths, savefile
from words import game_over

if TYPE_CHECKING:
    from engine import Engine


@dataclasses.dataclass(frozen=True)
class Record:
    """What of a game's ending was kept on disk."""

    morgue_path: str | None  # None when the morgue file could not be written.
    kept: morgue.KeptRecording | None  # The recording kept beside it.
    entered: hall_of_fame.Entered
    notices: list[str]  # What could not be written, for a popup.

    def lines(self) -> list[str]:
        """What the game-over screen says of it."""
        if self.morgue_path is None:
            kept = ["No morgue file could be written."]
        else:
            kept = [f"Morgue file: {self.morgue_path}"]
        if self.entered.rank is None:
            return [*kept, "The game did not make the hall of fame."]
        rank, count = self.entered.rank + 1, len(self.entered.entries)
        return [*kept, f"Hall of fame: number {rank} of {count}."]


def ending(engine: Engine) -> game_over.Ending:
    """How the game ended, taken once, as the player dies: its recording ends with
    the event that killed and the ending it claims (`recording.end`)."""
    if engine.ending is None:
        engine.ending = game_over.ending_of(engine, datetime.datetime.now())
        recording.end(engine, engine.ending.claim.line())
    return engine.ending


def keep_record(engine: Engine) -> Record:
    """Delete the save, write the morgue file (with the recording beside it) and
    enter the hall of fame: the main loop's, once, after the frame that shows the death."""
    the_end = ending(engine)
    remove_save(engine)
    notices = []
    morgue_path, kept = None, None
    try:
        path, kept = morgue.write(engine, the_end)
        morgue_path = paths.shown(path)  # Named inside the data folder when served.
    except OSError as exc:
        notices.append(f"Could not write the morgue file: {exc.strerror or exc}")
    entered = hall_of_fame.enter(the_end, kept)
    if entered.notice is not None:
        notices.append(entered.notice)
    return Record(morgue_path, kept, entered, notices)


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
