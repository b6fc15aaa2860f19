"""Event handlers: each screen of the game, turning events into actions.

The game keeps one handler at a time.  A handler answers each event with
either nothing, an `Action` for the engine to perform, or the next handler.
The keys they answer to are declared once, in `keys`; the help screen's text
comes from the same tables, through `key_help`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Union

import tcod
from tcod.event import KeySym

import actions
import color
import exceptions
import paths
import render_functions
import savefile
from actions import Action, BumpAction, PickupAction, TakeStairsAction, WaitAction
from components.level import Level
from key_help import help_sections
from keys import (
    CONFIRM_KEYS,
    CURSOR_Y_KEYS,
    HISTORY_JUMP_KEYS,
    MAIN_KEYS,
    MODIFIER_KEYS,
    MOVE_KEYS,
    WAIT_KEYS,
    Command,
    HistoryJump,
    cursor_step,
    key_of,
    letter_index,
)

if TYPE_CHECKING:
    from components.fighter import Fighter
    from engine import Engine
    from entity import Item


ActionOrHandler = Union[Action, "BaseEventHandler"]
"""An event handler return value which can trigger an action or switch active handlers.

If a handler is returned then it will become the active handler for future events.
If an action is returned it will be attempted and if it's valid then
MainGameEventHandler will become the active handler.
"""


class BaseEventHandler:
    def handle_events(self, event: tcod.event.Event) -> BaseEventHandler:
        """Handle an event and return the next active event handler."""
        state = self.dispatch(event)
        if isinstance(state, BaseEventHandler):
            return state
        assert not isinstance(state, Action), f"{self!r} can not handle actions."
        return self

    def dispatch(self, event: tcod.event.Event) -> ActionOrHandler | None:
        """Send the event to the `ev_*` method for its kind; ignore the rest.

        This replaces the dispatching base class the tutorial took from tcod, deprecated
        since tcod 18.
        """
        match event:
            case tcod.event.Quit():
                return self.ev_quit(event)
            case tcod.event.KeyDown():
                return self.ev_keydown(event)
            case tcod.event.MouseButtonDown():
                return self.ev_mousebuttondown(event)
            case tcod.event.MouseMotion():
                return self.ev_mousemotion(event)
        return None

    def on_render(self, console: tcod.console.Console) -> None:
        raise NotImplementedError()

    def engine_in_play(self) -> Engine | None:
        """The game this screen belongs to, if one is in play; it is what gets saved."""
        return None

    def ev_quit(self, event: tcod.event.Quit) -> ActionOrHandler | None:
        raise SystemExit()

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        return None

    def ev_mousebuttondown(
        self, event: tcod.event.MouseButtonDown
    ) -> ActionOrHandler | None:
        return None

    def ev_mousemotion(self, event: tcod.event.MouseMotion) -> ActionOrHandler | None:
        return None


class PopupMessage(BaseEventHandler):
    """Display a popup text window."""

    def __init__(self, parent_handler: BaseEventHandler, text: str):
        self.parent = parent_handler
        self.text = text

    def engine_in_play(self) -> Engine | None:
        return self.parent.engine_in_play()

    def on_render(self, console: tcod.console.Console) -> None:
        """Render the parent and dim the result, then print the message on top."""
        self.parent.on_render(console)
        console.rgb["fg"] //= 8
        console.rgb["bg"] //= 8

        lines = self.text.splitlines()
        top = console.height // 2 - len(lines) // 2
        for i, line in enumerate(lines):
            console.print(
                console.width // 2,
                top + i,
                line,
                fg=color.white,
                bg=color.black,
                alignment=tcod.constants.CENTER,
            )

    def ev_keydown(self, event: tcod.event.KeyDown) -> BaseEventHandler | None:
        """Any key returns to the parent handler."""
        if event.sym in MODIFIER_KEYS:
            return None
        return self.parent


class HelpScreen(BaseEventHandler):
    """Every key, drawn over the screen it was opened from; any key closes it."""

    TITLE = "Keys"

    def __init__(self, parent_handler: BaseEventHandler):
        self.parent = parent_handler

    def engine_in_play(self) -> Engine | None:
        return self.parent.engine_in_play()

    def on_render(self, console: tcod.console.Console) -> None:
        self.parent.on_render(console)
        console.rgb["fg"] //= 4
        console.rgb["bg"] //= 4
        render_functions.draw_window(
            console, 1, 0, console.width - 2, console.height, self.TITLE
        )
        y = 1
        for section, rows in help_sections():
            console.print(3, y, section, fg=color.menu_title)
            y += 1
            for keys, meaning in rows:
                console.print(4, y, keys, fg=color.white)
                console.print(console.width // 2, y, meaning, fg=color.white)
                y += 1
        console.print(
            console.width // 2,
            console.height - 1,
            "┤Press any key to close├",
            alignment=tcod.constants.CENTER,
        )

    def ev_keydown(self, event: tcod.event.KeyDown) -> BaseEventHandler | None:
        if event.sym in MODIFIER_KEYS:
            return None
        return self.parent

    def ev_mousebuttondown(
        self, event: tcod.event.MouseButtonDown
    ) -> BaseEventHandler | None:
        return self.parent


class EventHandler(BaseEventHandler):
    def __init__(self, engine: Engine):
        self.engine = engine

    def engine_in_play(self) -> Engine | None:
        """The engine, while the player lives: a finished game is not saved."""
        return self.engine if self.engine.player.is_alive else None

    def handle_events(self, event: tcod.event.Event) -> BaseEventHandler:
        """Handle events for input handlers with an engine."""
        action_or_state = self.dispatch(event)
        if isinstance(action_or_state, BaseEventHandler):
            return action_or_state
        if self.handle_action(action_or_state):
            # A valid action was performed.
            return self.main_handler()
        return self

    def handle_action(self, action: Action | None) -> bool:
        """Handle actions returned from event methods.

        Returns True if the action will advance a turn.
        """
        if action is None:
            return False

        try:
            action.perform()
        except exceptions.Impossible as exc:
            self.engine.message_log.add_message(exc.args[0], color.impossible)
            return False  # Skip enemy turn on exceptions.

        self.engine.handle_enemy_turns()

        self.engine.update_fov()
        return True

    def ev_mousemotion(self, event: tcod.event.MouseMotion) -> None:
        x, y = event.integer_position
        if self.engine.game_map.in_bounds(x, y):
            self.engine.mouse_location = x, y

    def on_render(self, console: tcod.console.Console) -> None:
        self.engine.render(console)

    def main_handler(self) -> EventHandler:
        """The screen play goes on in: game over for a dead player, the level-up
        choice while one is owed, else the main game.

        Also used when a game is continued: the tutorial lost a level-up owed
        when the game was saved until the player's next action.
        """
        if not self.engine.player.is_alive:
            # The player was killed sometime during or after the action.
            return GameOverEventHandler(self.engine)
        if self.engine.player.level.requires_level_up:
            return LevelUpEventHandler(self.engine)
        return MainGameEventHandler(self.engine)

    def side_x(self) -> int:
        """The left edge for a window on the side of the screen away from the player."""
        return 40 if self.engine.player.x <= 30 else 0


class AskUserEventHandler(EventHandler):
    """Handles user input for actions which require special input."""

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        """By default any key exits this input handler."""
        if event.sym in MODIFIER_KEYS:
            return None
        return self.on_exit()

    def ev_mousebuttondown(
        self, event: tcod.event.MouseButtonDown
    ) -> ActionOrHandler | None:
        """By default any mouse click exits this input handler."""
        return self.on_exit()

    def on_exit(self) -> ActionOrHandler | None:
        """Called when the user is trying to exit or cancel an action.

        By default this returns to the main event handler.
        """
        return MainGameEventHandler(self.engine)


class CharacterScreenEventHandler(AskUserEventHandler):
    TITLE = "Character Information"

    def on_render(self, console: tcod.console.Console) -> None:
        super().on_render(console)
        player = self.engine.player
        files = str(paths.data_dir().resolve())  # The save, morgue files, ...
        lines = [
            f"Level: {player.level.current_level}",
            f"XP: {player.level.current_xp}",
            f"XP for next Level: {player.level.experience_to_next_level}",
            f"Attack: {player.fighter.power}",
            f"Defense: {player.fighter.defense}",
            f"Seed: {self.engine.game_world.seed}",
            "Files kept in:",
            *(files[i : i + 36] for i in range(0, len(files), 36)),
        ]
        render_functions.draw_text_window(console, self.side_x(), 0, self.TITLE, lines)


@dataclass(frozen=True)
class LevelUpChoice:
    """One way to grow on the level-up screen: its line, and what it does."""

    describe: Callable[[Fighter], str]
    grow: Callable[[Level], None]


LEVEL_UP_CHOICES: Final = (
    LevelUpChoice(
        lambda fighter: f"Constitution (+20 HP, from {fighter.max_hp})", Level.increase_max_hp
    ),
    LevelUpChoice(
        lambda fighter: f"Strength (+1 attack, from {fighter.power})", Level.increase_power
    ),
    LevelUpChoice(
        lambda fighter: f"Agility (+1 defense, from {fighter.defense})", Level.increase_defense
    ),
)


class LevelUpEventHandler(AskUserEventHandler):
    TITLE = "Level Up"

    def on_render(self, console: tcod.console.Console) -> None:
        super().on_render(console)
        fighter = self.engine.player.fighter
        lines = [
            "Congratulations! You level up!",
            "Select an attribute to increase.",
            "",
            *(
                f"{chr(ord('a') + i)}) {choice.describe(fighter)}"
                for i, choice in enumerate(LEVEL_UP_CHOICES)
            ),
        ]
        # The tutorial's fixed width of 35 is the least; from 100 HP on, the
        # first choice would have run over it.
        render_functions.draw_text_window(
            console, self.side_x(), 0, self.TITLE, lines, min_width=35
        )

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        if event.sym in MODIFIER_KEYS:
            return None
        index = letter_index(event.sym)
        if index is None or index >= len(LEVEL_UP_CHOICES):
            self.engine.message_log.add_message("Invalid entry.", color.invalid)
            return None

        LEVEL_UP_CHOICES[index].grow(self.engine.player.level)
        # The tutorial went back to the game here even when one kill had
        # earned two levels; the second one is offered straight away.
        if self.engine.player.level.requires_level_up:
            return LevelUpEventHandler(self.engine)
        return self.on_exit()

    def ev_mousebuttondown(
        self, event: tcod.event.MouseButtonDown
    ) -> ActionOrHandler | None:
        """Don't allow the player to click to exit the menu, like normal."""
        return None


