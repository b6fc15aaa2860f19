"""Autofight (Tab, DCSS's key): the nearest monster in view attacked if next to
the player, else one step toward it; nothing at no cost with none in view or
below the HP share of the option `autofight_stop`; recorded as what it did."""

from __future__ import annotations

import pytest
from conftest import arena, key, play_events, press, replay_text, screens_of, texts
from tcod.event import KeySym
from test_travel import played, state

import entity_factories
from controls import autofight, key_file, keys, travel
from controls.keys import Command
from engine import Engine
from entity import Actor
from input_handlers import LevelUpEventHandler
from replays import record_format, record_reader, replay
from window.options import AUTOFIGHT_STOPS, Options, Settings


def with_orc(engine: Engine, x: int, y: int) -> Actor:
    """An orc at (x, y), in view."""
    orc = entity_factories.orc.spawn(engine.game_map, x, y)
    engine.update_fov()
    return orc


def test_tab_is_autofight_in_the_dungeon_and_nothing_else_there() -> None:
    assert keys.MAIN_KEYS[KeySym.TAB] is Command.AUTOFIGHT
    assert KeySym.TAB not in keys.MOVE_KEYS and KeySym.TAB not in keys.WAIT_KEYS
    assert keys.COMMAND_HELP[Command.AUTOFIGHT]
    assert key_file.COMMAND_NAMES["autofight"] is Command.AUTOFIGHT


def test_with_no_monster_in_view_it_says_so_at_no_cost() -> None:
    engine = arena()
    before = engine.turns, (engine.player.x, engine.player.y)
    press(engine, KeySym.TAB)
    assert (engine.turns, (engine.player.x, engine.player.y)) == before
    assert texts(engine)[-1] == autofight.NO_TARGET


def test_it_attacks_the_adjacent_monster() -> None:
    engine = arena(at=(5, 5))
    orc = with_orc(engine, 6, 6)
    press(engine, KeySym.TAB)
    assert engine.turns == 1
    assert orc.fighter.hp < orc.fighter.max_hp or "but does no damage" in " ".join(texts(engine))
    assert any(text.startswith("Player attacks Orc") for text in texts(engine))


def test_a_monster_next_to_the_player_is_bumped_whatever_the_walks_know() -> None:
    """Next to the player, the bump goes straight at it: not by the walks' path,
    which knows only explored floor (here the orc's tile is not such)."""
    engine = arena(at=(5, 5))
    orc = with_orc(engine, 6, 5)
    engine.game_map.tiles["walkable"][6, 5] = False
    assert autofight.direction_to(engine, orc) == (1, 0)


def test_it_attacks_the_nearest_of_several() -> None:
    engine = arena(at=(5, 5))
    far = with_orc(engine, 9, 5)
    near = with_orc(engine, 5, 6)
    press(engine, KeySym.TAB)
    assert near.fighter.hp < near.fighter.max_hp
    assert far.fighter.hp == far.fighter.max_hp


def test_it_steps_once_toward_a_distant_monster_by_the_walks_path() -> None:
    engine = arena(at=(3, 3))
    with_orc(engine, 10, 7)
    game_map = engine.game_map
    expected = travel.step_toward(game_map, travel.only(game_map, 10, 7), 3, 3)
    assert expected is not None
    press(engine, KeySym.TAB)
    assert engine.turns == 1
    assert (engine.player.x, engine.player.y) == (3 + expected[0], 3 + expected[1])


@pytest.mark.parametrize(("stop", "refused"), [(50, True), (25, False), (0, False)])
def test_it_refuses_below_the_options_hp_share(stop: int, refused: bool) -> None:
    engine = arena(at=(5, 5))
    engine.settings = Settings(options=Options(autofight_stop=stop))
    orc = with_orc(engine, 6, 5)
    fighter = engine.player.fighter
    fighter.hp = fighter.max_hp * 40 // 100  # Below half, above a quarter.
    press(engine, KeySym.TAB)
    assert (engine.turns == 0) is refused
    assert texts(engine)[-1].startswith(autofight.TOO_HURT) is refused
    assert (orc.fighter.hp == orc.fighter.max_hp) is refused


def test_at_exactly_the_share_it_still_fights() -> None:
    engine = arena(at=(5, 5))
    with_orc(engine, 6, 5)
    engine.player.fighter.hp = engine.player.fighter.max_hp // 2
    assert engine.player.fighter.max_hp % 2 == 0
    press(engine, KeySym.TAB)
    assert engine.turns == 1


def test_the_option_defaults_to_a_quarter_and_is_on_the_options_screen() -> None:
    """DCSS's half would refuse from floor 1 on: here HP come back only by a potion."""
    assert Options().autofight_stop == 25
    assert set(AUTOFIGHT_STOPS) >= {0, 25, 50}


