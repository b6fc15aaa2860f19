"""A tile type is named where it is declared: a new one, declared in
`tile_types` with a name and a sign, is told by them (the look window, the
questions, the map as text, the save) with no other edit."""

from __future__ import annotations

from pathlib import Path

import conftest
import pytest

import tile_types
from engine import Engine
from saving import save_data
from words import descriptions, questions

DOOR = tile_types.new_tile(
    name="door",
    sign="+",
    walkable=True,
    transparent=False,
    dark=(ord("+"), (0, 0, 100), (50, 50, 150)),
    light=(ord("+"), (255, 255, 255), (200, 180, 50)),
)
PLAYER = (5, 5)
EAST = (6, 5)


@pytest.fixture
def door_declared(monkeypatch: pytest.MonkeyPatch) -> None:
    """The door as `tile_types` would declare it: one more tile type."""
    monkeypatch.setattr(tile_types, "TILE_TYPES", (*tile_types.TILE_TYPES, DOOR))


def door_east() -> Engine:
    engine = conftest.arena(20, 15, PLAYER)
    engine.game_map.tiles[EAST] = DOOR
    engine.update_fov()
    return engine


@pytest.mark.usefixtures("door_declared")
def test_a_new_tile_type_is_named_by_the_look_window_and_the_questions() -> None:
    engine = door_east()
    assert descriptions.tile_title(*EAST, engine.game_map) == "Door"
    assert descriptions.describe_tile(*EAST, engine)[0] == "Door"
    assert questions.at_cursor(engine, *EAST) == "Door; 1 east"
    assert "Door: east." in questions.around(engine)


@pytest.mark.usefixtures("door_declared")
def test_a_new_tile_type_is_drawn_and_named_by_the_map_as_text() -> None:
    engine = door_east()
    rows = questions.map_rows(engine)
    reach_x, reach_y = questions.MAP_REACH
    assert "+ door" in rows[0]
    assert rows[1 + reach_y][reach_x : reach_x + 2] == "@+"


def test_a_saved_game_keeps_a_new_tile_type(tmp_path: Path) -> None:
    engine = door_east()
    save_data.save(engine, tmp_path / "door.sav")
    loaded = save_data.load(tmp_path / "door.sav")
    assert loaded.game_map.tiles[EAST] == DOOR
    assert descriptions.tile_title(*EAST, loaded.game_map) == "Door"
