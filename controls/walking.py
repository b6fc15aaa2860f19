"""A walk under way (`travel`: explore, travel, run), the dungeon screen's while it
lasts (`MainGameEventHandler.walk`): the main loop takes each step at the walk
speed (`screens.stack.Screens.step`), and any key or click only stops it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import tcod

import color
from actions import Action, MovementAction, PickupAction
from controls import travel

if TYPE_CHECKING:
    from engine import Engine


def start(engine: Engine, walk: travel.Walk) -> Walking | None:
    """The walk under way, or None (the log says why; no turn passes) if it can't start."""
    reason = travel.refusal(engine)
    step = walk.next_step(engine) if reason is None else None
    if isinstance(step, travel.Stop):
        reason = step.reason
    if step is None or isinstance(step, travel.Stop):
        if reason is not None:
            engine.message_log.add_message(reason, color.impossible)
        return None
    return Walking(engine, walk, step)


class Walking:
    """Where the walk goes, its next step, what it watches for, and the steps it took
    (which a recording keeps when a key stops it: `record_format.Steps`)."""

    def __init__(self, engine: Engine, walk: travel.Walk, first_step: travel.Step):
        self.walk = walk
        self.next_step = first_step
        self.watch = travel.Watch(engine, items=walk.stops_for_items)
        self.steps = 0

    def stopped_by(self, event: tcod.event.Event) -> bool:
        """Whether `event` stops the walk: any key or click, but a click on where it is
        going (a double click's second); a pointer move never does."""
        match event:
            case tcod.event.KeyDown() | tcod.event.TextInput():
                return True
            case tcod.event.MouseButtonDown():
                going_to = self.walk.dest if isinstance(self.walk, travel.Travel) else None
                return event.integer_position != going_to
        return False

    def step_action(self, engine: Engine) -> Action:
        """The next step's action: a pickup, or a move (that picks up, if the walk gathers)."""
        if isinstance(self.next_step, travel.PickUp):
            return PickupAction(engine.player)
        dx, dy = self.next_step
        to_pick_up = self.walk.picks_up_at(engine, engine.player.x + dx, engine.player.y + dy)
        return MovementAction(engine.player, dx, dy, to_pick_up)

    def step(self, engine: Engine, take_turn: Callable[[Action], bool]) -> travel.Stop | None:
        """Take the next step as a turn (`take_turn`: the dungeon's); why the walk stops
        (a `Stop` with no reason: it arrived, or the player died or must level up), if it does."""
        reason = self.watch.news(engine)  # Whatever happened since the last step, outside of a turn.
        if reason is not None:
            return travel.Stop(reason)
        if not take_turn(self.step_action(engine)):
            return travel.Stop()  # The action said why.
        self.steps += 1
        if not engine.player.is_alive or engine.player.level.requires_level_up:
            return travel.Stop()
        return self.after_step(engine)

    def after_step(self, engine: Engine) -> travel.Stop | None:
        """Why the walk stops after a step, if it does; else it goes on, its next step chosen."""
        reason = self.watch.news(engine)
        if reason is not None or self.walk.stops_underfoot(engine):
            return travel.Stop(reason)
        step = self.walk.next_step(engine)
        if isinstance(step, travel.Stop):
            return step
        self.next_step = step
        return None