class InventoryEventHandler(AskUserEventHandler):
    """This handler lets the user select an item.

    What happens then depends on the subclass.
    """

    TITLE = "<missing title>"

    def item_lines(self) -> list[str]:
        """One line per carried item, `(E)` marking what is worn."""
        player = self.engine.player
        lines = []
        for i, item in enumerate(player.inventory.items):
            item_string = f"({chr(ord('a') + i)}) {item.name}"
            if player.equipment.item_is_equipped(item):
                item_string = f"{item_string} (E)"
            lines.append(item_string)
        return lines or ["(Empty)"]

    def on_render(self, console: tcod.console.Console) -> None:
        """Render an inventory menu, which displays the items in the inventory, and the letter to select them.

        Will move to a different position based on where the player is located, so the player can always see where
        they are.
        """
        super().on_render(console)
        render_functions.draw_text_window(
            console, self.side_x(), 0, self.TITLE, self.item_lines()
        )

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        player = self.engine.player
        index = letter_index(event.sym)
        if index is not None:
            try:
                selected_item = player.inventory.items[index]
            except IndexError:
                self.engine.message_log.add_message("Invalid entry.", color.invalid)
                return None
            return self.on_item_selected(selected_item)
        return super().ev_keydown(event)

    def on_item_selected(self, item: Item) -> ActionOrHandler | None:
        """Called when the user selects a valid item."""
        raise NotImplementedError()


