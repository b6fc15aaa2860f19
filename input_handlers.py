"""The screens of a game under way: each handler turns events into nothing,
an `Action` for the engine, or the next handler (keys come from `keys`)."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import tcod

import actions
import color
import exceptions
import render_functions
from actions import (
    Action,
    BumpAction,
    MovementAction,
    PickupAction,
    TakeStairsAction,
    WaitAction,
)
from components.inventory import LETTERS, stack_name
from components.level import Level
from controls import autofight, targeting, travel
from controls.blast import blast_tiles, in_blast
from controls.key_help import command_rows
from controls.keys import (
    ANSWER_KEYS,
    CONFIRM_KEYS,
    CURSOR_Y_KEYS,
    GAME_OVER_KEYS,
    HISTORY_JUMP_KEYS,
    MAIN_BUTTONS,
    RUN_MODIFIER,
    Answer,
    Command,
    HistoryJump,
    Key,
    cursor_step,
    does_nothing,
    key_of,
    letter_index,
    target_step,
)
from replays.recording import Autofight
from saving import paths
from screens import death
from screens.base import ActionOrHandler as ActionOrHandler
from screens.base import BaseEventHandler as BaseEventHandler
from screens.base import Overlay as Overlay
from screens.base import PopupMessage as PopupMessage
from screens.game_over import daily_name
from screens.hall_of_fame_screen import HallOfFameScreen
from screens.help_screen import HelpScreen
from screens.options_screen import OptionsScreen
from words import descriptions, questions

if TYPE_CHECKING:
    from components.fighter import Fighter
    from engine import Engine
    from entity import Item
    from window.options import Settings


class EventHandler(BaseEventHandler):
    """A screen of a game under way, which performs the actions its events make."""

    def __init__(self, engine: Engine):
        self.engine = engine

    @property
    def settings(self) -> Settings:
        return self.engine.settings

    def engine_in_play(self) -> Engine | None:
        """The engine, while the player lives: a finished game is not saved."""
        return self.engine if self.engine.player.is_alive else None

    def handle_events(self, event: tcod.event.Event) -> BaseEventHandler:
        """Handle events for input handlers with an engine."""
        action_or_state = self.dispatch(event)
        if isinstance(action_or_state, BaseEventHandler):
            return action_or_state
        if self.handle_action(action_or_state):
            return next_screen(self.engine)
        return self

    def handle_action(self, action: Action | None) -> bool:
        """Perform `action`, then the monsters' turn; True if a turn passed."""
        if action is None:
            return False

        try:
            action.perform()
        except exceptions.Impossible as exc:
            self.engine.message_log.add_message(exc.args[0], color.impossible)
            return False  # Skip enemy turn on exceptions.

        self.engine.handle_enemy_turns()
        self.engine.turns += 1  # After the monsters', so the turn's messages share its number.

        self.engine.update_fov()
        return True

    def ev_mousemotion(self, event: tcod.event.MouseMotion) -> None:
        x, y = event.integer_position
        if self.engine.game_map.in_bounds(x, y):
            self.engine.mouse_location = x, y

    def on_render(self, console: tcod.console.Console) -> None:
        self.engine.render(console)

    def side_x(self, width: int, console_width: int) -> int:
        """The left edge for a window on the side of the screen away from the player."""
        # Differs from the tutorial: a wide window moves left of x = 40 to fit.
        if self.engine.player.x <= 30:
            return max(0, min(40, console_width - width))
        return 0

    def draw_side_window(
        self, console: tcod.console.Console, title: str, lines: list[str], min_width: int = 0
    ) -> None:
        """Dim the map and draw a titled window of `lines` on the side away from the player."""
        render_functions.dim(console)
        width = render_functions.text_window_width(title, lines, min_width)
        x = self.side_x(width, console.width)
        render_functions.draw_text_window(console, x, 0, title, lines, min_width)


