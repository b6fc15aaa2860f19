"""Tutorial parts 8-9: picking up items, and what each consumable does or refuses.

Items are used as the player uses them: `i`, then the item's letter (the
starting dagger and armour are `a` and `b`), then for scrolls a target.  A
refusal must cost no turn: the orc waiting two tiles away must not move.
"""

from __future__ import annotations

import pytest
from conftest import arena, click, dungeon, give, key, press, pressing, stroke, texts, use
from tcod.event import KeySym

import entity_factories
import input_handlers
import tile_types
from components.ai import ConfusedEnemy, HostileEnemy
from engine import Engine
from entity import Actor, Item
from input_handlers import MainGameEventHandler


def watcher(engine: Engine) -> Actor:
    """An orc in plain sight two tiles east: it steps closer whenever a turn passes."""
    return entity_factories.orc.spawn(engine.game_map, 7, 5)


def assert_refused(engine: Engine, message: str, item: Item, orc: Actor) -> None:
    assert texts(engine)[-1] == message
    assert item in engine.player.inventory.items
    assert (orc.x, orc.y) == (7, 5)


def test_health_potion_heals_4() -> None:
    engine = arena()
    engine.player.fighter.hp = 20
    potion = give(engine, entity_factories.health_potion)
    assert isinstance(use(engine, potion).top, MainGameEventHandler)
    assert engine.player.fighter.hp == 24
    assert texts(engine)[-1] == "You consume the Health Potion, and recover 4 HP!"
    assert potion not in engine.player.inventory.items


def test_health_potion_heals_only_up_to_max_hp() -> None:
    engine = arena()
    engine.player.fighter.hp = 28
    use(engine, give(engine, entity_factories.health_potion))
    assert engine.player.fighter.hp == 30
    assert texts(engine)[-1] == "You consume the Health Potion, and recover 2 HP!"


def test_health_potion_refused_at_full_health() -> None:
    engine = arena()
    orc = watcher(engine)
    potion = give(engine, entity_factories.health_potion)
    use(engine, potion)
    assert_refused(engine, "Your health is already full.", potion, orc)


def test_lightning_strikes_the_closest_visible_enemy() -> None:
    engine = arena()
    orc = entity_factories.orc.spawn(engine.game_map, 5, 9)  # 4 away.
    troll = entity_factories.troll.spawn(engine.game_map, 7, 5)  # 2 away.
    scroll = give(engine, entity_factories.lightning_scroll)
    use(engine, scroll)
    assert "A lightning bolt strikes the Troll with a loud thunder, for 20 damage!" in texts(engine)
    assert "Troll is dead!" in texts(engine)
    assert (troll.char, troll.name, troll.ai) == ("%", "remains of Troll", None)
    assert orc.fighter.hp == 10
    assert scroll not in engine.player.inventory.items


def test_lightning_reaches_5_tiles() -> None:
    engine = arena()
    orc = entity_factories.orc.spawn(engine.game_map, 10, 5)
    use(engine, give(engine, entity_factories.lightning_scroll))
    assert texts(engine)[-3:-1] == [
        "A lightning bolt strikes the Orc with a loud thunder, for 20 damage!",
        "Orc is dead!",
    ]
    assert orc.name == "remains of Orc"


def test_lightning_refused_when_no_enemy_within_5() -> None:
    engine = arena()
    far = entity_factories.orc.spawn(engine.game_map, 11, 5)  # 6 away, in sight.
    scroll = give(engine, entity_factories.lightning_scroll)
    use(engine, scroll)
    assert texts(engine)[-1] == "No enemy is close enough to strike."
    assert scroll in engine.player.inventory.items
    assert (far.x, far.fighter.hp) == (11, 10)


def test_lightning_ignores_enemies_out_of_sight() -> None:
    engine = arena()
    engine.game_map.tiles[6, :] = tile_types.wall
    engine.update_fov()
    hidden = entity_factories.orc.spawn(engine.game_map, 7, 5)
    scroll = give(engine, entity_factories.lightning_scroll)
    use(engine, scroll)
    assert_refused(engine, "No enemy is close enough to strike.", scroll, hidden)
    assert hidden.fighter.hp == 10