class InventoryActivateHandler(InventoryEventHandler):
    """Handle using an inventory item."""

    TITLE = "Select an item to use"

    def on_item_selected(self, item: Item) -> ActionOrHandler | None:
        """Return the action for the selected item."""
        if item.consumable:
            return item.consumable.get_action(self.engine.player)
        if item.equippable:
            return actions.EquipAction(self.engine.player, item)
        return None


class InventoryDropHandler(InventoryEventHandler):
    """Handle dropping an inventory item."""

    TITLE = "Select an item to drop"

    def on_item_selected(self, item: Item) -> ActionOrHandler | None:
        """Drop this item."""
        return actions.DropItem(self.engine.player, item)


class SelectIndexHandler(AskUserEventHandler):
    """Handles asking the user for an index on the map."""

    def __init__(self, engine: Engine):
        """Sets the cursor to the player when this handler is constructed."""
        super().__init__(engine)
        player = self.engine.player
        engine.mouse_location = player.x, player.y

    def on_render(self, console: tcod.console.Console) -> None:
        """Highlight the tile under the cursor."""
        super().on_render(console)
        x, y = self.engine.mouse_location
        console.rgb["bg"][x, y] = color.white
        console.rgb["fg"][x, y] = color.black

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        """Check for key movement or confirmation keys."""
        key = event.sym
        if key in MOVE_KEYS:
            step = cursor_step(event.mod)
            x, y = self.engine.mouse_location
            dx, dy = MOVE_KEYS[key]
            x += dx * step
            y += dy * step
            # Clamp the cursor index to the map size.
            x = max(0, min(x, self.engine.game_map.width - 1))
            y = max(0, min(y, self.engine.game_map.height - 1))
            self.engine.mouse_location = x, y
            return None
        if key in CONFIRM_KEYS:
            return self.on_index_selected(*self.engine.mouse_location)
        return super().ev_keydown(event)

    def ev_mousebuttondown(
        self, event: tcod.event.MouseButtonDown
    ) -> ActionOrHandler | None:
        """Left click confirms a selection."""
        x, y = event.integer_position
        if self.engine.game_map.in_bounds(x, y) and event.button == tcod.event.MouseButton.LEFT:
            return self.on_index_selected(x, y)
        return super().ev_mousebuttondown(event)

    def on_index_selected(self, x: int, y: int) -> ActionOrHandler | None:
        """Called when an index is selected."""
        raise NotImplementedError()


