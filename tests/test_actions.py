"""Tutorial parts 1-7: moving, bumping into walls and monsters, fighting, dying."""

from __future__ import annotations

import pytest
import tcod
from conftest import arena, dungeon, key, press, texts
from tcod.event import KeySym

import entity_factories
import exceptions
import input_handlers
import tile_types
from actions import BumpAction
from engine import Engine
from entity import Actor
from render_order import RenderOrder

DIRECTIONS = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]


@pytest.mark.parametrize(("dx", "dy"), DIRECTIONS)
def test_player_moves_in_all_eight_directions(dx: int, dy: int) -> None:
    engine = arena()
    BumpAction(engine.player, dx, dy).perform()
    assert (engine.player.x, engine.player.y) == (5 + dx, 5 + dy)


@pytest.mark.parametrize(("dx", "dy"), DIRECTIONS)
def test_walls_block_every_direction(dx: int, dy: int) -> None:
    """Player in a one-tile pocket: every step hits a wall."""
    engine = arena()
    engine.game_map.tiles[4:7, 4:7] = tile_types.wall
    engine.game_map.tiles[5, 5] = tile_types.floor
    with pytest.raises(exceptions.Impossible, match=r"^That way is blocked\.$"):
        BumpAction(engine.player, dx, dy).perform()
    assert (engine.player.x, engine.player.y) == (5, 5)


@pytest.mark.parametrize(("at", "dx", "dy"), [((0, 0), -1, 0), ((0, 0), 0, -1), ((19, 14), 1, 1)])
def test_map_edge_blocks_movement(at: tuple[int, int], dx: int, dy: int) -> None:
    """On a map with floor right up to its edge, stepping off the map is refused."""
    engine = arena(at=at, walled=False)
    with pytest.raises(exceptions.Impossible, match=r"^That way is blocked\.$"):
        BumpAction(engine.player, dx, dy).perform()
    assert (engine.player.x, engine.player.y) == at


def test_blocked_move_costs_no_turn() -> None:
    """Walking into a wall says so, and the orc two tiles away does not get to move;
    a real step afterwards does let it move."""
    engine = arena(at=(1, 5))
    orc = entity_factories.orc.spawn(engine.game_map, 3, 5)
    screens = dungeon(engine)
    handler = screens.top

    screens.press(key(KeySym.LEFT))
    assert screens.stack == [screens.menu, handler]
    assert texts(engine)[-1] == "That way is blocked."
    assert (orc.x, orc.y) == (3, 5)

    screens.press(key(KeySym.UP))  # A legal step: now the orc moves.
    assert (engine.player.x, engine.player.y) == (1, 4)
    assert orc.x == 2 and orc.y in (4, 5)  # One step, either way as short, to the player's side.


def test_bumping_an_actor_attacks_instead_of_moving() -> None:
    engine = arena()
    orc = entity_factories.orc.spawn(engine.game_map, 6, 5)
    BumpAction(engine.player, 1, 0).perform()
    assert (engine.player.x, engine.player.y) == (5, 5)
    assert orc.fighter.hp == 6
    assert texts(engine)[-1] == "Player attacks Orc for 4 hit points."


def test_starting_stats() -> None:
    """Player 30 HP, defense 1 + leather armor, power 2 + dagger; orc and troll templates."""
    fighter = arena().player.fighter
    assert (fighter.hp, fighter.max_hp) == (30, 30)
    assert (fighter.base_defense, fighter.defense) == (1, 2)
    assert (fighter.base_power, fighter.power) == (2, 4)
    orc, troll = entity_factories.orc.fighter, entity_factories.troll.fighter
    assert (orc.max_hp, orc.defense, orc.power) == (10, 0, 3)
    assert (troll.max_hp, troll.defense, troll.power) == (16, 1, 4)


