"""The questions a player who can't see the map asks (`words.questions`): each
answer checked against the game's state, and the same in the window (its answer
screen, its look cursor's line) as the screen reader says it (`words.reading`).

Monsters and items are taken from the templates, whatever they are, so a new
monster or item breaks none of these tests.
"""

from __future__ import annotations

import re

import conftest
import pytest
from conftest import dungeon, key, pressing, screen_rows, stroke
from tcod.event import KeySym

import entity_factories
import input_handlers
import render_functions
import tile_types
from controls import travel
from controls.keys import MAIN_KEYS, Command
from engine import Engine
from entity import Actor, Item
from words import descriptions, questions
from words.grammar import capitalized, with_article
from words.reading import WIDTH, Narrator
from words.spoken import spoken

MONSTERS = [value for value in vars(entity_factories).values() if isinstance(value, Actor) and value.name != "Player"]
ITEMS = [value for value in vars(entity_factories).values() if isinstance(value, Item)]
PLAYER = (6, 6)
STAIRS = (12, 10)  # In view of the player.


def arena() -> Engine:
    engine = conftest.arena(20, 15, PLAYER)
    conftest.place_stairs(engine, *STAIRS)
    engine.update_fov()
    return engine


def key_for(command: Command) -> str | KeySym:
    return next(binding for binding, bound in MAIN_KEYS.items() if bound is command)


@pytest.mark.parametrize(
    ("dx", "dy", "words"),
    [(0, 0, "here"), (5, 0, "5 east"), (-1, -2, "2 north 1 west"), (0, 3, "3 south"), (2, 1, "1 south 2 east")],
)
def test_a_place_is_told_in_steps_north_first(dx: int, dy: int, words: str) -> None:
    assert questions.offset_words(dx, dy) == words


def test_in_view_lists_monsters_then_items_then_the_stairs_nearest_first() -> None:
    engine = arena()
    far, near = MONSTERS[0].spawn(engine.game_map, 12, 6), MONSTERS[-1].spawn(engine.game_map, 6, 4)
    potion = ITEMS[0].spawn(engine.game_map, 9, 9)
    far.fighter.hp = 1
    engine.update_fov()
    px, py = PLAYER
    assert questions.in_view(engine) == [
        f"{near.name}, 2 north, uninjured",
        f"{far.name}, 6 east, {descriptions.health_words(far.fighter)}",
        f"{potion.name}, 3 south 3 east",
        f"Stairs down, {questions.offset_words(STAIRS[0] - px, STAIRS[1] - py)}",
    ]


def test_in_view_leaves_out_what_is_out_of_sight() -> None:
    engine = arena()
    engine.game_map.tiles[10, :] = tile_types.wall  # A wall across the arena, east of the player.
    MONSTERS[0].spawn(engine.game_map, 14, 6)
    engine.update_fov()
    assert questions.in_view(engine) == ["Nothing in view."]


def test_around_names_the_eight_neighbours_by_their_ground_clockwise_from_north() -> None:
    engine = conftest.arena(20, 15, (1, 1))  # In the top-left corner, walls north and west.
    monster = MONSTERS[0].spawn(engine.game_map, 2, 2)
    engine.update_fov()
    assert questions.around(engine) == [
        "Wall: north, northeast, southwest, west, northwest.",
        "Floor: east, southeast, south.",
        f"Southeast: {descriptions.short_description(monster)}.",
        "Open: east, southeast, south.",
    ]


def test_around_in_the_middle_of_a_room_is_one_line_and_the_ways() -> None:
    assert questions.around(arena()) == ["Floor: all around.", "Open: all around."]


def test_around_tells_a_corridor_and_its_doorway_into_a_room() -> None:
    engine = conftest.arena(20, 15, (3, 7))
    game_map = engine.game_map
    game_map.tiles[:, :] = tile_types.wall
    game_map.tiles[5:10, 4:10] = tile_types.floor  # A room.
    game_map.tiles[1:5, 7] = tile_types.floor  # A corridor from the west, into the room.
    game_map.explored[:, :] = True
    engine.update_fov()
    lines = questions.around(engine)
    assert "Corridor: west." in lines
    assert "Doorway: east." in lines
    assert questions.where(engine)[1] == "You are in a corridor."


def test_where_tells_the_floor_the_place_the_stairs_and_what_is_here() -> None:
    engine = arena()
    potion = ITEMS[0].spawn(engine.game_map, *PLAYER)
    engine.update_fov()
    floor, place, stairs, here = questions.where(engine)
    assert floor == f"Floor {engine.game_world.current_floor}, column 7 of 20, row 7 of 15."
    assert place == "You are in a room."
    assert stairs == "The stairs down: 4 south 6 east."
    assert here == f"Here: {descriptions.short_description(potion)}."


