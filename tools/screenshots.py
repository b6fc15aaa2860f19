"""Make the README's screenshots in docs/ from a scripted game.

Plays a seeded game through the game's own event handling (`loop.handle_event`)
with real tcod key and mouse events, and saves what the window shows at each
step with the context's own screenshot, as F12 does.  Runs with no screen (the
dummy video driver, unless SDL_VIDEODRIVER says otherwise); the same seed
gives the same pictures, but for the date a death is stamped with.

    python tools/screenshots.py [folder]     # docs/ by default
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # Before tcod is imported.
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import tcod  # noqa: E402
from tcod.event import KeySym, Modifier  # noqa: E402

import entity_factories  # noqa: E402
import main  # noqa: E402
import setup_game  # noqa: E402
from controls import keys  # noqa: E402
from engine import Engine  # noqa: E402
from entity import Actor, Item  # noqa: E402
from screens.stack import Screens  # noqa: E402
from window import assets, loop, options  # noqa: E402

# A first floor whose first room is wide, with two monsters in sight.
SEED = 2


def key(sym: KeySym, mod: Modifier = Modifier.NONE) -> tcod.event.KeyDown:
    return tcod.event.KeyDown(scancode=tcod.event.Scancode.UNKNOWN, sym=sym, mod=mod)


def motion(x: int, y: int) -> tcod.event.MouseMotion:
    return tcod.event.MouseMotion(
        position=tcod.event.Point(x + 0.5, y + 0.5), tile=tcod.event.Point(x, y)
    )


class Camera:
    """The window, the screens shown (`screens.stack.Screens`), and the pictures taken of them."""

    def __init__(self, context: tcod.context.Context, folder: Path):
        self.context = context
        self.folder = folder
        self.console = tcod.console.Console(main.SCREEN_WIDTH, main.SCREEN_HEIGHT, order="F")
        self.screens = Screens(setup_game.MainMenu(seed=SEED))

    def press(self, *events: tcod.event.Event) -> None:
        for event in events:
            loop.handle_event(self.context, self.screens, event)

    def shoot(self, name: str) -> None:
        """Draw the frame as the main loop does, and save it as `name`.png."""
        self.console.clear()
        self.screens.draw(self.console)
        self.context.present(self.console, keep_aspect=True)
        path = self.folder / f"{name}.png"
        self.context.save_screenshot(str(path))
        print(path)

    @property
    def engine(self) -> Engine:
        engine = self.screens.engine_in_play()
        assert engine is not None
        return engine


def free_tiles_in_view(engine: Engine) -> Iterator[tuple[int, int]]:
    """Floor tiles in view with nothing on them, nearest the player first."""
    game_map, player = engine.game_map, engine.player
    tiles = [
        (x, y)
        for x in range(game_map.width)
        for y in range(game_map.height)
        if game_map.visible[x, y]
        and game_map.tiles["walkable"][x, y]
        and not any((e.x, e.y) == (x, y) for e in game_map.entities)
    ]
    yield from sorted(tiles, key=lambda xy: (player.distance(*xy), xy))


def letter_of(engine: Engine, item: Item) -> KeySym:
    return keys.letter_key(engine.player.inventory.letter_of(item))


def carry(engine: Engine, template: Item) -> Item:
    item = template.spawn(engine.game_map, engine.player.x, engine.player.y)
    engine.game_map.entities.remove(item)
    engine.player.inventory.add(item)
    return item


def take(camera: Camera) -> None:
    """The script: each screen the README shows."""
    # The menu's popup when there is no save to continue.
    camera.press(key(KeySym.C))
    camera.shoot("popup")
    camera.press(key(KeySym.SPACE), key(KeySym.N))
    engine = camera.engine
    player = engine.player

    # Monsters about: an orc hurt, a troll, a sword on the floor.
    tiles = free_tiles_in_view(engine)
    for _ in range(2):
        next(tiles)
    orc = entity_factories.orc.spawn(engine.game_map, *next(tiles))
    orc.fighter.hp = orc.fighter.max_hp * 3 // 10
    troll = entity_factories.troll.spawn(engine.game_map, *next(tiles))
    entity_factories.sword.spawn(engine.game_map, *next(tiles))
    for template in (
        entity_factories.confusion_scroll,
        entity_factories.fireball_scroll,
        entity_factories.lightning_scroll,
        entity_factories.health_potion,
        entity_factories.health_potion,  # Two, listed once: "Health Potion (x2)".
        entity_factories.chain_mail,
    ):
        carry(engine, template)

    # Confuse the troll: read the scroll, Tab to the troll, Enter.
    scroll = next(i for i in player.inventory.items if i.name == "Confusion Scroll")
    camera.press(key(KeySym.I), key(letter_of(engine, scroll)))
    for _ in range(8):
        if engine.mouse_location == (troll.x, troll.y):
            break
        camera.press(key(KeySym.TAB))
    camera.shoot("aim")
    camera.press(key(KeySym.RETURN))

    # Hover over the confused troll, then the inventory.
    camera.press(motion(troll.x, troll.y))
    camera.shoot("hover")
    camera.press(key(KeySym.I))
    camera.shoot("inventory")
    camera.press(key(KeySym.ESCAPE))

    # Look at the wounded orc: Enter shows what it is like.
    camera.press(tcod.event.TextInput(text="/"))
    camera.engine.mouse_location = orc.x, orc.y
    camera.press(key(KeySym.RETURN))
    camera.shoot("look")
    camera.press(key(KeySym.ESCAPE), key(KeySym.ESCAPE))

    # A fireball: the tiles it would hit are tinted; aimed at the orc nearby,
    # it would hit the player too, and asks first.
    alive = [a for a in (orc, troll) if a.is_alive]
    fireball = next(i for i in player.inventory.items if i.name == "Fireball Scroll")
    camera.press(key(KeySym.I), key(letter_of(engine, fireball)))
    target: Actor = alive[-1]
    camera.engine.mouse_location = target.x, target.y
    camera.shoot("fireball")
    camera.engine.mouse_location = player.x + 1, player.y
    camera.press(key(KeySym.RETURN))
    camera.shoot("confirm")
    camera.press(key(KeySym.N), key(KeySym.ESCAPE))

    # The help, over the whole screen.
    camera.press(key(KeySym.F1))
    camera.shoot("help")
    camera.press(key(KeySym.SPACE))

    # A death: the troll's blow (dealt here, as its attack would), then the
    # story of the game, and the hall of fame from the main menu.
    player.fighter.take_damage(player.fighter.hp, by=f"a {troll.name}")
    camera.press(tcod.event.TextInput(text="."))
    camera.shoot("game-over")
    camera.press(key(KeySym.RETURN), key(KeySym.H))
    camera.shoot("hall-of-fame")


def run(folder: Path) -> None:
    folder = folder.resolve()
    folder.mkdir(parents=True, exist_ok=True)
    here = Path.cwd()
    with tempfile.TemporaryDirectory() as empty:
        os.chdir(empty)  # No save here: Continue says so, and the game saves nothing of ours.
        try:
            with main.open_window(assets.load_tileset(), options.Settings()) as context:
                take(Camera(context, folder))
        finally:
            os.chdir(here)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Make the README's screenshots from a scripted game.")
    parser.add_argument("folder", nargs="?", type=Path, default=ROOT / "docs", help="where (docs/ by default)")
    run(parser.parse_args().folder)
