"""The end of a game: the game-over window, morgue files, the hall of fame, and
the way back to the menu; through the real handlers and the real main loop."""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
import tcod
from conftest import (
    after_frame,
    arena,
    dungeon,
    give,
    key,
    play_events,
    pressing,
    replay_text,
    screens_of,
    typed,
)
from tcod.event import KeySym
from test_e2e import Menu, Player, Script, play

import entity_factories
import input_handlers
import setup_game
from engine import Engine
from replays import record_reader, replay
from saving import hall_of_fame, morgue, paths, save_data, savefile
from screens.base import Quit
from screens.hall_of_fame_screen import HallOfFameScreen
from screens.stack import Screens, next_screen
from window import loop
from words.game_over import Ending, ending_of

SEED = 4242
WHEN = datetime.datetime(2026, 11, 21, 23, 5, 9)


def descend_to(engine: Engine, depth: int) -> list[tcod.event.TextInput]:
    """Stand the player on the stairs; the key that takes them (`>`)."""
    assert engine.game_world.current_floor < depth
    engine.player.place(*engine.game_map.downstairs_location)
    return [typed(">")]


def beside(engine: Engine) -> tuple[int, int]:
    """A free floor tile next to the player."""
    player = engine.player
    game_map = engine.game_map
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)):
        x, y = player.x + dx, player.y + dy
        if game_map.tiles["walkable"][x, y] and not game_map.get_blocking_entity_at_location(x, y):
            return x, y
    raise AssertionError("the player is walled in")


def key_towards(engine: Engine, x: int, y: int) -> tcod.event.KeyDown:
    from controls.keys import MOVE_KEYS

    step = (x - engine.player.x, y - engine.player.y)
    return key(next(sym for sym, d in MOVE_KEYS.items() if d == step and len(sym.name) == 1))


def alone(engine: Engine) -> None:
    """Take every monster off the floor, so that only those a test sets out fight."""
    for actor in list(engine.game_map.actors):
        if actor is not engine.player:
            engine.game_map.entities.remove(actor)


def morgue_files() -> list[Path]:
    return sorted(paths.morgue_dir().glob("morgue-*.txt"))


def test_a_death_tells_its_story_keeps_its_record_and_leads_to_a_new_game(
    in_tmp: Path, context: tcod.context.Context
) -> None:
    """Played through the real loop: kill an orc, go down to level 4, fall to a
    troll; the window tells it, the morgue file and hall of fame keep it, and
    Enter leads to the menu, where N starts the next game."""

    def script(me: Player) -> Script:
        yield [key(KeySym.N)]
        engine = me.engine
        save_data.save(engine, paths.SAVE_NAME)  # A save from earlier in this game.
        alone(engine)
        x, y = beside(engine)
        orc = entity_factories.orc.spawn(engine.game_map, x, y)
        orc.fighter.hp = 1
        yield [key_towards(engine, x, y)]
        assert not orc.is_alive
        for depth in (2, 3, 4):
            yield descend_to(engine, depth)
        assert engine.game_world.current_floor == 4
        alone(engine)
        x, y = beside(engine)
        entity_factories.troll.spawn(engine.game_map, x, y)
        engine.player.fighter.hp = 1
        yield [typed(".")]  # Wait; the troll strikes.
        me.notes["died"] = me.screen()
        me.notes["save gone"] = not paths.save_path().exists()
        me.notes["xp"] = engine.player.level.total_xp
        yield [key(KeySym.H)]
        me.notes["hall"] = me.screen()
        yield [key(KeySym.A)]  # Any key closes it.
        yield [key(KeySym.V)]
        assert "Message history" in me.screen()
        yield [key(KeySym.ESCAPE)]  # Leaves the history for the game-over window ...
        assert "Killed by a Troll" in me.screen()
        yield [key(KeySym.RETURN)]  # ... and that for the menu.
        me.notes["menu"] = me.screen()
        me.menu.engine = None
        yield [key(KeySym.N)]
        me.notes["new game"] = me.screen()
        me.notes["new engine"] = me.engine
        yield [tcod.event.Quit()]

    me, _ = play(context, Menu(seed=SEED), script)

    died = me.notes["died"]
    assert isinstance(died, str)
    assert "Killed by a Troll on dungeon level 4." in died
    assert f"{me.notes['xp']} XP, 5 turns played." in died
    assert "Monsters killed: 1 Orc." in died
    assert f"Seed: {SEED}" in died
    [morgue_file] = morgue_files()
    window = "".join(line.strip(" │") for line in died.splitlines())  # Unwrapped.
    assert f"Morgue file: {morgue_file}" in window
    assert "Hall of fame: number 1 of 1." in died
    assert "Killed by a Troll" in str(me.notes["hall"])
    assert "Play a new game" in str(me.notes["menu"])
    assert "Dungeon level: 1" in str(me.notes["new game"])
    new_engine = me.notes["new engine"]
    assert isinstance(new_engine, Engine) and new_engine.player.is_alive
    assert me.notes["save gone"]

    text = morgue_file.read_text("utf-8")
    assert text.splitlines()[2] == "Killed by a Troll on dungeon level 4."
    for heading in ("Final stats", "Equipment", "Inventory", "Last 20 messages"):
        assert f"\n{heading}\n" in text
    assert "\nDungeon level 4, as you knew it\n" in text
    assert "Weapon: Dagger" in text and "a) Dagger (E)" in text
    assert "Troll attacks Player" in text and "You died!" in text
    assert "@" in text.split("as you knew it")[1]
    [entry] = hall_of_fame.load(paths.scores_path())
    assert (entry.cause, entry.depth, entry.xp) == ("Killed by a Troll", 4, me.notes["xp"])


