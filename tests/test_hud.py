"""The HUD under the map and the character screen: what a DCSS player reads at a glance."""

from __future__ import annotations

from conftest import arena, press, screen_rows
from tcod.event import KeySym

from input_handlers import CharacterScreenEventHandler, MainGameEventHandler


def test_the_hud_shows_the_character_level_and_the_xp_the_next_needs() -> None:
    engine = arena()
    level = engine.player.level
    level.add_xp(100)
    rows = screen_rows(MainGameEventHandler(engine))[45:]
    to_go = level.experience_to_next_level - level.current_xp
    assert to_go > 0
    assert any(row.startswith(f"Character level: {level.current_level}") for row in rows)
    assert any(row.startswith(f"XP to next: {to_go} ") for row in rows)
    assert any(row.startswith("Dungeon level: 1") for row in rows)


def test_the_character_screen_shows_hp_depth_and_turns() -> None:
    engine = arena()
    press(engine, ".", ".")
    engine.player.fighter.hp = 17
    engine.game_world.current_floor = 3
    text = "\n".join(screen_rows(CharacterScreenEventHandler(engine)))
    assert f"HP: 17/{engine.player.fighter.max_hp}" in text
    assert "Dungeon level: 3" in text
    assert "Turns: 2" in text
    assert isinstance(press(engine, KeySym.C).top, CharacterScreenEventHandler)