class AskUserEventHandler(EventHandler):
    """A screen asking the player something; by default any key or click leaves it."""

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        """By default any key exits this input handler."""
        return self.on_exit()

    def ev_textinput(self, event: tcod.event.TextInput) -> ActionOrHandler | None:
        """A symbol's key is any key too."""
        return self.on_exit()

    def ev_mousebuttondown(
        self, event: tcod.event.MouseButtonDown
    ) -> ActionOrHandler | None:
        """By default any mouse click exits this input handler."""
        return self.on_exit()

    def on_exit(self) -> ActionOrHandler | None:
        """The screen after the player leaves or cancels: by default, the dungeon."""
        return MainGameEventHandler(self.engine)


class CharacterScreenEventHandler(AskUserEventHandler):
    """The player's level, stats, seed and where the game keeps its files."""

    TITLE = "Character Information"

    def on_render(self, console: tcod.console.Console) -> None:
        super().on_render(console)
        self.draw_side_window(console, self.TITLE, self.lines())

    def lines(self) -> list[str]:
        """The window's lines, one a fact."""
        player = self.engine.player
        files = paths.shown(paths.data_dir().resolve())  # The save, morgue files, ...
        fighter = player.fighter
        return [
            # Differs from the tutorial: HP, depth and turns too.
            f"HP: {fighter.hp}/{fighter.max_hp}",
            f"Dungeon level: {self.engine.game_world.current_floor}",
            f"Turns: {self.engine.turns}",
            f"Level: {player.level.current_level}",
            # Differs from the tutorial: XP counts from the game's start.
            f"XP: {player.level.total_xp}",
            f"XP for next Level: {player.level.next_level_total_xp}",
            f"Attack: {player.fighter.power}",
            f"Defense: {player.fighter.defense}",
            f"Seed: {self.engine.game_world.seed}",
            *self.daily_lines(),
            "Files kept in:",
            *(files[i : i + 36] for i in range(0, len(files), 36)),
        ]

    def daily_lines(self) -> list[str]:
        """A daily game's date (and try), under its seed."""
        world = self.engine.game_world
        return [] if world.daily is None else [daily_name(world.daily, world.daily_try)]


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
    """The choice of what grows on a new level; only a choice's letter leaves it."""

    TITLE = "Level Up"

    def on_render(self, console: tcod.console.Console) -> None:
        super().on_render(console)
        # Differs from the tutorial: 35 wide at least, wider from 100 HP on.
        self.draw_side_window(console, self.TITLE, self.lines(), min_width=35)

    def lines(self) -> list[str]:
        """The window's lines: the greeting, then each choice with its letter."""
        fighter = self.engine.player.fighter
        return [
            "Congratulations! You level up!",
            "Select an attribute to increase.",
            "",
            *(
                f"{chr(ord('a') + i)}) {choice.describe(fighter)}"
                for i, choice in enumerate(LEVEL_UP_CHOICES)
            ),
        ]

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        index = letter_index(event.sym)
        if index is None or index >= len(LEVEL_UP_CHOICES):
            self.engine.message_log.add_message("Invalid entry.", color.invalid)
            return None

        LEVEL_UP_CHOICES[index].grow(self.engine.player.level)
        # Differs from the tutorial: a second level from the same kill is offered at once.
        if self.engine.player.level.requires_level_up:
            return LevelUpEventHandler(self.engine)
        return self.on_exit()

    def ev_textinput(self, event: tcod.event.TextInput) -> None:
        """A symbol chooses nothing, as any key but the choices' letters."""
        self.engine.message_log.add_message("Invalid entry.", color.invalid)

    def ev_mousebuttondown(
        self, event: tcod.event.MouseButtonDown
    ) -> ActionOrHandler | None:
        """Don't allow the player to click to exit the menu, like normal."""
        return None


