"""The screens of a game under way: each handler turns events into nothing, an
`Action` for the engine, or what happens to the screens (`screens.base`: `Push`,
`Pop`, `Play`, ...); keys come from `keys`.  Each declares what it shows once
(`content`), which the window draws beside the map and the screen reader reads."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

import tcod

import actions
import color
import exceptions
import render_functions
from actions import Action, BumpAction, PickupAction, TakeStairsAction, WaitAction
from components.inventory import LETTERS
from components.level import LEVEL_UP_CHOICES
from controls import autofight, keys, targeting, travel, walking
from controls.blast import blast_tiles, in_blast
from controls.key_help import DEATH_KEYS, FROM_DEATH, aligned_rows
from controls.keys import Command, Key
from screens.answer import AnswerScreen as AnswerScreen
from screens.answer import LookDescription as LookDescription
from screens.base import NOTHING_TO_DO, BackToMenu, Content, Play, Push, Quit, Transition, Unchanged
from screens.base import ActionOrHandler as ActionOrHandler
from screens.base import BaseEventHandler as BaseEventHandler
from screens.base import Overlay as Overlay
from screens.base import PopupMessage as PopupMessage
from screens.hall_of_fame_screen import HallOfFameScreen
from screens.help_screen import HelpScreen
from screens.history import HistoryViewer as HistoryViewer
from screens.options_screen import OptionsScreen
from screens.question import ConfirmHandler as ConfirmHandler
from words import descriptions, questions
from words.verbs import VERBS, Verb

if TYPE_CHECKING:
    from engine import Engine
    from entity import Item
    from replays.record_format import Autofight
    from window.options import Settings


class EventHandler(BaseEventHandler):
    """A screen of a game under way, which performs the actions its events make."""

    def __init__(self, engine: Engine):
        self.engine = engine

    @property
    def settings(self) -> Settings:
        return self.engine.settings

    def game(self) -> Engine:
        return self.engine

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Handle events for input handlers with an engine: an action takes a turn."""
        action_or_state = self.dispatch(event)
        if isinstance(action_or_state, Action):
            return Play() if self.handle_action(action_or_state) else None
        return action_or_state

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
            self.engine.pointer_on_map = True

    def on_render(self, console: tcod.console.Console) -> None:
        self.engine.render(console)


class AskUserEventHandler(EventHandler):
    """A screen asking the player something; by default any key or click leaves it.

    What it shows (`content`) is drawn in a window on the side of the map away from
    the player, at least `MIN_WIDTH` wide."""

    MIN_WIDTH = 0

    def on_render(self, console: tcod.console.Console) -> None:
        super().on_render(console)
        content = self.content()
        if content is not None and content.lines:
            render_functions.draw_side_window(
                console, self.engine.player.x, content.title, content.lines, self.MIN_WIDTH
            )

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        """By default any key exits this input handler."""
        return self.on_exit()

    def ev_textinput(self, event: tcod.event.TextInput) -> ActionOrHandler | None:
        """A symbol's key is any key too."""
        return self.on_exit()

    def ev_mousebuttondown(self, event: tcod.event.MouseButtonDown) -> ActionOrHandler | None:
        """By default any mouse click exits this input handler."""
        return self.on_exit()

    def on_exit(self) -> ActionOrHandler | None:
        """What happens when the player leaves or cancels: by default, back to the dungeon."""
        return Play()


class CharacterScreenEventHandler(AskUserEventHandler):
    """The player's level, stats, seed and where the game keeps its files."""

    TITLE = "Character Information"

    def content(self) -> Content:
        return Content(self.TITLE, descriptions.character_sheet(self.engine))


class LevelUpEventHandler(AskUserEventHandler):
    """The choice of what grows on a new level; only a choice's letter leaves it."""

    TITLE = "Level Up"
    MIN_WIDTH = 35  # Differs from the tutorial: wider from 100 HP on.

    def content(self) -> Content:
        """The greeting, then each choice with its letter."""
        choices = [choice.describe(self.engine.player.fighter) for choice in LEVEL_UP_CHOICES]
        greeting = ["Congratulations! You level up!", "Select an attribute to increase.", ""]
        return Content(self.TITLE, [*greeting, *(f"{chr(ord('a') + i)}) {c}" for i, c in enumerate(choices))])

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        index = keys.letter_index(event.sym)
        if index is None or index >= len(LEVEL_UP_CHOICES):
            self.engine.message_log.add_message("Invalid entry.", color.invalid)
            return None

        LEVEL_UP_CHOICES[index].grow(self.engine.player.level)
        # Differs from the tutorial: a second level from the same kill is offered at once.
        return Play()

    def ev_textinput(self, event: tcod.event.TextInput) -> None:
        """A symbol chooses nothing, as any key but the choices' letters."""
        self.engine.message_log.add_message("Invalid entry.", color.invalid)

    def ev_mousebuttondown(self, event: tcod.event.MouseButtonDown) -> ActionOrHandler | None:
        """Don't allow the player to click to exit the menu, like normal."""
        return None


