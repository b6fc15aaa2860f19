"""Tutorial part 4: field of view, and the explored map."""

from __future__ import annotations

import conftest
import numpy as np
import pytest
import tcod
from conftest import press
from tcod.event import KeySym

import entity_factories
import tile_types
from engine import FOV_RADIUS, Engine

PLAYER = (20, 15)


def arena(width: int = 40, height: int = 30) -> Engine:
    """A seeded new game moved onto a map of open floor ringed by wall, the
    player at PLAYER."""
    return conftest.arena(width, height, PLAYER)


def test_radius_is_8() -> None:
    assert FOV_RADIUS == 8


@pytest.mark.parametrize(("dx", "dy"), [(1, 0), (-1, 0), (0, 1), (0, -1)])
def test_sees_8_tiles_in_open_floor_but_not_9(dx: int, dy: int) -> None:
    visible = arena().game_map.visible
    x, y = PLAYER
    assert visible[x + 8 * dx, y + 8 * dy]
    assert not visible[x + 9 * dx, y + 9 * dy]


def test_walls_block_sight() -> None:
    """A wall three tiles east is lit, but the floor behind it is hidden."""
    engine = arena()
    engine.game_map.tiles[23, :] = tile_types.wall
    engine.update_fov()
    visible = engine.game_map.visible
    assert visible[22, 15] and visible[23, 15]
    assert not visible[24:, :].any()


def test_explored_accumulates_and_contains_visible() -> None:
    engine = arena()
    game_map = engine.game_map
    assert not game_map.explored[35, 15]
    assert (game_map.explored == game_map.visible).all()

    engine.player.place(35, 15)
    engine.update_fov()
    assert game_map.visible[35, 15]

    engine.player.place(5, 15)
    engine.update_fov()
    assert not game_map.visible[35, 15]
    assert game_map.explored[35, 15] and game_map.explored[20, 15]
    assert not (game_map.visible & ~game_map.explored).any()
    assert game_map.explored.sum() > game_map.visible.sum()


def test_moving_with_a_key_updates_the_fov() -> None:
    engine = arena()
    assert not engine.game_map.visible[29, 15]
    press(engine, KeySym.RIGHT)
    assert engine.game_map.visible[29, 15]


def test_render_lights_visible_darkens_explored_and_shrouds_the_rest() -> None:
    """Visible tiles in light colours, remembered ones dark, unseen ones shroud;
    a monster is drawn only while in view."""
    engine = arena()
    entity_factories.orc.spawn(engine.game_map, 24, 15)
    entity_factories.orc.spawn(engine.game_map, 33, 15)
    engine.player.place(35, 15)
    engine.update_fov()
    console = tcod.console.Console(80, 50, order="F")
    engine.game_map.render(console)

    bg = console.rgb["bg"]
    assert tuple(bg[36, 15]) == tuple(tile_types.floor["light"]["bg"])
    assert tuple(bg[14, 15]) == tuple(tile_types.floor["dark"]["bg"])
    assert tuple(bg[35, 2]) == tuple(tile_types.SHROUD["bg"])
    ch = console.rgb["ch"]
    assert chr(ch[33, 15]) == "o"  # In view.
    assert chr(ch[24, 15]) == " "  # Out of view, though explored.
    assert np.count_nonzero(ch == ord("o")) == 1