def test_escape_on_the_game_over_window_goes_to_the_menu_and_closing_quits(
    in_tmp: Path,
) -> None:
    engine = arena()
    save_data.save(engine, paths.SAVE_NAME)
    engine.player.fighter.hp = 1
    entity_factories.orc.spawn(engine.game_map, 6, 5)
    screens = pressing(dungeon(engine), typed("."))
    screen = screens.top
    assert isinstance(screen, input_handlers.GameOverEventHandler)
    assert paths.save_path().exists()  # Until the main loop has shown the death:
    after_frame(screens)
    assert screens.stack[1:] == [screen]  # No popup: all was kept,
    assert not paths.save_path().exists()  # and the save is gone.

    screens.press(key(KeySym.ESCAPE))
    assert screens.in_menu and screens.quitting is None
    again = screens_of(screen)
    menu = again.menu
    loop.handle_event(None, again, key(KeySym.RETURN))
    assert again.stack == [menu] and again.quitting is None
    closing = screens_of(screen)
    closing.press(key(KeySym.X))  # A key that means nothing.
    assert closing.stack[1:] == [screen] and closing.quitting is None
    closing.press(tcod.event.Quit())
    assert closing.quitting == Quit(save=False)
    after_frame(closing)
    assert len(morgue_files()) == 1  # Written once, however the window is used.


def test_their_own_fireball(in_tmp: Path) -> None:
    engine = arena()
    give(engine, entity_factories.fireball_scroll)
    entity_factories.orc.spawn(engine.game_map, 6, 5)
    engine.player.fighter.hp = 3
    # Aimed at the orc beside them; asked whether to hit themselves too: yes.
    screens = pressing(dungeon(engine), key(KeySym.I), key(KeySym.C), key(KeySym.RETURN), key(KeySym.Y))
    handler = screens.top

    assert isinstance(handler, input_handlers.GameOverEventHandler) and len(screens.stack) == 2
    assert handler.engine.ending is not None
    assert handler.engine.ending.story == "Killed by their own fireball on dungeon level 1"
    assert "Orc" in handler.engine.ending.kills


def test_the_morgue_file_holds_each_section(in_tmp: Path) -> None:
    engine = arena()
    give(engine, entity_factories.health_potion)
    for i in range(30):
        engine.message_log.add_message(f"message {i}")
    engine.player.fighter.die()
    path, _ = morgue.write(engine, ending_of(engine, WHEN))

    assert path == paths.morgue_dir() / "morgue-20261121-230509.txt"
    lines = path.read_text("utf-8").splitlines()
    assert lines[0] == "Morgue file, 2026-11-21 23:05:09"
    assert lines[2] == "Died on dungeon level 1."
    assert "Armor: Leather Armor" in lines and "c) Health Potion" in lines
    messages = lines[lines.index("Last 20 messages") + 2 :]
    assert messages[:20] == [f"message {i}" for i in range(11, 30)] + ["You died!"]
    floor = lines[lines.index("Dungeon level 1, as you knew it") + 2 :]
    # The arena's walls ring open floor; the player stood at (5, 5).
    assert set(floor[0]) == {"#"}
    assert floor[5].startswith("#....@....")
    assert len(floor[5]) == 14  # Seen up to x = 13, the edge of the view.
    recorded = lines[lines.index("Recording") + 2 :]
    kept = path.with_suffix(".rec")
    assert recorded[0] == f"Recording: {kept.name} (beside this file)"
    assert recorded[1] == f"SHA-256: {hashlib.sha256(kept.read_bytes()).hexdigest()}"


