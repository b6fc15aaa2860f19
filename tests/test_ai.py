"""Tutorial part 6: monsters' paths, and a crowd closing in."""

from __future__ import annotations

import itertools
import random

import numpy as np
import tcod
from conftest import arena

import entity_factories
from engine import Engine
from game_map import GameMap


def path_is_a_walk(game_map: GameMap, start: tuple[int, int], path: list[tuple[int, int]]) -> bool:
    """Whether `path` goes from `start` one tile at a time over walkable tiles."""
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


def test_a_path_on_open_floor_is_as_short_as_a_kings_walk() -> None:
    engine = arena(40, 30, (20, 15))
    orc = entity_factories.orc.spawn(engine.game_map, 20, 15)
    engine.game_map.entities.remove(engine.player)
    assert orc.ai is not None
    for x, y in [(9, 4), (31, 26), (20, 3), (8, 15), (25, 17), (21, 15)]:
        path = orc.ai.get_path_to(x, y)
        assert len(path) == max(abs(x - 20), abs(y - 15)), (x, y)


def test_a_path_goes_around_a_monster_in_the_way() -> None:
    """Stepping onto another monster costs 10 more than a free tile: a step aside
    is cheaper, so the path takes it."""
    engine = arena(40, 30, (20, 15))
    orc = entity_factories.orc.spawn(engine.game_map, 10, 15)
    entity_factories.troll.spawn(engine.game_map, 11, 15)
    assert orc.ai is not None
    path = orc.ai.get_path_to(14, 15)
    assert (11, 15) not in path and path[-1] == (14, 15)
    assert path_is_a_walk(engine.game_map, (10, 15), path)


def test_a_path_leads_through_a_monster_when_there_is_no_way_around() -> None:
    """In a corridor one tile wide, the path goes through the monster's tile:
    the follower queues behind it rather than give up."""
    engine = arena(30, 5, (25, 2))
    engine.game_map.tiles["walkable"][:, 1] = False
    engine.game_map.tiles["walkable"][:, 3] = False
    orc = entity_factories.orc.spawn(engine.game_map, 10, 2)
    entity_factories.troll.spawn(engine.game_map, 11, 2)
    assert orc.ai is not None
    assert orc.ai.get_path_to(20, 2)[0] == (11, 2)


def test_a_crowd_closes_in_one_step_a_turn_never_sharing_a_tile() -> None:
    engine = arena(40, 30, (20, 15))
    engine.player.fighter.base_defense = 100  # Outlives the crowd.
    game_map = engine.game_map
    spots = [(x, y) for x in range(13, 28) for y in range(8, 23) if (x, y) != (20, 15)]
    monsters = [
        entity_factories.orc.spawn(game_map, x, y) for x, y in random.Random(5).sample(spots, 30)
    ]
    for _ in range(8):
        before = {monster: (monster.x, monster.y) for monster in monsters}
        engine.handle_enemy_turns()
        engine.update_fov()
        blockers = [(e.x, e.y) for e in game_map.entities if e.blocks_movement]
        assert len(blockers) == len(set(blockers))
        for monster, (x, y) in before.items():
            assert max(abs(monster.x - x), abs(monster.y - y)) <= 1
    player = engine.player
    around = [m for m in monsters if max(abs(m.x - player.x), abs(m.y - player.y)) == 1]
    assert len(around) == 8  # Surrounded.


def step_cost(start: tuple[int, int], path: list[tuple[int, int]], cost: np.ndarray) -> int:
    """A path's cost as the tutorial's graph counts it: 2 a straight step, 3 a
    diagonal one, times the cost of the tile entered."""
    total, (x, y) = 0, start
    for nx, ny in path:
        total += (3 if nx != x and ny != y else 2) * int(cost[nx, ny])
        x, y = nx, ny
    return total


def test_a_path_is_as_short_as_the_tutorials_pathfinder(engine: Engine) -> None:
    """`get_path_to` uses libtcod's A* for speed; its paths cost what the
    tutorial's `SimpleGraph` + `Pathfinder` paths cost, on real floors, with
    the goal counted as plain floor: A* does not weigh the tile it ends on (a
    monster attacks into the player's tile, it never walks it)."""
    game_map = engine.game_map
    rng = random.Random(5)
    floor_tiles = [(int(x), int(y)) for x, y in np.argwhere(game_map.tiles["walkable"])]
    free = [xy for xy in floor_tiles if game_map.get_blocking_entity_at_location(*xy) is None]
    monster = entity_factories.orc.spawn(game_map, *free[0])
    for _ in range(100):
        start, goal = rng.choice(free), rng.choice(floor_tiles)
        monster.place(*start)  # Moved only to ask for paths: no turn is played.
        cost = np.array(game_map.tiles["walkable"], dtype=np.int8)
        for entity in game_map.entities:
            if entity.blocks_movement:
                cost[entity.x, entity.y] += 10
        cost[goal] = 1
        ours = monster.ai.get_path_to(*goal)  # type: ignore[union-attr]
        pathfinder = tcod.path.Pathfinder(tcod.path.SimpleGraph(cost=cost, cardinal=2, diagonal=3))
        pathfinder.add_root(start)
        tutorials = [(x, y) for x, y in pathfinder.path_to(goal)[1:].tolist()]
        assert path_is_a_walk(game_map, start, ours) or not ours
        assert (ours[-1] if ours else start) == (tutorials[-1] if tutorials else start)
        assert step_cost(start, ours, cost) == step_cost(start, tutorials, cost)
