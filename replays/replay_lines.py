"""Playing a recording's lines through the real screens, with no window: each line
pressed as the player's events are (`Screens.press`), so that the handlers do what
they did in play."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

import tcod

from replays import record_format, recording, rules
from replays.record_format import Autofight, Recorded, Steps
from screens.stack import Screens
from window import error_report


def replay_line(screens: Screens, recorded: tcod.event.Event | Recorded) -> None:
    """Play one recorded line as it was played, after the walk under way took its steps.

    A key or click came after the walk stopped by itself (one that stopped
    it was recorded as `steps N`); a pointer move may come during a walk.
    """
    engine = screens.recorded_game()
    if isinstance(recorded, record_format.Resume):
        if engine is not None:
            recording.record(engine, recorded.line())
            screens.play()
    elif isinstance(recorded, rules.Rule):
        if engine is not None:  # The keys or options the game was continued with.
            rules.apply(recorded, engine.settings)
            recording.record(engine, recorded.line())
    elif isinstance(recorded, Steps):
        play_steps(screens, recorded.count)
    else:
        if not isinstance(recorded, tcod.event.MouseMotion):
            finish_walk(screens)
        if isinstance(recorded, Autofight):
            engine = screens.recorded_game()
            if engine is not None:
                recording.record(engine, recorded.line())
                screens.autofight(recorded)
        else:
            screens.press(recorded)


def play_steps(screens: Screens, count: int) -> None:
    """The walk under way to `count` steps, then stopped as a key stopped it (`steps N`)."""
    while (steps := screens.walk_steps()) is not None and steps < count:
        screens.step()
    engine = screens.recorded_game()
    if screens.walking and engine is not None:  # Else it ended sooner than recorded.
        recording.record(engine, Steps(count).line())
        screens.stop_walking()


def finish_walk(screens: Screens) -> None:
    """Take every step of the walk under way, if one is, as fast as they go."""
    while screens.walking:
        screens.step()


def play_lines(screens: Screens, events: Iterable[Recorded], *, to_the_end: bool = True) -> None:
    """Play recorded events as fast as they go, with no window, until they end, a line
    quits, or one leaves the finished game for the menu (`Screens.in_menu`).

    As in the main loop, an unexpected error is reported and play goes on.
    A walk the last lines started goes on until it stops by itself, as in play,
    unless more lines may come (`to_the_end` False: a game still being played).
    """
    # `events` is consumed lazily: the recovery shows its progress as they are played.
    for recorded in itertools.chain(events, [None]):
        if screens.quitting is not None or screens.in_menu:
            return
        try:
            if recorded is None:
                if to_the_end:
                    finish_walk(screens)
                return
            replay_line(screens, recorded)
        except Exception:
            error_report.report_error(screens, keep_recording=False)
            screens.stop_walking()