class InventoryEventHandler(AskUserEventHandler):
    """The inventory, an item chosen by its letter; subclasses say what then."""

    TITLE = "<missing title>"

    def fits(self, item: Item) -> bool:
        """Whether the screen lists `item` and its letter acts on it."""
        return True

    def item_lines(self) -> list[str]:
        """One line per listed stack: letter, name and count, `(E)` if worn, and its effect."""
        player = self.engine.player
        lines = []
        for letter, stack in player.inventory.listing():
            item = stack[0]
            if not self.fits(item):
                continue  # Letters stay the inventory's: `q` then `c` acts on `i`'s (c).
            item_string = f"({letter}) {stack_name(stack)}"
            if player.equipment.item_is_equipped(item):
                item_string = f"{item_string} (E)"
            effect = descriptions.item_effect(item)
            lines.append(f"{item_string}: {effect}" if effect else item_string)
        return lines or ["(Empty)"]

    def on_render(self, console: tcod.console.Console) -> None:
        """The inventory on the side away from the player, who stays in sight."""
        super().on_render(console)
        self.draw_side_window(console, self.TITLE, self.item_lines())

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        player = self.engine.player
        index = letter_index(event.sym)
        if index is not None:
            stack = player.inventory.stack(LETTERS[index])
            if not stack or not self.fits(stack[0]):
                self.engine.message_log.add_message("Invalid entry.", color.invalid)
                return None
            return self.on_item_selected(stack[0])
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


class VerbHandler(InventoryActivateHandler):
    """`q`, `r` or `w`: only what the verb fits, as in NetHack and DCSS; a letter acts as in `i`."""

    NOTHING = "<missing message>"  # Said, at no cost, when nothing carried fits.

    @classmethod
    def opened(cls, engine: Engine) -> VerbHandler | None:
        """The screen, or None (the log says why) when nothing carried fits."""
        screen = cls(engine)
        if not any(screen.fits(item) for item in engine.player.inventory.items):
            engine.message_log.add_message(cls.NOTHING, color.impossible)
            return None
        return screen


class QuaffHandler(VerbHandler):
    """The potions carried."""

    TITLE = "Quaff which potion?"
    NOTHING = "You have nothing to quaff."

    def fits(self, item: Item) -> bool:
        return item.consumable is not None and item.consumable.quaffed


class ReadHandler(VerbHandler):
    """The scrolls carried."""

    TITLE = "Read which scroll?"
    NOTHING = "You have nothing to read."

    def fits(self, item: Item) -> bool:
        return item.consumable is not None and not item.consumable.quaffed


class WearHandler(VerbHandler):
    """What can be worn or wielded."""

    TITLE = "Wear or wield which?"
    NOTHING = "You have nothing to wear or wield."

    def fits(self, item: Item) -> bool:
        return item.equippable is not None


class InventoryDropHandler(InventoryEventHandler):
    """Handle dropping an inventory item."""

    TITLE = "Select an item to drop"

    def on_item_selected(self, item: Item) -> ActionOrHandler | None:
        """Drop this item."""
        return actions.DropItem(self.engine.player, item)


