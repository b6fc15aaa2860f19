"""What play leaves for the player's folder, written by the main loop after each frame
(`after_frame`): the recording's new lines, a death's morgue file and hall of fame entry
(the save deleted), options changed, and the game's own saves (`autosave`).

Screens and actions only change the game and the settings.  A replay, `--verify` and
`--follow` play the same screens with no loop that calls this: they write nothing.
"""

from __future__ import annotations

from replays import recording
from saving import autosave
from screens.stack import Screens


def after_frame(screens: Screens) -> bool:
    """Write what the frame just shown leaves to write (a popup over the screens says
    what could not be); whether the screens show anything new."""
    notices = []
    engine = screens.engine
    news = False
    if engine is not None:
        recording.write_new(engine)
        if engine.ending is not None and engine.death_record is None:
            from saving import death  # Loaded by a death, not by every start (with the morgue).

            engine.death_record = death.keep_record(engine)
            notices += engine.death_record.notices
            news = True
    notice = screens.settings.keep_changes()
    if notice is not None:
        notices.append(notice)
    autosave.after_frame(screens)
    if notices:
        screens.show("\n".join(notices))
        return True
    return news