class LookHandler(SelectIndexHandler):
    """Lets the player look around using the keyboard."""

    def on_index_selected(self, x: int, y: int) -> MainGameEventHandler:
        """Return to main handler."""
        return MainGameEventHandler(self.engine)


class SingleRangedAttackHandler(SelectIndexHandler):
    """Handles targeting a single enemy. Only the enemy selected will be affected."""

    def __init__(
        self, engine: Engine, callback: Callable[[tuple[int, int]], Action | None]
    ):
        super().__init__(engine)

        self.callback = callback

    def on_index_selected(self, x: int, y: int) -> Action | None:
        return self.callback((x, y))


class AreaRangedAttackHandler(SelectIndexHandler):
    """Handles targeting an area within a given radius. Any entity within the area will be affected."""

    def __init__(
        self,
        engine: Engine,
        radius: int,
        callback: Callable[[tuple[int, int]], Action | None],
    ):
        super().__init__(engine)

        self.radius = radius
        self.callback = callback

    def on_render(self, console: tcod.console.Console) -> None:
        """Highlight the tile under the cursor, and the blast radius around it."""
        super().on_render(console)

        x, y = self.engine.mouse_location

        # Draw a rectangle around the targeted area, so the player can see
        # the affected tiles.  The tutorial made it radius**2 wide, which is
        # right only for a radius of 3; the area is 2 * radius + 1 across.
        console.draw_frame(
            x=x - self.radius - 1,
            y=y - self.radius - 1,
            width=2 * self.radius + 3,
            height=2 * self.radius + 3,
            fg=color.red,
            clear=False,
        )

    def on_index_selected(self, x: int, y: int) -> Action | None:
        return self.callback((x, y))