class InventoryEventHandler(AskUserEventHandler):
    """The inventory, an item chosen by its letter; subclasses say what then."""

    TITLE = "<missing title>"

    def fits(self, item: Item) -> bool:
        """Whether the screen lists `item` and its letter acts on it."""
        return True

    def content(self) -> Content:
        """The inventory on the side away from the player, who stays in sight."""
        return Content(self.TITLE, self.item_lines())

    def item_lines(self) -> list[str]:
        """One line per listed stack (`descriptions.inventory_lines`)."""
        return descriptions.inventory_lines(self.engine.player, self.fits)

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        player = self.engine.player
        index = keys.letter_index(event.sym)
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
    """`q`, `r` or `w` (`words.verbs`): only what the verb fits; a letter acts as in `i`."""

    def __init__(self, engine: Engine, verb: Verb):
        super().__init__(engine)
        self.verb = verb
        self.TITLE = verb.title

    def fits(self, item: Item) -> bool:
        return self.verb.fits(item)

    @classmethod
    def opened(cls, engine: Engine, verb: Verb) -> VerbHandler | None:
        """The screen, or None (the log says why) when nothing carried fits."""
        if not any(verb.fits(item) for item in engine.player.inventory.items):
            engine.message_log.add_message(verb.nothing, color.impossible)
            return None
        return cls(engine, verb)


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
        self.put_cursor(*self.start_location())

    def put_cursor(self, x: int, y: int) -> None:
        """The cursor to (x, y) by a key: the line under the map is the cursor's
        alone, and goes with it (`Engine.pointer_on_map`)."""
        self.engine.mouse_location = x, y
        self.engine.pointer_on_map = False

    def start_location(self) -> tuple[int, int]:
        """Where the cursor starts: on the player."""
        player = self.engine.player
        return player.x, player.y

    def map_focus(self) -> tuple[int, int]:
        return self.engine.mouse_location  # The cursor.

    def content(self) -> Content:
        """What the cursor is on, and where from the player."""
        return Content(focus=questions.at_cursor(self.engine, *self.engine.mouse_location))

    def on_render(self, console: tcod.console.Console) -> None:
        """Highlight the tile under the cursor, over any marks of the selection."""
        super().on_render(console)
        self.draw_marks(console)
        x, y = self.engine.mouse_location
        console.rgb["bg"][x, y] = color.white
        console.rgb["fg"][x, y] = color.black
        content = self.content()
        line = content.focus[: render_functions.NAMES_WIDTH]
        console.print(*render_functions.NAMES_AT, f"{line:<{render_functions.NAMES_WIDTH}}", fg=color.white)
        render_functions.render_prompt(console, content.keys)

    def draw_marks(self, console: tcod.console.Console) -> None:
        """Mark what choosing the tile under the cursor would affect; nothing by default."""

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        """Check for key movement or confirmation keys."""
        cursor = targeting.cursor_after(self.engine, event, self.settings.keys)
        if cursor in (None, self.engine.mouse_location) and (why := targeting.stays(self.engine, event)):
            return Unchanged(why)  # At the map's edge, or no (other) enemy to go to.
        if cursor is not None:
            self.put_cursor(*cursor)
            return None
        if event.sym in keys.CONFIRM_KEYS:
            return self.on_index_selected(*self.engine.mouse_location)
        return super().ev_keydown(event)

    def ev_mousebuttondown(self, event: tcod.event.MouseButtonDown) -> ActionOrHandler | None:
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

    def content(self) -> Content:
        return Content(focus=super().content().focus, keys=LOOKING)

    def on_index_selected(self, x: int, y: int) -> ActionOrHandler | None:
        """Describe what stands on the chosen tile; any key comes back here."""
        return Push(LookDescription(self.engine, x, y))

    def dispatch(self, event: tcod.event.Event) -> ActionOrHandler | None:
        """Travel's key (`_`, or the key file's) walks to the tile under the cursor."""
        if keys.main_command(event, self.settings.keys) is Command.TRAVEL:
            return self.travel(*self.engine.mouse_location)
        return super().dispatch(event)

    def travel(self, x: int, y: int) -> Transition:
        """The walk to (x, y), stopping as walks stop; or the dungeon, the log saying why not."""
        return Play(walk=travel.Travel(x, y))


