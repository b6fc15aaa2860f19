"""Soak: a seeded random player plays for 20,000 events, and the game must hold.

The player presses every bound key (with and without modifiers), keys bound
to nothing, moves and clicks the mouse anywhere (off the map and off the
window too) and presses Escape on every screen; only closing the window is
left out.  The events go through `loop.handle_event`, the very function the
main loop calls after `convert_event`, but with no `try` around it: any
exception is a failure here, where the real loop would only log it.

Quitting is played as the real program plays it: Escape in the game asks,
`y` asks the screens to quit (`Screens.quitting`), the loop saves and returns, and the player "starts the program
again" at a fresh main menu, where C continues the save (or N starts anew).
Dying leads to the game-over screen, whose Escape deletes the save and goes back
to the main menu.  Every
`STAIRS_EVERY` events on a floor the player is put on the stairs and presses
`>`, so runs go deep; and on each new floor a helping hand (`helping_hand`)
leaves an item or two at its feet and sometimes tops up its experience, so
that a player this poor still sees every screen.

`test_soak` plays the tutorial's spawn tables, so that what its run is
checked to cover does not hang on the monsters and items the game's own
tables hold (the README's recipes add to them); the shorter soaks play those.

After every event the invariants of `check_invariants` are checked; every
`SAVE_EVERY` events the game is saved and loaded back, the copy must equal
the original in every attribute, and play goes on with the copy.

    SOAK_EVENTS=200000 python -m pytest tests/test_soak.py   # longer
    SOAK_SEED=7 python -m pytest tests/test_soak.py          # another run
    SOAK_SEED=random python -m pytest tests/test_soak.py     # a new one each time

A failure says which seed and event number reproduce it.
"""

from __future__ import annotations

import collections
import enum
import os
import random
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tcod
from conftest import after_frame, all_lines, click, motion, stroke
from tcod.event import KeySym, Modifier, MouseButton

import entity_factories
import input_handlers
import main
import procgen
import setup_game
import tile_types
from components.inventory import Inventory
from components.level import LEVEL_UP_CHOICES
from controls import key_help, keys
from controls.keys import Key
from engine import Engine
from entity import Actor, Item
from equipment_types import EquipmentType
from replays import replay_lines
from saving import autosave, paths, save_data
from screens.base import Reset
from screens.question import Question
from screens.stack import Screens
from window import assets, loop

SOAK_EVENTS = int(os.environ.get("SOAK_EVENTS", "20000"))
_SEED_SETTING = os.environ.get("SOAK_SEED", "7")
SOAK_SEED = (
    random.SystemRandom().randrange(2**32) if _SEED_SETTING == "random" else int(_SEED_SETTING)
)

# Every this many events the game is saved, loaded and compared.
SAVE_EVERY = 500
# After this many events on one floor the player is put on the stairs and presses `>`.
STAIRS_EVERY = 120
# Draw the screen after every this many events (and whenever the screen changes).
RENDER_EVERY = 10
# The soak must reach at least this floor in one game.
DEEPEST_REQUIRED = 5

LETTERS = tuple(KeySym(KeySym.A.value + i) for i in range(26))

# Keys that type `>`, `?` and `/` on US, German and French keyboards: their
# KeyDowns do nothing (the TextInput acts).
SYMBOL_KEYS = (KeySym.PERIOD, KeySym.SLASH, KeySym.LESS, KeySym.COMMA, KeySym.COLON)

# Every key some table binds, on some screen.
BOUND_KEYS: tuple[Key, ...] = tuple(
    dict.fromkeys(
        [
            *keys.MOVE_KEYS,
            *keys.WAIT_KEYS,
            *keys.CONFIRM_KEYS,
            *keys.CURSOR_Y_KEYS,
            *keys.HISTORY_JUMP_KEYS,
            *keys.MAIN_KEYS,
            *keys.MENU_KEYS,
            *SYMBOL_KEYS,
            *(sym for sym, _ in keys.GLOBAL_KEYS),
            *keys.MODIFIER_KEYS,
            *LETTERS,  # Inventory and level-up choices.
        ]
    )
)
# Keys no screen binds to anything (letters are all bound in the inventory).
UNBOUND_KEYS: tuple[KeySym, ...] = (
    KeySym.F2,
    KeySym.F5,
    KeySym.F11,
    KeySym.F3,
    KeySym.SPACE,
    KeySym.BACKSPACE,
    KeySym.DELETE,
    KeySym.INSERT,
    KeySym.N0,
    KeySym.N7,
    KeySym.KP_0,
    KeySym.KP_PLUS,
    KeySym.SEMICOLON,
    KeySym.COMMA,
    KeySym.CAPSLOCK,
    KeySym.UNKNOWN,
)
# Modifiers as SDL reports them: one side's bit, or a lock.
MODIFIERS = (
    Modifier.LSHIFT,
    Modifier.RSHIFT,
    Modifier.LCTRL,
    Modifier.RCTRL,
    Modifier.LALT,
    Modifier.RALT,
    Modifier.LGUI,
    Modifier.NUM,
    Modifier.CAPS,
)


