"""What play leaves for the player's folder, written by the main loop after each frame
(`after_frame`): the recording's new lines, a death's morgue file and hall of fame entry
(the save deleted), options changed, and the game's own saves (`autosave`); and, once a
game is on screen, what a death will need loaded (`ready_for_a_death`).

Screens and actions only change the game and the settings.  A replay, `--verify` and
`--follow` play the same screens with no loop that calls this: they write nothing.
"""

from __future__ import annotations

import sys

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
    save_or_get_ready(screens)
    if notices:
        screens.show("\n".join(notices))
        return True
    return news


def save_or_get_ready(screens: Screens) -> None:
    """The game's own save, if due (`autosave`); else, with a game on screen, what a death
    will need loaded: one or the other after a frame, never both."""
    if not autosave.after_frame(screens) and screens.engine is not None:
        ready_for_a_death()


def ready_for_a_death() -> None:
    """Load what a death needs (`saving.death`: the ending, the morgue, the hall of fame)
    after a frame of a game in play that saved nothing, where no key press waits for it.
    Left to the key press that killed the player, it cost that press 8 to 11 ms of CPU
    (paired runs, against 0.3 to 0.5 ms loaded before): the frame of a death missed at
    120 Hz, the bench's slowest key press.  Not at start-up, which it would slow."""
    if "saving.death" not in sys.modules:
        import saving.death  # noqa: F401
