"""Tutorial part 9: the targeting cursor (look mode, scroll targets), aiming at
enemies with Tab, the blast's area, and the question before hitting yourself."""

from __future__ import annotations

import copy
import math
from pathlib import Path

import conftest
import numpy as np
import pytest
import tcod
from conftest import click, dungeon, give, key, motion, press, pressing, use
from tcod.event import KeySym, Modifier

import actions
import entity_factories
import input_handlers
import render_functions
import tile_types
from components.ai import ConfusedEnemy
from components.consumable import FireballDamageConsumable
from engine import Engine
from entity import Actor, Item
from input_handlers import MainGameEventHandler
from saving import save_data
from screens.stack import Screens
from words.reading import Narrator
from words.spoken import spoken

PLAYER = (40, 20)


def arena() -> Engine:
    """A seeded new game on an 80x43 map of open floor ringed by wall, the
    player at PLAYER."""
    engine = conftest.arena(80, 43, PLAYER)
    engine.mouse_location = (0, 0)
    return engine


def aim(engine: Engine, template: Item) -> tuple[Screens, Item]:
    """Carry a scroll and read it (`i`, then its letter): the targeting screen on top."""
    scroll = give(engine, template)
    return use(engine, scroll), scroll


def look(engine: Engine) -> Screens:
    """Look mode (`/`) opened from the dungeon: the look screen on top."""
    screens = press(engine, "/")
    assert isinstance(screens.top, input_handlers.LookHandler)
    return screens


def test_look_mode_starts_the_cursor_on_the_player() -> None:
    engine = arena()
    look(engine)
    assert engine.mouse_location == PLAYER


@pytest.mark.parametrize(
    ("sym", "cursor"), [(KeySym.UP, (40, 19)), (KeySym.KP_3, (41, 21)), (KeySym.Y, (39, 19))]
)
def test_move_keys_move_the_cursor_not_the_player(sym: KeySym, cursor: tuple[int, int]) -> None:
    engine = arena()
    orc = entity_factories.orc.spawn(engine.game_map, 42, 20)
    screens = look(engine)
    handler = screens.top
    screens.press(key(sym))
    assert screens.top is handler
    assert engine.mouse_location == cursor
    assert (engine.player.x, engine.player.y) == PLAYER
    assert (orc.x, orc.y) == (42, 20)


@pytest.mark.parametrize(
    ("mod", "step"),
    [
        (Modifier.NONE, 1),
        (Modifier.LSHIFT, 5),
        (Modifier.RSHIFT, 5),
        (Modifier.LCTRL, 10),
        (Modifier.RCTRL, 10),
        (Modifier.LALT, 20),
        (Modifier.RALT, 20),
        (Modifier.LSHIFT | Modifier.NUM, 5),  # Num Lock changes nothing.
    ],
)
def test_modifiers_move_the_cursor_further(mod: Modifier, step: int) -> None:
    engine = arena()
    screens = look(engine)
    screens.press(key(KeySym.RIGHT, mod))
    assert engine.mouse_location == (40 + step, 20)
    screens.press(key(KeySym.DOWN, mod))
    assert engine.mouse_location == (40 + step, 20 + step)


@pytest.mark.parametrize(
    ("sym", "cursors"),
    [
        (KeySym.LEFT, [(20, 20), (0, 20), (0, 20)]),
        (KeySym.RIGHT, [(60, 20), (79, 20), (79, 20)]),
        (KeySym.UP, [(40, 0), (40, 0)]),
        (KeySym.DOWN, [(40, 40), (40, 42), (40, 42)]),
    ],
)
def test_cursor_is_clamped_to_the_map(sym: KeySym, cursors: list[tuple[int, int]]) -> None:
    engine = arena()
    screens = look(engine)
    for cursor in cursors:
        screens.press(key(sym, Modifier.LALT))
        assert engine.mouse_location == cursor