GIFTS = (
    entity_factories.health_potion,
    entity_factories.confusion_scroll,
    entity_factories.fireball_scroll,
    entity_factories.lightning_scroll,
    entity_factories.sword,
    entity_factories.chain_mail,
    entity_factories.dagger,
    entity_factories.leather_armor,
)

PLAIN_KEYS = tuple(k for k in BOUND_KEYS if isinstance(k, KeySym))

# The tutorial's spawn tables, which `test_soak` plays with whatever the
# game's own hold: what its run covers (deaths, depth, the aiming and
# level-up screens) hangs on the monsters' strength and the items found, and
# a monster or an item added by the README's recipes must not change it.  The
# shorter soaks below play the game's own tables.
TUTORIAL_ITEM_CHANCES = {
    0: [(entity_factories.health_potion, 35)],
    2: [(entity_factories.confusion_scroll, 10)],
    4: [(entity_factories.lightning_scroll, 25), (entity_factories.sword, 5)],
    6: [(entity_factories.fireball_scroll, 25), (entity_factories.chain_mail, 15)],
}
TUTORIAL_ENEMY_CHANCES = {
    0: [(entity_factories.orc, 80)],
    3: [(entity_factories.troll, 15)],
    5: [(entity_factories.troll, 30)],
    7: [(entity_factories.troll, 60)],
}