class SelectIndexHandler(AskUserEventHandler):
    """Handles asking the user for an index on the map."""

    def __init__(self, engine: Engine):
        """Puts the cursor where this kind of selection starts (see `start_location`)."""
        super().__init__(engine)
        engine.mouse_location = self.start_location()

    def start_location(self) -> tuple[int, int]:
        """Where the cursor starts: on the player."""
        player = self.engine.player
        return player.x, player.y

    def on_render(self, console: tcod.console.Console) -> None:
        """Highlight the tile under the cursor, over any marks of the selection."""
        super().on_render(console)
        self.draw_marks(console)
        x, y = self.engine.mouse_location
        console.rgb["bg"][x, y] = color.white
        console.rgb["fg"][x, y] = color.black
        # What the cursor is on, and where from the player: what the screen reader says.
        line = questions.at_cursor(self.engine, x, y)[: render_functions.NAMES_WIDTH]
        console.print(*render_functions.NAMES_AT, f"{line:<{render_functions.NAMES_WIDTH}}", fg=color.white)

    def draw_marks(self, console: tcod.console.Console) -> None:
        """Mark what choosing the tile under the cursor would affect; nothing by default."""

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        """Check for key movement or confirmation keys."""
        key = event.sym
        move_keys = self.settings.keys.move
        if key in move_keys:
            step = cursor_step(event.mod)
            x, y = self.engine.mouse_location
            dx, dy = move_keys[key]
            x += dx * step
            y += dy * step
            x = max(0, min(x, self.engine.game_map.width - 1))
            y = max(0, min(y, self.engine.game_map.height - 1))
            self.engine.mouse_location = x, y
            return None
        target_keys_step = target_step(event)
        if target_keys_step is not None:
            enemy = targeting.cycled_target(
                self.engine, self.engine.mouse_location, target_keys_step
            )
            if enemy is not None:
                self.engine.mouse_location = enemy.x, enemy.y
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
    """Lets the player look around using the keyboard; travel's key (`_`)
    walks to the tile under the cursor."""

    def on_index_selected(self, x: int, y: int) -> ActionOrHandler | None:
        """Describe what stands on the chosen tile; any key comes back here."""
        return LookDescription(self, x, y)

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        if self.travels(event):
            return self.travel(*self.engine.mouse_location)
        return super().ev_keydown(event)

    def ev_textinput(self, event: tcod.event.TextInput) -> ActionOrHandler | None:
        if self.travels(event):
            return self.travel(*self.engine.mouse_location)
        return super().ev_textinput(event)

    def travels(self, event: tcod.event.KeyDown | tcod.event.TextInput) -> bool:
        """Whether the event presses travel's key (`_`, or the key file's), which here
        walks to the tile under the cursor."""
        return not does_nothing(event) and self.settings.keys.main.get(key_of(event)) is Command.TRAVEL

    def travel(self, x: int, y: int) -> BaseEventHandler:
        """The walk to (x, y), stopping as walks stop; or the dungeon, the log saying why not."""
        game = MainGameEventHandler(self.engine)
        return game.start_walk(travel.Travel(x, y)) or game


class TravelHandler(LookHandler):
    """Travel (NetHack's `_`): a cursor, and Enter, a click or `_` again walks there."""

    def __init__(self, engine: Engine):
        super().__init__(engine)
        engine.message_log.add_message(TRAVEL_PROMPT, color.needs_target)

    def on_index_selected(self, x: int, y: int) -> ActionOrHandler | None:
        return self.travel(x, y)


TRAVEL_PROMPT: Final = "Travel where? Move the cursor; Enter or _ walks there, Esc cancels."


class LookDescription(Overlay):
    """A window describing the tile chosen in look mode; any key goes back to looking."""

    parent: LookHandler

    def __init__(self, parent: LookHandler, x: int, y: int):
        super().__init__(parent)
        self.x, self.y = x, y

    def on_render(self, console: tcod.console.Console) -> None:
        """The look cursor, the map dimmed, and the window on the side away from the tile."""
        super().on_render(console)
        render_functions.dim(console)
        title, lines = descriptions.describe_tile(self.x, self.y, self.parent.engine)
        width = render_functions.text_window_width(title, lines)
        x = console.width - width if self.x < console.width // 2 else 0
        render_functions.draw_text_window(console, x, 0, title, lines)


class AnswerScreen(Overlay):
    """The answer to one of the questions of `words.questions` (what is in view,
    around me, where am I, status, the map as text), beside the map.  Any key closes it and does
    what it does in the dungeon, so that questions and moves follow one another."""

    parent: EventHandler

    def __init__(self, parent: EventHandler, question: Command):
        super().__init__(parent)
        self.title, answer = questions.QUESTIONS[question]
        self.lines = answer(parent.engine)  # Asked now: the game stands still while it shows.

    def on_render(self, console: tcod.console.Console) -> None:
        super().on_render(console)
        self.parent.draw_side_window(console, self.title, self.lines)

    def handle_events(self, event: tcod.event.Event) -> BaseEventHandler:
        if isinstance(event, tcod.event.KeyDown | tcod.event.TextInput) and not does_nothing(event):
            if self.settings.keys.main.get(key_of(event)) is Command.QUIT:
                return self.parent  # Escape closes the answer only, as it closes other screens.
            return self.parent.handle_events(event)
        return super().handle_events(event)

    def autofight_press(self, event: tcod.event.Event) -> Autofight | None:
        return self.parent.autofight_press(event)

    def play_autofight(self, press: Autofight) -> BaseEventHandler:
        return self.parent.play_autofight(press)