@pytest.mark.parametrize("event", [key(KeySym.RETURN), key(KeySym.KP_ENTER), click(41, 20)])
def test_selecting_in_look_mode_describes_the_tile(event: tcod.event.Event) -> None:
    """Enter or a click: a window on the tile; any key goes back to looking, Escape out."""
    engine = arena()
    screens = look(engine)
    handler = screens.top
    pressing(screens, key(KeySym.RIGHT), event)
    window = screens.top
    assert isinstance(window, input_handlers.LookDescription)
    assert (window.x, window.y) == (41, 20)
    screens.press(motion(10, 10))
    assert screens.top is window  # The cursor stays.
    screens.press(key(KeySym.LSHIFT))
    assert screens.top is window
    screens.press(key(KeySym.X))
    assert screens.top is handler
    assert engine.mouse_location == (41, 20)
    screens.press(key(KeySym.ESCAPE))
    assert isinstance(screens.top, MainGameEventHandler)
    assert len(screens.stack) == 2


@pytest.mark.parametrize(
    ("events", "target"),
    [
        ([key(KeySym.RIGHT), key(KeySym.RIGHT), key(KeySym.RETURN)], (42, 20)),
        ([key(KeySym.DOWN, Modifier.LSHIFT), key(KeySym.KP_ENTER)], (40, 25)),
        ([click(44, 22)], (44, 22)),
        ([motion(43, 18), key(KeySym.RETURN)], (43, 18)),
        ([motion(43, 18), key(KeySym.RIGHT), key(KeySym.RETURN)], (44, 18)),
    ],
)
def test_selection_gives_the_scrolls_action_its_target(
    events: list[tcod.event.Event], target: tuple[int, int]
) -> None:
    engine = arena()
    screens, scroll = aim(engine, entity_factories.confusion_scroll)
    handler = screens.top
    assert isinstance(handler, input_handlers.SingleRangedAttackHandler)
    *moves, select = events
    for event in moves:
        screens.press(event)
        assert screens.top is handler
    action = handler.dispatch(select)
    assert isinstance(action, actions.ItemAction)
    assert (action.entity, action.item, action.target_xy) == (engine.player, scroll, target)


def test_mouse_motion_moves_the_cursor() -> None:
    engine = arena()
    pressing(look(engine), motion(12, 34))
    assert engine.mouse_location == (12, 34)


@pytest.mark.parametrize("cancel", [key(KeySym.ESCAPE), click(44, 22, tcod.event.MouseButton.RIGHT)])
def test_cancel_costs_nothing(cancel: tcod.event.Event) -> None:
    """Escape or a right click: back to the game, no turn, the scroll still carried."""
    engine = arena()
    orc = entity_factories.orc.spawn(engine.game_map, 42, 20)
    screens, scroll = aim(engine, entity_factories.fireball_scroll)
    pressing(screens, key(KeySym.RIGHT), cancel)
    assert isinstance(screens.top, MainGameEventHandler)
    assert engine.turns == 0
    assert scroll in engine.player.inventory.items
    assert (orc.x, orc.y, orc.fighter.hp) == (42, 20, 10)


# --- Aiming at enemies --------------------------------------------------------


def spawn_orcs(engine: Engine, *offsets: tuple[int, int]) -> list[Actor]:
    """Orcs at these offsets from the player, in view (open floor)."""
    orcs = [entity_factories.orc.spawn(engine.game_map, PLAYER[0] + dx, PLAYER[1] + dy) for dx, dy in offsets]
    engine.update_fov()
    return orcs


@pytest.mark.parametrize("template", [entity_factories.confusion_scroll, entity_factories.fireball_scroll])
def test_aiming_starts_on_the_nearest_enemy_in_view(template: Item) -> None:
    engine = arena()
    engine.game_map.tiles[36, 10:30] = tile_types.wall  # Hides the orc at (-5, 0).
    spawn_orcs(engine, (5, 1), (-5, 0), (3, -3), (6, 0))
    engine.update_fov()
    aim(engine, template)
    assert engine.mouse_location == (43, 17)  # 4.2 away; the hidden one is 5.


def test_aiming_with_no_enemy_in_view_starts_on_the_player() -> None:
    engine = arena()
    screens, _ = aim(engine, entity_factories.confusion_scroll)
    assert engine.mouse_location == PLAYER
    screens.press(key(KeySym.TAB))  # Nothing to cycle through.
    assert engine.mouse_location == PLAYER