LOOKING: Final = "Look: move the cursor, Enter tells more, Escape leaves."


class TravelHandler(LookHandler):
    """Travel (NetHack's `_`): a cursor, and Enter, a click or `_` again walks there."""

    def content(self) -> Content:
        return Content(focus=super().content().focus, keys=TRAVEL_PROMPT)

    def on_index_selected(self, x: int, y: int) -> ActionOrHandler | None:
        return self.travel(x, y)


TRAVEL_PROMPT: Final = "Travel where? Move the cursor; Enter or _ walks there, Esc cancels."


class TargetingHandler(SelectIndexHandler):
    """Aiming an item: the cursor starts on an enemy, and the choice is remembered.

    Its `prompt` (what is aimed, how far it reaches, the keys) is the screen's to
    show while it is open, not a message of the log."""

    def __init__(
        self,
        engine: Engine,
        callback: Callable[[tuple[int, int]], Action | None],
        prompt: str = "",
    ):
        super().__init__(engine)
        self.callback = callback
        self.prompt = prompt

    def content(self) -> Content:
        return Content(focus=super().content().focus, keys=self.prompt)

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

    def on_index_selected(self, x: int, y: int) -> ActionOrHandler | None:
        targeting.remember(self.engine, x, y)
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
        prompt: str = "",
    ):
        super().__init__(engine, callback, prompt)
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
        targeting.remember(self.engine, x, y)
        player = self.engine.player
        if in_blast((x, y), self.radius, player.x, player.y):
            question = ConfirmHandler(self, self.HIT_YOURSELF, lambda: self.callback((x, y)))
            question.clear_of_row = y  # The question hides nothing of the blast it asks about.
            return Push(question)
        return self.callback((x, y))


class MainGameEventHandler(EventHandler):
    """The dungeon: keys and clicks become the player's actions.  A walk under way is
    its own (`walk`): the main loop takes its steps (`advance`), and a key stops it."""

    def __init__(self, engine: Engine):
        super().__init__(engine)
        self.walk: walking.Walking | None = None

    def dispatch(self, event: tcod.event.Event) -> ActionOrHandler | None:
        """While walking, a key or click only stops the walk (`Walking.stopped_by`)."""
        if self.walk is not None and self.walk.stopped_by(event):
            self.stop_walk()
            return None
        return super().dispatch(event)

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        move_keys = self.settings.keys.move
        if event.sym in move_keys:
            dx, dy = move_keys[event.sym]
            if event.mod & keys.RUN_MODIFIER:
                self.start_walk(travel.Run(dx, dy))
                return None
            return BumpAction(self.engine.player, dx, dy)
        return self.on_key(event.sym)

    def ev_textinput(self, event: tcod.event.TextInput) -> ActionOrHandler | None:
        return self.on_key(keys.key_of(event))

    def on_key(self, key: Key) -> ActionOrHandler | None:
        """What a key or a typed symbol does in the dungeon, moves aside."""
        player = self.engine.player
        if key in self.settings.keys.wait:
            return WaitAction(player)
        command = self.settings.keys.main.get(key)
        match command:
            case Command.DESCEND:
                return self.descend()
            case Command.EXPLORE:
                self.start_walk(travel.Explore(gather=self.settings.options.gather_items))
                return None
            case Command.AUTOFIGHT:
                return self.autofight()
            case Command.PICKUP:
                return PickupAction(player)
            case Command.QUIT:
                # Escape is what DCSS and Brogue players press to cancel: ask.
                return Push(ConfirmHandler(self, SAVE_AND_QUIT, Quit, default=keys.Answer.YES))
            case None:
                return Unchanged(NOTHING_TO_DO)
        screen = self.screen_of(command)
        return None if screen is None else Push(screen)

    def screen_of(self, command: Command) -> BaseEventHandler | None:
        """The screen a command opens over the dungeon, if any (a verb's, if anything fits)."""
        match command:
            case Command.INVENTORY:
                return InventoryActivateHandler(self.engine)
            case _ if command in VERBS:
                return VerbHandler.opened(self.engine, VERBS[command])
            case Command.DROP:
                return InventoryDropHandler(self.engine)
            case Command.CHARACTER:
                return CharacterScreenEventHandler(self.engine)
            case Command.HISTORY:
                return HistoryViewer(self.engine)
            case Command.LOOK:
                return LookHandler(self.engine)
            case Command.TRAVEL:
                return TravelHandler(self.engine)
            case Command.HELP:
                return HelpScreen(self.settings)
            case Command.OPTIONS:
                return OptionsScreen(self.settings)
            case _ if command in questions.QUESTIONS:
                return AnswerScreen(self.engine, command)
        return None

    def autofight(self) -> Action | None:
        """Autofight's bump (Tab); what the recording keeps of the key is what it
        decided (`controls.autofight`), so a replay does it again whatever its options."""
        press = autofight.decide(self.engine, self.settings.options.autofight_stop)
        if self.engine.unrecorded is not None:  # The key is being recorded (`Screens.press`).
            self.engine.unrecorded = press.line()
        return autofight.action(self.engine, press)

    def play_autofight(self, press: Autofight) -> Transition | None:
        """A recorded press of autofight, played again (`Screens.autofight`)."""
        return Play() if self.handle_action(autofight.action(self.engine, press)) else None

    def ev_mousebuttondown(self, event: tcod.event.MouseButtonDown) -> ActionOrHandler | None:
        x, y = event.integer_position
        if keys.MAIN_BUTTONS.get(event.button) is Command.WALK_TO and self.engine.game_map.in_bounds(x, y):
            self.start_walk(travel.Travel(x, y))
        return None

    def descend(self) -> ActionOrHandler | None:
        """Down the stairs underfoot; else a walk to them, once they have been seen."""
        game_map, player = self.engine.game_map, self.engine.player
        if (player.x, player.y) == game_map.downstairs_location:
            return TakeStairsAction(player)
        if not travel.stairs_known(game_map):
            self.engine.message_log.add_message(travel.NO_STAIRS, color.impossible)
            return None
        self.start_walk(travel.Travel(*game_map.downstairs_location))
        return None

    def start_walk(self, walk: travel.Walk) -> None:
        """Start `walk`; if it can't start, the log says why and no turn passes."""
        self.walk = walking.start(self.engine, walk)

    def advance(self) -> Transition | None:
        """The walk's next step, as a turn (`Walking.step`); `Play` when the game's
        screen changes with it (a death, a level-up to choose)."""
        assert self.walk is not None, "advanced only while walking"
        stop = self.walk.step(self.engine, self.handle_action)
        if stop is not None:
            self.stop_walk(stop.reason)
        player = self.engine.player
        return None if player.is_alive and not player.level.requires_level_up else Play()

    def stop_walk(self, reason: str | None = None) -> None:
        """Stop the walk under way, if any, saying why if it must."""
        if self.walk is not None and reason is not None:
            # Each stop is news of its own: two orcs coming into view are two lines.
            self.engine.message_log.add_message(reason, stack=False)
        self.walk = None


