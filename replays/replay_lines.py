"""Playing a recording's lines through the real handlers, with no window:
each line through `recording.handle_and_record`, the door the player's events go
through, so that the handlers do what they did in play."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

import tcod

import exceptions
import input_handlers
from replays import record_format, recording, rules
from replays.record_format import Autofight, Recorded, Steps
from window import error_report


def replay_line(
    handler: input_handlers.BaseEventHandler,
    recorded: tcod.event.Event | Recorded,
) -> input_handlers.BaseEventHandler:
    """Play one recorded line as it was played, after the walk under way took its steps.

    A key or click came after the walk stopped by itself (one that stopped
    it was recorded as `steps N`); a pointer move may come during a walk.
    """
    if isinstance(recorded, record_format.Resume):
        engine = handler.engine_in_play()
        if engine is None:
            return handler
        recording.record(engine, recorded.line())
        return input_handlers.next_screen(engine)
    if isinstance(recorded, rules.Rule):
        engine = handler.engine_in_play()
        if engine is not None:  # The keys or options the game was continued with.
            rules.apply(recorded, engine.settings)
            recording.record(engine, recorded.line())
        return handler
    if isinstance(recorded, Steps):
        while handler.walking and handler.walk_steps < recorded.count:
            handler = handler.advance()
        engine = handler.engine_in_play()
        if not handler.walking or engine is None:
            return handler  # Ended sooner than recorded: nothing left to stop.
        recording.record(engine, recorded.line())
        return handler.stop_walking()
    if not isinstance(recorded, tcod.event.MouseMotion):
        handler = finish_walk(handler)
    if isinstance(recorded, Autofight):
        engine = handler.engine_in_play()
        if engine is None:
            return handler
        recording.record(engine, recorded.line())
        return handler.play_autofight(recorded)
    return recording.handle_and_record(handler, recorded)


def finish_walk(handler: input_handlers.BaseEventHandler) -> input_handlers.BaseEventHandler:
    """Take every step of the walk under way, if one is, as fast as they go."""
    while handler.walking:
        handler = handler.advance()
    return handler


def play_lines(
    handler: input_handlers.BaseEventHandler, events: Iterable[Recorded], *, to_the_end: bool = True
) -> input_handlers.BaseEventHandler:
    """Play recorded events as fast as they go, with no window; return the last screen.

    As in the main loop, an unexpected error is reported and play goes on; an
    event that leaves a finished game raises `exceptions.BackToMainMenu`.
    A walk the last lines started goes on until it stops by itself, as in play,
    unless more lines may come (`to_the_end` False: a game still being played).
    """
    # `events` is consumed lazily: the recovery shows its progress as they are played.
    for recorded in itertools.chain(events, [None]):
        try:
            if recorded is None:
                return finish_walk(handler) if to_the_end else handler
            handler = replay_line(handler, recorded)
        except (SystemExit, exceptions.QuitWithoutSaving):
            break
        except exceptions.BackToMainMenu:
            raise  # The caller's to answer: no error of the game.
        except Exception:
            error_report.report_error(handler, keep_recording=False)
            handler = handler.stop_walking()
    return handler