class SoakPlayer:
    """Chooses the next event; a random player who glances at the screen."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.pressed: collections.Counter[Key] = collections.Counter()
        self.escapes: collections.Counter[str] = collections.Counter()
        self.forgot = False  # Whether C was pressed on the menu with no save.

    def modifier(self) -> Modifier:
        rng = self.rng
        mod = Modifier.NONE
        while rng.random() < 0.15:
            mod |= rng.choice(MODIFIERS)
        return mod

    def press(
        self, binding: Key, mod: Modifier = Modifier.NONE
    ) -> tcod.event.KeyDown | tcod.event.TextInput:
        self.pressed[binding] += 1
        return stroke(binding, mod)

    def tile(self) -> tuple[int, int]:
        rng = self.rng
        if rng.random() < 0.05:  # Off the console: the letterbox of a resized window.
            return rng.randint(-5, 85), rng.randint(-5, 55)
        return rng.randrange(main.SCREEN_WIDTH), rng.randrange(main.SCREEN_HEIGHT)

    def next_event(self, screens: Screens) -> tcod.event.Event:
        while True:
            event = self.choose_event(screens)
            # Escape in the game quits the program: let one in ten through,
            # or games would be too short to get deep.
            if not (
                isinstance(event, tcod.event.KeyDown)
                and event.sym is KeySym.ESCAPE
                and in_the_dungeon(screens)
                and self.rng.random() >= 0.1
            ):
                break
            self.pressed[KeySym.ESCAPE] -= 1
        if isinstance(event, tcod.event.KeyDown) and event.sym is KeySym.ESCAPE:
            self.escapes[screen_name(screens)] += 1
        return event

    def choose_event(self, screens: Screens) -> tcod.event.Event:
        rng = self.rng
        roll = rng.random()
        handler = screens.top
        if isinstance(handler, Question):  # "Abandon your saved game?": yes, as N meant.
            return self.press(KeySym.Y)
        if not self.escapes[screen_name(screens)]:
            return self.press(KeySym.ESCAPE)  # Escape on every screen: first thing, once.
        # Glance at the screen: start a game from the menu, leave the game-over screen.
        if isinstance(handler, setup_game.MainMenu) and roll < 0.5:
            # Mostly go on with the saved game, as a player would.
            saved = Path(paths.SAVE_NAME).exists()
            # (Or forget there is none: a popup says so; surely the first time.)
            go_on = (saved and rng.random() < 0.9) or rng.random() < 0.15 or not (saved or self.forgot)
            self.forgot |= go_on and not saved
            return self.press(KeySym.C if go_on else KeySym.N)
        if isinstance(handler, input_handlers.GameOverEventHandler) and roll < 0.1:
            return self.press(KeySym.ESCAPE)
        if isinstance(handler, input_handlers.LevelUpEventHandler) and roll < 0.3:
            return self.press(rng.choice(LETTERS[: len(LEVEL_UP_CHOICES)]))
        if isinstance(handler, input_handlers.InventoryActivateHandler) and roll < 0.6:
            letter = potion_letter(handler.engine)
            if letter is not None and hurt(handler.engine):
                return self.press(letter)
            letter = scroll_letter(handler.engine)
            if letter is not None and handler.engine.game_map.monsters_in_view:
                return self.press(letter)
        if (
            isinstance(handler, input_handlers.SingleRangedAttackHandler | input_handlers.AreaRangedAttackHandler)
            and roll < 0.4
        ):
            # Aim at a monster in view, with the mouse or the cursor keys and Enter.
            engine = handler.engine
            targets = engine.game_map.monsters_in_view
            if targets:
                target = rng.choice(targets)
                if roll < 0.2:
                    return click(target.x, target.y)
                x, y = engine.mouse_location
                if (x, y) == (target.x, target.y):
                    return self.press(rng.choice(list(keys.CONFIRM_KEYS)))
                step = ((target.x > x) - (target.x < x), (target.y > y) - (target.y < y))
                sym = next(k for k, d in keys.MOVE_KEYS.items() if d == step)
                return self.press(sym)
        if in_the_dungeon(screens):
            assert isinstance(handler, input_handlers.MainGameEventHandler)
            engine = handler.engine
            player = engine.player
            if roll < 0.3 and hurt(engine) and potion_letter(engine) is not None:
                return self.press(KeySym.I)
            if roll < 0.1 and scroll_letter(engine) is not None and engine.game_map.monsters_in_view:
                return self.press(KeySym.I)
            foes = [
                (actor.x - player.x, actor.y - player.y)
                for actor in engine.game_map.actors
                if actor is not player and max(abs(actor.x - player.x), abs(actor.y - player.y)) == 1
            ]
            if foes and roll < 0.8:  # Fight back.
                direction = rng.choice(foes)
                return self.press(
                    rng.choice([k for k, d in keys.MOVE_KEYS.items() if d == direction])
                )
            if roll < 0.35 and not hurt(engine):
                # Hunt the nearest monster, seen or not; or fetch the nearest item.
                if rng.random() < 0.7:
                    goals = [(a.x, a.y) for a in engine.game_map.actors if a is not player]
                else:
                    goals = [(i.x, i.y) for i in engine.game_map.items]
                way = step_towards(engine, goals)
                if way is not None:
                    return self.press(
                        rng.choice([k for k, d in keys.MOVE_KEYS.items() if d == way])
                    )
            if roll < 0.3:  # Explore: walk (or fight) somewhere.
                return self.press(rng.choice(list(keys.MOVE_KEYS)))
            if roll < 0.4 and any(
                (item.x, item.y) == (player.x, player.y) for item in engine.game_map.items
            ):
                return self.press(KeySym.G)
        roll = rng.random()
        if roll < 0.02:
            return self.press(KeySym.ESCAPE)
        if roll < 0.12:
            x, y = self.tile()
            return motion(x, y)
        if roll < 0.17:
            x, y = self.tile()
            return click(x, y, rng.choice(list(MouseButton)))
        if roll < 0.25:
            return self.press(rng.choice(UNBOUND_KEYS), self.modifier())
        if roll < 0.26:  # What SDL sends besides: key releases, text, wheel, button releases.
            x, y = self.tile()
            return rng.choice(
                (
                    tcod.event.KeyUp(
                        scancode=tcod.event.Scancode.UNKNOWN, sym=rng.choice(PLAIN_KEYS), mod=self.modifier()
                    ),
                    tcod.event.TextInput(text=rng.choice("nc>?.gidv/ ")),
                    tcod.event.MouseButtonUp(
                        position=tcod.event.Point(x + 0.5, y + 0.5),
                        tile=tcod.event.Point(x, y),
                        button=MouseButton.LEFT,
                    ),
                    tcod.event.MouseWheel(x=0, y=rng.choice((-1, 1)), flipped=False),
                )
            )
        if roll < 0.27:
            key_, mod = rng.choice(list(keys.GLOBAL_KEYS))
            if rng.random() < 0.5:
                mod = Modifier.LALT if mod else Modifier.NONE  # As SDL reports Alt.
            return self.press(key_, mod)
        if roll < 0.30:  # The KeyDown of a symbol's key, which its TextInput follows.
            return self.press(rng.choice(SYMBOL_KEYS), Modifier.LSHIFT)
        return self.press(rng.choice(BOUND_KEYS), self.modifier())


def hurt(engine: Engine) -> bool:
    fighter = engine.player.fighter
    return fighter.hp <= fighter.max_hp // 2


def potion_letter(engine: Engine) -> KeySym | None:
    """The inventory letter of a health potion the player carries, if any."""
    for i, item in enumerate(engine.player.inventory.items):
        if item.name == "Health Potion":
            return LETTERS[i]
    return None


def step_towards(engine: Engine, goals: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The first step of a shortest walk to the nearest of `goals`."""
    game_map = engine.game_map
    player = engine.player
    if not goals:
        return None
    cost = game_map.tiles["walkable"].astype(np.int8)
    path = tcod.path.path2d(
        cost, start_points=[(player.x, player.y)], end_points=goals, cardinal=1, diagonal=1
    )
    if len(path) < 2:
        return None
    x, y = path[1].tolist()
    return x - player.x, y - player.y