def test_confusion_scroll_confuses_the_clicked_enemy() -> None:
    engine = arena()
    orc = watcher(engine)
    hostile = orc.ai
    scroll = give(engine, entity_factories.confusion_scroll)

    screens = use(engine, scroll)
    targeting = screens.top
    assert isinstance(targeting, input_handlers.SingleRangedAttackHandler)
    assert targeting.content().keys == "Confusion Scroll, one creature (Enter casts, Esc cancels), at an Orc in view"

    screens.press(click(7, 5))
    assert isinstance(screens.top, MainGameEventHandler)
    assert "The eyes of the Orc look vacant, as it starts to stumble around!" in texts(engine)
    assert isinstance(orc.ai, ConfusedEnemy)
    assert orc.ai.previous_ai is hostile
    assert orc.ai.turns_remaining == 9  # It has stumbled once already.
    assert scroll not in engine.player.inventory.items


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ((14, 5), "You cannot target an area that you cannot see."),
        ((8, 8), "You must select an enemy to target."),
        ((5, 5), "You cannot confuse yourself!"),
    ],
)
def test_confusion_scroll_refusals(target: tuple[int, int], message: str) -> None:
    engine = arena()
    engine.game_map.tiles[10, :] = tile_types.wall
    engine.update_fov()
    orc = watcher(engine)
    scroll = give(engine, entity_factories.confusion_scroll)
    screens = use(engine, scroll)
    targeting = screens.top
    screens.press(click(*target))
    assert screens.top is targeting
    assert_refused(engine, message, scroll, orc)
    assert isinstance(orc.ai, HostileEnemy)


def test_confusion_lasts_10_turns_then_the_old_ai_returns() -> None:
    engine = arena()
    orc = watcher(engine)
    hostile = orc.ai
    screens = pressing(use(engine, give(engine, entity_factories.confusion_scroll)), click(7, 5))
    for _ in range(9):  # Turns 2 to 10 of stumbling.
        screens.press(stroke("."))
        assert isinstance(orc.ai, ConfusedEnemy)
    assert isinstance(orc.ai, ConfusedEnemy) and orc.ai.turns_remaining == 0

    screens.press(stroke("."))
    assert texts(engine)[-1] == "The Orc is no longer confused."
    assert orc.ai is hostile


def stumble(seed: int, steps: int) -> list[tuple[int, int]]:
    """Where a confused orc, out of the player's sight, is after each turn."""
    engine = arena(at=(2, 2), seed=seed)
    orc = entity_factories.orc.spawn(engine.game_map, 12, 8)
    orc.ai = ConfusedEnemy(orc, previous_ai=orc.ai, turns_remaining=steps)
    engine.game_map.visible[:] = False
    path = []
    for _ in range(steps):
        engine.handle_enemy_turns()
        path.append((orc.x, orc.y))
    return path


def test_confused_enemy_stumbles_randomly() -> None:
    """One tile a turn in varying directions (a calm orc out of sight would stay
    put); the same seed gives the same walk, another seed another walk."""
    path = stumble(seed=5, steps=5)
    steps = {(x1 - x0, y1 - y0) for (x0, y0), (x1, y1) in zip([(12, 8), *path], path, strict=False)}
    assert all(max(abs(dx), abs(dy)) == 1 for dx, dy in steps)
    assert len(steps) >= 2
    assert stumble(seed=5, steps=5) == path
    assert stumble(seed=6, steps=5) != path


def test_confused_enemy_attacks_what_it_bumps() -> None:
    """An orc ringed by trolls hits one of them whichever way it stumbles."""
    engine = arena(seed=3)
    orc = entity_factories.orc.spawn(engine.game_map, 10, 8)
    orc.ai = ConfusedEnemy(orc, previous_ai=orc.ai, turns_remaining=10)
    trolls = [
        entity_factories.troll.spawn(engine.game_map, 10 + dx, 8 + dy)
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
        if dx or dy
    ]
    orc.ai.perform()
    assert texts(engine)[-1] == "Orc attacks Troll for 2 hit points."
    assert sorted(troll.fighter.hp for troll in trolls) == [14] + [16] * 7
    assert (orc.x, orc.y) == (10, 8)


def test_fireball_hits_every_actor_in_radius_including_the_player() -> None:
    engine = arena()
    orc = entity_factories.orc.spawn(engine.game_map, 7, 5)  # The target.
    troll = entity_factories.troll.spawn(engine.game_map, 7, 8)  # 3 from the target.
    spared = entity_factories.orc.spawn(engine.game_map, 11, 5)  # 4 from the target.
    scroll = give(engine, entity_factories.fireball_scroll)

    screens = use(engine, scroll)
    targeting = screens.top
    assert isinstance(targeting, input_handlers.AreaRangedAttackHandler)
    assert targeting.radius == 3
    engine.mouse_location = (orc.x, orc.y)
    screens.press(key(KeySym.RETURN))
    assert isinstance(screens.top, input_handlers.ConfirmHandler)  # The player is inside.
    screens.press(key(KeySym.Y))

    log = texts(engine)
    for name in ("Player", "Orc", "Troll"):
        assert f"The {name} is engulfed in a fiery explosion, taking 12 damage!" in log
    assert "Orc is dead!" in log
    assert orc.char == "%"
    assert (engine.player.fighter.hp, troll.fighter.hp, spared.fighter.hp) == (18, 4, 10)
    assert scroll not in engine.player.inventory.items


