"""End to end: the game played through `loop.main_loop`, as a person would.

A real tcod context (the dummy video driver, see conftest.py) and real
`tcod.event` objects: key presses, and mouse events in window pixels that
the loop itself converts to tiles.  Each script is a generator that yields
one batch of events per frame: between batches the loop draws the frame, and
the script reads it back from the root console, so every check is on what
the player would see, or on the game behind it.  To set up a fight or a
target on a random map the script reaches into the engine between frames
(spawning an orc, say), but everything the player does is a key press or a
click.

Run alone:  python -m pytest tests/test_e2e.py
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from collections.abc import Callable, Generator, Iterable, Sequence
from pathlib import Path

import pytest
import tcod
from conftest import all_lines, key, played_lines, typed
from tcod.event import KeySym, Modifier, MouseButton

import entity_factories
import main
import setup_game
from components.ai import ConfusedEnemy
from controls import key_help, keys
from engine import Engine
from entity import Actor
from saving import paths, save_data
from screens.base import Reset, Transition
from screens.stack import Screens
from window import command_line, loop
from words import descriptions

SEED = 4242
TILE = 10  # Pixels per tile: the tile sheet's, and the window's 800x500 for 80x50.

Batch = Sequence[tcod.event.Event]
Script = Generator[Batch, None, None]


class ScriptFailed(BaseException):
    """A failed check in a script, carried out of `main_loop`.

    The loop catches and logs every `Exception` (the game goes on after a
    bug), so an `AssertionError` raised in the event source would be logged
    and the loop would ask for events again.  A `BaseException` passes
    through: the loop saves the game and re-raises it.
    """


class Feed:
    """The event source `main_loop` calls once per frame: the script's next batch."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.frames = 0

    def __call__(self, timeout: float | None = None) -> Iterable[tcod.event.Event]:
        self.frames += 1
        try:
            return next(self.script)
        except StopIteration:
            raise ScriptFailed(
                f"the loop went on after the script closed the window\n{rerun()}"
            ) from None
        except Exception as exc:
            raise ScriptFailed(f"frame {self.frames}: {exc!r}\n{rerun()}") from exc


def rerun() -> str:
    """The command that runs the current test again."""
    test = os.environ.get("PYTEST_CURRENT_TEST", "tests/test_e2e.py").rsplit(" ", 1)[0]
    return f"to see it again: python -m pytest '{test}'"


class Menu(setup_game.MainMenu):
    """The real main menu, which also keeps the game it starts or continues."""

    engine: Engine | None = None

    def ev_keydown(self, event: tcod.event.KeyDown) -> Transition | None:
        result = super().ev_keydown(event)
        if isinstance(result, Reset):
            self.engine = game_of(result)
        return result

    def start_new_game(self) -> Transition:
        """A new game, asked for again over a saved one (`y` to "Abandon your saved game?")."""
        result = super().start_new_game()
        assert isinstance(result, Reset)
        self.engine = game_of(result)
        return result


def game_of(reset: Reset) -> Engine | None:
    """The game a `Reset` shows: its top-most screen's that has one."""
    return next((engine for screen in reversed(reset.screens) if (engine := screen.game()) is not None), None)


class Player:
    """What a script sees (the frame last drawn) and what it can reach (the game)."""

    def __init__(
        self, context: tcod.context.Context, console: tcod.console.Console, menu: Menu
    ) -> None:
        self.context = context
        self.console = console
        self.menu = menu
        self.notes: dict[str, object] = {}  # What a script wants the test to know.

    @property
    def engine(self) -> Engine:
        assert self.menu.engine is not None, "no game has started"
        return self.menu.engine

    def screen(self) -> str:
        """The text of the frame on screen, one line per row."""
        chars = self.console.rgb["ch"]
        return "\n".join(
            "".join(chr(c) if c else " " for c in chars[:, y]) for y in range(self.console.height)
        )

    def row(self, y: int) -> str:
        return self.screen().splitlines()[y]

    def messages(self) -> list[str]:
        return [m.plain_text for m in self.engine.message_log.messages]

    def free_tile(self, x: int, y: int) -> bool:
        game_map = self.engine.game_map
        return bool(
            game_map.in_bounds(x, y)
            and game_map.tiles["walkable"][x, y]
            and game_map.get_blocking_entity_at_location(x, y) is None
        )

    def open_direction(self) -> tuple[int, int]:
        player = self.engine.player
        for dx, dy in key_help.DIRECTION_NAMES:
            if self.free_tile(player.x + dx, player.y + dy):
                return dx, dy
        raise AssertionError("the player is walled in")

    def spawn_orc_beside(self) -> tuple[Actor, tuple[int, int]]:
        dx, dy = self.open_direction()
        player = self.engine.player
        orc = entity_factories.orc.spawn(self.engine.game_map, player.x + dx, player.y + dy)
        return orc, (dx, dy)