def free_tile_beside(engine: Engine, x: int, y: int) -> tuple[int, int] | None:
    """A walkable tile next to (x, y) that nothing blocks, if there is one."""
    game_map = engine.game_map
    for dx, dy in key_help.DIRECTION_NAMES:
        nx, ny = x + dx, y + dy
        if (
            game_map.in_bounds(nx, ny)
            and game_map.tiles["walkable"][nx, ny]
            and game_map.get_blocking_entity_at_location(nx, ny) in (None, engine.player)
        ):
            return nx, ny
    return None


def scroll_letter(engine: Engine) -> KeySym | None:
    """The inventory letter of a scroll the player carries, if any."""
    for i, item in enumerate(engine.player.inventory.items):
        if item.name.endswith("Scroll"):
            return LETTERS[i]
    return None




def describe(event: tcod.event.Event) -> str:
    """An event in a few words, for the list of the last events before a failure."""
    match event:
        case tcod.event.KeyDown() | tcod.event.KeyUp():
            mod = f"+{event.mod.name or int(event.mod)}" if event.mod else ""
            return f"{type(event).__name__} {event.sym.name}{mod}"
        case tcod.event.MouseButtonDown() | tcod.event.MouseButtonUp():
            return f"{type(event).__name__} {event.button.name} at tile {tuple(event.integer_position)}"
        case tcod.event.MouseMotion():
            return f"MouseMotion to tile {tuple(event.integer_position)}"
    return repr(event)


def in_the_dungeon(screens: Screens) -> bool:
    """Whether the top screen is the dungeon's, its keys the game's own: not during a walk,
    where any key only stops it."""
    return type(screens.top) is input_handlers.MainGameEventHandler and not screens.walking


def screen_name(screens: Screens) -> str:
    """The name of what the screens show: the top screen's class, or a walk under way."""
    return "walking" if screens.walking else type(screens.top).__name__


