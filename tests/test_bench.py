"""The benchmark, and the faster code it measures.

`tools/bench.py` holds the timing targets; here it only has to run (quickly,
from another folder) and print every figure.  The other tests check that
what was made faster still does what the tutorial's slower code did: the
field of view computed on a window, the map drawn from cached graphics,
entities looked up by position during the monsters' turns, paths sharing one
search, and floors furnished from pickled templates.
"""

from __future__ import annotations

import contextlib
import importlib.util
import itertools
import random
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import conftest
import numpy as np
import tcod

import entity_factories
import tile_types
from components.ai import BLOCKER_COST, DistanceMap, shared_paths
from engine import FOV_RADIUS, Engine
from entity import Actor, Entity, Item
from game_map import GameMap, remembered

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "tools" / "bench.py"


def load_bench() -> ModuleType:
    """tools/bench.py as a module (tools/ is not a package)."""
    if "bench" not in sys.modules:
        spec = importlib.util.spec_from_file_location("bench", BENCH)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["bench"] = module  # Its dataclasses look themselves up here.
        spec.loader.exec_module(module)
    return sys.modules["bench"]


def arena(width: int = 40, height: int = 30, player: tuple[int, int] = (20, 15)) -> Engine:
    """A seeded new game moved onto open floor ringed by wall."""
    return conftest.arena(width, height, player)


# ------------------------------------------------------------ the benchmark


def test_quick_benchmark_prints_every_figure(tmp_path: Path) -> None:
    figures = load_bench().FIGURES
    done = subprocess.run(
        [sys.executable, str(BENCH), "--quick"],
        cwd=tmp_path,  # Runs from any folder.
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"CPU: .+ \(\d+ cores\)", lines[0])
    for figure in figures:
        row = rf"{re.escape(figure.label)}\s+\d+(\.\d+)? (s|ms|B|%)(\s.*)?"
        assert any(re.fullmatch(row, line) for line in lines), (figure.label, done.stdout)
    assert list(tmp_path.iterdir()) == []  # Nothing left behind.


# ---------------------------------------------------------- field of view


def test_fov_on_a_window_is_the_fov_of_the_whole_map(engine: Engine) -> None:
    """Everywhere the player can stand, edges of the map included."""
    game_map = engine.game_map
    game_map.tiles[0, :] = game_map.tiles[:, 0] = tile_types.floor  # Floor at the edges too.
    seen = np.zeros_like(game_map.explored)
    xs, ys = np.nonzero(game_map.tiles["walkable"])
    for x, y in zip(xs.tolist()[::7], ys.tolist()[::7], strict=True):
        engine.player.x, engine.player.y = x, y
        engine.update_fov()
        expected = tcod.map.compute_fov(game_map.tiles["transparent"], (x, y), radius=FOV_RADIUS)
        assert (game_map.visible == expected).all(), (x, y)
        seen |= expected
        assert (game_map.explored >= seen).all()


# ------------------------------------------------------------ the frame


def tutorial_render(game_map: GameMap, console: tcod.console.Console) -> None:
    """The tutorial's `GameMap.render`, with items remembered out of view, dimmed."""
    console.rgb[0 : game_map.width, 0 : game_map.height] = np.select(
        condlist=[game_map.visible, game_map.explored],
        choicelist=[game_map.tiles["light"], game_map.tiles["dark"]],
        default=tile_types.SHROUD,
    )
    for entity in sorted(game_map.entities, key=lambda x: x.render_order.value):
        if game_map.visible[entity.x, entity.y]:
            console.print(x=entity.x, y=entity.y, text=entity.char, fg=entity.color)
        elif isinstance(entity, Item) and game_map.explored[entity.x, entity.y]:
            console.print(x=entity.x, y=entity.y, text=entity.char, fg=remembered(entity.color))


def test_the_map_is_drawn_as_the_tutorial_drew_it(engine: Engine) -> None:
    game_map = engine.game_map
    rng = np.random.default_rng(7)
    x, y = engine.player.x, engine.player.y
    entity_factories.health_potion.spawn(game_map, x + 1, y)  # Under an orc:
    entity_factories.orc.spawn(game_map, x + 1, y)  # the orc shows.
    corpse = entity_factories.troll.spawn(game_map, x, y + 1)
    corpse.fighter.hp = 0
    for step in range(6):
        game_map.visible[:] = rng.random(game_map.visible.shape) < 0.5
        game_map.visible[x - 1 : x + 2, y - 1 : y + 2] = True
        game_map.explored[:] = game_map.visible | (rng.random(game_map.visible.shape) < 0.5)
        if step == 3:  # Tiles that change are drawn as they are now.
            game_map.tiles[x - 3 : x + 4, y - 1] = tile_types.down_stairs
        expected = tcod.console.Console(80, 50, order="F")
        got = tcod.console.Console(80, 50, order="F")
        expected.rgb["bg"] = got.rgb["bg"] = (1, 2, 3)
        tutorial_render(game_map, expected)
        game_map.render(got)
        assert (got.rgba == expected.rgba).all(), step


# ------------------------------------------------ look-ups by position


def scan_blocking(game_map: GameMap, x: int, y: int) -> Entity | None:
    return next(
        (e for e in game_map.entities if e.blocks_movement and (e.x, e.y) == (x, y)), None
    )


def scan_actor(game_map: GameMap, x: int, y: int) -> Actor | None:
    return next((a for a in game_map.actors if (a.x, a.y) == (x, y)), None)