def test_tab_cycles_the_enemies_in_view_nearest_first() -> None:
    """Nearest first; at equal distance the upper, then the left; round and round."""
    engine = arena()
    engine.game_map.tiles[36, 10:30] = tile_types.wall
    spawn_orcs(engine, (0, 2), (2, 0), (-2, 0), (4, 4), (-1, 1), (-5, 0))
    screens, _ = aim(engine, entity_factories.confusion_scroll)
    handler = screens.top
    order = [(39, 21), (38, 20), (42, 20), (40, 22), (44, 24)]
    seen = [engine.mouse_location]
    for _ in range(len(order)):
        screens.press(key(KeySym.TAB))
        assert screens.top is handler
        seen.append(engine.mouse_location)
    assert seen == [*order, order[0]]
    back = []
    for mod in (Modifier.LSHIFT, Modifier.RSHIFT, Modifier.LSHIFT):
        screens.press(key(KeySym.TAB, mod))
        back.append(engine.mouse_location)
    assert back == [order[-1], order[-2], order[-3]]
    assert (engine.player.x, engine.player.y) == PLAYER  # No turn passed.


def test_tab_from_a_tile_with_no_enemy_goes_to_the_nearest_or_back_to_the_farthest() -> None:
    engine = arena()
    spawn_orcs(engine, (2, 0), (4, 0))
    pressing(look(engine), key(KeySym.TAB))  # Look mode starts on the player.
    assert engine.mouse_location == (42, 20)
    pressing(look(engine), key(KeySym.TAB, Modifier.LSHIFT))
    assert engine.mouse_location == (44, 20)


def test_aiming_starts_on_the_last_target_while_it_lives() -> None:
    engine = arena()
    near, far = spawn_orcs(engine, (2, 0), (5, 0))
    screens, _ = aim(engine, entity_factories.confusion_scroll)
    assert engine.mouse_location == (near.x, near.y)
    screens.press(key(KeySym.TAB))
    action = screens.top.dispatch(key(KeySym.RETURN))
    assert isinstance(action, actions.ItemAction) and action.target_actor is far
    screens.press(key(KeySym.RETURN))  # Confused, and a turn passes.
    assert engine.turns == 1
    assert isinstance(far.ai, ConfusedEnemy)

    aim(engine, entity_factories.fireball_scroll)
    assert engine.mouse_location == (far.x, far.y)
    far.fighter.take_damage(far.fighter.hp)  # Gone: back to the nearest.
    aim(engine, entity_factories.fireball_scroll)
    assert engine.mouse_location == (near.x, near.y)


# --- The blast's area ------------------------------------------------------------


def shown_area(screens: Screens, engine: Engine) -> tuple[set[tuple[int, int]], tcod.console.Console, tcod.console.Console]:
    """The tiles the aiming screen marks (their background differs from the
    plain game's), and both consoles."""
    plain = tcod.console.Console(80, 50, order="F")
    engine.render(plain)
    aimed = tcod.console.Console(80, 50, order="F")
    screens.draw(aimed)
    differs = (plain.rgb["bg"] != aimed.rgb["bg"]).any(axis=-1)
    return {(int(x), int(y)) for x, y in zip(*differs.nonzero(), strict=True)}, plain, aimed


@pytest.mark.parametrize("radius", [1, 2, 3, 4, 5])
def test_the_tiles_shown_are_the_tiles_the_blast_hits(radius: int) -> None:
    """Marked while aiming == damaged when cast: an orc on every tile around."""
    engine = arena()
    center = (PLAYER[0] + radius + 1, PLAYER[1])  # In view, the player just outside.
    cx, cy = center
    orcs = {
        (x, y): entity_factories.orc.spawn(engine.game_map, x, y)
        for x in range(cx - radius - 2, cx + radius + 3)
        for y in range(cy - radius - 2, cy + radius + 3)
        if (x, y) != PLAYER
    }
    engine.update_fov()
    scroll = copy.deepcopy(entity_factories.fireball_scroll)
    assert isinstance(scroll.consumable, FireballDamageConsumable)
    scroll.consumable.radius = radius
    screens, carried = aim(engine, scroll)
    engine.mouse_location = center
    shown, _, _ = shown_area(screens, engine)

    hp_before = {xy: orc.fighter.hp for xy, orc in orcs.items()}
    screens.press(key(KeySym.RETURN))
    assert carried not in engine.player.inventory.items  # Cast, with no question.
    hit = {xy for xy, orc in orcs.items() if orc.fighter.hp < hp_before[xy]}
    assert shown == hit
    assert 4 * radius + 1 <= len(hit) < (2 * radius + 1) ** 2  # Round: no square, no cross.