def key_for(direction: tuple[int, int]) -> KeySym:
    """A vi key for a step."""
    for sym in (KeySym.H, KeySym.J, KeySym.K, KeySym.L, KeySym.Y, KeySym.U, KeySym.B, KeySym.N):
        if keys.MOVE_KEYS[sym] == direction:
            return sym
    raise AssertionError(direction)


def letter(engine: Engine, name: str) -> KeySym:
    """The inventory letter of the first item called `name`."""
    for letter, stack in engine.player.inventory.listing():
        if stack[0].name == name:
            return keys.letter_key(letter)
    raise AssertionError(f"no {name} in the inventory")


def pixels(x: int, y: int) -> tcod.event.Point[float]:
    """The middle of tile (x, y), in window pixels, as SDL reports the mouse."""
    return tcod.event.Point((x + 0.5) * TILE, (y + 0.5) * TILE)


def mouse_to(x: int, y: int) -> tcod.event.MouseMotion:
    return tcod.event.MouseMotion(position=pixels(x, y))


def mouse_click(x: int, y: int) -> tcod.event.MouseButtonDown:
    return tcod.event.MouseButtonDown(position=pixels(x, y), button=MouseButton.LEFT)


GREATER = typed(">")  # `>` as SDL sends it.
QUESTION = typed("?")  # `?` as SDL sends it.


def play(
    context: tcod.context.Context,
    menu: Menu,
    script: Callable[[Player], Script],
) -> tuple[Player, Feed]:
    """Run the real main loop with `script` at the keyboard, until it closes the window."""
    console = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
    player = Player(context, console, menu)
    feed = Feed(script(player))
    loop.main_loop(context, console, Screens(menu), events=feed)
    return player, feed


def summary(engine: Engine) -> dict[str, object]:
    """What the second run must find again."""
    player = engine.player
    equipment = player.equipment
    return {
        "floor": engine.game_world.current_floor,
        "seed": engine.game_world.seed,
        "position": (player.x, player.y),
        "hp": (player.fighter.hp, player.fighter.max_hp),
        "level": (player.level.current_level, player.level.current_xp),
        "inventory": [item.name for item in player.inventory.items],
        "equipment": [item.name if item else None for item in (equipment.weapon, equipment.armor)],
        "explored": engine.game_map.explored.sum(),
        "monsters": sorted(
            (a.name, a.x, a.y, a.fighter.hp) for a in engine.game_map.actors if a is not player
        ),
        "messages": len(engine.message_log.messages),
    }


