"""Part 11: experience from kills, levels, the level-up choices and the character screen."""

from __future__ import annotations

import datetime

import pytest
import tcod
from conftest import click, dungeon, key, press, screen_rows, screens_of, texts
from tcod.event import KeySym

import entity_factories
import input_handlers
import setup_game
from engine import Engine
from entity import Actor
from input_handlers import (
    CharacterScreenEventHandler,
    LevelUpEventHandler,
    MainGameEventHandler,
)
from screens.stack import Screens
from words import game_over, questions


def lone_monster(engine: Engine, template: Actor) -> Actor:
    """Leave the player alone on the floor with one fresh monster, just east."""
    player = engine.player
    for actor in list(engine.game_map.actors):
        if actor is not player:
            engine.game_map.entities.remove(actor)
    return template.spawn(engine.game_map, player.x + 1, player.y)


def attack_east(engine: Engine, times: int) -> Screens:
    """Press the right arrow `times` times in the main game; the screens after."""
    screens = dungeon(engine)
    for _ in range(times):
        assert isinstance(screens.top, MainGameEventHandler)
        screens.press(key(KeySym.RIGHT))
    return screens


def value_of(lines: list[str], label: str) -> str:
    """What the one line `label: value` of a window says."""
    (value,) = [line.removeprefix(f"{label}: ") for line in lines if line.startswith(f"{label}: ")]
    return value


def window_lines(shown: Screens | input_handlers.BaseEventHandler) -> list[str]:
    """Render the screens (or a screen); return the text inside its window, checking the frame is whole."""
    rows = screen_rows(shown)
    rows = rows[next(y for y, row in enumerate(rows) if "┌" in row) :]  # From the window's top edge.
    x = rows[0].index("┌")
    right = rows[0].index("┐", x)
    lines: list[str] = []
    for row in rows[1:]:
        if row[x] == "└":
            assert row[right] == "┘"
            return lines
        assert (row[x], row[right]) == ("│", "│"), f"text over the frame: {row!r}"
        lines.append(row[x + 1 : right].rstrip())
    raise AssertionError("the window has no bottom edge")


def test_killing_an_orc_gives_35_experience_points(engine: Engine) -> None:
    orc = lone_monster(engine, entity_factories.orc)

    attack_east(engine, 3)  # 10 HP, 4 per blow.

    assert not orc.is_alive
    assert engine.player.level.current_xp == 35
    assert texts(engine)[-2:] == ["Orc is dead!", "You gain 35 experience points."]


def test_killing_a_troll_gives_100_experience_points(engine: Engine) -> None:
    troll = lone_monster(engine, entity_factories.troll)

    attack_east(engine, 6)  # 16 HP, 4 - 1 defense = 3 per blow.

    assert not troll.is_alive
    assert engine.player.level.current_xp == 100
    assert texts(engine)[-2:] == ["Troll is dead!", "You gain 100 experience points."]


@pytest.mark.parametrize(("level", "needed"), [(1, 350), (2, 500), (3, 650)])
def test_experience_to_next_level_is_200_plus_150_per_level(engine: Engine, level: int, needed: int) -> None:
    engine.player.level.current_level = level
    assert engine.player.level.experience_to_next_level == needed


@pytest.mark.parametrize(("xp", "required"), [(349, False), (350, True), (351, True)])
def test_a_level_up_comes_with_the_experience_to_next_level(engine: Engine, xp: int, required: int) -> None:
    # The tutorial's `>` made it come one point later than the character screen said.
    engine.player.level.current_xp = xp
    assert engine.player.level.requires_level_up is required


def test_gaining_more_than_enough_experience_announces_the_next_level(engine: Engine) -> None:
    level = engine.player.level
    level.current_xp = 300
    start = len(engine.message_log.messages)

    level.add_xp(49)
    level.add_xp(1)  # 350: exactly enough.

    assert level.current_xp == 350
    assert texts(engine, start) == [
        "You gain 49 experience points.",
        "You gain 1 experience point.",
        "You advance to level 2!",
    ]


def test_monsters_collect_no_experience(engine: Engine) -> None:
    orc = lone_monster(engine, entity_factories.orc)
    orc.level.add_xp(100)
    assert orc.level.current_xp == 0


