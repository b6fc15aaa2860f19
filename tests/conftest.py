"""Shared test set-up: a headless video driver, the project on the path, fixtures."""

from __future__ import annotations

import os
import sys
from pathlib import Path

# Must be set before tcod is first imported, or no context can be made.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import copy  # noqa: E402
import random  # noqa: E402
import types  # noqa: E402
from collections.abc import Iterable, Iterator, Sequence  # noqa: E402

import pytest  # noqa: E402
import tcod  # noqa: E402
from tcod.event import KeySym, Modifier  # noqa: E402

import input_handlers  # noqa: E402
import main  # noqa: E402
import setup_game  # noqa: E402
import tile_types  # noqa: E402
from controls import keys  # noqa: E402
from controls.keys import Key  # noqa: E402
from engine import Engine  # noqa: E402
from entity import Item  # noqa: E402
from game_map import GameMap  # noqa: E402
from replays import record_format, record_reader, recording, replay, replay_lines, rules  # noqa: E402
from saving import effects, paths  # noqa: E402
from screens.stack import Screens  # noqa: E402
from window import assets, options  # noqa: E402


def key(sym: KeySym, mod: Modifier = Modifier.NONE) -> tcod.event.KeyDown:
    """A real key press event, as SDL would deliver it."""
    scancode = tcod.event.Scancode.UNKNOWN
    return tcod.event.KeyDown(scancode=scancode, sym=sym, mod=mod)


def typed(text: str) -> tcod.event.TextInput:
    """The character a key press types, as SDL delivers it after the key's KeyDown."""
    return tcod.event.TextInput(text=text)


def stroke(binding: Key, mod: Modifier = Modifier.NONE) -> tcod.event.KeyDown | tcod.event.TextInput:
    """The event a binding acts on: a key's KeyDown, or the TextInput of a symbol."""
    return typed(binding) if isinstance(binding, str) else key(binding, mod)


def click(x: int, y: int, button: tcod.event.MouseButton = tcod.event.MouseButton.LEFT) -> tcod.event.MouseButtonDown:
    """A real mouse click on tile (x, y), as `convert_event` leaves it."""
    return tcod.event.MouseButtonDown(
        position=tcod.event.Point(x + 0.5, y + 0.5), tile=tcod.event.Point(x, y), button=button
    )


def motion(x: int, y: int) -> tcod.event.MouseMotion:
    """A real mouse motion onto tile (x, y), as `convert_event` leaves it."""
    return tcod.event.MouseMotion(
        position=tcod.event.Point(x + 0.5, y + 0.5), tile=tcod.event.Point(x, y)
    )


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Run every test in an empty working directory of its own.

    Saves, screenshots and every other player file go to the working
    directory: a test must never touch a player's (see test_player_files.py).
    Tests that look at those files ask for this fixture by name, for the path.
    """
    monkeypatch.chdir(tmp_path)
    paths.use_data_dir(Path())  # The working directory, whatever folder a test's main() used.
    yield tmp_path


@pytest.fixture
def engine() -> Engine:
    """A new game, as the menu's N starts it, with a fixed seed."""
    random.seed(1234)
    return setup_game.new_game(seed=1234)


def arena(
    width: int = 20,
    height: int = 15,
    at: tuple[int, int] = (5, 5),
    *,
    walled: bool = True,
    seed: int = 1234,
) -> Engine:
    """A seeded new game (the player in starting gear) moved to `at` on a map
    of open floor, ringed by wall unless `walled` is False."""
    random.seed(seed)
    engine = setup_game.new_game(seed=seed)
    game_map = GameMap(engine, width, height)
    game_map.tiles[...] = tile_types.floor
    if walled:
        game_map.tiles[[0, -1], :] = tile_types.wall
        game_map.tiles[:, [0, -1]] = tile_types.wall
    engine.player.place(*at, game_map)
    engine.game_map = game_map
    engine.update_fov()
    return engine


def place_stairs(engine: Engine, x: int, y: int) -> None:
    """The stairs down moved to (x, y), tile and all, as `procgen` places them."""
    game_map = engine.game_map
    if game_map.tiles[game_map.downstairs_location] == tile_types.down_stairs:
        game_map.tiles[game_map.downstairs_location] = tile_types.floor
    game_map.downstairs_location = (x, y)
    game_map.tiles[x, y] = tile_types.down_stairs


def texts(engine: Engine, start: int = 0) -> list[str]:
    """The message log's lines from the `start`th on, as the player reads them."""
    return [message.full_text for message in engine.message_log.messages[start:]]


def all_lines(engine: Engine, folder: Path | None = None) -> list[str]:
    """Every line of a game's recording: what its file holds of it (in the player's
    recordings folder, or `folder`'s), then the lines held."""
    lines = engine.recording
    if not lines.written or folder is None:
        return (recording.data_of(engine) or b"").decode().splitlines()
    written = (folder / "recordings" / str(engine.recording_file)).read_bytes()[: lines.size]
    return written.decode().splitlines() + lines.held