def assert_lookups_match_a_scan(game_map: GameMap) -> None:
    for x in range(game_map.width):
        for y in range(game_map.height):
            assert game_map.get_blocking_entity_at_location(x, y) is scan_blocking(game_map, x, y)
            assert game_map.get_actor_at_location(x, y) is scan_actor(game_map, x, y)
    window = (3, 4, 30, 20)
    assert set(game_map.blocking_entities_in(*window)) == {
        e for e in game_map.entities if e.blocks_movement and 3 <= e.x < 30 and 4 <= e.y < 20
    }


def test_lookups_while_tracking_positions_match_a_scan() -> None:
    engine = arena()
    game_map = engine.game_map
    orcs = [entity_factories.orc.spawn(game_map, 5 + 3 * i, 5) for i in range(6)]
    entity_factories.health_potion.spawn(game_map, 8, 5)  # Under an orc.
    with game_map.tracking_positions():
        assert_lookups_match_a_scan(game_map)
        for orc in orcs[:3]:  # Moves, reported as the engine does.
            old = orc.x, orc.y
            orc.move(0, 1)
            game_map.moved(orc, *old)
        orcs[3].fighter.hp = 0  # A death: the corpse no longer blocks.
        assert_lookups_match_a_scan(game_map)
    assert "_index" not in vars(game_map) and "_tracking" not in vars(game_map)
    assert_lookups_match_a_scan(game_map)


def test_a_turn_leaves_nothing_behind_in_the_map(engine: Engine) -> None:
    """Nothing of the monsters' turn stays on the map, to be saved."""
    before = set(vars(engine.game_map))
    engine.handle_enemy_turns()
    assert set(vars(engine.game_map)) == before
    assert engine.game_map.shared_distances is None


# ------------------------------------------------------------------ paths


def path_is_a_walk(game_map: GameMap, start: tuple[int, int], path: list[tuple[int, int]]) -> bool:
    steps = [start, *path]
    return all(
        max(abs(x1 - x0), abs(y1 - y0)) == 1 and game_map.tiles["walkable"][x1, y1]
        for (x0, y0), (x1, y1) in itertools.pairwise(steps)
    )


def test_a_path_walks_to_its_end_around_walls(engine: Engine) -> None:
    game_map = engine.game_map
    player = engine.player
    orc = entity_factories.orc.spawn(game_map, player.x, player.y)
    assert orc.ai is not None
    xs, ys = np.nonzero(game_map.tiles["walkable"])
    floor = list(zip(xs.tolist(), ys.tolist(), strict=True))
    for x, y in random.Random(3).sample(floor, 25):
        path = orc.ai.get_path_to(x, y)
        assert path[-1] == (x, y) and path_is_a_walk(game_map, (orc.x, orc.y), path)


def test_a_path_goes_around_a_monster_in_the_way() -> None:
    """A step aside costs less than `BLOCKER_COST`: the path takes it."""
    engine = arena()
    orc = entity_factories.orc.spawn(engine.game_map, 10, 15)
    entity_factories.troll.spawn(engine.game_map, 11, 15)
    assert BLOCKER_COST > 3
    for sharing in (False, True):
        with shared_paths(engine.game_map) if sharing else contextlib.nullcontext():
            assert orc.ai is not None
            path = orc.ai.get_path_to(14, 15)
        assert (11, 15) not in path and path[-1] == (14, 15), sharing
        assert path_is_a_walk(engine.game_map, (10, 15), path)


def test_a_shared_search_is_made_again_when_its_first_step_is_taken() -> None:
    """A monster that stepped where another's shared plan led is walked around."""
    engine = arena()
    game_map = engine.game_map
    first = entity_factories.orc.spawn(game_map, 12, 15)
    second = entity_factories.orc.spawn(game_map, 12, 17)
    with shared_paths(game_map):
        assert first.ai is not None and second.ai is not None
        step = second.ai.get_path_to(20, 15)[0]  # The plan: shared from now on.
        first.x, first.y = step  # Another monster moves there meanwhile.
        path = second.ai.get_path_to(20, 15)
    assert path[0] != step and path_is_a_walk(game_map, (12, 17), path)


def test_distance_map_paths_are_shortest() -> None:
    """On open floor, a path is as many steps as the king's-move distance."""
    engine = arena()
    distances = DistanceMap.around(engine.game_map, 20, 15, 12)
    for x, y in [(9, 4), (31, 26), (20, 3), (8, 15), (25, 17), (20, 15)]:
        path = distances.path_from(x, y)
        assert path is not None and len(path) == max(abs(x - 20), abs(y - 15))
        assert path_is_a_walk(engine.game_map, (x, y), path)
    assert distances.path_from(1, 1) is None  # Outside its window.


def test_crowd_turns_keep_monsters_apart_and_stepping_one_tile() -> None:
    bench = load_bench()
    engine = bench.crowd_engine(bench.SMALL)
    engine.player.fighter.base_defense = 100  # Outlives the crowd.
    monsters = [a for a in engine.game_map.actors if a is not engine.player]
    for _ in range(8):
        before = {m: (m.x, m.y) for m in monsters}
        bench.take_turn(engine)
        blockers = [(e.x, e.y) for e in engine.game_map.entities if e.blocks_movement]
        assert len(blockers) == len(set(blockers))
        for monster, (x, y) in before.items():
            assert max(abs(monster.x - x), abs(monster.y - y)) <= 1
    player = engine.player
    around = [m for m in monsters if max(abs(m.x - player.x), abs(m.y - player.y)) == 1]
    assert len(around) == 8  # Surrounded.


# ----------------------------------------------------------------- floors


def test_a_new_map_is_all_wall() -> None:
    game_map = GameMap(None, 31, 17)  # type: ignore[arg-type]
    expected = np.full((31, 17), fill_value=tile_types.wall, order="F")
    assert game_map.tiles.flags.f_contiguous and game_map.tiles.flags.writeable
    assert (game_map.tiles == expected).all()