def test_a_recording_that_could_not_be_kept_is_said_in_the_morgue(in_tmp: Path) -> None:
    """A folder where the recording would go: the morgue is written all the same, saying why."""
    engine = arena()
    engine.player.fighter.die()
    paths.morgue_dir().mkdir(parents=True)
    (paths.morgue_dir() / "morgue-20261121-230509.rec").mkdir()
    path, kept = morgue.write(engine, ending_of(engine, WHEN))
    assert kept is not None and kept.name == ""
    lines = path.read_text("utf-8").splitlines()
    recorded = lines[lines.index("Recording") + 2 :]
    assert recorded == [kept.note] and kept.note.startswith("The recording could not be kept here:")


def test_the_morgue_names_the_level_the_character_was_working_toward() -> None:
    engine = arena()
    assert morgue.stats_lines(engine)[-1] == "Level: 1 (0 of 350 XP toward level 2)"
    engine.player.level.increase_level()
    assert morgue.stats_lines(engine)[-1].endswith("XP toward level 3)")


def test_the_morgue_floor_begins_at_the_first_row_explored() -> None:
    """Unexplored rows above and below are cut: seen from (5, 20), rows 12 to 28."""
    engine = arena(20, 30, at=(5, 20))
    floor = morgue.floor_lines(engine)
    assert len(floor) == 17
    assert floor[0] == "#............." and floor[8].startswith("#....@")


def test_kills_are_listed_most_first_then_by_name() -> None:
    kills = {"Troll": 1, "Orc": 1, "Rat": 3, "Bat": 1}
    assert dataclasses.replace(ending(0, 1), kills=kills).kills_text() == "3 Rats, 1 Bat, 1 Orc, 1 Troll"


def test_two_deaths_in_the_same_second_keep_both_files(in_tmp: Path) -> None:
    first, second = arena(seed=1), arena(seed=2)
    for engine in (first, second):
        engine.player.fighter.die()
    one, _ = morgue.write(first, ending_of(first, WHEN))
    before = one.read_text("utf-8")
    two, _ = morgue.write(second, ending_of(second, WHEN))

    assert one != two
    assert two.name == "morgue-20261121-230509-2.txt"
    assert one.read_text("utf-8") == before
    assert "Seed: 2" in two.read_text("utf-8")


def test_an_unwritable_morgue_folder_gets_a_popup_and_play_goes_on(in_tmp: Path) -> None:
    paths.morgue_dir().write_text("a file where the folder should be")
    engine = arena()
    engine.player.fighter.die()

    screens = after_frame(screens_of(next_screen(engine)))
    popup = screens.top

    assert isinstance(popup, input_handlers.PopupMessage)
    assert popup.text.startswith("Could not write the morgue file:")
    screens.press(key(KeySym.SPACE))
    screen = screens.top
    assert isinstance(screen, input_handlers.GameOverEventHandler) and len(screens.stack) == 2
    console = tcod.console.Console(80, 50, order="F")
    screens.draw(console)
    assert "No morgue file could be written." in screen_text(console)
    assert len(hall_of_fame.load(paths.scores_path())) == 1  # The score is kept.


def screen_text(console: tcod.console.Console) -> str:
    return "\n".join("".join(chr(c) for c in console.rgb["ch"][:, y]) for y in range(console.height))


def ending(xp: int, depth: int, cause: str = "Killed by an Orc") -> Ending:
    return Ending(cause, depth, 1, xp, 10, {}, 1, WHEN)