SAVE_AND_QUIT = "Save and quit? (y/n)"


def save_and_quit() -> Action | None:
    """Leave the game: the main loop saves it on the way out, as on closing the window."""
    raise SystemExit()


class ConfirmHandler(Overlay):
    """A yes-or-no question over the screen that asked it: yes performs the
    action, no goes back at no cost, and nothing else answers."""

    parent: EventHandler

    def __init__(
        self, parent: EventHandler, question: str, on_yes: Callable[[], Action | None]
    ):
        super().__init__(parent)
        self.question = question
        self.on_yes = on_yes

    # A map row the question's window keeps away from (the blast's centre), if any.
    clear_of_row: int | None = None

    def on_render(self, console: tcod.console.Console) -> None:
        super().on_render(console)
        render_functions.draw_popup(console, self.question, away_from_row=self.clear_of_row)

    def ev_keydown(self, event: tcod.event.KeyDown) -> BaseEventHandler | None:
        match ANSWER_KEYS.get(event.sym):
            case Answer.YES:
                if self.parent.handle_action(self.on_yes()):
                    return next_screen(self.parent.engine)
                return self.parent
            case Answer.NO:
                return self.parent
        return None

    def ev_textinput(self, event: tcod.event.TextInput) -> None:
        """Only the answers' keys answer."""

    def ev_mousebuttondown(self, event: tcod.event.MouseButtonDown) -> None:
        """Nor does a click."""


class TargetingHandler(SelectIndexHandler):
    """Aiming an item: the cursor starts on an enemy, and the choice is remembered."""

    def __init__(
        self, engine: Engine, callback: Callable[[tuple[int, int]], Action | None]
    ):
        super().__init__(engine)
        self.callback = callback

    def on_exit(self) -> ActionOrHandler | None:
        """Esc (or any key that chooses nothing): the item is kept, and the log says so."""
        self.engine.message_log.add_message("Cancelled.", color.impossible)
        return super().on_exit()

    def start_location(self) -> tuple[int, int]:
        """On the last or nearest enemy in view (`targeting.first_target`), else the player."""
        enemy = targeting.first_target(self.engine)
        if enemy is None:
            return super().start_location()
        return enemy.x, enemy.y

    def remember_target(self, x: int, y: int) -> None:
        """The monster at (x, y), if any, is where the next aim starts."""
        actor = self.engine.game_map.get_actor_at_location(x, y)
        if actor is not None and actor is not self.engine.player:
            self.engine.game_map.last_target = actor

    def on_index_selected(self, x: int, y: int) -> ActionOrHandler | None:
        self.remember_target(x, y)
        return self.callback((x, y))


class SingleRangedAttackHandler(TargetingHandler):
    """Handles targeting a single enemy. Only the enemy selected will be affected."""


class AreaRangedAttackHandler(TargetingHandler):
    """Handles targeting an area within a given radius. Any entity within the area will be affected."""

    HIT_YOURSELF = "The blast will hit you too. Cast it anyway? (y/n)"

    def __init__(
        self,
        engine: Engine,
        radius: int,
        callback: Callable[[tuple[int, int]], Action | None],
    ):
        super().__init__(engine, callback)
        self.radius = radius

    def draw_marks(self, console: tcod.console.Console) -> None:
        """Tint the tiles the blast would hit, by the damage's own test, keeping their glyphs."""
        # Differs from the tutorial: no square frame hiding the glyphs.
        game_map = self.engine.game_map
        area = blast_tiles(self.engine.mouse_location, self.radius)
        render_functions.tint(
            console, [(x, y) for x, y in area if game_map.in_bounds(x, y)], color.blast_area
        )

    def on_index_selected(self, x: int, y: int) -> ActionOrHandler | None:
        """Aim there; if the player stands inside the blast, ask first."""
        self.remember_target(x, y)
        player = self.engine.player
        if in_blast((x, y), self.radius, player.x, player.y):
            question = ConfirmHandler(self, self.HIT_YOURSELF, lambda: self.callback((x, y)))
            question.clear_of_row = y  # The question hides nothing of the blast it asks about.
            return question
        return self.callback((x, y))