def test_the_killing_blow_that_earns_a_level_opens_the_level_up_screen(engine: Engine) -> None:
    orc = lone_monster(engine, entity_factories.orc)
    orc.fighter.hp = 4  # One blow.
    engine.player.level.current_xp = 316

    screens = attack_east(engine, 1)

    assert isinstance(screens.top, LevelUpEventHandler)
    assert engine.player.level.current_xp == 351
    assert texts(engine)[-1] == "You advance to level 2!"


def test_a_kill_reaching_exactly_the_threshold_levels_up(engine: Engine) -> None:
    orc = lone_monster(engine, entity_factories.orc)
    orc.fighter.hp = 4
    engine.player.level.current_xp = 315

    screens = attack_east(engine, 1)

    assert isinstance(screens.top, LevelUpEventHandler)
    assert engine.player.level.current_xp == 350
    assert texts(engine)[-1] == "You advance to level 2!"


def test_a_kill_one_short_of_the_threshold_does_not_level_up(engine: Engine) -> None:
    orc = lone_monster(engine, entity_factories.orc)
    orc.fighter.hp = 4
    engine.player.level.current_xp = 314

    screens = attack_east(engine, 1)

    assert isinstance(screens.top, MainGameEventHandler)
    assert engine.player.level.current_xp == 349
    assert texts(engine)[-1] == "You gain 35 experience points."


@pytest.mark.parametrize(
    ("sym", "message", "max_hp", "hp", "power", "defense"),
    [
        (KeySym.A, "Your health improves!", 50, 45, 4, 2),
        (KeySym.B, "You feel stronger!", 30, 25, 5, 2),
        (KeySym.C, "Your movements are getting swifter!", 30, 25, 4, 3),
    ],
    ids=["constitution", "strength", "agility"],
)
def test_each_level_up_choice_grows_one_stat_and_spends_the_experience(
    engine: Engine, sym: KeySym, message: str, max_hp: int, hp: int, power: int, defense: int
) -> None:
    player = engine.player
    player.fighter.hp = 25
    player.level.current_xp = 360

    screens = screens_of(LevelUpEventHandler(engine))
    screens.press(key(sym))

    assert isinstance(screens.top, MainGameEventHandler)
    assert len(screens.stack) == 2
    assert texts(engine)[-1] == message
    assert player.level.current_level == 2
    assert player.level.current_xp == 10
    assert (player.fighter.max_hp, player.fighter.hp) == (max_hp, hp)
    assert (player.fighter.power, player.fighter.defense) == (power, defense)
    # The bonuses of the dagger and leather armour stay on top of the base.
    assert (player.fighter.base_power, player.fighter.base_defense) == (power - 2, defense - 1)


@pytest.mark.parametrize(
    "event",
    [
        key(KeySym.D),
        key(KeySym.Z),
        key(KeySym.N1),
        key(KeySym.RETURN),
        key(KeySym.ESCAPE),
        key(KeySym.SPACE),
    ],
    ids=["d", "z", "1", "enter", "escape", "space"],
)
def test_any_other_key_is_an_invalid_entry_and_keeps_the_level_up_screen(engine: Engine, event: tcod.event.Event) -> None:
    level = engine.player.level
    level.current_xp = 360
    screens = screens_of(LevelUpEventHandler(engine))
    handler = screens.top

    screens.press(event)
    assert screens.top is handler

    assert texts(engine)[-1] == "Invalid entry."
    assert (level.current_level, level.current_xp) == (1, 360)
    assert (engine.player.fighter.max_hp, engine.player.fighter.power) == (30, 4)


@pytest.mark.parametrize("button", [tcod.event.MouseButton.LEFT, tcod.event.MouseButton.RIGHT])
def test_mouse_clicks_do_not_leave_the_level_up_screen(engine: Engine, button: tcod.event.MouseButton) -> None:
    engine.player.level.current_xp = 360
    screens = screens_of(LevelUpEventHandler(engine))
    handler = screens.top
    start = len(engine.message_log.messages)

    screens.press(click(10, 10, button))
    assert screens.top is handler

    assert engine.player.level.current_level == 1
    assert texts(engine, start) == []


def test_two_levels_earned_at_once_are_both_offered(engine: Engine) -> None:
    # The tutorial returned to the game after the first choice, and the
    # second level waited for the next kill.
    orc = lone_monster(engine, entity_factories.orc)
    orc.fighter.hp = 4
    level = engine.player.level
    level.current_xp = 880  # + 35 = 915 = 350 + 500 + 65

    screens = attack_east(engine, 1)
    assert isinstance(screens.top, LevelUpEventHandler)

    screens.press(key(KeySym.A))
    assert isinstance(screens.top, LevelUpEventHandler)
    assert (level.current_level, level.current_xp) == (2, 565)

    screens.press(key(KeySym.B))
    assert isinstance(screens.top, MainGameEventHandler)
    assert (level.current_level, level.current_xp) == (3, 65)
    assert (engine.player.fighter.max_hp, engine.player.fighter.power) == (50, 5)