def test_the_hall_of_fame_keeps_the_ten_best_by_xp_then_depth(in_tmp: Path) -> None:
    ranks = [hall_of_fame.enter(ending(xp, 1)).rank for xp in range(100, 1100, 100)]
    assert ranks == [0] * 10  # Each better than the last.

    assert hall_of_fame.enter(ending(50, 9)).rank is None  # Below all ten.
    deeper = hall_of_fame.enter(ending(500, 3))
    assert deeper.rank == 5  # Above the 500 XP game of depth 1.
    level = hall_of_fame.enter(ending(500, 3, "Killed by a Troll"))
    assert level.rank == 6  # Tied: the earlier game stays ahead.

    table = hall_of_fame.load(paths.scores_path())
    assert [(e.xp, e.depth) for e in table] == [
        (1000, 1), (900, 1), (800, 1), (700, 1), (600, 1), (500, 3), (500, 3), (500, 1),
        (400, 1), (300, 1),
    ]  # fmt: skip
    assert not [p for p in in_tmp.iterdir() if p.name.endswith(".tmp")]


def game_with(**fields: str) -> bytes:
    """A scores file of one game, its fields as JSON text, `fields` instead of the usual."""
    game = {"date": '"2026-11-21 23:05"', "character_level": "1", "depth": "1", "xp": "1",
            "cause": '"Died"', "seed": "1", "turns": "1"} | fields
    inner = ", ".join(f'"{name}": {value}' for name, value in game.items())
    return f'{{"version": 2, "games": [{{{inner}}}]}}'.encode()


def test_scores_at_the_edges_are_taken() -> None:
    """One under each refusal: the longest text, the largest number, zero."""
    text = game_with(cause=f'"{"x" * hall_of_fame.MAX_TEXT}"', seed=str(hall_of_fame.MAX_NUMBER), turns="0")
    (entry,) = hall_of_fame.parse(text.decode())
    assert len(entry.cause) == hall_of_fame.MAX_TEXT and entry.seed == hall_of_fame.MAX_NUMBER


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"\xff\xfe not text",
        b"{not json",
        b"[]",
        b'{"version": 99, "games": []}',
        b'{"version": 2, "games": [{"date": 1}]}',
        b'{"version": 2, "games": [{"date": "d", "character_level": true, "depth": 1, '
        b'"xp": 1, "cause": "c", "seed": 1, "turns": 1}]}',
        b"[" * 50_000,
        b" " * (hall_of_fame.MAX_BYTES + 1),
        # Text drawing can't encode (a lone surrogate), or can't show (a control
        # character), or longer than any game's; a number no game writes.
        game_with(cause='"\\ud800"'),
        game_with(cause='"Killed\\u0007"'),
        game_with(cause=f'"{"x" * (hall_of_fame.MAX_TEXT + 1)}"'),
        game_with(seed=str(hall_of_fame.MAX_NUMBER + 1)),
        game_with(turns="-1"),
    ],
)
def test_a_damaged_scores_file_is_kept_aside_and_a_new_one_begun(
    in_tmp: Path, content: bytes
) -> None:
    scores = paths.scores_path()
    scores.write_bytes(content)
    engine = arena()
    engine.player.fighter.die()

    screens = after_frame(screens_of(next_screen(engine)))
    popup = screens.top

    assert isinstance(popup, input_handlers.PopupMessage)
    assert popup.text == "scores.json was damaged: kept as scores.json.bad, a new hall of fame begun."
    assert Path(f"{scores}.bad").read_bytes() == content
    assert len(hall_of_fame.load(scores)) == 1
    assert len(morgue_files()) == 1  # Never a lost morgue.
    screens.press(key(KeySym.SPACE))
    screen = screens.top
    assert isinstance(screen, input_handlers.GameOverEventHandler) and len(screens.stack) == 2
    assert screen.engine.death_record is not None
    assert screen.engine.death_record.entered.rank == 0


@pytest.mark.parametrize("make", [Path.mkdir, lambda path: os.mkfifo(path)], ids=["folder", "fifo"])
def test_a_scores_path_that_is_no_file_is_kept_aside_without_a_hang(
    in_tmp: Path, make: Callable[[Path], None]
) -> None:
    """A FIFO would block a plain open() for ever: the table is read as the save is."""
    make(paths.scores_path())
    engine = arena()
    engine.player.fighter.die()

    popup = after_frame(screens_of(next_screen(engine))).top

    assert isinstance(popup, input_handlers.PopupMessage)
    assert popup.text == "scores.json was damaged: kept as scores.json.bad, a new hall of fame begun."
    assert len(hall_of_fame.load(paths.scores_path())) == 1
    assert len(morgue_files()) == 1
    menu = Screens(setup_game.MainMenu())
    menu.press(key(KeySym.H))
    assert isinstance(menu.top, HallOfFameScreen) and len(menu.stack) == 2