class MainGameEventHandler(EventHandler):
    """The dungeon: keys and clicks become the player's actions."""

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        move_keys = self.settings.keys.move
        if event.sym in move_keys:
            dx, dy = move_keys[event.sym]
            if event.mod & RUN_MODIFIER:
                return self.start_walk(travel.Run(dx, dy))
            return BumpAction(self.engine.player, dx, dy)
        return self.on_key(event.sym)

    def ev_textinput(self, event: tcod.event.TextInput) -> ActionOrHandler | None:
        return self.on_key(key_of(event))

    def on_key(self, key: Key) -> ActionOrHandler | None:
        """What a key or a typed symbol does in the dungeon, moves aside."""
        player = self.engine.player
        if key in self.settings.keys.wait:
            return WaitAction(player)

        match self.settings.keys.main.get(key):
            case Command.DESCEND:
                return self.descend()
            case Command.EXPLORE:
                return self.start_walk(travel.Explore(gather=self.settings.options.gather_items))
            case Command.AUTOFIGHT:
                return self.autofight_action(autofight.decide(self.engine, self.settings.options.autofight_stop))
            case Command.PICKUP:
                return PickupAction(player)
            case Command.INVENTORY:
                return InventoryActivateHandler(self.engine)
            case Command.QUAFF:
                return QuaffHandler.opened(self.engine)
            case Command.READ:
                return ReadHandler.opened(self.engine)
            case Command.WEAR:
                return WearHandler.opened(self.engine)
            case Command.DROP:
                return InventoryDropHandler(self.engine)
            case Command.CHARACTER:
                return CharacterScreenEventHandler(self.engine)
            case Command.HISTORY:
                return HistoryViewer(self)
            case Command.LOOK:
                return LookHandler(self.engine)
            case Command.TRAVEL:
                return TravelHandler(self.engine)
            case Command.HELP:
                return HelpScreen(self)
            case Command.OPTIONS:
                return OptionsScreen(self)
            case Command() as question if question in questions.QUESTIONS:
                return AnswerScreen(self, question)
            case Command.QUIT:
                # Escape is what DCSS and Brogue players press to cancel: ask.
                return ConfirmHandler(self, SAVE_AND_QUIT, save_and_quit)
        return None

    def autofight_press(self, event: tcod.event.Event) -> Autofight | None:
        if not isinstance(event, tcod.event.KeyDown | tcod.event.TextInput) or does_nothing(event):
            return None
        if isinstance(event, tcod.event.KeyDown) and event.sym in self.settings.keys.move:
            return None
        if self.settings.keys.main.get(key_of(event)) is not Command.AUTOFIGHT:
            return None
        return autofight.decide(self.engine, self.settings.options.autofight_stop)

    def play_autofight(self, press: Autofight) -> BaseEventHandler:
        if self.handle_action(self.autofight_action(press)):
            return next_screen(self.engine)
        return self

    def autofight_action(self, press: Autofight) -> Action | None:
        """The bump a press of autofight makes, or None: the log says why, and no turn passes."""
        if press.direction is None:
            self.engine.message_log.add_message(autofight.refusal(self.engine), color.impossible)
            return None
        return BumpAction(self.engine.player, *press.direction)

    def ev_mousebuttondown(
        self, event: tcod.event.MouseButtonDown
    ) -> ActionOrHandler | None:
        x, y = event.integer_position
        if MAIN_BUTTONS.get(event.button) is Command.WALK_TO and self.engine.game_map.in_bounds(x, y):
            return self.start_walk(travel.Travel(x, y))
        return None

    def descend(self) -> ActionOrHandler | None:
        """Down the stairs underfoot; else a walk to them, once they have been seen."""
        game_map, player = self.engine.game_map, self.engine.player
        if (player.x, player.y) == game_map.downstairs_location:
            return TakeStairsAction(player)
        if not travel.stairs_known(game_map):
            self.engine.message_log.add_message(travel.NO_STAIRS, color.impossible)
            return None
        return self.start_walk(travel.Travel(*game_map.downstairs_location))

    def start_walk(self, walk: travel.Walk) -> WalkHandler | None:
        """The walk under way, or None (the log says why; no turn passes) if it can't start."""
        reason = travel.refusal(self.engine)
        step = walk.next_step(self.engine) if reason is None else None
        if isinstance(step, travel.Stop):
            reason = step.reason
        if step is None or isinstance(step, travel.Stop):
            if reason is not None:
                self.engine.message_log.add_message(reason, color.impossible)
            return None
        return WalkHandler(self.engine, walk, step)


