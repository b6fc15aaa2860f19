"""Playing on from a replay in the window: its game becomes the player's own.

Once the playback has ended (run out, or stopped with Escape), the first key
or click that would act on the replayed game asks first; `y` makes the game
the player's: its files go to the data folder from then on (a recording of its
own, and a save that Continue finds, replacing the one there), and it plays
by the player's keys and options.  `n` leaves the
replay, saving nothing.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

import tcod

from controls import keys
from replays import record_format
from saving import paths
from screens.base import Quit, Replace
from screens.question import Notice, Question
from screens.stack import Screens
from window.options import Settings

if TYPE_CHECKING:
    from engine import Engine

ASK: Final = "Play on from here as your own game?{replaces} (y/n; n leaves the replay)"
REPLACES: Final = " It replaces your saved game."
TAKEN: Final = "This game is yours now: it is saved as you play, and Continue finds it."


def plays_on(screens: Screens, event: tcod.event.Event) -> bool:
    """Whether `event` would act on the replayed game: a key, a symbol or a
    click its recording would keep (a pointer move only points)."""
    if screens.recorded_game() is None or isinstance(event, tcod.event.MouseMotion):
        return False
    return not keys.does_nothing(event) and record_format.line_of(event) is not None


def ask(screens: Screens, player: Settings, end_replay: Callable[[], None]) -> Question:
    """The question, over the replayed game; `n` (or Escape) leaves the replay."""
    engine = screens.engine_in_play()
    assert engine is not None, "asked only over a game in play"
    has_save = os.path.lexists(paths.data_dir() / paths.SAVE_NAME)
    text = ASK.format(replaces=REPLACES if has_save else "")
    return Question(text, lambda: take_over(engine, player, end_replay), Quit)


def take_over(engine: Engine, player: Settings, end_replay: Callable[[], None]) -> Replace:
    """Make the replayed game the player's, and say so: from the next frame on, the main
    loop writes its recording and saves it (`end_replay` tells it)."""
    from replays import recovery  # Loaded by a take-over, not before the first key (start-up).

    end_replay()
    recovery.go_on_with(engine, player)  # A replay never saved its game: the next frame does.
    return Replace(Notice(TAKEN))
