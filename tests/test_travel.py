"""Walks: auto-explore (x, o), travel to the stairs (>), walking by click, and
running (Shift+direction), each step a real turn through the real handlers."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tcod
from conftest import (
    after_header,
    arena,
    click,
    dungeon,
    give,
    item_key,
    key,
    pressing,
    replay_text,
    screens_of,
    texts,
    typed,
)
from tcod.event import KeySym, Modifier

import entity_factories
import input_handlers
import main
import setup_game
import tile_types
from controls import travel
from controls.keys import MOVE_KEYS
from engine import Engine
from game_map import remembered
from input_handlers import LevelUpEventHandler, MainGameEventHandler
from replays import record_format, record_reader, recording, replay
from screens.base import Quit
from screens.stack import Screens

SEED = 1234


def walk_on(screens: Screens, limit: int = 2000) -> int:
    """Let the walk under way (if any) run to its end, as the main loop does;
    the steps it took."""
    steps = 0
    while screens.walking:
        screens.step()
        steps += 1
        assert steps < limit, "the walk never stopped"
    return steps


def walked(screens: Screens, *events: tcod.event.Event) -> Screens:
    """Send `events` one after another, each followed by the walk it starts, run to its end."""
    for event in events:
        screens.press(event)
        walk_on(screens)
    return screens


def position(engine: Engine) -> tuple[int, int]:
    return engine.player.x, engine.player.y


def without_monsters(engine: Engine) -> Engine:
    for actor in list(engine.game_map.actors):
        if actor is not engine.player:
            engine.game_map.entities.remove(actor)
    return engine


def seeded_floor(seed: int = SEED) -> Engine:
    random.seed(seed)
    return setup_game.new_game(seed=seed)


def reachable(engine: Engine) -> np.ndarray:
    """Every walkable tile the player could walk to on the whole floor."""
    game_map = engine.game_map
    distance = np.full(game_map.tiles.shape, travel.UNREACHABLE, dtype=np.int32)
    distance[position(engine)] = 0
    cost = game_map.tiles["walkable"].astype(np.int8)
    tcod.path.dijkstra2d(distance, cost, 2, 3, out=distance)
    return distance < travel.UNREACHABLE


def walled_arena(*walls: tuple[int, int]) -> Engine:
    """A 30x15 arena, the player at (5, 5), with extra wall tiles."""
    engine = arena(30, 15)
    for x, y in walls:
        engine.game_map.tiles[x, y] = tile_types.wall
    engine.update_fov()
    return engine


def screen(engine: Engine) -> tcod.console.Console:
    console = tcod.console.Console(80, 50, order="F")
    engine.render(console)
    return console


# --- Auto-explore ---------------------------------------------------------


@pytest.mark.parametrize("sym", [KeySym.X, KeySym.O])
def test_explore_uncovers_every_reachable_tile_then_stops_at_the_stairs(sym: KeySym) -> None:
    engine = without_monsters(seeded_floor())
    screens = dungeon(engine)
    presses = 0
    # Items coming into view and underfoot stop it: press again, as a player would.
    while NOTHING not in texts(engine) or screens.walking or not on_or_next_to_stairs(engine):
        presses += 1
        assert presses < 50
        walked(screens, key(sym))
    assert engine.game_map.explored[reachable(engine)].all()
    assert position(engine) == engine.game_map.downstairs_location
    assert texts(engine)[-1] == "There are stairs down here."
    assert isinstance(screens.top, MainGameEventHandler)
    # Once all is explored, on the stairs: it says so and takes no turn.
    turns = engine.turns
    walked(screens, key(sym))
    assert engine.turns == turns
    assert texts(engine)[-1] == NOTHING
    assert position(engine) == engine.game_map.downstairs_location


NOTHING = travel.NOTHING_TO_EXPLORE


def on_or_next_to_stairs(engine: Engine) -> bool:
    x, y = engine.game_map.downstairs_location
    return max(abs(engine.player.x - x), abs(engine.player.y - y)) <= 1


def test_explore_stops_when_a_monster_comes_into_view() -> None:
    # A wall across the arena, open at the bottom: the orc behind it is unseen.
    engine = walled_arena(*((12, y) for y in range(1, 12)))
    orc = entity_factories.orc.spawn(engine.game_map, 20, 5)
    assert not engine.game_map.visible[20, 5]
    screens = pressing(dungeon(engine), key(KeySym.X))
    steps = walk_on(screens)
    assert steps > 0
    assert texts(engine)[-1] == "An Orc comes into view."
    assert engine.game_map.visible[orc.x, orc.y]
    assert isinstance(screens.top, MainGameEventHandler)


def test_no_walk_starts_with_a_monster_in_view() -> None:
    engine = arena(30, 15)
    orc = entity_factories.orc.spawn(engine.game_map, 9, 5)
    screens = dungeon(engine)
    handler = screens.top
    for event in (key(KeySym.X), key(KeySym.L, Modifier.SHIFT), click(15, 10)):
        screens.press(event)
        assert screens.stack == [screens.menu, handler] and not screens.walking
        assert texts(engine)[-1].startswith("Not with an Orc in view.")
    assert position(engine) == (5, 5)
    assert (orc.x, orc.y) == (9, 5)  # No turn passed: the orc did not come closer.


def test_explore_stops_when_hurt() -> None:
    engine = walled_arena(*((12, y) for y in range(1, 12)))
    screens = pressing(dungeon(engine), key(KeySym.X))
    screens.step()
    assert screens.walking
    where = position(engine)
    engine.player.fighter.hp -= 3  # Harm from outside a turn (none in the game yet).
    screens.step()
    assert not screens.walking
    assert texts(engine)[-1] == "You are hurt."
    assert position(engine) == where  # Stopped before another step.


def test_a_walk_counts_a_hurt_from_the_hp_it_last_saw_after_a_heal_too() -> None:
    """Hurt is HP lost since the last step, not since the walk began: healed
    from outside a turn (as regeneration would), then harmed by less than the
    heal, the walk still stops."""
    engine = walled_arena(*((12, y) for y in range(1, 12)))
    engine.player.fighter.hp = 20
    screens = pressing(dungeon(engine), key(KeySym.X))
    screens.step()
    engine.player.fighter.hp = 25  # Healed: no news, the walk goes on.
    screens.step()
    assert screens.walking
    engine.player.fighter.hp = 23  # Still above where the walk began, but hurt.
    screens.step()
    assert not screens.walking
    assert texts(engine)[-1] == "You are hurt."


def test_a_walks_watch_tells_each_news_once() -> None:
    """What came into view at one look is no news at the next."""
    engine = walled_arena(*((12, y) for y in range(1, 12)))
    entity_factories.health_potion.spawn(engine.game_map, 20, 5)
    watch = travel.Watch(engine)
    assert watch.news(engine) is None
    engine.player.place(14, 5)
    engine.update_fov()
    assert watch.news(engine) == "A Health Potion comes into view."
    assert watch.news(engine) is None
    engine.player.fighter.hp -= 1
    assert watch.news(engine) == "You are hurt."
    assert watch.news(engine) is None


def test_explore_without_gathering_stops_when_an_item_comes_into_view_then_goes_on() -> None:
    engine = walled_arena(*((12, y) for y in range(1, 12)))
    engine.settings.options = dataclasses.replace(engine.settings.options, gather_items=False)
    potion = entity_factories.health_potion.spawn(engine.game_map, 20, 5)
    screens = walked(dungeon(engine), key(KeySym.X))
    assert texts(engine)[-1] == "A Health Potion comes into view."
    walked(screens, key(KeySym.X))
    # Seen once, it stops the walk no more; and it stays where it lies.
    assert texts(engine).count("A Health Potion comes into view.") == 1
    assert potion not in engine.player.inventory.items


def test_explore_walks_to_the_items_it_sees_and_picks_each_up_in_a_turn() -> None:
    engine = walled_arena(*((12, y) for y in range(1, 12)))
    potion = entity_factories.health_potion.spawn(engine.game_map, 20, 5)
    scroll = entity_factories.lightning_scroll.spawn(engine.game_map, 20, 5)
    screens = pressing(dungeon(engine), key(KeySym.X))
    dungeon_screen = screens.top
    assert isinstance(dungeon_screen, MainGameEventHandler)
    while dungeon_screen.walk is not None and not isinstance(dungeon_screen.walk.next_step, travel.PickUp):
        screens.step()
    assert screens.walking
    assert position(engine) == (20, 5)
    assert "A Health Potion comes into view." not in texts(engine)  # It went there instead.
    turns = engine.turns
    screens.step()
    assert engine.turns == turns + 1
    letter = engine.player.inventory.letter_of(potion)
    assert texts(engine)[-1] == f"{letter} - a {potion.name}"
    # One line a pick-up: the step onto the items did not name them first.
    assert not any(text.startswith("You see here") for text in texts(engine))
    assert position(engine) == (20, 5)
    screens.step()
    assert engine.turns == turns + 2
    assert engine.player.inventory.items[-2:] == [potion, scroll]
    walk_on(screens)
    # Then it goes on exploring: every tile seen, and on to the stairs.
    assert engine.game_map.explored[reachable(engine)].all()
    assert NOTHING in texts(engine)


def test_a_full_inventory_says_so_once_and_explore_goes_on() -> None:
    engine = walled_arena(*((12, y) for y in range(1, 12)))
    inventory = engine.player.inventory
    while len(inventory.items) < inventory.capacity:
        give(engine, entity_factories.dagger)
    first = entity_factories.health_potion.spawn(engine.game_map, 8, 5)
    second = entity_factories.health_potion.spawn(engine.game_map, 20, 5)
    walked(dungeon(engine), key(KeySym.X))
    assert texts(engine).count(travel.FULL) == 1
    assert engine.game_map.explored[reachable(engine)].all()
    assert first in engine.game_map.items and second in engine.game_map.items


def test_explore_leaves_what_the_player_dropped() -> None:
    engine = walled_arena()
    potion = give(engine, entity_factories.health_potion)
    screens = pressing(dungeon(engine), key(KeySym.D))
    letter = item_key(engine, potion)
    screens.press(key(letter))
    assert potion in engine.game_map.items
    walked(screens, key(KeySym.X))
    assert potion in engine.game_map.items
    assert position(engine) != (5, 5)
    # Picked up by hand, it is the player's again.
    engine.player.place(5, 5)
    walked(dungeon(engine), key(KeySym.G))
    assert engine.player.inventory.items[-1] is potion
    assert not potion.dropped_by_player


def test_the_stairs_coming_into_view_stop_a_walk() -> None:
    engine = walled_arena(*((12, y) for y in range(1, 12)))
    engine.game_map.tiles[20, 5] = tile_types.down_stairs
    engine.game_map.downstairs_location = (20, 5)
    walked(dungeon(engine), key(KeySym.X))
    assert texts(engine)[-1] == "The stairs come into view."


def test_a_key_press_stops_a_walk_and_does_nothing_else() -> None:
    engine = without_monsters(seeded_floor())
    screens = pressing(dungeon(engine), key(KeySym.X))
    screens.step()
    screens.step()
    assert screens.walking
    where, said = position(engine), texts(engine)
    screens.press(key(KeySym.LSHIFT))  # A modifier alone: nothing.
    assert screens.walking
    screens.press(key(KeySym.L))  # A move key: stops, moves not.
    assert not screens.walking
    assert isinstance(screens.top, MainGameEventHandler)
    assert position(engine) == where
    assert texts(engine) == said


def test_a_click_stops_a_walk() -> None:
    engine = without_monsters(seeded_floor())
    screens = pressing(dungeon(engine), key(KeySym.X))
    screens.step()
    assert screens.walking
    where = position(engine)
    screens.press(click(*where))
    assert not screens.walking
    assert isinstance(screens.top, MainGameEventHandler)
    assert position(engine) == where


def test_every_step_is_a_turn() -> None:
    """Monsters act between the steps of a walk, as between single steps."""
    engine = walled_arena(*((12, y) for y in range(1, 12)))
    orc = entity_factories.orc.spawn(engine.game_map, 20, 5)
    screens = walked(dungeon(engine), key(KeySym.X))
    start = (orc.x, orc.y)
    assert isinstance(screens.top, MainGameEventHandler)
    screens.press(typed("."))  # One turn, waiting: the orc comes.
    assert (orc.x, orc.y) != start


# --- Travel to the stairs -------------------------------------------------


def test_stairs_key_walks_to_the_seen_stairs_then_descends() -> None:
    engine = arena(30, 15)
    engine.game_map.tiles[12, 9] = tile_types.down_stairs
    engine.game_map.downstairs_location = (12, 9)
    engine.update_fov()
    screens = pressing(dungeon(engine), typed(">"))
    assert screens.walking
    steps = walk_on(screens)
    assert position(engine) == (12, 9)
    assert steps == 7  # The shortest way: 4 diagonal steps and 3 straight.
    assert texts(engine)[-1] == "There are stairs down here."
    walked(screens, typed(">"))
    assert engine.game_world.current_floor == 2


def test_stairs_key_far_from_unseen_stairs_says_so() -> None:
    engine = walled_arena(*((12, y) for y in range(1, 14)))
    engine.game_map.tiles[20, 5] = tile_types.down_stairs
    engine.game_map.downstairs_location = (20, 5)
    engine.update_fov()
    screens = dungeon(engine)
    handler = screens.top
    screens.press(typed(">"))
    assert screens.stack == [screens.menu, handler] and not screens.walking
    assert texts(engine)[-1] == "You haven't found the stairs."
    assert position(engine) == (5, 5)


# --- Walking by mouse -----------------------------------------------------


def test_a_click_walks_to_the_tile() -> None:
    engine = walled_arena(*((8, y) for y in range(1, 10)))
    screens = pressing(dungeon(engine), click(10, 3))
    steps = walk_on(screens)
    assert position(engine) == (10, 3)
    assert steps >= 6  # Around the wall.
    assert isinstance(screens.top, MainGameEventHandler)


@pytest.mark.parametrize("tile", [(0, 0), (5, 5), (25, 12)], ids=["wall", "underfoot", "unseen"])
def test_a_click_where_no_way_leads_costs_no_turn(tile: tuple[int, int]) -> None:
    engine = walled_arena(*((12, y) for y in range(1, 14)))
    orc = entity_factories.orc.spawn(engine.game_map, 20, 5)  # Behind the wall.
    screens = dungeon(engine)
    handler = screens.top
    screens.press(click(*tile))
    assert screens.stack == [screens.menu, handler] and not screens.walking
    assert position(engine) == (5, 5)
    assert (orc.x, orc.y) == (20, 5)
    if tile != (5, 5):
        assert texts(engine)[-1] == travel.NO_WAY


def test_a_right_click_does_not_walk() -> None:
    engine = arena(30, 15)
    screens = dungeon(engine)
    handler = screens.top
    screens.press(click(8, 8, tcod.event.MouseButton.RIGHT))
    assert screens.stack == [screens.menu, handler] and not screens.walking
    assert position(engine) == (5, 5)


# --- Running --------------------------------------------------------------


def corridor(*openings: tuple[int, int]) -> Engine:
    """A corridor along y = 5 from x = 1 to 28, walled above and below except
    at `openings`; the player at its west end."""
    engine = arena(30, 15, at=(1, 5))
    tiles = engine.game_map.tiles
    tiles[...] = tile_types.wall
    tiles[1:29, 5] = tile_types.floor
    for x, y in openings:
        tiles[x, y] = tile_types.floor
    engine.update_fov()
    return engine


@pytest.mark.parametrize("sym", [KeySym.RIGHT, KeySym.L, KeySym.KP_6])
def test_shift_direction_runs_to_the_wall_ahead(sym: KeySym) -> None:
    engine = corridor()
    walked(dungeon(engine), key(sym, Modifier.LSHIFT))
    assert position(engine) == (28, 5)


def test_running_stops_at_a_side_opening() -> None:
    engine = corridor((10, 4), (10, 3))
    walked(dungeon(engine), key(KeySym.RIGHT, Modifier.SHIFT))
    assert position(engine) == (10, 5)
    # Run on: past the opening, then to the end.
    walked(dungeon(engine), key(KeySym.RIGHT, Modifier.SHIFT))
    assert position(engine) == (11, 5)
    walked(dungeon(engine), key(KeySym.RIGHT, Modifier.SHIFT))
    assert position(engine) == (28, 5)


def shaft(*openings: tuple[int, int]) -> Engine:
    """A corridor along x = 5 from y = 1 to 13, walled either side except at
    `openings`; the player at its south end."""
    engine = arena(12, 15, at=(5, 13))
    tiles = engine.game_map.tiles
    tiles[...] = tile_types.wall
    tiles[5, 1:14] = tile_types.floor
    for x, y in openings:
        tiles[x, y] = tile_types.floor
    engine.update_fov()
    return engine


@pytest.mark.parametrize(
    ("make", "start", "sym", "stop"),
    [
        (lambda: corridor((10, 6)), None, KeySym.RIGHT, (10, 5)),  # South of an eastward run.
        (lambda: corridor((10, 4)), (28, 5), KeySym.LEFT, (10, 5)),  # North of a westward run.
        (lambda: corridor((10, 6)), (28, 5), KeySym.LEFT, (10, 5)),  # South of it.
        (lambda: shaft((6, 7)), None, KeySym.UP, (5, 7)),  # East of a northward run.
        (lambda: shaft((4, 7)), None, KeySym.UP, (5, 7)),  # West of it.
        (lambda: shaft((4, 7)), (5, 1), KeySym.DOWN, (5, 7)),  # West of a southward run.
        (lambda: shaft((6, 7)), (5, 1), KeySym.DOWN, (5, 7)),  # East of it.
    ],
)
def test_running_stops_at_an_opening_on_either_side_whichever_way(
    make: Callable[[], Engine], start: tuple[int, int] | None, sym: KeySym, stop: tuple[int, int]
) -> None:
    """Both sides are watched, each across the way the run goes (`Run.open_sides`)."""
    engine = make()
    if start is not None:
        engine.player.place(*start, engine.game_map)
        engine.update_fov()
    walked(dungeon(engine), key(sym, Modifier.SHIFT))
    assert position(engine) == stop


def test_running_into_a_wall_is_refused() -> None:
    engine = corridor()
    screens = dungeon(engine)
    handler = screens.top
    screens.press(key(KeySym.UP, Modifier.SHIFT))
    assert screens.stack == [screens.menu, handler] and not screens.walking
    assert texts(engine)[-1] == "That way is blocked."


def test_running_stops_on_an_item() -> None:
    engine = corridor()
    entity_factories.health_potion.spawn(engine.game_map, 7, 5)
    walked(dungeon(engine), key(KeySym.RIGHT, Modifier.SHIFT))
    assert position(engine) == (7, 5)
    assert texts(engine)[-1] == "You see here a Health Potion."


# --- Seeing what is there -------------------------------------------------


def test_stepping_on_items_and_stairs_says_what_is_there() -> None:
    engine = arena()
    entity_factories.health_potion.spawn(engine.game_map, 6, 5)
    entity_factories.lightning_scroll.spawn(engine.game_map, 6, 5)
    engine.game_map.tiles[7, 5] = tile_types.down_stairs
    engine.game_map.downstairs_location = (7, 5)
    screens = pressing(dungeon(engine), key(KeySym.L))
    assert texts(engine)[-1] == "You see here a Health Potion and a Lightning Scroll."
    screens.press(key(KeySym.L))
    assert texts(engine)[-1] == "There are stairs down here."
    said = texts(engine)
    screens.press(key(KeySym.L))  # Plain floor: nothing to say.
    assert texts(engine) == said


def test_remembered_items_are_drawn_out_of_view_and_monsters_not() -> None:
    engine = walled_arena(*((x, y) for x in (12, 24) for y in range(1, 14)))
    potion = entity_factories.health_potion.spawn(engine.game_map, 8, 5)
    orc = entity_factories.orc.spawn(engine.game_map, 9, 7)
    engine.update_fov()
    console = screen(engine)
    assert chr(console.rgb["ch"][8, 5]) == potion.char
    assert chr(console.rgb["ch"][9, 7]) == orc.char
    # The player goes where neither can be seen.
    engine.player.place(20, 5)
    engine.update_fov()
    assert engine.game_map.explored[8, 5] and not engine.game_map.visible[8, 5]
    console = screen(engine)
    assert chr(console.rgb["ch"][8, 5]) == potion.char
    assert tuple(console.rgb["fg"][8, 5]) == remembered(potion.color)
    assert chr(console.rgb["ch"][9, 7]) == " "  # Remembered floor, no orc.
    # A tile never seen shows nothing, item or not.
    entity_factories.health_potion.spawn(engine.game_map, 26, 5)
    assert not engine.game_map.explored[26, 5]
    assert chr(screen(engine).rgb["ch"][26, 5]) == " "


def test_explore_without_stairs_in_reach_ends_where_it_is() -> None:
    engine = arena(9, 7, at=(2, 2))  # The arena's stairs "location" is a wall.
    walked(dungeon(engine), key(KeySym.X))
    assert texts(engine)[-1] == NOTHING
    assert position(engine) == (2, 2)


# --- Recorded -------------------------------------------------------------


# A floor whose start has no monster in view: a walk can start.
WALK_SEED = 13


def live_game(seed: int = WALK_SEED) -> Screens:
    """A new game, recorded as the player's is (`Screens.press`)."""
    return screens_of(replay.start(record_reader.Script(seed, [])))