SAVE_AND_QUIT: Final = "Save and quit? (Y/n)"  # Enter says yes, as Y in capitals shows.


class GameOverEventHandler(EventHandler):
    """The end of a game: the map as it was, under a window telling how it ended,
    and what of it was kept (once the main loop has kept it: `saving.death`)."""

    TITLE = "Game over"
    # A replay's or a follower's death is not the player's: nothing of it is kept.
    REPLAYED = "A replay: no morgue file or hall of fame entry is written."

    def content(self) -> Content:
        record = self.engine.death_record
        kept = [] if record is None else [*record.lines(), ""]
        if record is None and not self.settings.keep:  # Settings private to a replay.
            kept = [self.REPLAYED, ""]
        from saving import death  # Loaded by a death, not by every start (with the morgue).

        help_lines = aligned_rows(keys.GAME_OVER_KEYS)
        return Content(self.TITLE, [*death.ending(self.engine).summary_lines(), "", *kept, *help_lines])

    def on_render(self, console: tcod.console.Console) -> None:
        super().on_render(console)  # The map, as it was at the end.
        render_functions.draw_game_over(console, self.engine, self.TITLE, self.content().lines)

    def ev_quit(self, event: tcod.event.Quit) -> Quit:
        return Quit(save=False)  # Avoid saving a finished game.

    def ev_mousemotion(self, event: tcod.event.MouseMotion) -> None:
        return None  # The window covers the map: names under the mouse would show through.

    def ev_keydown(self, event: tcod.event.KeyDown) -> ActionOrHandler | None:
        return self.on_key(keys.key_of(event))

    def ev_textinput(self, event: tcod.event.TextInput) -> ActionOrHandler | None:
        return self.on_key(keys.key_of(event))

    def on_key(self, key: Key) -> ActionOrHandler | None:
        match keys.GAME_OVER_KEYS.get(key):
            case Command.MAIN_MENU:
                return BackToMenu()
            case Command.HISTORY:
                return Push(HistoryViewer(self.engine))
            case Command.HALL_OF_FAME:
                return Push(HallOfFameScreen.after_death(self.engine))
            case Command.HELP:
                return Push(HelpScreen(self.settings, opened_from=FROM_DEATH))
        return Unchanged(DEATH_KEYS)