def check_invariants(engine: Engine, handler: input_handlers.BaseEventHandler) -> None:
    """What must hold between any two events of a game."""
    game_map = engine.game_map
    player = engine.player
    assert game_map.engine is engine
    assert player in game_map.entities, "the player is not on the map"
    assert player.parent is game_map
    assert engine.game_world.current_floor >= 1
    blockers: dict[tuple[int, int], Any] = {}
    for entity in game_map.entities:
        where = f"{entity.name} at {(entity.x, entity.y)}"
        assert entity.parent is game_map, f"{where} belongs to another map"
        assert game_map.in_bounds(entity.x, entity.y), f"{where} is outside the map"
        assert game_map.tiles["walkable"][entity.x, entity.y], f"{where} is in a wall"
        if entity.blocks_movement:
            other = blockers.setdefault((entity.x, entity.y), entity)
            assert other is entity, f"{where} shares its tile with {other.name}"
        if isinstance(entity, Actor):
            fighter = entity.fighter
            assert 0 <= fighter.hp <= fighter.max_hp, f"{where} has {fighter.hp}/{fighter.max_hp} HP"
            assert entity.is_alive == (fighter.hp > 0), f"{where}: alive with no HP, or dead with HP"
            assert entity.blocks_movement == entity.is_alive, f"{where}: a corpse blocks, or the living don't"
            inventory = entity.inventory
            assert len(inventory.items) <= inventory.capacity, f"{where} carries too much"
            for item in inventory.items:
                assert item.parent is inventory, f"{item.name} in {where}'s pack belongs elsewhere"
                assert item not in game_map.entities, f"{item.name} is both carried and on the floor"
            for slot, kind in (("weapon", EquipmentType.WEAPON), ("armor", EquipmentType.ARMOR)):
                worn = getattr(entity.equipment, slot)
                if worn is not None:
                    assert any(worn is item for item in inventory.items), (
                        f"{where} wears {worn.name}, which it does not carry"
                    )
                    assert worn.equippable is not None and worn.equippable.equipment_type is kind, (
                        f"{where} wears {worn.name} as its {slot}"
                    )
        else:
            assert isinstance(entity, Item)
    stairs = game_map.downstairs_location
    assert game_map.tiles[stairs] == tile_types.down_stairs, f"no stairs at {stairs}"
    visible, explored = game_map.visible, game_map.explored
    assert not (visible & ~explored).any(), "a visible tile is not explored"
    assert game_map.in_bounds(*engine.mouse_location), f"the mouse is off the map: {engine.mouse_location}"
    level = player.level
    assert level.current_level >= 1 and level.current_xp >= 0
    if type(handler) is input_handlers.MainGameEventHandler:
        assert player.is_alive, "the dead player is still playing"
        assert not level.requires_level_up, "a level-up is owed, but the game goes on"
    if isinstance(handler, input_handlers.GameOverEventHandler):
        assert not player.is_alive, "game over for a living player"


def canonical(obj: object, memo: dict[int, int] | None = None) -> object:
    """A plain-data picture of everything reachable from `obj`.

    Two object graphs give equal pictures when they have the same classes,
    the same attribute values and the same sharing (an object reached twice
    is written in full once, then as a reference to its first visit).
    """
    if memo is None:
        memo = {}
    if obj is None or isinstance(obj, bool | int | float | str | bytes):
        return obj
    if isinstance(obj, enum.Enum):
        return ("enum", type(obj).__qualname__, obj.name)
    if isinstance(obj, tuple):  # Immutable: a value, whoever else holds it.
        return ("tuple", [canonical(x, memo) for x in obj])
    if id(obj) in memo:
        return ("ref", memo[id(obj)])
    memo[id(obj)] = len(memo)
    if isinstance(obj, np.ndarray):
        return ("array", obj.dtype.descr, obj.shape, obj.tobytes())
    if isinstance(obj, random.Random):
        return ("random", obj.getstate())
    if isinstance(obj, np.random.Generator):
        return ("generator", canonical(obj.bit_generator.state, memo))
    if isinstance(obj, list):
        return ("list", [canonical(x, memo) for x in obj])
    if isinstance(obj, dict):
        return ("dict", [(canonical(k, memo), canonical(v, memo)) for k, v in obj.items()])
    if isinstance(obj, set | frozenset):
        return ("set", sorted(repr(canonical(x, memo)) for x in obj))
    if hasattr(obj, "__dict__"):
        cls = type(obj)
        if isinstance(obj, Inventory):
            obj.letters  # noqa: B018  # The letters as read: a memo made up to date.
        # When the game last saved itself (`autosave`), how much of its recording the
        # file holds, what a death kept on disk and when it came, and the options and
        # keys in force, are no part of the game; nor is the map's index of its
        # entities by position (`EntitySet._at`), made from where they stand.
        skipped = ("saved_at", "recording", "ending", "death_record", "settings", "_at")
        attributes = sorted((k, v) for k, v in vars(obj).items() if k not in skipped)
        return (f"{cls.__module__}.{cls.__qualname__}", [(k, canonical(v, memo)) for k, v in attributes])
    raise TypeError(f"no picture for {type(obj)!r}")