def played(screens: Screens, event: tcod.event.Event, steps: int | None = None) -> Screens:
    """The player's event along the one path (recorded), then `steps` of the walk it
    starts (as many as the clock allowed), or all of them."""
    screens.press(event)
    while (taken := screens.walk_steps()) is not None and (steps is None or taken < steps):
        screens.step()
    return screens


def state(screens: Screens) -> object:
    engine = screens.engine
    assert engine is not None
    from test_soak import canonical

    engine.recording_file = None
    return canonical(engine)


def test_walks_stopped_by_keys_and_clicks_replay_exactly() -> None:
    screens = live_game()
    played(screens, key(KeySym.X), steps=5)
    played(screens, key(KeySym.Z))  # Stops the walk after 5 steps.
    played(screens, key(KeySym.O), steps=2)
    engine = screens.engine
    assert engine is not None
    played(screens, click(engine.player.x, engine.player.y))  # Stops it after 2.
    played(screens, key(KeySym.X))  # Runs until it stops by itself.
    played(screens, key(KeySym.L))
    assert after_header(list(engine.recording))[:5] == ["key x", "steps 5", "key o", "steps 2", "key x"]
    assert not any(line.startswith(("key z", "click")) for line in engine.recording)
    replayed = replay_text("\n".join(engine.recording))
    assert state(replayed) == state(screens)
    # The replayed game recorded itself again: the same lines.
    again = replayed.engine
    assert again is not None and again.recording == engine.recording