def test_where_says_stairs_not_yet_seen_are_not_found() -> None:
    engine = arena()
    engine.game_map.explored[STAIRS] = False
    engine.game_map.visible[STAIRS] = False
    assert questions.where(engine)[2] == "The stairs down: not found yet."


def test_status_tells_the_players_numbers_and_gear() -> None:
    engine = arena()
    player = engine.player
    player.fighter.hp -= 3
    level = player.level
    assert questions.status(engine) == [
        f"HP {player.fighter.hp} of {player.fighter.max_hp}.",
        f"Level {level.current_level}, {level.experience_to_next_level - level.current_xp} XP to the next.",
        f"Attack {player.fighter.power}, defense {player.fighter.defense}.",
        f"Wielding {player.equipment.weapon.name if player.equipment.weapon else 'nothing'}; "
        f"wearing {player.equipment.armor.name if player.equipment.armor else 'nothing'}.",
    ]


def test_the_map_shows_the_ground_and_what_is_in_view_around_the_player() -> None:
    engine = arena()
    conftest.place_stairs(engine, 4, 8)
    engine.game_map.tiles[10, :] = tile_types.wall  # East of it, nothing is seen.
    engine.game_map.explored[...] = False
    seen = MONSTERS[0].spawn(engine.game_map, 8, 5)
    hidden = MONSTERS[0].spawn(engine.game_map, 14, 6)
    engine.update_fov()
    rows = questions.map_rows(engine)
    reach_x, reach_y = questions.MAP_REACH
    assert rows[0] == questions.map_key() and len(rows) == 1 + 2 * reach_y + 1

    def sign(x: int, y: int) -> str:
        row = rows[1 + reach_y + y - PLAYER[1]]
        column = reach_x + x - PLAYER[0]
        return row[column] if column < len(row) else " "

    assert sign(*PLAYER) == "@"
    assert sign(seen.x, seen.y) == seen.char
    assert (sign(7, 7), sign(4, 8), sign(10, 6), sign(0, 6)) == (".", ">", "#", "#")
    assert sign(hidden.x, hidden.y) == " "  # Beyond the wall: not seen, never explored.
    assert sign(-1, 6) == " "  # Off the map.
    assert all(len(line) < 80 for line in rows)


@pytest.mark.parametrize("command", list(questions.QUESTIONS))
def test_the_window_shows_each_answer_as_the_screen_reader_says_it(command: Command) -> None:
    engine = arena()
    MONSTERS[0].spawn(engine.game_map, 8, 7)
    ITEMS[0].spawn(engine.game_map, 4, 4)
    engine.update_fov()
    title, answer = questions.QUESTIONS[command]
    screens = dungeon(engine)
    game = screens.top
    narrator = Narrator()
    narrator.news(screens)
    screens.press(stroke(key_for(command)))
    assert isinstance(screens.top, input_handlers.AnswerScreen) and screens.stack[-2] is game
    assert narrator.news(screens) == [spoken(line) for line in [f"{title}:", *answer(engine)]]
    window = "\n".join(screen_rows(screens))
    for line in answer(engine):
        assert line in window
    assert all(len(line) < 80 for line in answer(engine))


def test_a_key_on_an_answer_closes_it_and_does_what_it_does_in_the_dungeon() -> None:
    engine = arena()
    screens = pressing(dungeon(engine), stroke(key_for(Command.STATUS)))
    assert isinstance(screens.top, input_handlers.AnswerScreen) and screens.top.title == "Status"
    screens.press(stroke(key_for(Command.AROUND)))
    around = screens.top
    assert isinstance(around, input_handlers.AnswerScreen) and around.title == "Around you"
    assert len(screens.stack) == 3  # In the status's place, over the game.
    assert isinstance(screens.stack[1], input_handlers.MainGameEventHandler)
    screens.press(key(KeySym.L))
    assert isinstance(screens.top, input_handlers.MainGameEventHandler) and len(screens.stack) == 2
    assert (engine.player.x, engine.player.y) == (PLAYER[0] + 1, PLAYER[1])


def test_escape_on_an_answer_only_closes_it() -> None:
    engine = arena()
    screens = dungeon(engine)
    game = screens.top
    screens.press(stroke(key_for(Command.IN_VIEW)))
    assert isinstance(screens.top, input_handlers.AnswerScreen)
    screens.press(key(KeySym.ESCAPE))
    assert screens.stack[1:] == [game]
    assert screens.quitting is None and engine.turns == 0