def first_difference(a: object, b: object, path: str = "engine") -> str | None:
    """Where two pictures from `canonical` first differ, for a readable failure."""
    if type(a) is not type(b):
        return f"{path}: {a!r:.200} != {b!r:.200}"
    if isinstance(a, tuple | list):
        assert isinstance(b, tuple | list)
        if len(a) != len(b):
            return f"{path}: length {len(a)} != {len(b)}: {a!r:.200} != {b!r:.200}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            label = x[0] if isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str) else i
            found = first_difference(x, y, f"{path}/{label}")
            if found:
                return found
        return None
    return None if a == b else f"{path}: {a!r:.200} != {b!r:.200}"


def save_and_load(engine: Engine, folder: Path) -> Engine:
    """Save `engine` and load it back; the copy must equal it in every attribute."""
    path = str(folder / "soak-check.sav")
    save_data.save(engine, path)
    loaded = setup_game.load_game(path)
    before, after = canonical(engine), canonical(loaded)
    if before != after:
        raise AssertionError(f"the loaded game differs: {first_difference(before, after)}")
    return loaded


class Soak:
    """One soak run, and what it saw: games, deaths, quits, floors, screens."""

    def __init__(
        self, seed: int, folder: Path, context: tcod.context.Context, *, helping: bool = True
    ) -> None:
        self.seed = seed
        # Without help the game is only what the player's events did: its
        # recording replays it.
        self.helping = helping
        self.folder = folder
        self.context = context
        self.console = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
        self.rng = random.Random(seed)
        random.seed(seed)  # Anything the game draws from the global generator.
        self.player = SoakPlayer(self.rng)
        self.screens = Screens(self.new_menu())
        self.recent: collections.deque[str] = collections.deque(maxlen=12)
        self.screens_seen: collections.Counter[str] = collections.Counter()
        self.deepest = 0
        self.games = 0
        self.deaths = 0
        self.quits = 0
        self.loads_checked = 0
        self.events_on_floor = 0
        self.floor_seen: tuple[int, int] | None = None  # (game's seed, floor)
        self.save_due = False

    def new_menu(self) -> setup_game.MainMenu:
        """The program started again: a fresh menu, with a seed for a new game."""
        return setup_game.MainMenu(seed=self.rng.getrandbits(32))

    def next_event(self) -> tcod.event.Event:
        """The player's next event; or, every `STAIRS_EVERY` events on a floor, `>` on the stairs."""
        engine = self.screens.engine
        if (
            engine is not None
            and self.helping
            and in_the_dungeon(self.screens)
            and self.events_on_floor >= STAIRS_EVERY
        ):
            stairs = engine.game_map.downstairs_location
            blocker = engine.game_map.get_blocking_entity_at_location(*stairs)
            if blocker is None or blocker is engine.player:
                engine.player.place(*stairs)
                return self.player.press(">")
            # A monster stands on the stairs (one that never saw the player
            # never moves): put the player beside it to fight it off.
            self.events_on_floor = STAIRS_EVERY // 2
            beside = free_tile_beside(engine, *stairs)
            if beside is not None:
                engine.player.place(*beside)
                engine.update_fov()
        return self.player.next_event(self.screens)

    def step(self, event: tcod.event.Event) -> None:
        screens = self.screens
        in_a_game = screens.engine is not None
        # The main loop's door, then what it writes after the frame.
        loop.handle_event(self.context, screens, event)
        if screens.quitting is not None:  # Quitting, in the game or the menu: what main_loop does.
            asked, screens.quitting = screens.quitting, None
            if asked.save:
                autosave.back_to_start(screens)
                autosave.save_game(screens)
            self.quits += 1
            self.screens = Screens(self.new_menu())
            return
        after_frame(screens)
        if in_a_game and screens.in_menu:  # Escape on the game-over screen.
            assert not Path(paths.SAVE_NAME).exists(), "a finished game's save was kept"
            self.quits += 1
            # The main menu, as a player's holds no seed: its next new game is another game
            # (the seed of `new_menu` is a fresh start's, for a reproducible run).
            self.screens = Screens(setup_game.MainMenu(screens.settings))

    def after_event(self, number: int, screen_changed: bool) -> None:
        handler = self.screens.top
        self.screens_seen[screen_name(self.screens)] += 1
        engine = self.screens.engine
        if number % RENDER_EVERY == 0 or screen_changed:
            self.console.clear()
            self.screens.draw(self.console)
        if number % 500 == 0:
            self.context.present(self.console, keep_aspect=True)
        if number % SAVE_EVERY == 0:
            self.save_due = True
        if engine is None:
            return
        check_invariants(engine, handler)

        floor = (engine.game_world.seed, engine.game_world.current_floor)
        if floor != self.floor_seen:
            if self.floor_seen is None or floor[0] != self.floor_seen[0]:
                self.games += 1
            self.floor_seen = floor
            self.events_on_floor = 0
            self.helping_hand(engine)
        self.events_on_floor += 1
        self.deepest = max(self.deepest, engine.game_world.current_floor)

        if self.save_due and engine.player.is_alive:  # As the game, never a finished game.
            self.save_due = False
            loaded = save_and_load(engine, self.folder)
            self.loads_checked += 1
            if in_the_dungeon(self.screens):
                # Play on with the copy: what was loaded must be playable.
                self.screens.apply(Reset.to(input_handlers.MainGameEventHandler(loaded)))

    def helping_hand(self, engine: Engine) -> None:
        """On each new floor, help the random player to every screen.

        It fights too badly to level up often, and finds few scrolls: so its
        experience is topped up to just short of the next level (the next
        kill opens the level-up screen), and an item or two of any kind is
        left at its feet (scrolls open the targeting screens, armour and
        weapons get worn, the pack fills up).
        """
        if not self.helping:
            return
        rng = self.rng
        player = engine.player
        if player.is_alive and rng.random() < 0.2:
            level = player.level
            level.current_xp = max(level.current_xp, level.experience_to_next_level - 20)
        for _ in range(rng.randint(0, 2)):
            rng.choice(GIFTS).spawn(engine.game_map, player.x, player.y)

    def run(self, count: int) -> None:
        """Play `count` events, checking after each; fail saying how to reproduce."""
        for number in range(count):
            try:
                event = self.next_event()
                self.recent.append(f"{number}: {describe(event)} on {screen_name(self.screens)}")
                before = screen_name(self.screens)
                engine = self.screens.engine
                was_alive = engine is not None and engine.player.is_alive
                self.step(event)
                self.after_event(number, screen_name(self.screens) != before)
                engine = self.screens.engine
                if was_alive and engine is not None and not engine.player.is_alive:
                    self.deaths += 1
            except Exception as exc:
                recent = "\n  ".join(self.recent)
                pytest.fail(
                    f"soak failed at event {number} with seed {self.seed}: {exc!r}\n"
                    f"reproduce with SOAK_SEED={self.seed} SOAK_EVENTS={number + 1} "
                    f"python -m pytest tests/test_soak.py\n"
                    f"the last events:\n  {recent}"
                )


