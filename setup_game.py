"""Starting and loading games, and the main menu that does it."""

from __future__ import annotations

import copy
import datetime
import os
import random
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Final

import numpy as np
import tcod

import color
import entity_factories
import input_handlers
from controls import key_help, keys
from engine import Engine

# The tutorial's map settings, declared beside the world they make.
from game_map import MAP_HEIGHT, MAP_WIDTH, MAX_ROOMS, ROOM_MAX_SIZE, ROOM_MIN_SIZE, GameWorld
from replays import daily, record_format, recording, rules
from saving import paths, save_data, savefile
from screens.base import (
    CHOOSE_BY_LETTER,
    Content,
    PopupMessage,
    Push,
    Quit,
    Reset,
    Transition,
    Unchanged,
)
from screens.hall_of_fame_screen import HallOfFameScreen, Verifier
from screens.help_screen import HelpScreen
from screens.options_screen import OptionsScreen
from screens.question import Question
from screens.stack import next_screen
from window import title
from window.options import Settings

# Asked before a new game replaces the one in progress (whose save it overwrites).
ABANDON: Final = "Abandon your saved game? (y/n)"


def new_game(
    seed: int | None = None, settings: Settings | None = None, daily_date: str | None = None
) -> Engine:
    """Return a brand new game session as an Engine instance.

    The same `seed` gives the same floors and the same monster behaviour;
    without one, a random seed is drawn, and the character screen shows it.
    `daily_date` marks the daily game of that date (`new_daily_game`).
    """
    if seed is None:
        seed = random.getrandbits(32)
    player = copy.deepcopy(entity_factories.player)

    engine = Engine(player=player, rng=np.random.default_rng(seed), settings=settings)
    engine.recording = recording.Lines.of(
        record_format.header(seed, in_force=rules.rules_for(engine.settings), daily=daily_date)
    )

    engine.game_world = GameWorld(
        engine=engine,
        max_rooms=MAX_ROOMS,
        room_min_size=ROOM_MIN_SIZE,
        room_max_size=ROOM_MAX_SIZE,
        map_width=MAP_WIDTH,
        map_height=MAP_HEIGHT,
        seed=seed,
    )

    engine.game_world.daily = daily_date
    engine.game_world.generate_floor()
    engine.update_fov()

    engine.message_log.add_message(
        "Hello and welcome, adventurer, to yet another dungeon!", color.welcome_text
    )

    for template in (entity_factories.dagger, entity_factories.leather_armor):
        item = copy.deepcopy(template)
        player.inventory.add(item)
        player.equipment.toggle_equip(item, add_message=False)

    return engine


def new_daily_game(
    date: datetime.date, settings: Settings | None = None, tries_before: int = 0
) -> Engine:
    """The daily game of `date` (`replays.daily`), after `tries_before` others of it."""
    engine = new_game(daily.seed_of(date), settings, f"{date:{daily.DATE_FORMAT}}")
    engine.game_world.daily_try = tries_before + 1
    return engine


def load_game(filename: str | os.PathLike[str], settings: Settings | None = None) -> Engine:
    """Load an Engine instance from a file (see `save_data.load`), to play with `settings`."""
    engine = save_data.load(filename)
    if settings is not None:
        engine.settings = settings
    engine.mark_saved()
    return engine