class MainGameEventHandler(EventHandler):
    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        player = self.engine.player
        key = key_of(event)

        if key in MOVE_KEYS:
            return BumpAction(player, *MOVE_KEYS[key])
        if key in WAIT_KEYS:
            return WaitAction(player)

        match MAIN_KEYS.get(key):
            case Command.DESCEND:
                return TakeStairsAction(player)
            case Command.PICKUP:
                return PickupAction(player)
            case Command.INVENTORY:
                return InventoryActivateHandler(self.engine)
            case Command.DROP:
                return InventoryDropHandler(self.engine)
            case Command.CHARACTER:
                return CharacterScreenEventHandler(self.engine)
            case Command.HISTORY:
                return HistoryViewer(self.engine)
            case Command.LOOK:
                return LookHandler(self.engine)
            case Command.HELP:
                return HelpScreen(self)
            case Command.QUIT:
                raise SystemExit()
        # No valid key was pressed.
        return None


def remove_save() -> None:
    """Delete the save, if there is one: the game it held is over."""
    if os.path.exists(savefile.SAVE_FILENAME):
        os.remove(savefile.SAVE_FILENAME)


class GameOverEventHandler(EventHandler):
    def __init__(self, engine: Engine):
        super().__init__(engine)
        # The game is over, so its last save (made while the player lived)
        # goes now.  The tutorial deleted it only when this screen was left
        # with Escape or by closing the window: closing the window on the
        # message history opened from here kept it, and Continue brought the
        # dead player back (found by tests/test_e2e.py).
        remove_save()

    def on_quit(self) -> None:
        """Handle exiting out of a finished game."""
        remove_save()
        raise exceptions.QuitWithoutSaving()  # Avoid saving a finished game.

    def ev_quit(self, event: tcod.event.Quit) -> None:
        self.on_quit()

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        if event.sym == KeySym.ESCAPE:
            self.on_quit()
        if MAIN_KEYS.get(key_of(event)) is Command.HISTORY:
            return HistoryViewer(self.engine)
        return None


class HistoryViewer(EventHandler):
    """Print the history on a larger window which can be navigated."""

    def __init__(self, engine: Engine):
        super().__init__(engine)
        self.log_length = len(engine.message_log.messages)
        self.cursor = max(0, self.log_length - 1)

    def on_render(self, console: tcod.console.Console) -> None:
        super().on_render(console)  # Draw the main state as the background.

        log_console = tcod.console.Console(console.width - 6, console.height - 6, order="F")

        # Draw a frame with a custom banner title.
        render_functions.draw_window(
            log_console, 0, 0, log_console.width, log_console.height, "Message history"
        )

        # Render the message log using the cursor parameter.
        self.engine.message_log.render_messages(
            log_console,
            1,
            1,
            log_console.width - 2,
            log_console.height - 2,
            self.engine.message_log.messages[: self.cursor + 1],
        )
        log_console.blit(console, 3, 3)

    def ev_keydown(self, event: tcod.event.KeyDown) -> EventHandler | None:
        last = max(0, self.log_length - 1)
        if event.sym in CURSOR_Y_KEYS:
            adjust = CURSOR_Y_KEYS[event.sym]
            if adjust < 0 and self.cursor == 0:
                # Only move from the top to the bottom when you're on the edge.
                self.cursor = last
            elif adjust > 0 and self.cursor == last:
                # Same with bottom to top movement.
                self.cursor = 0
            else:
                # Otherwise move while staying clamped to the bounds of the history log.
                self.cursor = max(0, min(self.cursor + adjust, last))
        elif event.sym in HISTORY_JUMP_KEYS:
            self.cursor = 0 if HISTORY_JUMP_KEYS[event.sym] is HistoryJump.TOP else last
        elif event.sym in MODIFIER_KEYS:
            return None
        else:  # Any other key moves back to the main game state.
            return self.main_handler()
        return None
