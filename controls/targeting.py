"""Which enemy a targeting cursor starts on, and the order Tab takes it through them.

As in DCSS: the last target while it lives in view, else the nearest enemy;
Tab and Shift+Tab step through the enemies in view, nearest first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import tcod

from controls import keys
from screens.base import EDGE_OF_MAP, NO_ENEMY, NO_OTHER_ENEMY

if TYPE_CHECKING:
    from controls.keys import KeyTables
    from engine import Engine
    from entity import Actor


def enemies_in_view(engine: Engine) -> list[Actor]:
    """The living monsters the player sees, nearest first.

    At equal distance the upper one, then the left one, so the order never depends on chance.
    """
    player = engine.player
    return sorted(engine.game_map.monsters_in_view, key=lambda actor: (player.distance(actor.x, actor.y), actor.y, actor.x))


def first_target(engine: Engine) -> Actor | None:
    """The enemy to aim at first: the last target while it lives in view, else the nearest."""
    enemies = enemies_in_view(engine)
    if engine.game_map.last_target in enemies:
        return engine.game_map.last_target
    return enemies[0] if enemies else None


def cycled_target(engine: Engine, cursor: tuple[int, int], step: int) -> Actor | None:
    """The enemy `step` places along the enemies in view from the one under `cursor`.

    Wraps round; from any other tile, the nearest (or, going back, the farthest).
    """
    enemies = enemies_in_view(engine)
    if not enemies:
        return None
    positions = [(enemy.x, enemy.y) for enemy in enemies]
    if cursor in positions:
        return enemies[(positions.index(cursor) + step) % len(enemies)]
    return enemies[0] if step > 0 else enemies[-1]


def cursor_after(engine: Engine, event: tcod.event.KeyDown, tables: KeyTables) -> tuple[int, int] | None:
    """Where a key moves the cursor, if it moves it: a move key (held modifiers go
    further: `keys.cursor_step`), or a key of the enemies in view (`keys.target_step`)."""
    if event.sym in tables.move:
        dx, dy = tables.move[event.sym]
        return moved(engine, dx, dy, keys.cursor_step(event.mod))
    step = keys.target_step(event)
    enemy = None if step is None else cycled_target(engine, engine.mouse_location, step)
    return None if enemy is None else (enemy.x, enemy.y)


def stays(engine: Engine, event: tcod.event.KeyDown) -> str:
    """Why a key that moves the cursor left it where it is: the map's edge, no enemy in
    view to go to, or none but the one under it; "" for a key that moves no cursor."""
    if keys.target_step(event) is not None:
        return NO_OTHER_ENEMY if enemies_in_view(engine) else NO_ENEMY
    return EDGE_OF_MAP if event.sym in engine.settings.keys.move else ""


def moved(engine: Engine, dx: int, dy: int, step: int) -> tuple[int, int]:
    """The cursor `step` tiles along (dx, dy) from where it is, kept on the map."""
    x, y = engine.mouse_location
    game_map = engine.game_map
    return (
        max(0, min(x + dx * step, game_map.width - 1)),
        max(0, min(y + dy * step, game_map.height - 1)),
    )


def remember(engine: Engine, x: int, y: int) -> None:
    """The monster aimed at (x, y), if any, is where the next aim starts (`first_target`)."""
    actor = engine.game_map.get_actor_at_location(x, y)
    if actor is not None and actor is not engine.player:
        engine.game_map.last_target = actor