def first_run(me: Player) -> Script:
    """Menu, N, walk, fight, pick up, equip, drink, read scrolls at a target,
    level up, take the stairs, open every screen and leave it, close the window."""
    screen = me.screen
    # The menu, its help, and Continue with no save yet.
    assert "[N] Play a new game" in screen()
    yield [QUESTION]
    assert "Keys" in screen() and "Play a new game" in screen()
    yield [key(KeySym.ESCAPE)]
    assert "[N] Play a new game" in screen()
    yield [key(KeySym.C)]
    assert "No saved game to load." in screen()
    yield [key(KeySym.ESCAPE)]
    assert "No saved game" not in screen()
    yield [key(KeySym.N)]

    engine = me.engine
    player = engine.player
    assert engine.game_world.seed == SEED
    assert "HP: 30/30" in screen() and "Dungeon level: 1" in screen()
    assert "Hello and welcome" in screen()

    # Walk: three steps, with a vi key, an arrow key and a numpad key.
    for choices in (
        (KeySym.H, KeySym.J, KeySym.K, KeySym.L, KeySym.Y, KeySym.U, KeySym.B, KeySym.N),
        (KeySym.LEFT, KeySym.RIGHT, KeySym.UP, KeySym.DOWN, KeySym.HOME, KeySym.END, KeySym.PAGEUP, KeySym.PAGEDOWN),
        (KeySym.KP_1, KeySym.KP_2, KeySym.KP_3, KeySym.KP_4, KeySym.KP_6, KeySym.KP_7, KeySym.KP_8, KeySym.KP_9),
    ):
        sym = next(
            s for s in choices
            if me.free_tile(player.x + keys.MOVE_KEYS[s][0], player.y + keys.MOVE_KEYS[s][1])
        )
        dx, dy = keys.MOVE_KEYS[sym]
        start = player.x, player.y
        yield [key(sym)]
        assert (player.x, player.y) == (start[0] + dx, start[1] + dy), f"{sym.name} did not move the player"
    yield [typed(".")]  # Wait a turn.

    # Fight: an orc beside the player, bumped until dead.
    orc, direction = me.spawn_orc_beside()
    for _ in range(10):
        yield [key(key_for(direction))]
        if not orc.is_alive:
            break
    assert not orc.is_alive and orc.name == "remains of Orc"
    assert "Orc is dead!" in me.messages()
    assert player.level.current_xp == 35
    assert "Player attacks Orc for 4 hit points." in screen()
    assert player.fighter.hp < 30, "the orc never hit back"

    # Pick up: a potion, two scrolls and a sword, dropped at the player's feet.
    for template in (
        entity_factories.health_potion,
        entity_factories.confusion_scroll,
        entity_factories.fireball_scroll,
        entity_factories.sword,
    ):
        template.spawn(engine.game_map, player.x, player.y)
    for _ in range(4):
        yield [key(KeySym.G)]
    yield [key(KeySym.G)]
    assert "There is nothing here to pick up." in screen()
    assert [item.name for item in player.inventory.items] == [
        "Dagger", "Leather Armor", "Health Potion", "Confusion Scroll", "Fireball Scroll", "Sword",
    ]

    # Equip the sword from the inventory: the dagger comes off.
    yield [key(KeySym.I)]
    assert "Select an item to use" in screen() and "(a) Dagger (E)" in screen()
    yield [key(letter(engine, "Sword"))]
    assert player.equipment.weapon is not None and player.equipment.weapon.name == "Sword"
    assert "You remove the Dagger." in me.messages() and "You equip the Sword." in me.messages()

    # Drink the potion.
    player.fighter.hp = min(player.fighter.hp, 20)  # Hurt enough for the potion to be used up.
    hp = player.fighter.hp
    yield [key(KeySym.I)]
    yield [key(letter(engine, "Health Potion"))]
    assert "You consume the Health Potion, and recover 4 HP!" in me.messages()
    assert player.fighter.hp > hp  # (A monster may have hit back in the same turn.)
    assert f"HP: {player.fighter.hp}/30" in screen()
    assert "Health Potion" not in [item.name for item in player.inventory.items]

    # Read scrolls at a target: an orc in view, six tiles or so away.
    candidates = sorted(
        (x, y)
        for x in range(engine.game_map.width)
        for y in range(engine.game_map.height)
        if engine.game_map.visible[x, y] and me.free_tile(x, y) and 5 <= player.distance(x, y) <= 7
    )
    assert candidates, "no tile in view to put a target on"
    target = entity_factories.orc.spawn(engine.game_map, *candidates[0])
    yield [mouse_to(target.x, target.y)]
    assert me.row(44).strip().startswith("Orc"), "the mouse does not name what it points at"
    # Confusion, aimed with the cursor keys and Enter.
    yield [key(KeySym.I)]
    yield [key(letter(engine, "Confusion Scroll"))]
    assert "Enter casts" in screen()
    in_view = [
        actor
        for actor in engine.game_map.actors
        if actor is not player and engine.game_map.visible[actor.x, actor.y]
    ]
    nearest = min(player.distance(actor.x, actor.y) for actor in in_view)
    assert engine.game_map.get_actor_at_location(*engine.mouse_location) in in_view
    assert player.distance(*engine.mouse_location) == nearest, "the cursor starts on the nearest enemy"
    while engine.mouse_location != (target.x, target.y):
        x, y = engine.mouse_location
        step = ((target.x > x) - (target.x < x), (target.y > y) - (target.y < y))
        yield [key(key_for(step))]
    yield [key(KeySym.RETURN)]
    assert isinstance(target.ai, ConfusedEnemy)
    assert "The eyes of the Orc look vacant, as it starts to stumble around!" in me.messages()
    # Fireball, aimed with the mouse: a click on the (stumbling) orc.
    yield [key(KeySym.I)]
    yield [key(letter(engine, "Fireball Scroll"))]
    assert math.dist((player.x, player.y), (target.x, target.y)) > 3, "the player would burn too"
    yield [mouse_to(target.x, target.y), mouse_click(target.x, target.y)]
    assert not target.is_alive
    assert "The Orc is engulfed in a fiery explosion, taking 12 damage!" in me.messages()
    assert [item.name for item in player.inventory.items] == ["Dagger", "Leather Armor", "Sword"]

    # Level up: one more kill past the threshold opens the level-up screen.
    player.level.current_xp = player.level.experience_to_next_level - 1
    orc, direction = me.spawn_orc_beside()
    while orc.is_alive:
        yield [key(key_for(direction))]
    assert "Congratulations! You level up!" in screen()
    yield [key(KeySym.ESCAPE)]  # Not a choice: the screen stays.
    assert "Congratulations! You level up!" in screen()
    yield [key(KeySym.A)]
    assert player.level.current_level == 2 and player.fighter.max_hp == 50
    assert "Level Up" not in screen()

    # Drop the dagger.
    yield [key(KeySym.D)]
    assert "Select an item to drop" in screen()
    yield [key(letter(engine, "Dagger"))]
    assert "You dropped the Dagger." in me.messages()

    # Take the stairs.
    stairs = engine.game_map.downstairs_location
    assert engine.game_map.get_blocking_entity_at_location(*stairs) is None
    player.place(*stairs)
    yield [GREATER]
    assert engine.game_world.current_floor == 2
    assert "Dungeon level: 2" in screen() and "You descend the staircase." in screen()

    # Every screen, and out again with Escape.
    for opener, title in (
        ([key(KeySym.I)], "Select an item to use"),
        ([key(KeySym.D)], "Select an item to drop"),
        ([key(KeySym.C)], "Character Information"),
        ([key(KeySym.V)], "Message history"),
        ([QUESTION], "Space for more"),
        ([key(KeySym.F1)], "Space for more"),
        ([typed("/")], None),
    ):
        yield opener
        if title:
            assert title in screen(), f"{title!r} is not on screen"
        if title == "Character Information":
            assert f"Seed: {SEED}" in screen()
            assert "Level: 2" in screen()
        yield [key(KeySym.ESCAPE)]
        assert type(me.menu.engine) is Engine
        assert "Dungeon level: 2" in screen() and (title is None or title not in screen())
    # Look around: the cursor moves with the keys, Enter describes the tile,
    # any key goes back to looking, and Escape leaves.
    yield [typed("/")]
    yield [key(KeySym.RIGHT, Modifier.LSHIFT)]
    assert engine.mouse_location == (min(player.x + 5, engine.game_map.width - 1), player.y)
    yield [key(KeySym.KP_ENTER)]
    title, _ = descriptions.describe_tile(*engine.mouse_location, engine)
    assert f" {title} " in screen()
    yield [key(KeySym.ESCAPE)]
    assert f" {title} " not in screen()
    yield [key(KeySym.ESCAPE)]
    # A targeting screen left with Escape (a scroll is not used up by it).
    entity_factories.confusion_scroll.spawn(engine.game_map, player.x, player.y)
    yield [key(KeySym.G)]
    yield [key(KeySym.I)]
    yield [key(letter(engine, "Confusion Scroll"))]
    assert "Enter casts" in screen()
    yield [key(KeySym.ESCAPE)]
    assert "Confusion Scroll" in [item.name for item in player.inventory.items]

    # The keys of every screen: a screenshot, and fullscreen on and off.
    yield [key(KeySym.F12)]
    assert Path("screenshot-001.png").is_file()
    assert "Screenshot saved as screenshot-001.png" in screen()
    window = me.context.sdl_window
    assert window is not None
    yield [key(KeySym.RETURN, Modifier.LALT)]
    assert window.fullscreen
    yield [key(KeySym.RETURN, Modifier.LALT)]
    assert not window.fullscreen
    yield [key(KeySym.F5), key(KeySym.TAB), key(KeySym.Z)]  # Bound to nothing.
    assert "Dungeon level: 2" in screen()

    # Close the window.
    me.notes["left"] = summary(engine)
    yield [tcod.event.Quit()]