class MainMenu(input_handlers.BaseEventHandler):
    """Handle the main menu rendering and input."""

    def __init__(
        self,
        settings: Settings | None = None,
        seed: int | None = None,
        progress: Callable[[float], None] | None = None,
        verifier: Verifier | None = None,
        today: Callable[[], datetime.date] = daily.today,
    ):
        self._settings = settings if settings is not None else Settings()
        self.seed = seed
        # Draws how far a long recovery has come, in the main loop's window.
        self.progress = progress
        # Marks the hall of fame's verified games (`replays.verify`, which replays them).
        self.verifier = verifier
        self.today = today  # The daily game's date: UTC's today, or a test's.

    @property
    def settings(self) -> Settings:
        return self._settings

    def on_render(self, console: tcod.console.Console) -> None:
        """Render the main menu on a background image (`window.title`)."""
        title.draw(console)

    def content(self) -> Content:
        return Content(title.GAME_TITLE, title.menu_lines(), keys="Press ? for help.")

    def ev_keydown(self, event: tcod.event.KeyDown) -> Transition | None:
        return self.on_key(keys.key_of(event))

    def ev_textinput(self, event: tcod.event.TextInput) -> Transition | None:
        return self.on_key(keys.key_of(event))

    def on_key(self, key: keys.Key) -> Transition | None:
        """What a key or a typed symbol does on the menu."""
        match keys.MENU_KEYS.get(key):
            case keys.Command.EXIT:
                return Quit()
            case keys.Command.CONTINUE:
                return self.continue_game()
            case keys.Command.NEW_GAME:
                return self.abandoning(self.start_new_game)
            case keys.Command.DAILY:
                return self.abandoning(self.daily_game)
            case keys.Command.HALL_OF_FAME:
                return Push(HallOfFameScreen.from_file(self.settings, self.verifier))
            case keys.Command.HELP:
                return Push(HelpScreen(self.settings, opened_from=key_help.FROM_MENU))
            case keys.Command.OPTIONS:
                return Push(OptionsScreen(self.settings))
        return Unchanged(CHOOSE_BY_LETTER)  # No cursor to move: its letters choose.

    def abandoning(self, start: Callable[[], Transition]) -> Transition:
        """Start a game; over a saved one, only once the player says yes (no keeps it)."""
        if os.path.lexists(paths.save_path()):
            return Push(Question(ABANDON, start))
        return start()

    def start_new_game(self) -> Transition:
        """A new game in the dungeon (the main loop gives it its own recording)."""
        return Reset.to(next_screen(new_game(self.seed, self.settings)))

    def daily_game(self) -> Transition:
        """Today's daily game; marked as another try if the player's recordings
        hold one of it already."""
        date = self.today()
        tries = daily.tries_before(paths.recordings_dir(), daily.seed_of(date))
        return Reset.to(next_screen(new_daily_game(date, self.settings, tries)))

    def continue_game(self) -> Transition | None:
        """Load the save, or explain why not; a bad save is kept, never lost.

        A save that can't be loaded is moved aside, so a new game can't
        overwrite it, and the backup is offered instead.  A bug in the game's
        own loading is no fault of the file, which is left where it is.
        """
        path = paths.save_path()
        backup = savefile.backup_path(path)
        from_backup = not os.path.lexists(path) and os.path.lexists(backup)
        if from_backup:
            path = backup
        try:
            engine = load_game(path, self.settings)
        except Exception as exc:
            return Push(PopupMessage(self.not_loaded(path, exc, from_backup)))
        if from_backup:
            engine.message_log.add_message(
                f"Continued from {backup}, the save before the one that could not be loaded.",
                color.impossible,
            )
        return self.play_on(engine)

    def not_loaded(self, path: Path, exc: Exception, from_backup: bool) -> str:
        """Why the save at `path` did not load, said over the menu; a bad file moved aside."""
        match exc:
            case FileNotFoundError():
                return "No saved game to load."
            case savefile.SaveVersionError(newer=True):
                # Good for the newer game: left where it is, for the player to play there.
                kept = savefile.newer_path(path, exc.found)
                return f"{exc}\nIt was left as it is at {path} (kept as {kept} if a new game starts)."
            case savefile.SaveError() | OSError():
                return self.refused(path, exc, from_backup)
        traceback.print_exc()  # A bug in the game, not a bad file.
        return (
            f"The save could not be loaded: a bug in the game ({type(exc).__name__}), "
            f"not a fault of the file, which was left as it is at {path}."
        )

    def refused(self, path: Path, exc: Exception, from_backup: bool) -> str:
        """A save that can't be read (no permission) or loaded: moved aside, and why, said."""
        traceback.print_exc()
        try:
            kept = savefile.keep_bad_save(path)
        except OSError as move_error:
            return f"Failed to load save:\n{exc}\nIt could not be moved aside: {move_error}"
        text = f"Failed to load save:\n{exc}\nThe file was kept as {kept}."
        backup = savefile.backup_path(paths.save_path())
        if not from_backup and os.path.lexists(backup):
            text += f"\nThe save before it is kept as {backup}: press C to continue that one."
        return text

    def play_on(self, engine: Engine) -> Transition | None:
        """The loaded game, after playing what its recording holds beyond its save (`recovery`)."""
        from replays import recovery  # Loaded by Continue, not before the first key (start-up).

        recovered = recovery.recover(engine, self, self.progress)
        if recovered is None:
            return Reset.to(next_screen(engine))
        if not recovered.screens:  # Its recording goes on past the game's end.
            return None
        engine.saved_at = None  # Saved once back on the game's own screen (`autosave`).
        return Reset((*recovered.screens, PopupMessage(recovered.message())))