def test_fireball_refused_without_targets_in_radius() -> None:
    engine = arena()
    orc = watcher(engine)
    scroll = give(engine, entity_factories.fireball_scroll)
    screens = use(engine, scroll)
    targeting = screens.top
    screens.press(click(11, 10))
    assert screens.top is targeting
    assert_refused(engine, "There are no targets in the radius.", scroll, orc)


def test_fireball_refused_on_a_tile_out_of_sight() -> None:
    engine = arena()
    engine.game_map.tiles[10, :] = tile_types.wall
    engine.update_fov()
    orc = watcher(engine)
    entity_factories.troll.spawn(engine.game_map, 14, 5)  # Behind the wall.
    scroll = give(engine, entity_factories.fireball_scroll)
    pressing(use(engine, scroll), click(14, 5))
    assert_refused(engine, "You cannot target an area that you cannot see.", scroll, orc)


def test_pickup_with_g() -> None:
    engine = arena()
    potion = entity_factories.health_potion.spawn(engine.game_map, 5, 5)
    press(engine, KeySym.G)
    assert texts(engine)[-1] == f"{engine.player.inventory.letter_of(potion)} - a Health Potion"
    assert engine.player.inventory.items[-1] is potion
    assert potion.parent is engine.player.inventory
    assert potion not in engine.game_map.entities


def test_a_pickup_is_one_line_naming_the_letter_and_the_stack_it_joined() -> None:
    """DCSS's words: "c - a Health Potion", then "c - Health Potion (x2)"."""
    engine = arena()
    first = entity_factories.health_potion.spawn(engine.game_map, 5, 5)
    second = entity_factories.health_potion.spawn(engine.game_map, 5, 5)
    start = len(engine.message_log.messages)
    press(engine, KeySym.G, KeySym.G)
    letter = engine.player.inventory.letter_of(first)
    assert engine.player.inventory.letter_of(second) == letter
    assert texts(engine, start) == [f"{letter} - a Health Potion", f"{letter} - Health Potion (x2)"]


def test_pickup_with_nothing_underfoot() -> None:
    """An item next to the player is not underfoot."""
    engine = arena()
    orc = watcher(engine)
    entity_factories.health_potion.spawn(engine.game_map, 6, 5)
    screens = dungeon(engine)
    handler = screens.top
    screens.press(key(KeySym.G))
    assert screens.stack == [screens.menu, handler]
    assert texts(engine)[-1] == "There is nothing here to pick up."
    assert (orc.x, orc.y) == (7, 5)
    assert len(engine.player.inventory.items) == 2


def test_pickup_refused_when_inventory_is_full() -> None:
    engine = arena()
    orc = watcher(engine)
    for _ in range(24):  # The dagger and the armour make 26.
        give(engine, entity_factories.health_potion)
    potion = entity_factories.health_potion.spawn(engine.game_map, 5, 5)
    press(engine, KeySym.G)
    assert texts(engine)[-1] == "Your inventory is full."
    assert engine.player.inventory.capacity == 26
    assert len(engine.player.inventory.items) == 26
    assert potion in engine.game_map.entities
    assert (orc.x, orc.y) == (7, 5)


def test_orc_recovering_from_confusion_does_not_jump_back_to_its_path() -> None:
    """Its path to the player was planned before it stumbled away; following it
    afterwards must not move it more than a tile (a tutorial bug)."""
    engine = arena()
    orc = entity_factories.orc.spawn(engine.game_map, 12, 5)
    engine.handle_enemy_turns()  # Sees the player and plans a path west.
    assert isinstance(orc.ai, HostileEnemy) and orc.ai.path[0] == (10, 5)
    orc.ai = ConfusedEnemy(orc, previous_ai=orc.ai, turns_remaining=10)
    engine.game_map.visible[:] = False
    for _ in range(11):
        engine.handle_enemy_turns()
    assert isinstance(orc.ai, HostileEnemy)
    assert max(abs(orc.x - 10), abs(orc.y - 5)) > 1  # Stumbled off the path.

    x, y = orc.x, orc.y
    engine.handle_enemy_turns()
    assert max(abs(orc.x - x), abs(orc.y - y)) <= 1