def second_run(left: dict[str, object]) -> Callable[[Player], Script]:
    """C on a fresh menu: the same game, where it was `left`."""

    def script(me: Player) -> Script:
        assert "[C] Continue last game" in me.screen()
        yield [key(KeySym.C)]
        engine = me.engine
        assert summary(engine) == left
        assert "Dungeon level: 2" in me.screen()
        hp, max_hp = engine.player.fighter.hp, engine.player.fighter.max_hp
        assert f"HP: {hp}/{max_hp}" in me.screen()
        yield [key(KeySym.C)]
        assert f"Seed: {SEED}" in me.screen()
        yield [key(KeySym.ESCAPE)]
        # Still playable: wait a turn, then close the window again.
        yield [key(KeySym.KP_5)]
        me.notes["left"] = summary(engine)
        yield [tcod.event.Quit()]

    return script


def test_play_through_the_real_loop_then_continue(
    context: tcod.context.Context, capsys: pytest.CaptureFixture[str]
) -> None:
    first, feed = play(context, Menu(seed=SEED), first_run)
    out, err = capsys.readouterr()
    assert "Traceback" not in err, err
    assert "Game saved." in out
    assert Path(paths.SAVE_NAME).is_file(), "closing the window did not save"
    assert feed.frames > 50

    left = first.notes["left"]
    assert isinstance(left, dict)
    second, _ = play(context, Menu(), second_run(left))
    out, err = capsys.readouterr()
    assert "Traceback" not in err, err
    assert "Game saved." in out
    # The wait took a turn, and that was saved too.
    assert summary(setup_game.load_game(paths.SAVE_NAME)) == second.notes["left"]