@pytest.fixture
def soak_context() -> Iterator[tcod.context.Context]:
    with tcod.context.new(
        columns=main.SCREEN_WIDTH, rows=main.SCREEN_HEIGHT, tileset=assets.load_tileset(), vsync=False
    ) as context:
        yield context


def test_soak(in_tmp: Path, soak_context: tcod.context.Context, monkeypatch: pytest.MonkeyPatch) -> None:
    """20,000 random events (SOAK_EVENTS), checked after each one, on the tutorial's spawn tables."""
    monkeypatch.setattr(procgen, "item_chances", TUTORIAL_ITEM_CHANCES)
    monkeypatch.setattr(procgen, "enemy_chances", TUTORIAL_ENEMY_CHANCES)
    started = time.perf_counter()
    soak = Soak(SOAK_SEED, in_tmp, soak_context)
    soak.run(SOAK_EVENTS)
    elapsed = time.perf_counter() - started
    print(
        f"soak: seed {SOAK_SEED}, {SOAK_EVENTS} events in {elapsed:.1f} s; "
        f"{soak.games} games, {soak.deaths} deaths, {soak.quits} quits, "
        f"deepest floor {soak.deepest}, {soak.loads_checked} saves checked\n"
        f"screens: {dict(soak.screens_seen)}\nEscape pressed on: {dict(soak.player.escapes)}"
    )
    reproduce = f"SOAK_SEED={SOAK_SEED} SOAK_EVENTS={SOAK_EVENTS} python -m pytest tests/test_soak.py"
    if SOAK_EVENTS >= 20_000:
        # The run exercised what it claims to: every key, every screen, deep floors.
        assert soak.deepest >= DEEPEST_REQUIRED, f"only reached floor {soak.deepest}: {reproduce}"
        missing = [str(k) for k in BOUND_KEYS if not soak.player.pressed[k]]
        assert not missing, f"keys never pressed: {missing}: {reproduce}"
        for screen in (
            "MainMenu",
            "PopupMessage",
            "HelpScreen",
            "MainGameEventHandler",
            "InventoryActivateHandler",
            "InventoryDropHandler",
            "CharacterScreenEventHandler",
            "HistoryViewer",
            "LookHandler",
            "LevelUpEventHandler",
            "SingleRangedAttackHandler",
            "AreaRangedAttackHandler",
            "GameOverEventHandler",
        ):
            assert soak.screens_seen[screen], f"never saw {screen}: {reproduce}"
            assert soak.player.escapes[screen] or (screen == "GameOverEventHandler" and soak.quits), (
                f"never pressed Escape on {screen}: {reproduce}"
            )
        assert soak.deaths, f"the player never died: {reproduce}"
        assert soak.loads_checked >= SOAK_EVENTS // SAVE_EVERY - 1, reproduce