def test_by_default_it_fights_on_below_half_and_stops_below_a_quarter() -> None:
    engine = arena(at=(5, 5))
    with_orc(engine, 6, 5)
    fighter = engine.player.fighter
    fighter.hp = fighter.max_hp * 40 // 100
    press(engine, KeySym.TAB)
    assert engine.turns == 1
    fighter.hp = fighter.max_hp * 20 // 100
    press(engine, KeySym.TAB)
    assert engine.turns == 1


def test_the_refusal_names_the_option_its_value_and_the_key_to_the_options() -> None:
    engine = arena(at=(5, 5))
    engine.settings = Settings(options=Options(autofight_stop=50))
    with_orc(engine, 6, 5)
    engine.player.fighter.hp = 1
    press(engine, KeySym.TAB)
    assert texts(engine)[-1] == (
        f"{autofight.TOO_HURT} (Autofight stops below 50% HP: = opens the options.)"
    )


def key_tables(text: str) -> keys.KeyTables:
    """The dungeon's keys that a key file of `text` makes."""
    bindings = key_file.Bindings.defaults()
    key_file.apply_text(bindings, text, "keys.txt")
    assert not bindings.refused
    return key_file.tables(bindings)


def test_the_refusal_names_the_players_own_key_to_the_options_or_none() -> None:
    engine = arena(at=(5, 5))
    with_orc(engine, 6, 5)
    engine.player.fighter.hp = 1
    engine.settings = Settings(keys=key_tables("clear options\noptions f2\n"))
    press(engine, KeySym.TAB)
    assert texts(engine)[-1].endswith("(Autofight stops below 25% HP: F2 opens the options.)")
    engine.settings = Settings(keys=key_tables("clear options\n"))
    press(engine, KeySym.TAB)
    assert texts(engine)[-1].endswith("(Autofight stops below 25% HP: see the options.)")


def test_a_monster_with_no_known_way_to_it_is_said_at_no_cost() -> None:
    engine = arena(at=(3, 3))
    engine.game_map.tiles["walkable"][6, :] = False  # A glass wall: seen through, not walked.
    engine.update_fov()
    with_orc(engine, 9, 3)
    press(engine, KeySym.TAB)
    assert engine.turns == 0
    assert texts(engine)[-1] == "There is no way to an Orc."


def autofought_game(stop: int) -> tuple[object, list[str]]:
    """Seed 13 played with `x` until a monster is in view, then Tab until none is, twice over."""
    settings = Settings(options=Options(autofight_stop=stop))
    screens = screens_of(replay.start(record_reader.Script(13, []), settings))
    engine = screens.engine
    assert engine is not None
    for _ in range(300):
        if not engine.player.is_alive or engine.game_world.current_floor > 1:
            break
        pressed = KeySym.TAB if engine.game_map.monsters_in_view else KeySym.X
        played(screens, key(pressed))
        if isinstance(screens.top, LevelUpEventHandler):
            played(screens, key(KeySym.A))
    return state(screens), list(engine.recording)


def test_a_press_is_recorded_as_what_it_did_and_replays_so_whatever_the_option() -> None:
    live, lines = autofought_game(stop=0)  # Fights on whatever the HP.
    fights = [line for line in lines if line.startswith("autofight")]
    assert fights and all(line.split()[0] == "autofight" for line in fights)
    assert "key tab" not in lines
    # Replayed where the option would have refused some presses: the same game.
    script = record_reader.parse("\n".join(lines), "<test>")
    replayed = replay.start(script, Settings(options=Options(autofight_stop=75)))

    assert state(play_events(replayed, script.events)) == live
    assert state(replay_text("\n".join(lines))) == live


def test_a_refused_press_is_recorded_and_replays_its_message() -> None:
    screens = played(screens_of(replay.start(record_reader.Script(13, []))), key(KeySym.TAB))
    engine = screens.engine
    assert engine is not None and engine.recording[-1] == "autofight"
    replayed = replay_text("\n".join(engine.recording)).engine
    assert replayed is not None and texts(replayed)[-1] == autofight.NO_TARGET
    assert replayed.turns == 0


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("autofight 1", "'autofight' takes DX DY"),
        ("autofight 2 0", "'2' is not a whole number from -1 to 1"),
        ("autofight 0 0", ".autofight 0 0. bumps no neighbour"),
        ("autofight a b", "'a' is not a whole number"),
    ],
)
def test_a_bad_autofight_line_is_named(line: str, error: str) -> None:
    with pytest.raises(record_reader.RecordingError, match=f"line 3: {error}"):
        record_reader.parse(f"recording 3\nseed 1\n{line}\n", "bad.rec")
    assert record_reader.parse("recording 3\nseed 1\nautofight -1 1\nautofight\n", "ok.rec").events == [
        record_format.Autofight((-1, 1)),
        record_format.Autofight(),
    ]