def replay(
    context: tcod.context.Context, seed: int, keys: Sequence[tcod.event.Event], *, after: bool = True
) -> Engine:
    """A new game with `seed`, the `keys` pressed, down the stairs to floor 3,
    and (`after`) the `keys` pressed again there."""

    def script(me: Player) -> Script:
        yield [key(KeySym.N)]
        if setup_game.ABANDON in me.screen():  # The game before's save.
            yield [key(KeySym.Y)]
        for event in keys:
            yield [event]
        for _ in range(2):
            me.engine.player.place(*me.engine.game_map.downstairs_location)
            yield [GREATER]
        for event in keys if after else []:
            yield [event]
        yield [tcod.event.Quit()]

    me, _ = play(context, Menu(seed=seed), script)
    # The recording's file is named after the time the game began.
    me.engine.recording_file = None
    return me.engine


WALK = [key(KeySym.H)] * 6 + [key(KeySym.L)] * 12 + [typed(".")] * 10 + [key(KeySym.J)] * 6


def test_the_same_seed_and_keys_give_the_same_game(context: tcod.context.Context) -> None:
    """Floors, monsters, items and what the monsters do: all the same, to the last attribute."""
    from test_soak import canonical, first_difference

    first = canonical(replay(context, 77, WALK))
    second = canonical(replay(context, 77, WALK))
    assert first == second, first_difference(first, second)
    assert canonical(replay(context, 78, WALK)) != first


def test_floors_do_not_depend_on_how_the_player_played(context: tcod.context.Context) -> None:
    """The same seed gives the same floor 3, monsters and items, however floors 1 and 2 went."""

    def floor(engine: Engine) -> object:
        game_map = engine.game_map
        assert engine.game_world.current_floor == 3
        return (
            game_map.tiles.tobytes(),
            game_map.downstairs_location,
            [
                (type(e).__name__, e.name, e.x, e.y)
                for e in game_map.entities
                if e is not engine.player
            ],
        )

    walked = replay(context, 91, WALK, after=False)
    waited = replay(context, 91, [typed(".")], after=False)
    assert floor(walked) == floor(waited)
    assert floor(walked) != floor(replay(context, 92, WALK, after=False))


def test_without_a_seed_each_game_differs() -> None:
    seeds = {setup_game.new_game(None).game_world.seed for _ in range(5)}
    assert len(seeds) == 5