def test_the_look_cursor_says_in_the_window_what_the_screen_reader_says() -> None:
    engine = arena()
    monster = MONSTERS[0].spawn(engine.game_map, 8, 5)
    engine.update_fov()
    screens = pressing(dungeon(engine), stroke("/"))
    assert isinstance(screens.top, input_handlers.LookHandler)
    narrator = Narrator()
    assert narrator.news(screens)[-1] == spoken("You; floor; here")
    for sym in (KeySym.L, KeySym.L, KeySym.K):
        screens.press(key(sym))
        assert isinstance(screens.top, input_handlers.LookHandler)
        said = narrator.news(screens)
        x, y = render_functions.NAMES_AT
        shown = screen_rows(screens)[y][x:].rstrip()
        assert said == [spoken(shown)]
    assert said == [spoken(f"{descriptions.short_description(monster)}; floor; 1 north 2 east")]


def test_the_narrator_says_only_what_changed() -> None:
    engine = arena()
    game = dungeon(engine)
    narrator = Narrator()
    assert narrator.news(game) == [engine.message_log.messages[-1].full_text]
    assert narrator.news(game) == []
    engine.player.fighter.hp -= 2
    engine.message_log.add_message("A test happened.")
    fighter = engine.player.fighter
    assert narrator.news(game) == ["A test happened.", f"HP {fighter.hp} of {fighter.max_hp}."]
    engine.message_log.add_message("A test happened.")
    assert narrator.news(game) == ["A test happened, twice."]  # The window's "(x2)", in words.
    monster = MONSTERS[0].spawn(engine.game_map, 9, 2)
    engine.update_fov()
    assert narrator.news(game) == [f"{capitalized(with_article(monster.name))} comes into view, 4 north 3 east."]
    assert narrator.news(game) == []


def test_a_walk_stopped_by_a_monster_says_where_it_is_once() -> None:
    engine = arena()
    game = dungeon(engine)
    narrator = Narrator()
    narrator.news(game)
    monster = MONSTERS[0].spawn(engine.game_map, 9, 2)
    engine.update_fov()
    engine.message_log.add_message(travel.comes_into_view(monster))  # As the walk's stop says it.
    assert narrator.news(game) == [f"{capitalized(with_article(monster.name))} comes into view, 4 north 3 east."]


def test_every_line_said_is_under_80_characters() -> None:
    engine = arena()
    engine.message_log.add_message("word " * 60)
    said = Narrator().news(dungeon(engine))
    assert said and all(len(line) <= WIDTH for line in said)
    assert " ".join(said).split() == ("word " * 60).split()


def test_the_map_is_heard_row_by_row_as_counts_and_names_the_same_as_the_map_in_signs() -> None:
    engine = arena()
    monster = MONSTERS[0].spawn(engine.game_map, PLAYER[0] + 2, PLAYER[1])
    item = ITEMS[0].spawn(engine.game_map, PLAYER[0] + 3, PLAYER[1])
    engine.update_fov()
    screens = dungeon(engine)
    narrator = Narrator()
    narrator.news(screens)
    said = narrator.news(pressing(screens, stroke(key_for(Command.MAP))))
    assert isinstance(screens.top, input_handlers.AnswerScreen)
    rows: dict[str, str] = {}
    head = ""
    for line in said[2:]:  # A row's line ("4 north, 7 wall"), and those it goes on to.
        if starts := re.match(r"(Your row|\d+ (?:north|south)), ", line):
            head, line = starts[1], line[starts.end() :]
        rows[head] = f"{rows.get(head, '')} {line}".strip().removesuffix(".")
    assert f"you, floor, {monster.name}, {item.name}, " in rows["Your row"]
    signs = questions.map_rows(engine)[1:]
    reach_y = questions.MAP_REACH[1]
    for dy, sign_row in enumerate(signs, start=-reach_y):
        row = "Your row" if dy == 0 else capitalized(questions.offset_words(0, dy))
        counts = [int(part.split()[0]) if part[0].isdigit() else 1 for part in rows.get(row, "").split(", ") if part]
        assert sum(counts) == len(sign_row)  # Every place the map in signs shows, told once.
    assert not any(char in line for line in said for char in "#@")


def test_the_map_in_signs_is_kept_as_it_is_for_a_braille_display() -> None:
    engine = arena()
    screens = dungeon(engine)
    narrator = Narrator()
    narrator.news(screens)
    said = narrator.news(pressing(screens, stroke(key_for(Command.SIGN_MAP))))
    assert isinstance(screens.top, input_handlers.AnswerScreen)
    rows = questions.map_rows(engine)[1:]
    assert said[-len(rows) :] == rows and any("#" in row for row in rows)
