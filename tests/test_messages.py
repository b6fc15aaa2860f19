"""What the log tells, beyond the tutorial: repeats stack only when they are the
same event, fights out of the player's view are not told, and the history (`v`)
marks each floor and turn."""

from __future__ import annotations

from conftest import arena, press, screen_rows, texts
from tcod.event import KeySym

import entity_factories
from actions import MeleeAction
from engine import Engine
from entity import Actor
from message_log import MessageLog
from replays import replay_lines


def orcs(engine: Engine, *places: tuple[int, int]) -> list[Actor]:
    spawned = [entity_factories.orc.spawn(engine.game_map, x, y) for x, y in places]
    engine.update_fov()
    return spawned


def test_the_same_blow_on_the_same_orc_stacks() -> None:
    engine = arena(at=(5, 5))
    orc = orcs(engine, (6, 5))[0]
    orc.fighter.max_hp = orc.fighter.hp = 1000  # It lives through every blow.
    start = len(engine.message_log.messages)
    for _ in range(3):
        MeleeAction(engine.player, 1, 0).perform()
    assert len(texts(engine, start)) == 1 and texts(engine, start)[0].endswith("(x3)")


def test_the_same_words_about_two_orcs_are_two_lines() -> None:
    engine = arena(at=(5, 5))
    first, second = orcs(engine, (6, 5), (4, 5))
    start = len(engine.message_log.messages)
    for orc in (first, second):
        orc.fighter.hp = 1
        orc.fighter.die()
    assert texts(engine, start).count("Orc is dead!") == 2


def test_two_orcs_coming_into_view_are_two_lines() -> None:
    engine = arena(at=(2, 2), width=60, height=20)
    start = len(engine.message_log.messages)
    for place in ((25, 5), (50, 15)):
        orc = entity_factories.orc.spawn(engine.game_map, *place)
        screens = press(engine, KeySym.X)
        assert screens.walking
        replay_lines.finish_walk(screens)
        assert engine.game_map.visible[place]
        engine.game_map.entities.remove(orc)
    assert texts(engine, start).count("An Orc comes into view.") == 2


def test_a_fight_out_of_view_is_not_told_and_one_in_view_is() -> None:
    engine = arena(at=(2, 2), width=40)
    engine.game_map.tiles["transparent"][10, :] = False
    engine.update_fov()
    troll = entity_factories.troll.spawn(engine.game_map, 20, 5)
    orc = entity_factories.orc.spawn(engine.game_map, 21, 5)
    assert not engine.game_map.visible[20, 5]
    start = len(engine.message_log.messages)
    xp = engine.player.level.current_xp
    orc.fighter.hp = 1
    MeleeAction(troll, 1, 0).perform()
    assert not orc.is_alive
    assert not any("Troll" in text or "Orc" in text for text in texts(engine, start))
    assert engine.player.level.current_xp > xp  # The rules are the tutorial's: the XP comes.
    # In view, the same is told.
    near_troll = entity_factories.troll.spawn(engine.game_map, 4, 2)
    near_orc = entity_factories.orc.spawn(engine.game_map, 5, 2)
    engine.update_fov()
    near_orc.fighter.hp = 1
    MeleeAction(near_troll, 1, 0).perform()
    assert any(text.startswith("Troll attacks Orc") for text in texts(engine, start))
    assert "Orc is dead!" in texts(engine, start)


def test_the_history_marks_each_floor_and_turn() -> None:
    engine = arena(at=(5, 5))
    engine.message_log.add_message("Before any turn.")
    press(engine, ".", KeySym.KP_5, KeySym.KP_5)
    engine.message_log.add_message("Three turns on.")
    engine.game_world.current_floor = 2
    engine.message_log.add_message("Deeper.")
    engine.message_log.add_message("Deeper still.")
    shown = [message.full_text for message in MessageLog.marked(engine.message_log.messages)]
    assert shown[0] == "Dungeon level 1"
    assert shown[1:3] == ["     0 Hello and welcome, adventurer, to yet another dungeon!", "       Before any turn."]
    assert shown[-3:] == ["Dungeon level 2", "     3 Deeper.", "       Deeper still."]
    rows = screen_rows(press(engine, KeySym.V))
    assert any("Dungeon level 2" in row for row in rows)
    assert any("     3 Deeper." in row for row in rows)


def test_a_log_of_no_game_and_an_old_saves_messages_have_no_marks() -> None:
    log = MessageLog()
    log.add_message("Hello.")
    assert (log.messages[0].turn, log.messages[0].floor) == (0, 0)
    assert [message.full_text for message in MessageLog.marked(log.messages)] == ["     0 Hello."]


def test_a_turns_messages_share_its_number() -> None:
    engine = arena(at=(5, 5))
    orc = orcs(engine, (6, 5))[0]
    orc.fighter.max_hp = orc.fighter.hp = 1000
    press(engine, ".")  # Turn 0 passes.
    start = len(engine.message_log.messages)
    press(engine, KeySym.L)
    told = [message for message in engine.message_log.messages[start:] if "attacks" in message.plain_text]
    assert len(told) == 2
    assert {message.turn for message in told} == {1}


def test_two_orcs_striking_alike_in_a_turn_are_two_lines() -> None:
    engine = arena(at=(5, 5))
    orcs(engine, (6, 5), (4, 5))
    engine.player.fighter.max_hp = engine.player.fighter.hp = 1000
    start = len(engine.message_log.messages)
    press(engine, ".")
    blows = [text for text in texts(engine, start) if text.startswith("Orc attacks Player")]
    assert len(blows) == 2 and blows[0] == blows[1]