def test_a_scores_file_that_cannot_be_read_is_left_alone(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths.scores_path().write_text("{}")

    def refuse(path: object) -> bytes:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(savefile, "read_file", refuse)
    engine = arena()
    engine.player.fighter.die()

    popup = after_frame(screens_of(next_screen(engine))).top

    assert isinstance(popup, input_handlers.PopupMessage)
    assert popup.text.startswith("Could not read the hall of fame: Permission denied")
    assert paths.scores_path().read_text() == "{}"
    assert len(morgue_files()) == 1
    menu = setup_game.MainMenu()
    screens = Screens(menu)
    screens.press(key(KeySym.H))
    shown = screens.top
    assert isinstance(shown, input_handlers.PopupMessage) and len(screens.stack) == 2
    screens.press(key(KeySym.SPACE))
    assert screens.stack == [menu]


def test_a_failed_write_keeps_the_old_table(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hall_of_fame.enter(ending(100, 1))
    before = paths.scores_path().read_bytes()

    def no_space(*args: object) -> None:
        raise OSError(28, "No space left on device")

    # The table's file is synced after the frame: a full disk shows as the write fails.
    monkeypatch.setattr(os, "replace", no_space)
    entered = hall_of_fame.enter(ending(200, 1))

    assert entered.rank is None
    assert entered.notice == "Could not save the hall of fame: No space left on device"
    assert paths.scores_path().read_bytes() == before
    assert [p.name for p in in_tmp.iterdir()] == ["scores.json"]


def test_the_menu_shows_the_hall_of_fame(in_tmp: Path) -> None:
    for xp, cause in ((300, "Killed by a Troll"), (100, "Killed by an Orc")):
        hall_of_fame.enter(ending(xp, 2, cause))
    menu = setup_game.MainMenu()
    console = tcod.console.Console(80, 50, order="F")
    menu.on_render(console)
    assert "[H] Hall of fame" in screen_text(console)

    screens = Screens(menu)
    screens.press(key(KeySym.H))
    shown = screens.top
    assert isinstance(shown, HallOfFameScreen) and screens.stack == [menu, shown]
    screens.draw(console)
    rows = [line for line in screen_text(console).splitlines() if "Killed by" in line]
    assert "1. 2026-11-21 23:05" in rows[0] and "300  Killed by a Troll" in rows[0]
    assert "2. 2026-11-21 23:05" in rows[1] and "100  Killed by an Orc" in rows[1]
    screens.press(key(KeySym.Q))
    assert screens.stack == [menu] and screens.quitting is None

    json.loads(paths.scores_path().read_text("utf-8"))  # Plain JSON a person can read.


def test_the_new_game_is_highlighted_after_a_death(in_tmp: Path) -> None:
    hall_of_fame.enter(ending(10_000, 9))
    engine = arena()
    engine.player.fighter.die()
    screens = after_frame(screens_of(next_screen(engine)))
    screen = screens.top
    assert isinstance(screen, input_handlers.GameOverEventHandler)
    screens.press(key(KeySym.H))
    shown = screens.top
    assert isinstance(shown, HallOfFameScreen) and screens.stack[-2] is screen
    console = tcod.console.Console(80, 50, order="F")
    screens.draw(console)
    lines = screen_text(console).splitlines()
    y = next(i for i, line in enumerate(lines) if " 2. 2026-" in line)
    x = lines[y].index(" 2. 2026-") + 1
    assert tuple(console.rgb["bg"][x, y]) != tuple(console.rgb["bg"][x, y - 1])  # Highlighted.


def test_total_xp_counts_the_levels_gained(in_tmp: Path) -> None:
    engine = arena()
    level = engine.player.level
    level.add_xp(level.experience_to_next_level + 10)
    before = level.total_xp
    level.increase_power()
    assert level.current_xp == 10
    assert level.total_xp == before


def seed_that_dies_waiting() -> tuple[int, int]:
    """A seed whose player, only waiting, is killed on the first floor; and
    how many waits that takes.  Found by playing, so no floor layout is pinned."""
    for seed in range(1, 100):
        screens = screens_of(replay.start(record_reader.parse(f"recording 1\nseed {seed}\n", "<test>")))
        for waits in range(1, 200):
            play_events(screens, [typed(".")])
            if not isinstance(screens.top, input_handlers.MainGameEventHandler):
                return seed, waits
    raise AssertionError("no seed dies waiting")


def test_a_recorded_death_keeps_a_recording_that_replays_it(
    in_tmp: Path, context: tcod.context.Context
) -> None:
    """Played from the menu with keys alone: the morgue file names the game's
    recording, kept beside it, and that recording replays the same death."""
    seed, waits = seed_that_dies_waiting()
    assert list(in_tmp.iterdir()) == []  # The search's deaths were kept by no main loop.

    def script(me: Player) -> Script:
        yield [key(KeySym.N)]
        yield [typed(".")] * waits
        me.notes["died"] = me.screen()
        yield [tcod.event.Quit()]

    me, _ = play(context, Menu(seed=seed), script)

    [morgue_file] = morgue_files()
    lines = morgue_file.read_text("utf-8").splitlines()
    story = lines[2]
    assert story.startswith("Killed by ") and story.endswith(" on dungeon level 1.")
    assert story in str(me.notes["died"])
    kept = morgue_file.with_suffix(".rec")
    assert lines[lines.index("Recording") + 2] == f"Recording: {kept.name} (beside this file)"
    assert f"python main.py --replay {kept}" in lines[lines.index("Recording") + 5]
    script_kept = record_reader.read(kept)
    assert script_kept.seed == seed

    replayed = play_events(replay.start(script_kept), script_kept.events).top

    assert isinstance(replayed, input_handlers.GameOverEventHandler)
    assert replayed.engine.ending is not None
    assert f"{replayed.engine.ending.story}." == story
    assert replayed.engine.ending.turns == waits


def test_a_game_is_entered_once_however_often_it_is_replayed(in_tmp: Path) -> None:
    """Replaying a recorded death ends the same game again: it keeps its one place."""
    first = hall_of_fame.enter(ending(300, 2))
    hall_of_fame.enter(ending(500, 2))
    again = hall_of_fame.enter(dataclasses.replace(ending(300, 2), when=WHEN + datetime.timedelta(hours=1)))
    assert (first.rank, again.rank) == (0, 1)
    assert [entry.xp for entry in hall_of_fame.load(paths.scores_path())] == [500, 300]
    other_seed = hall_of_fame.enter(dataclasses.replace(ending(300, 2), seed=2))
    assert other_seed.rank == 2  # Another game, with the same figures: entered.


def test_replaying_a_recorded_death_writes_nothing(in_tmp: Path) -> None:
    """Only the main loop of a game in play keeps a death: a replay's keeps nothing."""
    text = (Path(__file__).parent / "recordings" / "death.rec").read_text()
    for _ in range(2):
        assert isinstance(replay_text(text).top, input_handlers.GameOverEventHandler)
    assert list(in_tmp.iterdir()) == []


# What the player's fatal key press costs: the first death no longer loads the modules of
# a death (`saving.death`, the morgue, the hall of fame) within it.

FATAL_PRESS = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import tcod
import entity_factories, setup_game
from saving import effects, paths
from screens.stack import Screens, next_screen
paths.use_data_dir(Path(sys.argv[2]))
engine = setup_game.new_game(seed=3)
screens = Screens(setup_game.MainMenu(), next_screen(engine))
effects.after_frame(screens)  # The new game's first frame: its save.
screens.press(tcod.event.TextInput(text="."))
effects.after_frame(screens)  # The frame of the player's first key.
player = engine.player
x, y = next(
    (player.x + dx, player.y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1))
    if engine.game_map.tiles["walkable"][player.x + dx, player.y + dy]
    and engine.game_map.get_blocking_entity_at_location(player.x + dx, player.y + dy) is None
)
entity_factories.orc.spawn(engine.game_map, x, y)
player.fighter.hp = 1
engine.update_fov()
loaded = "saving.death" in sys.modules
screens.press(tcod.event.TextInput(text="."))  # The orc's blow kills the player.
print(loaded, player.is_alive, type(screens.top).__name__)
"""


def test_the_key_press_that_kills_the_player_loads_nothing_a_death_needs(tmp_path: Path) -> None:
    """Loaded by the fatal key press, `saving.death` and what it imports cost that press 8 to
    11 ms of CPU (0.3 to 0.5 ms once loaded: paired runs in fresh processes), the frame of
    the death missed at 120 Hz; they load after a frame of the game that saved nothing."""
    import subprocess
    import sys

    root = str(Path(__file__).resolve().parent.parent)
    done = subprocess.run(
        [sys.executable, "-c", FATAL_PRESS, root, str(tmp_path)],
        capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False", "GameOverEventHandler"]