def test_a_walk_that_ends_a_recording_runs_to_its_end() -> None:
    screens = played(live_game(), key(KeySym.X))
    assert not screens.walking
    engine = screens.engine
    assert engine is not None and engine.recording[-1] == "key x"
    assert state(replay_text("\n".join(engine.recording))) == state(screens)


def test_leaving_the_game_during_a_walk_records_its_steps() -> None:
    screens = played(live_game(), key(KeySym.X), steps=3)
    engine = screens.engine
    assert engine is not None
    screens.press(tcod.event.Quit())
    assert screens.quitting == Quit()
    assert engine.recording[-2:] == ["key x", "steps 3"]
    # Continued, the game goes on from where the walk stopped, as the replay does.
    continued = played(dungeon(engine), key(KeySym.L))
    assert state(replay_text("\n".join(engine.recording))) == state(continued)


def test_a_headless_replay_takes_the_recorded_steps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    screens = played(live_game(), key(KeySym.X), steps=4)
    played(screens, key(KeySym.SPACE))
    engine = screens.engine
    assert engine is not None
    path = tmp_path / "walk.rec"
    path.write_text("\n".join(engine.recording) + "\n")
    assert main.main(["--replay", str(path), "--headless"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["player"]["x"], report["player"]["y"]) == position(engine)
    assert report["turns"] == engine.turns == 4


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("steps", "'steps' takes N"),
        ("steps 3 4", "'steps' takes N"),
        ("steps -1", ".-1. is not a whole number from 0"),
        ("steps many", "'many' is not a whole number"),
    ],
)
def test_a_bad_steps_line_is_named(line: str, error: str) -> None:
    with pytest.raises(record_reader.RecordingError, match=f"line 3: {error}"):
        record_reader.parse(f"recording 1\nseed 1\n{line}\n", "bad.rec")
    assert record_reader.parse("recording 1\nseed 1\nsteps 12\n", "good.rec").events == [
        record_format.Steps(12)
    ]


