"""The engine: one game in progress, its turn order, field of view and screen."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import numpy as np
import tcod

import components.ai
import exceptions
import render_functions
import savefile
from message_log import MessageLog

if TYPE_CHECKING:
    from entity import Actor
    from game_map import GameMap, GameWorld

# How far the player sees.
FOV_RADIUS = 8


class Engine:
    game_map: GameMap
    game_world: GameWorld
    # What took the player's last hit points ("a Troll"), set as they die
    # (`Fighter.take_damage`).  A class default rather than state: a game in
    # play, the only kind that is saved, has none.
    killer: str | None = None

    def __init__(self, player: Actor):
        self.message_log = MessageLog()
        self.mouse_location = (0, 0)
        self.player = player
        # Drives everything random that happens during play (confusion).
        # PCG64 rather than `random.Random`: its state is a few dozen bytes
        # where the Mersenne Twister's is 2.5 KB that a save can't compress.
        # Seeded from the global state so `random.seed` makes a run repeatable.
        self.rng = np.random.default_rng(random.getrandbits(64))

    def handle_enemy_turns(self) -> None:
        """Let every other living actor on the map take its turn.

        Meanwhile entities are looked up by position, and paths to the player
        share their search (see `GameMap.tracking_positions` and
        `components.ai.shared_paths`): a turn costs what the monsters that act
        do, not what the map holds.
        """
        game_map = self.game_map
        with game_map.tracking_positions(), components.ai.shared_paths(game_map):
            for entity in list(game_map.actors):
                if entity is self.player or entity.ai is None:
                    continue  # The player moved already, or a fireball killed it.
                x, y = entity.x, entity.y
                # Not `contextlib.suppress`: a `try` costs nothing when nothing
                # is raised, and this runs for every monster on the floor.
                try:  # noqa: SIM105
                    entity.ai.perform()
                except exceptions.Impossible:
                    pass  # A monster bumping into a wall just loses its turn.
                if entity.x != x or entity.y != y:
                    game_map.moved(entity, x, y)

    def update_fov(self) -> None:
        """Recompute the visible area based off the players point of view.

        Nothing beyond `FOV_RADIUS` can be seen, so the field of view is
        computed on the window of the map within that radius of the player
        (the result is the same as on the whole map): its cost follows the
        radius, not the size of the map.
        """
        game_map = self.game_map
        x, y = self.player.x, self.player.y
        x0, y0 = max(0, x - FOV_RADIUS), max(0, y - FOV_RADIUS)
        window = slice(x0, x + FOV_RADIUS + 1), slice(y0, y + FOV_RADIUS + 1)
        visible = tcod.map.compute_fov(
            game_map.tiles["transparent"][window], (x - x0, y - y0), radius=FOV_RADIUS
        )
        game_map.visible[:] = False
        game_map.visible[window] = visible
        # If a tile is "visible" it should be added to "explored".
        game_map.explored[window] |= visible

    def render(self, console: tcod.console.Console) -> None:
        self.game_map.render(console)

        self.message_log.render(console=console, x=21, y=45, width=40, height=5)

        render_functions.render_bar(
            console=console,
            current_value=self.player.fighter.hp,
            maximum_value=self.player.fighter.max_hp,
            total_width=20,
        )

        render_functions.render_dungeon_level(
            console=console,
            dungeon_level=self.game_world.current_floor,
            location=(0, 47),
        )

        render_functions.render_names_at_mouse_location(
            console=console, x=21, y=44, engine=self
        )

    def save_as(self, filename: str) -> None:
        """Save this Engine instance as a compressed file (see `savefile`)."""
        savefile.save(self, filename)

    def __getstate__(self) -> dict[str, Any]:
        # Keep the generator's state as plain data, so that loading a save
        # needs no class from outside the game.
        state = self.__dict__.copy()
        state["rng"] = self.rng.bit_generator.state
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        rng_state = state.pop("rng")
        self.__dict__.update(state)
        self.rng = np.random.default_rng()
        self.rng.bit_generator.state = rng_state
