"""Part 11: the stairs down, one floor after another, and the floor number on screen."""

from __future__ import annotations

import random

import numpy as np
import pytest
import tcod
from conftest import dungeon, press, texts, typed

import entity_factories
import procgen
import setup_game
from actions import TakeStairsAction
from engine import Engine
from game_map import GameMap
from input_handlers import MainGameEventHandler
from procgen import RectangularRoom

STAIRS_KEYS = [
    pytest.param(typed(">"), id="greater"),
]


@pytest.fixture
def rooms(monkeypatch: pytest.MonkeyPatch) -> list[RectangularRoom]:
    """The rooms dug while the test runs, in order: `place_entities` gets each one once."""
    dug: list[RectangularRoom] = []
    place_entities = procgen.place_entities

    def spy(
        room: RectangularRoom,
        dungeon: GameMap,
        floor_number: int,
        rng: random.Random | None = None,
    ) -> None:
        dug.append(room)
        place_entities(room, dungeon, floor_number, rng)

    monkeypatch.setattr(procgen, "place_entities", spy)
    return dug


def stairs_on(game_map: GameMap) -> list[tuple[int, int]]:
    """Where the map shows a '>'."""
    xs, ys = np.nonzero(game_map.tiles["light"]["ch"] == ord(">"))
    return list(zip(xs.tolist(), ys.tolist(), strict=True))


def hud_floor_text(engine: Engine) -> str:
    """The text left of the message log on row 47, where the HUD shows the floor."""
    console = tcod.console.Console(80, 50, order="F")
    engine.render(console)
    return "".join(chr(c) for c in console.rgb["ch"][0:20, 47]).rstrip()


def go_to_stairs(engine: Engine) -> None:
    engine.player.place(*engine.game_map.downstairs_location)


def test_each_floor_has_exactly_one_downstairs_inside_its_last_room(
    engine: Engine, rooms: list[RectangularRoom]
) -> None:
    for floor in (2, 3, 4):
        rooms.clear()
        engine.game_world.generate_floor()
        assert engine.game_world.current_floor == floor
        game_map = engine.game_map
        x, y = game_map.downstairs_location
        assert stairs_on(game_map) == [(x, y)]
        last = rooms[-1]
        assert last.x1 < x < last.x2 and last.y1 < y < last.y2
        assert game_map.tiles["walkable"][x, y]


def test_the_seeded_first_floor_has_its_stairs_at_18_38(engine: Engine) -> None:
    assert engine.game_map.downstairs_location == (18, 38)
    assert stairs_on(engine.game_map) == [(18, 38)]


@pytest.mark.parametrize("event", STAIRS_KEYS)
def test_stairs_key_on_the_stairs_descends_to_floor_2(
    engine: Engine, rooms: list[RectangularRoom], event: tcod.event.KeyDown
) -> None:
    old_map = engine.game_map
    player = engine.player
    go_to_stairs(engine)
    rooms.clear()
    start = len(engine.message_log.messages)

    screens = dungeon(engine)
    screens.press(event)

    assert isinstance(screens.top, MainGameEventHandler)
    assert engine.game_world.current_floor == 2
    assert engine.game_map is not old_map
    assert (player.x, player.y) == rooms[0].center
    assert player in engine.game_map.entities
    assert player not in old_map.entities
    assert player.gamemap is engine.game_map
    assert texts(engine, start)[0] == "You descend the staircase."


def test_period_without_shift_waits_on_the_stairs(engine: Engine) -> None:
    old_map = engine.game_map
    go_to_stairs(engine)

    press(engine, ".")

    assert engine.game_world.current_floor == 1
    assert engine.game_map is old_map
    assert "You descend the staircase." not in texts(engine)


def test_a_new_floor_is_unexplored_until_the_player_looks(engine: Engine) -> None:
    old_map = engine.game_map
    assert old_map.explored.any()
    go_to_stairs(engine)

    TakeStairsAction(engine.player).perform()

    new_map = engine.game_map
    assert not new_map.explored.any()
    engine.update_fov()
    assert new_map.visible[engine.player.x, engine.player.y]
    assert np.array_equal(new_map.explored, new_map.visible)


def test_the_stairs_key_pressed_away_from_the_stairs_is_refused_and_takes_no_turn(engine: Engine) -> None:
    player = engine.player
    for actor in list(engine.game_map.actors):
        if actor is not player:
            engine.game_map.entities.remove(actor)
    orc = entity_factories.orc.spawn(engine.game_map, player.x + 1, player.y)
    assert (player.x, player.y) != engine.game_map.downstairs_location
    screens = dungeon(engine)
    handler = screens.top

    screens.press(typed(">"))
    assert screens.stack == [screens.menu, handler]

    assert texts(engine)[-1] == "You haven't found the stairs."
    assert engine.game_world.current_floor == 1
    assert player.fighter.hp == 30  # The orc next to the player did not act.
    # Whereas a turn spent waiting lets it hit.
    screens.press(typed("."))
    assert texts(engine)[-1] == "Orc attacks Player for 1 hit point."
    assert player.fighter.hp == 29
    assert orc.is_alive


def test_the_hud_shows_the_dungeon_level(engine: Engine) -> None:
    assert hud_floor_text(engine) == "Dungeon level: 1"
    go_to_stairs(engine)
    press(engine, ">")
    assert hud_floor_text(engine) == "Dungeon level: 2"
    engine.game_world.generate_floor()
    assert hud_floor_text(engine) == "Dungeon level: 3"


def floors(seed: int, global_seed: int) -> list[tuple[np.ndarray, list[tuple[str, int, int]]]]:
    """Floors 1 to 3 of a game: their tiles, and the name and place of everything on them."""
    random.seed(global_seed)
    engine = setup_game.new_game(seed=seed)
    assert engine.game_world.seed == seed
    result = []
    for floor in (1, 2, 3):
        if floor > 1:
            engine.game_world.generate_floor()
        entities = [(e.name, e.x, e.y) for e in engine.game_map.entities]
        result.append((engine.game_map.tiles.copy(), entities))
    return result


def test_the_same_seed_gives_the_same_floors() -> None:
    first = floors(seed=1234, global_seed=1)
    second = floors(seed=1234, global_seed=2)  # Whatever the global random state.
    for (tiles_a, entities_a), (tiles_b, entities_b) in zip(first, second, strict=True):
        assert np.array_equal(tiles_a, tiles_b)
        assert entities_a == entities_b
        assert len(entities_a) > 1


def test_different_seeds_give_different_floors() -> None:
    first = floors(seed=1234, global_seed=1)
    other = floors(seed=1235, global_seed=1)
    for (tiles_a, entities_a), (tiles_b, entities_b) in zip(first, other, strict=True):
        assert not np.array_equal(tiles_a, tiles_b)
        assert entities_a != entities_b
    # And one game's floors differ from each other.
    assert not np.array_equal(first[0][0], first[1][0])