def load_tool(name: str) -> Any:
    """The script tools/<name>.py, as a module."""
    spec = importlib.util.spec_from_file_location(name, Path(__file__).resolve().parent.parent / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    sys.modules[name] = tool  # A dataclass of its own looks itself up there.
    spec.loader.exec_module(tool)
    return tool


def test_walks_clear_a_floor_in_fewer_key_presses() -> None:
    """tools/key_presses.py: the same floor, the same items gathered, far fewer keys;
    autofight as deep, with no more."""
    tool = load_tool("key_presses")
    single, walking, fighting = (tool.play(6, player) for player in tool.PLAYERS.values())
    assert single.floors == walking.floors == fighting.floors == 1
    assert walking.carried == single.carried == fighting.carried > 2
    assert walking.total < single.total / 2
    assert fighting.total <= walking.total
    assert fighting.fights > 0



def test_a_diver_takes_the_stairs_once_seen_in_fewer_key_presses() -> None:
    """tools/key_presses.py's diving strategy: the same floor left by the same
    stairs, sooner, with part of it unseen."""
    tool = load_tool("key_presses")
    clearing = tool.play(6, tool.autofight_key)
    diving = tool.play(6, tool.autofight_key, strategy=tool.DIVE)
    assert clearing.floors == diving.floors == 1
    assert diving.turns < clearing.turns
    assert diving.total < clearing.total

def test_each_hand_made_mutant_still_changes_one_line_of_travel() -> None:
    """tools/travel_mutants.py (whose every mutant these tests kill) keeps up with travel.py."""
    source = (Path(__file__).resolve().parent.parent / "controls" / "travel.py").read_text()
    for name, (old, new) in load_tool("travel_mutants").MUTANTS.items():
        assert source.count(old) == 1 and old != new, name


# --- Gathering, in a whole floor -------------------------------------------


MOVE_FOR = {step: sym for sym, step in MOVE_KEYS.items() if sym.name.isalpha() and len(sym.name) == 1}


@pytest.mark.parametrize("seed", [1, 3, 6, 8, 9])  # Those it survives, never drinking.
def test_a_player_pressing_only_x_and_fighting_ends_floor_1_carrying_all_it_found(seed: int) -> None:
    """The closed loop: `x` whenever nothing is in view, a bump toward the
    nearest monster when one is, `a` on the level-up screen; never `g`."""
    engine = seeded_floor(seed)
    game_map = engine.game_map
    floor_items = {item for item in game_map.items if reachable(engine)[item.x, item.y]}
    assert floor_items, "a floor with no item proves nothing"
    screens = dungeon(engine)
    for _ in range(400):
        monsters = engine.game_map.monsters_in_view
        if isinstance(screens.top, LevelUpEventHandler):
            event = key(KeySym.A)
        elif monsters:
            player = engine.player
            nearest = min(monsters, key=lambda m: max(abs(m.x - player.x), abs(m.y - player.y)))
            step = travel.step_toward(game_map, travel.only(game_map, nearest.x, nearest.y), player.x, player.y)
            event = key(MOVE_FOR[step] if step else KeySym.PERIOD)
        else:
            said = len(texts(engine))
            event = key(KeySym.X)
        walked(screens, event)
        assert engine.player.is_alive
        if event.sym == KeySym.X and texts(engine)[said:] == [NOTHING]:
            break  # On the stairs, nothing left: the floor is done.
    else:
        raise AssertionError("the floor was never done")
    assert position(engine) == game_map.downstairs_location
    assert engine.game_map.explored[reachable(engine)].all()
    assert floor_items <= set(engine.player.inventory.items)
    assert not list(game_map.items)


def test_a_double_click_walks_on_to_where_it_was_clicked() -> None:
    """The second click of a double click lands on the walk's own goal: the
    walk goes on (it stopped after one step), and nothing of it is recorded."""
    engine = arena(at=(3, 5))
    engine.recording = recording.Lines.of(record_format.header(1234))
    screens = pressing(dungeon(engine), click(10, 5))
    assert screens.walking
    walking = screens.top
    screens.step()
    screens.press(click(10, 5))
    assert screens.walking and screens.top is walking
    walk_on(screens)
    assert (engine.player.x, engine.player.y) == (10, 5)
    assert [line for line in engine.recording if line.startswith("click")] == ["click 10 5"]
    # A click elsewhere still stops it, as any key does.
    engine.player.place(3, 5, engine.game_map)
    screens = pressing(dungeon(engine), click(10, 5))
    screens.step()
    assert screens.walking
    screens.press(click(8, 8))
    assert not screens.walking


# --- Travel to a tile chosen with a cursor (NetHack's `_`) ------------------


def test_underscore_opens_a_cursor_and_enter_walks_to_its_tile() -> None:
    engine = walled_arena()
    start = position(engine)
    screens = walked(dungeon(engine), typed("_"))
    handler = screens.top
    assert isinstance(handler, input_handlers.TravelHandler)
    assert handler.content().keys == input_handlers.TRAVEL_PROMPT
    for _ in range(3):
        walked(screens, key(KeySym.L))
    walked(screens, key(KeySym.J))
    assert screens.top is handler
    assert engine.turns == 0  # Moving the cursor costs nothing.
    walked(screens, key(KeySym.RETURN))
    assert isinstance(screens.top, MainGameEventHandler)
    assert position(engine) == (start[0] + 3, start[1] + 1)
    assert engine.turns == 3


def test_underscore_in_look_mode_walks_to_the_cursor() -> None:
    engine = walled_arena()
    start = position(engine)
    screens = walked(dungeon(engine), typed("/"))
    assert isinstance(screens.top, input_handlers.LookHandler)
    walked(screens, key(KeySym.H), key(KeySym.H), typed("_"))
    assert isinstance(screens.top, MainGameEventHandler)
    assert position(engine) == (start[0] - 2, start[1])
    # `_` a second time, in travel's cursor, walks too.
    screens = walked(dungeon(engine), typed("_"), key(KeySym.K), typed("_"))
    assert isinstance(screens.top, MainGameEventHandler)
    assert position(engine) == (start[0] - 2, start[1] - 1)


def test_travel_to_an_unknown_tile_or_with_a_monster_in_view_costs_nothing() -> None:
    engine = walled_arena()
    engine.game_map.explored[:] = False
    engine.update_fov()
    far = (engine.game_map.width - 2, engine.game_map.height - 2)
    assert not engine.game_map.explored[far]
    screens = walked(dungeon(engine), typed("_"), click(*far))
    assert isinstance(screens.top, MainGameEventHandler) and engine.turns == 0
    assert texts(engine)[-1] == travel.NO_WAY
    entity_factories.orc.spawn(engine.game_map, engine.player.x + 2, engine.player.y)
    engine.update_fov()
    screens = walked(dungeon(engine), typed("_"), key(KeySym.L), typed("_"))
    assert isinstance(screens.top, MainGameEventHandler) and engine.turns == 0
    assert texts(engine)[-1] == "Not with an Orc in view."


def test_a_travel_replays_exactly() -> None:
    screens = live_game()
    played(screens, key(KeySym.X), steps=8)
    played(screens, key(KeySym.Z))
    for event in (typed("_"), key(KeySym.H), key(KeySym.H), key(KeySym.RETURN)):
        played(screens, event)
    engine = screens.engine
    assert engine is not None and "text _" in engine.recording
    assert state(replay_text("\n".join(engine.recording))) == state(screens)