def test_the_tint_keeps_every_glyph_and_its_colour() -> None:
    engine = arena()
    spawn_orcs(engine, (4, 0), (5, 1), (3, -1))
    screens, _ = aim(engine, entity_factories.fireball_scroll)
    cursor = engine.mouse_location
    shown, plain, aimed = shown_area(screens, engine)
    assert len(shown) > 1
    for x, y in shown - {cursor}:
        assert aimed.rgb["ch"][x, y] == plain.rgb["ch"][x, y]
        assert tuple(aimed.rgb["fg"][x, y]) == tuple(plain.rgb["fg"][x, y])
    # The orcs keep their glyph; the cursor's tile is inverted as ever.
    assert {chr(aimed.rgb["ch"][x, y]) for x, y in shown} >= {"o"}
    assert tuple(aimed.rgb["bg"][cursor]) == (255, 255, 255)


# --- Hitting yourself ----------------------------------------------------------


def test_the_question_comes_exactly_when_the_player_is_inside_the_blast() -> None:
    radius = entity_factories.fireball_scroll.consumable.radius  # type: ignore[union-attr]
    for dx in range(-radius - 2, radius + 3):
        for dy in range(-radius - 2, radius + 3):
            engine = arena()
            screens, _ = aim(engine, entity_factories.fireball_scroll)
            engine.mouse_location = target = (PLAYER[0] + dx, PLAYER[1] + dy)
            screens.press(key(KeySym.RETURN))
            after = screens.top
            inside = math.dist(PLAYER, target) <= radius  # The tutorial's test.
            assert isinstance(after, input_handlers.ConfirmHandler) == inside, (dx, dy)
            if inside:
                assert isinstance(after, input_handlers.ConfirmHandler)
                assert after.text == "The blast will hit you too. Cast it anyway? (y/n)"


@pytest.mark.parametrize("no", [KeySym.N, KeySym.ESCAPE])
def test_no_goes_back_to_aiming_at_no_cost(no: KeySym) -> None:
    engine = arena()
    (orc,) = spawn_orcs(engine, (1, 0))
    screens, scroll = aim(engine, entity_factories.fireball_scroll)
    handler = screens.top
    screens.press(key(KeySym.RETURN))
    question = screens.top
    assert isinstance(question, input_handlers.ConfirmHandler)
    assert screens.stack[-2] is handler
    screens.press(key(KeySym.X))
    assert screens.top is question  # Means nothing.
    screens.press(motion(3, 3))
    assert screens.top is question
    screens.press(key(no))
    assert screens.top is handler
    assert engine.turns == 0
    assert engine.mouse_location == (orc.x, orc.y)
    assert scroll in engine.player.inventory.items
    assert engine.player.fighter.hp == engine.player.fighter.max_hp
    assert orc.fighter.hp == orc.fighter.max_hp


def test_yes_casts_it_on_the_player_too() -> None:
    engine = arena()
    (orc,) = spawn_orcs(engine, (1, 0))
    screens, scroll = aim(engine, entity_factories.fireball_scroll)
    screens.press(key(KeySym.RETURN))
    assert isinstance(screens.top, input_handlers.ConfirmHandler)
    screens.press(key(KeySym.Y))
    assert isinstance(screens.top, MainGameEventHandler)
    assert len(screens.stack) == 2
    assert scroll not in engine.player.inventory.items
    assert engine.player.fighter.hp < engine.player.fighter.max_hp
    assert not orc.is_alive