class WalkHandler(AskUserEventHandler):
    """A walk under way (`travel`): the main loop calls `advance` for each step,
    and any key or click only stops it."""

    walking = True

    def __init__(self, engine: Engine, walk: travel.Walk, first_step: travel.Step):
        super().__init__(engine)
        self.walk = walk
        self.next_step = first_step
        self.watch = travel.Watch(engine, items=walk.stops_for_items)

    def on_exit(self) -> BaseEventHandler:
        return self.stopped()

    def ev_mousebuttondown(self, event: tcod.event.MouseButtonDown) -> BaseEventHandler | None:
        """A click stops the walk, unless on where it is going (a double click's second)."""
        if isinstance(self.walk, travel.Travel) and event.integer_position == self.walk.dest:
            return None
        return self.on_exit()

    def stop_walking(self) -> BaseEventHandler:
        return self.stopped()

    def stopped(self, reason: str | None = None) -> BaseEventHandler:
        """The screen after the walk, which says why it stopped, if it must."""
        if reason is not None:
            # Each stop is news of its own: two orcs coming into view are two lines.
            self.engine.message_log.add_message(reason, stack=False)
        return next_screen(self.engine)

    def advance(self) -> BaseEventHandler:
        """Take one step as a turn, then look whether the walk must stop."""
        engine = self.engine
        # Whatever happened since the last step, outside of a turn.
        reason = self.watch.news(engine)
        if reason is not None:
            return self.stopped(reason)
        if isinstance(self.next_step, travel.PickUp):
            action: Action = PickupAction(engine.player)
        else:
            dx, dy = self.next_step
            to_pick_up = self.walk.picks_up_at(engine, engine.player.x + dx, engine.player.y + dy)
            action = MovementAction(engine.player, dx, dy, to_pick_up)
        if not self.handle_action(action):
            return self.stopped()  # The action said why.
        self.walk_steps += 1
        after = next_screen(self.engine)
        if not isinstance(after, MainGameEventHandler):
            return after  # Death, or a level-up to choose.
        reason = self.watch.news(engine)
        if reason is not None or self.walk.stops_underfoot(engine):
            return self.stopped(reason)
        step = self.walk.next_step(engine)
        if isinstance(step, travel.Stop):
            return self.stopped(step.reason)
        self.next_step = step
        return self


