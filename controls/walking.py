"""A walk under way (`travel`: explore, travel, run), as a screen over the dungeon:
the main loop calls `advance` for each step, and any key or click only stops it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import tcod

import color
from actions import Action, MovementAction, PickupAction
from controls import travel
from screens.base import ActionOrHandler, BaseEventHandler, Overlay, Play, follow

if TYPE_CHECKING:
    from input_handlers import MainGameEventHandler


def start(dungeon: MainGameEventHandler, walk: travel.Walk) -> WalkHandler | None:
    """The walk under way over `dungeon`, or None (the log says why; no turn passes)
    if it can't start."""
    engine = dungeon.engine
    reason = travel.refusal(engine)
    step = walk.next_step(engine) if reason is None else None
    if isinstance(step, travel.Stop):
        reason = step.reason
    if step is None or isinstance(step, travel.Stop):
        if reason is not None:
            engine.message_log.add_message(reason, color.impossible)
        return None
    return WalkHandler(dungeon, walk, step)


class WalkHandler(Overlay):
    """The walk, over the dungeon's screen (`parent`), which draws the map and
    takes each step's turn."""

    parent: MainGameEventHandler
    walking = True

    def __init__(self, parent: MainGameEventHandler, walk: travel.Walk, first_step: travel.Step):
        super().__init__(parent)
        self.engine = parent.engine
        self.walk = walk
        self.next_step = first_step
        self.watch = travel.Watch(self.engine, items=walk.stops_for_items)

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        return Play()  # Any key stops the walk, and does nothing else.

    def ev_textinput(self, event: tcod.event.TextInput) -> ActionOrHandler | None:
        return Play()

    def ev_mousebuttondown(self, event: tcod.event.MouseButtonDown) -> ActionOrHandler | None:
        """A click stops the walk, unless on where it is going (a double click's second)."""
        if isinstance(self.walk, travel.Travel) and event.integer_position == self.walk.dest:
            return None
        return Play()

    def ev_mousemotion(self, event: tcod.event.MouseMotion) -> None:
        self.parent.ev_mousemotion(event)

    def stop_walking(self) -> BaseEventHandler:
        return self.stopped()

    def stopped(self, reason: str | None = None) -> BaseEventHandler:
        """The screen after the walk, which says why it stopped, if it must."""
        if reason is not None:
            # Each stop is news of its own: two orcs coming into view are two lines.
            self.engine.message_log.add_message(reason, stack=False)
        return follow(self, Play())

    def advance(self) -> BaseEventHandler:
        """Take one step as a turn, then look whether the walk must stop."""
        engine = self.engine
        # Whatever happened since the last step, outside of a turn.
        reason = self.watch.news(engine)
        if reason is not None:
            return self.stopped(reason)
        if not self.parent.handle_action(self.step_action()):
            return self.stopped()  # The action said why.
        self.walk_steps += 1
        after = follow(self, Play())
        if type(after) is not type(self.parent):
            return after  # Death, or a level-up to choose.
        reason = self.watch.news(engine)
        if reason is not None or self.walk.stops_underfoot(engine):
            return self.stopped(reason)
        step = self.walk.next_step(engine)
        if isinstance(step, travel.Stop):
            return self.stopped(step.reason)
        self.next_step = step
        return self

    def step_action(self) -> Action:
        """The next step's action: a pickup, or a move (that picks up, if the walk gathers)."""
        engine = self.engine
        if isinstance(self.next_step, travel.PickUp):
            return PickupAction(engine.player)
        dx, dy = self.next_step
        to_pick_up = self.walk.picks_up_at(engine, engine.player.x + dx, engine.player.y + dy)
        return MovementAction(engine.player, dx, dy, to_pick_up)