def test_the_question_sits_in_its_own_window() -> None:
    engine = arena()
    spawn_orcs(engine, (1, 0))
    screens, _ = aim(engine, entity_factories.fireball_scroll)
    screens.press(key(KeySym.RETURN))
    assert isinstance(screens.top, input_handlers.ConfirmHandler)
    console = tcod.console.Console(80, 50, order="F")
    screens.draw(console)
    rows = ["".join(map(chr, console.rgb["ch"][:, y])) for y in range(50)]
    (y,) = [y for y, row in enumerate(rows) if "Cast it anyway? (y/n)" in row]
    assert "│" in rows[y] and "┌" in rows[y - 1] and "└" in rows[y + 1]


def contrast(fg: np.ndarray, bg: np.ndarray) -> float:
    """The WCAG contrast ratio of two colours: 1 (none) to 21 (black on white)."""

    def luminance(rgb: np.ndarray) -> float:
        c = rgb.astype(float) / 255
        c = np.where(c <= 0.03928, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
        return float(c @ [0.2126, 0.7152, 0.0722])

    low, high = sorted((luminance(fg), luminance(bg)))
    return (high + 0.05) / (low + 0.05)


def test_every_glyph_under_the_tint_stays_as_readable() -> None:
    """Each monster and item drawn under the blast's tint stands out from its
    background nearly as much as on the plain floor."""
    engine = arena()
    templates = [
        value
        for value in vars(entity_factories).values()
        if isinstance(value, (Actor, Item)) and value.name != "Player"
    ]
    for i, template in enumerate(templates):
        template.spawn(engine.game_map, PLAYER[0] + 1 + i % 3, PLAYER[1] - 1 + i // 3)
    engine.update_fov()
    screens, _ = aim(engine, entity_factories.fireball_scroll)
    engine.mouse_location = (PLAYER[0] + 2, PLAYER[1])
    shown, plain, aimed = shown_area(screens, engine)
    glyphs = [(x, y) for x, y in shown if chr(plain.rgb["ch"][x, y]) != " " and (x, y) != engine.mouse_location]
    assert len(glyphs) >= min(len(templates), 8)
    for x, y in glyphs:
        before = contrast(plain.rgb["fg"][x, y], plain.rgb["bg"][x, y])
        after = contrast(aimed.rgb["fg"][x, y], aimed.rgb["bg"][x, y])
        assert after >= 0.9 * before, (chr(plain.rgb["ch"][x, y]), before, after)


def test_aiming_names_what_is_in_view_counted() -> None:
    """Two in view are said to be two (the prompt once said "one creature in view")."""
    engine = arena()
    spawn_orcs(engine, (3, 0), (0, 3))
    troll = entity_factories.troll.spawn(engine.game_map, PLAYER[0] + 2, PLAYER[1] + 2)
    engine.update_fov()
    assert engine.game_map.visible[troll.x, troll.y]
    screens, _ = aim(engine, entity_factories.confusion_scroll)
    said = prompt_of(screens)
    assert said == "Confusion Scroll, one creature (Enter casts, Esc cancels), at 2 Orcs and a Troll in view"
    for template in (entity_factories.confusion_scroll, entity_factories.fireball_scroll):
        alone = arena()
        screens, _ = aim(alone, template)
        assert "(Enter casts, Esc cancels), at nothing in view" in prompt_of(screens)


def prompt_of(screens: Screens) -> str:
    """The prompt a cursor's screen declares (which the reader says) and draws on its row."""
    content = screens.content()
    assert content is not None
    x, y = render_functions.PROMPT_AT
    shown = conftest.screen_rows(screens)[y][x:].rstrip()
    assert shown and content.keys.startswith(shown)  # Whole when it fits the row.
    assert shown == content.keys or len(content.keys) > render_functions.PROMPT_WIDTH
    return content.keys


def test_aiming_names_the_item_and_its_reach_and_esc_says_cancelled() -> None:
    engine = arena()
    spawn_orcs(engine, (3, 0))
    screens, scroll = aim(engine, entity_factories.fireball_scroll)
    consumable = scroll.consumable
    assert isinstance(consumable, FireballDamageConsumable)
    said = prompt_of(screens)
    assert said == f"{scroll.name}, radius {consumable.radius} (Enter casts, Esc cancels), at an Orc in view"
    screens.press(key(KeySym.ESCAPE))
    assert isinstance(screens.top, MainGameEventHandler)
    assert engine.message_log.messages[-1].plain_text == "Cancelled."
    assert scroll in engine.player.inventory.items


@pytest.mark.parametrize("player_y", [22, 26])
def test_the_question_about_a_blast_hides_none_of_it(player_y: int) -> None:
    """Cast on oneself, the question sits at the top or the bottom, away from
    every row the blast reaches."""
    engine = conftest.arena(80, 43, (40, player_y))
    orc = entity_factories.orc.spawn(engine.game_map, 41, player_y)
    engine.update_fov()
    screens, scroll = aim(engine, entity_factories.fireball_scroll)
    assert isinstance(scroll.consumable, FireballDamageConsumable)
    radius = scroll.consumable.radius
    screens.press(key(KeySym.RETURN))
    assert isinstance(screens.top, input_handlers.ConfirmHandler)
    asked = tcod.console.Console(80, 50, order="F")
    screens.draw(asked)
    ((left, top),) = zip(*(asked.rgb["ch"] == ord("┌")).nonzero(), strict=True)
    bottom = next(y for y in range(top, 50) if asked.rgb["ch"][left, y] == ord("└"))
    assert bottom < orc.y - radius or top > orc.y + radius, (top, bottom, orc.y)


# --- The line under the map: the cursor's goes with the cursor -----------------


def line_under_the_map(screens: Screens) -> str:
    """What the row under the map says, where the look line and the hover line show."""
    x, y = render_functions.NAMES_AT
    return conftest.screen_rows(screens)[y][x:].rstrip()


def looked_at_and_closed(engine: Engine, opening: str, monster: Actor) -> Screens:
    """The cursor opened by `opening` (`/` or `_`), moved onto `monster`, closed with Escape."""
    screens = press(engine, opening)
    for _ in range(monster.x - engine.player.x):
        screens.press(key(KeySym.L))
    assert monster.name in line_under_the_map(screens)
    screens.press(key(KeySym.ESCAPE))
    return screens


@pytest.mark.parametrize("opening", ["/", "_"])
def test_the_cursors_line_goes_when_the_cursor_closes(opening: str) -> None:
    engine = arena()
    orc = entity_factories.orc.spawn(engine.game_map, PLAYER[0] + 2, PLAYER[1])
    engine.update_fov()
    screens = looked_at_and_closed(engine, opening, orc)
    assert isinstance(screens.top, MainGameEventHandler)
    assert line_under_the_map(screens) == ""


def test_a_save_brings_no_line_back_and_the_mouse_names_what_it_points_at(tmp_path: Path) -> None:
    engine = arena()
    orc = entity_factories.orc.spawn(engine.game_map, PLAYER[0] + 2, PLAYER[1])
    engine.update_fov()
    looked_at_and_closed(engine, "/", orc)
    engine.save_as(tmp_path / "savegame.sav")
    loaded = save_data.load(tmp_path / "savegame.sav")
    screens = dungeon(loaded)
    assert line_under_the_map(screens) == ""
    screens.press(motion(orc.x, orc.y))
    assert line_under_the_map(screens).startswith(orc.name)


# --- Prompts: a cursor's own row, never the log -------------------------------


@pytest.mark.parametrize("opening", ["travel", "aim", "look"])
def test_a_cursors_prompt_is_its_own_row_said_aloud_and_no_message(opening: str) -> None:
    """The cyan prompts once went into the 5-line log and pushed real messages out."""
    engine = arena()
    spawn_orcs(engine, (3, 0))
    for number in range(5):
        engine.message_log.add_message(f"Real news {number}.")
    before = conftest.texts(engine)
    if opening == "aim":
        screens, _ = aim(engine, entity_factories.fireball_scroll)
    else:
        screens = press(engine, "_" if opening == "travel" else "/")
    assert conftest.texts(engine) == before
    prompt = prompt_of(screens)
    assert prompt and spoken(prompt) in Narrator().news(screens)  # Said in words for ears.
    screens.press(key(KeySym.ESCAPE))
    assert isinstance(screens.top, MainGameEventHandler)
    assert prompt not in "".join(conftest.screen_rows(screens))
