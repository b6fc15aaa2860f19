"""The engine: one game in progress, its turn order, field of view and screen."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

import numpy as np
import tcod

import exceptions
import render_functions
from entity import Actor
from game_map import MAX_ENTITIES, GameMap, GameWorld
from message_log import MessageLog
from replays import recording
from saving import save_fields
from saving.save_fields import (
    MAX_TURNS,
    Bool,
    Counts,
    Fields,
    FileName,
    Fresh,
    Int,
    New,
    Part,
    Point,
    Recording,
    Ref,
    Rng,
)
from saving.savefile import DamagedSaveError
from window.options import Settings

if TYPE_CHECKING:
    from numpy.random import Generator

    from saving.death import Record
    from words.game_over import Ending

# How far the player sees.
FOV_RADIUS = 8


class Engine:
    game_map: GameMap
    game_world: GameWorld
    # What took the player's last hit points ("a Troll"), set as they die; a class
    # default, since a game in play (the only kind saved) has none.
    killer: str | None = None
    saved_fields: ClassVar[Fields] = {
        "game_map": Part(GameMap),
        "game_world": Part(GameWorld),
        "player": Ref("game_map.entities"),
        "message_log": Part(MessageLog),
        "rng": Rng(),
        "mouse_location": Point(),
        # Kept as the mouse location is, so that a game continued or replayed is the same game;
        # older saves had no cursor's line to tell apart (and read False).
        "pointer_on_map": Bool(default=False),
        "turns": Int(0, MAX_TURNS),
        "kills": Counts(Int(1, MAX_TURNS), MAX_ENTITIES),
        "recording": Recording(),
        "recording_file": FileName(),
        "saved_at": Fresh(None),  # When the game last saved itself: now.
        "killer": Fresh(None),  # A game in play has none.
        "unrecorded": Fresh(None),  # No event is being handled while saving.
        "ending": Fresh(None),  # A game in play has none,
        "death_record": Fresh(None),  # nor what its death left.
        "settings": New(Settings),  # The player's, not the game's: `load_game` gives the menu's.
    }

    def __init__(self, player: Actor, rng: Generator | None = None, settings: Settings | None = None):
        self.message_log = MessageLog(self)
        self.mouse_location = (0, 0)
        # Whether the mouse pointer, not a look or aim cursor, last put `mouse_location`
        # where it is: only then the line under the map names what is there, so that
        # a cursor's line goes when the cursor closes, and no save brings it back.
        self.pointer_on_map = False
        self.player = player
        # The one random generator of the rules, seeded by the game's seed and
        # kept by the save: a rule drawing from the `random` module instead would
        # make replays and Continue drift from the game played.
        self.rng = rng if rng is not None else np.random.default_rng()
        self.turns = 0
        self.kills: dict[str, int] = {}
        # The game's recording: how far its file goes and the lines since, and its file's
        # name in the recordings folder.
        self.recording = recording.Lines()
        self.recording_file: str | None = None
        # The line of the event being handled, until recorded (`Screens.press`).
        self.unrecorded: str | None = None
        # How the game ended, once it has (`saving.death.ending`), and what the main loop
        # kept of it on disk (`saving.death.keep_record`).
        self.ending: Ending | None = None
        self.death_record: Record | None = None
        # The floor and the recording's length at the last save (`autosave`).
        self.saved_at: tuple[int, int] | None = None
        # The options and keys in force, shared with the main menu; not saved.
        self.settings = settings if settings is not None else Settings()

    def save_as(self, filename: str | os.PathLike[str]) -> None:
        """Save this game to `filename`, atomically, keeping the last save as a
        backup (see `save_fields.save`); what quitting calls, as in the tutorial.

        The tutorial pickled the Engine itself; a save of objects runs code
        when loaded, so the game is saved as checked plain data instead.
        """
        save_fields.save(self, filename)
        recording.sync(self)
        self.mark_saved()

    def before_save(self) -> Callable[[], None]:
        """Record which game the save about to be made holds (`recording.save_line`), at
        the end of the stretch of the recording it names: Continue checks the two agree.
        Returns what takes the line back, should the save fail."""
        return recording.record_save(self)

    def check_loaded(self, what: str) -> None:
        if not isinstance(self.player, Actor) or not self.player.is_alive:
            raise DamagedSaveError("the player is not a living actor")
        if not self.game_map.in_bounds(*self.mouse_location):
            raise DamagedSaveError("the mouse_location is off the map")

    def mark_saved(self) -> None:
        """Note that the game as it is now is saved (or loaded from its save)."""
        self.saved_at = self.game_world.current_floor, len(self.recording)

    def handle_enemy_turns(self) -> None:
        # Differs from the tutorial: in the order added, never a set's, so a game replays.
        player = self.player
        for entity in list(self.game_map.actors):
            if entity is not player and entity.ai:
                # A monster bumping into a wall just loses its turn.  The tutorial's
                # try, not `contextlib.suppress`: a context manager entered for each
                # monster each turn tripled the monsters' turns (docs/performance.md).
                try:  # noqa: SIM105
                    entity.ai.perform()
                except exceptions.Impossible:
                    pass

    def update_fov(self) -> None:
        """Recompute the visible area based off the players point of view."""
        self.game_map.visible[:] = tcod.map.compute_fov(
            self.game_map.tiles["transparent"],
            (self.player.x, self.player.y),
            radius=FOV_RADIUS,
        )
        # If a tile is "visible" it should be added to "explored".
        self.game_map.explored |= self.game_map.visible

    def render(self, console: tcod.console.Console) -> None:
        self.game_map.render(console)

        self.message_log.render(console=console, x=21, y=45, width=40, height=5)

        render_functions.render_bar(
            console=console,
            current_value=self.player.fighter.hp,
            maximum_value=self.player.fighter.max_hp,
            total_width=20,
            palette=self.settings.options.palette,
        )

        render_functions.render_dungeon_level(
            console=console,
            dungeon_level=self.game_world.current_floor,
            location=(0, 47),
        )

        level = self.player.level
        render_functions.render_character_level(
            console=console,
            level=level.level_reached,
            xp_to_go=level.xp_to_go,
            location=(0, 48),
        )

        if self.pointer_on_map:
            render_functions.render_names_at_mouse_location(
                console, *render_functions.NAMES_AT, engine=self
            )