def test_help_lists_the_seed_option() -> None:
    result = subprocess.run(
        [sys.executable, str(Path(main.__file__)), "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "--seed" in result.stdout
    assert command_line.parse_args(["--seed", "12"]).seed == 12
    assert command_line.parse_args([]).seed is None


def open_screen(screen: str) -> Callable[[Player], Script]:
    """A script that opens `screen` with keys, checks it is drawn, and closes the window."""

    def script(me: Player) -> Script:
        if screen.startswith("menu"):
            if screen == "menu help":
                yield [QUESTION]
                assert "Play a new game" in me.screen() and "Space for more" in me.screen()
            if screen == "menu popup":
                yield [key(KeySym.C)]
                assert "No saved game to load." in me.screen()
            yield [tcod.event.Quit()]
            return
        yield [key(KeySym.N)]
        if setup_game.ABANDON in me.screen():  # The game before's save.
            yield [key(KeySym.Y)]
        engine = me.engine
        player = engine.player
        if screen.startswith("game over"):
            save_data.save(engine, paths.SAVE_NAME)  # A save from earlier in this game.
            player.fighter.hp = 0  # Dies; the next turn finds out.
            yield [typed(".")]
            assert "You died!" in me.screen()
            if screen == "game over, history":
                yield [key(KeySym.V)]
                assert "Message history" in me.screen()
            yield [tcod.event.Quit()]
            return
        if screen == "targeting":
            entity_factories.confusion_scroll.spawn(engine.game_map, player.x, player.y)
            yield [key(KeySym.G)]
            yield [key(KeySym.I)]
            yield [key(letter(engine, "Confusion Scroll"))]
        elif screen == "level up":
            player.level.current_xp = player.level.experience_to_next_level + 1
            yield [typed(".")]
        elif screen != "game":
            yield [SCREEN_KEYS[screen]]
        assert SCREEN_TEXT[screen] in me.screen(), f"{screen} is not on screen"
        me.notes["picture"] = picture(engine)
        yield [tcod.event.Quit()]

    return script


def picture(engine: Engine) -> object:
    from test_soak import canonical

    return canonical(engine)


SCREEN_KEYS = {
    "inventory": key(KeySym.I),
    "drop": key(KeySym.D),
    "character": key(KeySym.C),
    "history": key(KeySym.V),
    "look": typed("/"),
    "help": QUESTION,
}
SCREEN_TEXT = {
    "game": "Dungeon level: 1",
    "inventory": "Select an item to use",
    "drop": "Select an item to drop",
    "character": "Character Information",
    "history": "Message history",
    "look": "Dungeon level: 1",
    "help": "Space for more",
    "targeting": "Enter casts",
    "level up": "Congratulations! You level up!",
}


@pytest.mark.parametrize(
    "screen",
    ["menu", "menu help", "menu popup", *SCREEN_TEXT, "game over", "game over, history"],
)
def test_closing_the_window_on_any_screen(
    context: tcod.context.Context, screen: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Closing the window saves a game in play, whatever screen is open, and
    nothing else: not the menu, and never a finished game."""
    me, _ = play(context, Menu(seed=SEED), open_screen(screen))
    assert "Traceback" not in capsys.readouterr().err
    save = Path(paths.SAVE_NAME)
    if screen.startswith("menu"):
        assert not save.exists()
        return

    if not screen.startswith("game over"):
        saved = setup_game.load_game(paths.SAVE_NAME)
        # Left on a menu, the game goes on from its save on the dungeon's
        # screen, and its recording says so.
        on_a_menu = screen not in ("game", "level up")
        assert (played_lines(all_lines(saved))[-1] == "resume") == on_a_menu
        assert picture(saved) == me.notes["picture"]

    def continue_game(me: Player) -> Script:
        yield [key(KeySym.C)]
        me.notes["screen"] = me.screen()
        yield [tcod.event.Quit()]

    again, _ = play(context, Menu(), continue_game)
    shown = again.notes["screen"]
    assert isinstance(shown, str)
    if screen.startswith("game over"):
        # The game is over: no save of it is left to continue.
        assert "No saved game to load." in shown, f"closing the window on {screen} kept a save"
        return
    expected = "Congratulations! You level up!" if screen == "level up" else "Dungeon level: 1"
    assert expected in shown