def screens_of(*screens: input_handlers.BaseEventHandler, settings: options.Settings | None = None) -> Screens:
    """`screens` (bottom first) over a main menu, as the main loop holds them; the
    menu's settings are the first game's, else `settings` (by default the defaults)."""
    games = [screen.game() for screen in screens]
    engine = next((game for game in games if game is not None), None)
    chosen = settings or (engine.settings if engine is not None else options.Settings())
    return Screens(setup_game.MainMenu(chosen), *screens)


def engine_of(screens: Screens) -> Engine:
    """The game the screens show, which a test expects there."""
    engine = screens.engine
    assert engine is not None
    return engine


def dungeon(engine: Engine) -> Screens:
    """The main game of `engine` over the main menu, as a new game starts."""
    return screens_of(input_handlers.MainGameEventHandler(engine))


def press(engine: Engine, *syms: Key) -> Screens:
    """Press keys (or type symbols) one after another from the main game; the screens after."""
    screens = dungeon(engine)
    for sym in syms:
        screens.press(stroke(sym))
    return screens


def pressing(screens: Screens, *events: tcod.event.Event) -> Screens:
    """Send `events` one after another along the main loop's one path (`Screens.press`)."""
    for event in events:
        screens.press(event)
    return screens


def after_frame(screens: Screens) -> Screens:
    """What the main loop does once it has shown `screens`: write what play left to
    write (`saving.effects`); the screens shown next."""
    effects.after_frame(screens)
    return screens


def use(engine: Engine, item: Item) -> Screens:
    """Press `i`, then the item's letter; the screens after."""
    return pressing(press(engine, KeySym.I), key(item_key(engine, item)))


def item_key(engine: Engine, item: Item) -> KeySym:
    """The key of the inventory letter `item` is listed under."""
    return keys.letter_key(engine.player.inventory.letter_of(item))


def screen_rows(shown: Screens | input_handlers.BaseEventHandler) -> list[str]:
    """What the screens (or a screen alone) draw on the game's 80x50 console, row by row."""
    console = tcod.console.Console(80, 50, order="F")
    if isinstance(shown, Screens):
        shown.draw(console)
    else:
        shown.on_render(console)
    return ["".join(chr(c) for c in console.rgb["ch"][:, y]) for y in range(console.height)]


@pytest.fixture
def context() -> Iterator[tcod.context.Context]:
    """The game's real window (SDL's dummy video driver: nothing shows)."""
    with main.open_window(assets.load_tileset(), options.Settings()) as context:
        yield context


def give(engine: Engine, template: Item) -> Item:
    """Put a fresh copy of `template` in the player's pack, as a pick-up would."""
    item = copy.deepcopy(template)
    engine.player.inventory.add(item)
    return item


def in_the_games_module(monkeypatch: pytest.MonkeyPatch, cls: type, module: types.ModuleType) -> None:
    """`cls` as if written in the game's `module` (components/consumable.py...),
    where the README's recipes put it: a test adds it here, not in the game's files."""
    monkeypatch.setattr(cls, "__module__", module.__name__)
    monkeypatch.setattr(module, cls.__name__, cls, raising=False)


def play_events(
    screens: Screens | input_handlers.BaseEventHandler, events: Iterable[tcod.event.Event | record_format.Recorded]
) -> Screens:
    """Send `events` to the game as a replay does (`replay_lines.replay_line`); the screens after.

    Unlike a replay, an error is not caught: it fails the test.  A walk the
    last event started goes on until it stops, as a replay's does.
    """
    if not isinstance(screens, Screens):
        screens = screens_of(screens)
    for event in events:
        replay_lines.replay_line(screens, event)
    replay_lines.finish_walk(screens)
    return screens


def replay_text(text: str) -> Screens:
    """Play a recording given as text (see `recording`) through the real handlers.

    Returns the screens the game ends on (`Screens.game` gives its game),
    so that a test can be written as a recording::

        screens = replay_text("recording 1\nseed 1234\nkey l\nkey period shift")
    """
    script = record_reader.parse(text, "<test>")
    return play_events(replay.start(script), script.events)


def after_header(lines: list[str]) -> list[str]:
    """A recording's lines after its header: the format, the seed, and the
    keys and options it plays by (`replays.rules`)."""
    rest = lines[2:]
    while rest and rest[0].startswith(("bind ", "option ")):
        rest = rest[1:]
    return rest


def first_save(seed: int) -> str:
    """The line a new game of `seed` records as it is first saved, after its first frame
    (`recording.save_line`: which game the save holds)."""
    return recording.save_line(setup_game.new_game(seed))


def played_lines(lines: Iterable[str]) -> list[str]:
    """`lines` but those the game's saves recorded (`recording.save_line`)."""
    return [line for line in lines if not line.startswith(record_format.SAVED_PREFIX)]


def new_header(seed: int) -> list[str]:
    """The header a new game of `seed` starts its recording with, at the default keys and options."""
    return record_format.header(seed, in_force=rules.rules_for(options.Settings()))


def names(events: Sequence[tcod.event.Event]) -> str:
    """Events as a failure names them: "KeyDown TAB", "TextInput '/'"."""
    return ", ".join(
        f"KeyDown {event.sym.name}" if isinstance(event, tcod.event.KeyDown)
        else f"TextInput {event.text!r}" if isinstance(event, tcod.event.TextInput)
        else type(event).__name__
        for event in events
    )  # fmt: skip