class GameOverEventHandler(EventHandler):
    """The end of a game: the map as it was, under a window telling how it ended."""

    TITLE = "Game over"

    def __init__(self, engine: Engine, record: death.Record):
        super().__init__(engine)
        self.record = record

    def lines(self, width: int) -> list[str]:
        """The window's text, wrapped to `width`."""
        record = self.record
        if record.morgue_path is None:
            kept = ["No morgue file could be written."]
        else:
            kept = [f"Morgue file: {record.morgue_path}"]
        if record.entered.rank is None:
            kept.append("The game did not make the hall of fame.")
        else:
            kept.append(
                f"Hall of fame: number {record.entered.rank + 1} of {len(record.entered.entries)}."
            )
        text = [*record.ending.summary_lines(), "", *kept, ""]
        lines = [wrapped for line in text for wrapped in textwrap.wrap(line, width) or [""]]
        key_width = max(len(keys) for keys, _ in command_rows(GAME_OVER_KEYS))
        lines += [f"{keys:<{key_width}}  {meaning}" for keys, meaning in command_rows(GAME_OVER_KEYS)]
        return lines

    def on_render(self, console: tcod.console.Console) -> None:
        super().on_render(console)  # The map, as it was at the end.
        lines = self.lines(console.width - 12)
        width = max(len(self.TITLE) + 4, *(len(line) + 4 for line in lines))
        height = len(lines) + 4
        # Above or below the player, so the map around where they fell shows.
        map_height = self.engine.game_map.height
        y = 1 if self.engine.player.y >= map_height // 2 else max(0, map_height - height - 1)
        x = (console.width - width) // 2
        render_functions.draw_window(console, x, y, width, height, self.TITLE)
        for i, line in enumerate(lines):
            fg = color.player_die if i == 0 else color.white
            console.print(x + 2, y + 2 + i, line, fg=fg)

    def on_quit(self) -> None:
        """Handle exiting out of a finished game."""
        raise exceptions.QuitWithoutSaving()  # Avoid saving a finished game.

    def ev_quit(self, event: tcod.event.Quit) -> None:
        self.on_quit()

    def ev_mousemotion(self, event: tcod.event.MouseMotion) -> None:
        return None  # The window covers the map: names under the mouse would show through.

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        return self.on_key(key_of(event))

    def ev_textinput(self, event: tcod.event.TextInput) -> ActionOrHandler | None:
        return self.on_key(key_of(event))

    def on_key(self, key: Key) -> ActionOrHandler | None:
        match GAME_OVER_KEYS.get(key):
            case Command.MAIN_MENU:
                raise exceptions.BackToMainMenu()
            case Command.HISTORY:
                return HistoryViewer(self)
            case Command.HALL_OF_FAME:
                return HallOfFameScreen(self, self.record.entered.entries, self.record.entered.rank)
            case Command.HELP:
                return HelpScreen(self)
        return None


class HistoryViewer(Overlay):
    """The message history, scrolled with the keys; any other key goes back."""

    parent: EventHandler

    def __init__(self, parent: EventHandler):
        super().__init__(parent)
        self.engine = parent.engine
        self.log_length = len(self.engine.message_log.messages)
        self.cursor = max(0, self.log_length - 1)

    def on_render(self, console: tcod.console.Console) -> None:
        """The history in a window over the whole console."""
        # Differs from the tutorial: no band of the map shows around the window.
        render_functions.draw_window(
            console, 0, 0, console.width, console.height, "Message history"
        )
        self.engine.message_log.render_messages(
            console,
            1,
            1,
            console.width - 2,
            console.height - 2,
            # Differs from the tutorial: marked with the floor and the turn.
            self.engine.message_log.marked(self.engine.message_log.messages[: self.cursor + 1]),
        )

    def ev_keydown(self, event: tcod.event.KeyDown) -> BaseEventHandler | None:
        last = max(0, self.log_length - 1)
        if event.sym in CURSOR_Y_KEYS:
            adjust = CURSOR_Y_KEYS[event.sym]
            if adjust < 0 and self.cursor == 0:
                # Wrap around only from the very edge, so a page key stops there first.
                self.cursor = last
            elif adjust > 0 and self.cursor == last:
                self.cursor = 0
            else:
                self.cursor = max(0, min(self.cursor + adjust, last))
        elif event.sym in HISTORY_JUMP_KEYS:
            self.cursor = 0 if HISTORY_JUMP_KEYS[event.sym] is HistoryJump.TOP else last
        else:
            return self.parent
        return None

    def ev_mousebuttondown(self, event: tcod.event.MouseButtonDown) -> None:
        """Clicks do nothing: the history is read with the keys."""


def next_screen(engine: Engine) -> BaseEventHandler:
    """The one place that chooses the screen play goes on in, after a turn or
    on continuing; a death is recorded here, once (`screens.death`)."""
    if not engine.player.is_alive:
        record = death.keep_record(engine)
        screen = GameOverEventHandler(engine, record)
        return PopupMessage(screen, "\n".join(record.notices)) if record.notices else screen
    return play_screen(engine)(engine)


def play_screen(engine: Engine) -> type[EventHandler]:
    """The level-up choice while one is owed, else the main game."""
    return LevelUpEventHandler if engine.player.level.requires_level_up else MainGameEventHandler