@pytest.mark.parametrize(
    ("attacker", "target", "base_defense", "message", "hp_left"),
    [
        ("player", "troll", None, "Player attacks Troll for 3 hit points.", 13),
        ("orc", "player", None, "Orc attacks Player for 1 hit point.", 29),
        ("troll", "player", None, "Troll attacks Player for 2 hit points.", 28),
        ("orc", "player", 2, "Orc attacks Player but does no damage.", 30),
    ],
)
def test_melee_damage_is_power_minus_defense(
    attacker: str, target: str, base_defense: int | None, message: str, hp_left: int
) -> None:
    engine = arena()
    actors: dict[str, Actor] = {"player": engine.player}
    for name in (attacker, target):
        if name != "player":
            actors[name] = getattr(entity_factories, name).spawn(engine.game_map, 6, 5)
    if base_defense is not None:
        actors[target].fighter.base_defense = base_defense
    source, victim = actors[attacker], actors[target]
    BumpAction(source, victim.x - source.x, victim.y - source.y).perform()
    assert texts(engine)[-1] == message
    assert victim.fighter.hp == hp_left


def test_killed_orc_becomes_a_corpse() -> None:
    engine = arena()
    orc = entity_factories.orc.spawn(engine.game_map, 6, 5)
    for _ in range(3):  # 10 HP, 4 damage a blow.
        BumpAction(engine.player, 1, 0).perform()

    assert orc.fighter.hp == 0
    assert texts(engine)[-3:-1] == ["Player attacks Orc for 4 hit points. (x3)", "Orc is dead!"]
    assert (orc.char, orc.name) == ("%", "remains of Orc")
    assert orc.blocks_movement is False
    assert orc.render_order is RenderOrder.CORPSE
    assert orc.ai is None
    assert orc not in list(engine.game_map.actors)

    BumpAction(engine.player, 1, 0).perform()  # Walks onto the corpse.
    assert (engine.player.x, engine.player.y) == (6, 5)


def test_player_death_leads_to_game_over() -> None:
    engine = arena()
    engine.player.fighter.hp = 1
    entity_factories.orc.spawn(engine.game_map, 6, 5)

    screens = press(engine, ".")  # Wait; the orc hits for 1.

    assert isinstance(screens.top, input_handlers.GameOverEventHandler)
    assert texts(engine)[-2:] == ["Orc attacks Player for 1 hit point.", "You died!"]
    assert engine.player.char == "%"
    assert not engine.player.is_alive


def kill(actor: Actor) -> Actor:
    actor.fighter.hp = 0
    return actor


def glyph_at(engine: Engine, x: int, y: int) -> str:
    console = tcod.console.Console(80, 50, order="F")
    engine.game_map.render(console)
    return chr(console.rgb["ch"][x, y])


def test_corpses_are_drawn_under_actors_and_items() -> None:
    """The corpse is added to the map last each time, so only the render order
    can put it underneath."""
    engine = arena()
    game_map = engine.game_map
    entity_factories.troll.spawn(game_map, 6, 5)
    kill(entity_factories.orc.spawn(game_map, 6, 5))
    entity_factories.health_potion.spawn(game_map, 7, 5)
    kill(entity_factories.orc.spawn(game_map, 7, 5))
    entity_factories.health_potion.spawn(game_map, 5, 5)  # Under the player.
    kill(entity_factories.orc.spawn(game_map, 8, 5))

    assert glyph_at(engine, 6, 5) == "T"
    assert glyph_at(engine, 7, 5) == "!"
    assert glyph_at(engine, 5, 5) == "@"
    assert glyph_at(engine, 8, 5) == "%"


def test_monster_following_its_path_never_jumps_a_tile() -> None:
    """Out of sight, a monster walks its last path; blocked for a turn, it must
    not then skip the blocked tile and land two tiles on (a tutorial bug)."""
    engine = arena(width=30)
    orc = entity_factories.orc.spawn(engine.game_map, 12, 5)
    engine.handle_enemy_turns()  # Sees the player: plans a path, steps west.
    assert (orc.x, orc.y) == (11, 5)

    engine.game_map.visible[:] = False  # Loses sight of the player.
    troll = entity_factories.troll.spawn(engine.game_map, 10, 5)
    engine.handle_enemy_turns()
    assert (orc.x, orc.y) == (11, 5)  # Blocked.

    engine.game_map.entities.remove(troll)
    engine.handle_enemy_turns()
    assert max(abs(orc.x - 11), abs(orc.y - 5)) <= 1