def test_soak_replays_the_same_game(in_tmp: Path, soak_context: tcod.context.Context) -> None:
    """The reproduce line is honest: the same seed plays exactly the same game."""
    pictures = []
    for _ in ("first", "second"):
        # One folder, emptied: its path is in the game's words (F12 says where it saved).
        folder = in_tmp / "run"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        os.chdir(folder)
        soak = Soak(12345, folder, soak_context)
        soak.run(1500)
        engine = soak.screens.engine
        assert engine is not None
        engine.recording_file = None  # Named after the time the game began.
        pictures.append((screen_name(soak.screens), canonical(engine)))
    assert pictures[0] == pictures[1], first_difference(pictures[0], pictures[1])


def test_the_soaks_recording_replays_its_game(in_tmp: Path, soak_context: tcod.context.Context) -> None:
    """What the soak player sends is recorded; the last game's recording, played
    across its quits and Continues, replays to the very same game."""
    from conftest import replay_text

    soak = Soak(SOAK_SEED, in_tmp, soak_context, helping=False)
    soak.run(3000)
    while soak.screens.engine is None:  # Ended on the menu: play into a game.
        soak.run(1)
    # A walk under way when the soak stopped goes on to its end, as the
    # replay's does: the two are compared once both have stopped.
    replay_lines.finish_walk(soak.screens)
    engine = soak.screens.engine
    assert engine is not None and engine.recording_file is not None
    text = (in_tmp / "recordings" / engine.recording_file).read_text()
    assert text.splitlines() == all_lines(engine)
    replayed = replay_text(text).engine
    assert replayed is not None
    replayed.recording_file = engine.recording_file
    # The window's keys are not part of the game, so the replay takes no
    # screenshots and its log lacks their notices: the rest of the log is the same.
    assert log_but_screenshots(replayed) == log_but_screenshots(engine)
    engine.message_log.messages.clear()
    replayed.message_log.messages.clear()
    before, after = canonical(engine), canonical(replayed)
    assert before == after, first_difference(before, after)
    print(f"the last game: {len(engine.recording) - 2} events recorded, {soak.quits} quits")


def log_but_screenshots(engine: Engine) -> list[str]:
    """The message log, one line per message (repeats too), but the screenshots' notices."""
    return [
        message.plain_text
        for message in engine.message_log.messages
        for _ in range(message.count)
        if not message.plain_text.startswith("Screenshot saved")
    ]
