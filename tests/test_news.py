"""The dungeon's news as the screen reader tells it (`words.news`): every key says
something, and what a sighted player sees change at a glance is told.

Keys go through the real handlers and the news through the real Narrator, as the
screen-reader front end reads them after each frame; monsters are taken from the
templates, whatever they are.
"""

from __future__ import annotations

import conftest
from conftest import engine_of, key, pressing, screens_of, stroke
from tcod.event import KeySym

import entity_factories
import input_handlers
from components.ai import ConfusedEnemy
from controls import travel
from entity import Actor
from screens.stack import Screens
from words import descriptions, news, questions
from words.reading import Narrator

MONSTERS = [value for value in vars(entity_factories).values() if isinstance(value, Actor) and value.name != "Player"]


def dungeon(width: int = 20, height: int = 15, at: tuple[int, int] = (5, 5)) -> tuple[Screens, Narrator]:
    """An arena's dungeon screen (over the main menu), and a narrator that has told its start."""
    game = screens_of(input_handlers.MainGameEventHandler(conftest.arena(width, height, at)))
    narrator = Narrator()
    narrator.news(game)
    return game, narrator


def told_each_frame(screens: Screens, narrator: Narrator) -> list[str]:
    """Let a walk run to its end as the main loop does, the news told after each frame."""
    said = narrator.news(screens)
    while screens.walking:
        screens.step()
        said += narrator.news(screens)
    return said


def test_a_step_that_meets_nothing_says_which_way() -> None:
    game, narrator = dungeon()
    assert narrator.news(pressing(game, key(KeySym.L))) == ["East."]
    assert narrator.news(pressing(game, key(KeySym.Y))) == ["Northwest."]


def test_a_turn_waited_says_so() -> None:
    game, narrator = dungeon()
    assert narrator.news(pressing(game, stroke("."))) == [news.WAITED]


def with_monster_at(x: int, y: int) -> tuple[Screens, Narrator, Actor]:
    """The arena with a monster in view at (x, y), its coming told."""
    game, narrator = dungeon()
    monster = MONSTERS[0].spawn(engine_of(game).game_map, x, y)
    engine_of(game).update_fov()
    narrator.news(game)
    return game, narrator, monster


def test_autofight_that_only_closes_in_says_toward_which_monster() -> None:
    game, narrator, monster = with_monster_at(10, 5)
    said = narrator.news(pressing(game, key(KeySym.TAB)))
    assert engine_of(game).player.x == 6
    assert said == [f"Toward the {monster.name}, {questions.offset_from_player(monster, engine_of(game))}."]


def test_a_monster_in_view_drawing_closer_is_told_where_it_is() -> None:
    game, narrator, monster = with_monster_at(10, 5)
    said = narrator.news(pressing(game, stroke(".")))
    assert monster.x < 10
    assert said == [f"{monster.name}, {questions.offset_from_player(monster, engine_of(game))}, closer."]


def test_a_monster_confused_is_told_in_the_news_and_in_view_as_the_hover_shows_it() -> None:
    game, narrator, monster = with_monster_at(10, 9)
    engine = engine_of(game)
    monster.ai = ConfusedEnemy(monster, monster.ai, turns_remaining=10)
    said = narrator.news(pressing(game, stroke(".")))
    state = descriptions.state_words(monster)
    assert state is not None
    assert [line for line in said if line.startswith(monster.name)] == [
        line for line in said if line.endswith(f", {state}.")
    ] != []
    assert narrator.news(pressing(game, stroke("."))) in ([news.WAITED], [])  # Its count is not news.
    state = descriptions.state_words(monster)
    assert state is not None
    hover = descriptions.names_at(monster.x, monster.y, engine.game_map)
    assert state in hover and questions.in_view(engine)[0].endswith(state)


def test_closing_any_screen_says_back_to_the_dungeon() -> None:
    game, narrator = dungeon()
    for opening in (key(KeySym.I), stroke(";"), stroke("?"), key(KeySym.V)):
        game.press(opening)
        assert not isinstance(game.top, input_handlers.MainGameEventHandler)
        narrator.news(game)
        game.press(key(KeySym.ESCAPE))
        assert isinstance(game.top, input_handlers.MainGameEventHandler)
        assert narrator.news(game) == [news.BACK]


def test_the_floor_reached_is_said_after_the_descent() -> None:
    game, narrator = dungeon()
    conftest.place_stairs(engine_of(game), 5, 5)
    said = narrator.news(pressing(game, stroke(">")))
    assert "Dungeon level 2." in said
    assert said.index("Dungeon level 2.") > 0  # After the message of the stairs taken.


def test_monsters_come_into_view_together_are_each_told() -> None:
    game, narrator = dungeon(40, 7, (2, 3))
    engine = engine_of(game)
    first, second = MONSTERS[0].spawn(engine.game_map, 36, 2), MONSTERS[-1].spawn(engine.game_map, 36, 4)
    said = told_each_frame(pressing(game, key(KeySym.X)), narrator)
    assert engine.message_log.messages[-1].plain_text == travel.comes_into_view(first, second)
    assert [line for line in said if "into view" in line] == [
        f"{travel.comes_into_view(actor).removesuffix('.')}, {questions.offset_from_player(actor, engine)}."
        for actor in (first, second)
    ]


def test_a_walk_is_told_at_its_end_not_step_by_step() -> None:
    game, narrator = dungeon(40, 7, (2, 3))
    said = told_each_frame(pressing(game, key(KeySym.X)), narrator)
    assert not game.walking
    assert said and not any(line in said for line in ("East.", "West.", "North.", "South."))
