"""Small rules of the map, the world and the fighters that a save or a turn
relies on: where a map without stairs has none, what a save's world and
fighters may hold, and that a confused monster stumbles every way."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import arena

import entity_factories
import exceptions
from actions import TakeStairsAction
from components.ai import ConfusedEnemy
from engine import Engine
from game_map import MAP_WIDTH
from saving import save_data, savefile
from saving.save_fields import MAX_STAT
from saving.savefile import DamagedSaveError


def data_of(engine: Engine) -> dict[str, Any]:
    """The game as a save holds it, plain data to change."""
    data = savefile.loads(savefile.dumps(save_data.to_data(engine), save_data.FORMAT_VERSION), save_data.FORMAT_VERSION)
    assert isinstance(data, dict)
    return data


def refusal(data: dict[str, Any]) -> str:
    with pytest.raises(DamagedSaveError) as raised:
        save_data.from_data(data)
    return str(raised.value)


@pytest.mark.parametrize("at", [(0, 1), (1, 0), (1, 1)])
def test_a_map_given_no_stairs_has_none_where_the_player_can_stand(at: tuple[int, int]) -> None:
    """Stairs are where `procgen` digs them; a map made bare keeps its
    `downstairs_location` at the corner, off any open floor nearby."""
    engine = arena(at=at, walled=False)
    with pytest.raises(exceptions.Impossible, match="no stairs"):
        TakeStairsAction(engine.player).perform()


def test_a_save_with_the_stairs_off_the_map_is_refused() -> None:
    engine = arena()
    data = data_of(engine)
    data["game_map"]["downstairs_location"] = (engine.game_map.width, 0)
    assert "the downstairs_location of the game_map is off the map" in refusal(data)


@pytest.mark.parametrize("width", [0, MAP_WIDTH + 1])
def test_a_saved_world_wider_or_narrower_than_any_map_is_refused_by_its_field(width: int) -> None:
    data = data_of(arena())
    data["game_world"]["map_width"] = width
    assert f"the map_width of the game_world is not a whole number from 1 to {MAP_WIDTH}" in refusal(data)


@pytest.mark.parametrize("stat", ["max_hp", "base_defense", "base_power"])
@pytest.mark.parametrize("value", [0, 1, MAX_STAT])
def test_a_fighters_stats_come_back_from_a_save_as_they_were(stat: str, value: int) -> None:
    engine = arena()
    orc = entity_factories.orc.spawn(engine.game_map, 8, 8)
    if stat == "max_hp" and value == 0:
        return  # A fighter has at least one hit point at most.
    setattr(orc.fighter, stat, value)
    orc.fighter._hp = min(orc.fighter._hp, orc.fighter.max_hp)
    loaded = save_data.from_data(data_of(engine))
    again = next(actor for actor in loaded.game_map.actors if actor.name == "Orc")
    assert getattr(again.fighter, stat) == value


@pytest.mark.parametrize("stat", ["base_defense", "base_power"])
def test_a_negative_stat_in_a_save_is_refused(stat: str) -> None:
    engine = arena()
    entity_factories.orc.spawn(engine.game_map, 8, 8)
    data = data_of(engine)
    orc = next(entity for entity in data["game_map"]["entities"] if entity.get("name") == "Orc")
    orc["fighter"][stat] = -1
    assert f"the {stat} of the fighter of entry" in refusal(data)


def test_a_confused_monster_stumbles_every_way() -> None:
    engine = arena(width=30, height=30, at=(2, 2))
    orc = entity_factories.orc.spawn(engine.game_map, 15, 15)
    steps = set()
    for _ in range(200):
        orc.place(15, 15)
        orc.ai = ConfusedEnemy(orc, orc.ai, turns_remaining=1)
        orc.ai.perform()
        steps.add((orc.x - 15, orc.y - 15))
        orc.ai = orc.ai.previous_ai if isinstance(orc.ai, ConfusedEnemy) else orc.ai
    assert steps == {(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)}