def status_bar(screens: Screens) -> list[str]:
    """The character's level and the experience the next needs, as the bar under the map shows them."""
    rows = screen_rows(screens)[45:]
    return [row.split("  ")[0] for row in rows if row.startswith(("Character level:", "XP to next:"))]


def test_while_a_level_is_chosen_the_status_bar_names_that_level(engine: Engine) -> None:
    """The menu says "You level up!": the bar says so too, and does not change as the choice is made."""
    orc = lone_monster(engine, entity_factories.orc)
    orc.fighter.hp = 4
    engine.player.level.current_xp = 880  # + 35 = 915 = 350 + 500 + 65: levels 2 and 3 at once.

    screens = attack_east(engine, 1)
    assert isinstance(screens.top, LevelUpEventHandler)
    assert status_bar(screens) == ["Character level: 2", "XP to next: 0"]  # Level 3 waits too.
    screens.press(key(KeySym.A))
    assert isinstance(screens.top, LevelUpEventHandler)
    choosing = status_bar(screens)
    assert choosing == ["Character level: 3", "XP to next: 585"]
    assert "Level 3, 585 XP to the next." in questions.status(engine)  # As a screen reader hears it.
    screens.press(key(KeySym.B))
    assert isinstance(screens.top, MainGameEventHandler)
    assert status_bar(screens) == choosing


def test_the_level_up_screen_lists_the_three_choices(engine: Engine) -> None:
    assert window_lines(LevelUpEventHandler(engine)) == [
        "Congratulations! You level up!",
        "Select an attribute to increase.",
        "",
        "a) Constitution (+20 HP, from 30)",
        "b) Strength (+1 attack, from 4)",
        "c) Agility (+1 defense, from 2)",
    ]


def test_the_level_up_window_fits_three_digit_hit_points(engine: Engine) -> None:
    # The tutorial's window, 35 wide, let "from 110" run over its frame.
    engine.player.fighter.max_hp = 110
    assert window_lines(LevelUpEventHandler(engine))[3] == "a) Constitution (+20 HP, from 110)"


def test_c_opens_the_character_screen_with_level_experience_and_stats(engine: Engine) -> None:
    player = engine.player
    player.level.current_level = 2
    player.level.current_xp = 40
    player.fighter.base_power = 3

    screens = press(engine, KeySym.C)

    assert isinstance(screens.top, CharacterScreenEventHandler)
    lines = window_lines(screens)
    # Found by their words, wherever a new line puts them.
    assert value_of(lines, "Level") == "2"
    assert value_of(lines, "XP") == "390"  # 350 for level 2, then 40: as the game-over window counts.
    assert value_of(lines, "XP for next Level") == "850"
    assert value_of(lines, "Attack") == "5"
    assert value_of(lines, "Defense") == "2"
    assert value_of(lines, "Seed") == "1234"
    screens.press(key(KeySym.ESCAPE))
    assert isinstance(screens.top, MainGameEventHandler)
    assert len(screens.stack) == 2


def test_the_character_screen_fits_a_long_seed() -> None:
    engine = setup_game.new_game(seed=12345678901234567890)
    lines = window_lines(CharacterScreenEventHandler(engine))
    assert value_of(lines, "Seed") == "12345678901234567890"


def test_the_character_screen_counts_experience_as_the_game_over_window_does(engine: Engine) -> None:
    level = engine.player.level
    level.add_xp(level.experience_to_next_level + 35)
    screens_of(LevelUpEventHandler(engine)).press(key(KeySym.A))
    assert (level.current_level, level.current_xp) == (2, 35)
    ending = game_over.ending_of(engine, datetime.datetime(2026, 1, 1))
    lines = window_lines(CharacterScreenEventHandler(engine))
    assert value_of(lines, "XP") == str(ending.xp)
    # And the next level comes when that count reaches the figure below.
    wanted = int(value_of(lines, "XP for next Level"))
    level.add_xp(wanted - ending.xp - 1)
    assert not level.requires_level_up
    level.add_xp(1)
    assert level.requires_level_up
